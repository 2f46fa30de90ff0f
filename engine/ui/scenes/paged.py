"""What How To Play and Rules and Prizes share: pages on one panel over the game's backdrop,
which start at the first page and close back to where they were opened: the splash, the play
or the outcome screen. A
page's text stands between the headings and the arrows, and scrolls where it is taller than
that (a phone held sideways): it never runs under the arrows or the page counter."""

from __future__ import annotations

from collections.abc import Callable

from engine.ui.app import App
from engine.ui.draw import Canvas
from engine.ui.flow import Flow
from engine.ui.look import Look
from engine.ui.screen import Screen
from engine.ui.scroll import Scroll


class PagedScreen(Screen):
    """A panel of pages in a game's look; subclasses give its size, controls and pages."""

    scroll: Scroll
    panel_size: tuple[float, float, float] = (760.0, 620.0, 24)  # widest, tallest, margin
    text_room: tuple[float, float] = (100.0, 78.0)  # the text's area: from the panel's top, foot

    def __init__(self, flow: Flow, look: Look) -> None:
        super().__init__(flow)
        self.look = look
        self.page = 0
        self.scroll = Scroll()

    def enter(self, app: App) -> None:
        """Open at the first page."""
        super().enter(app)
        self.page = 0
        self.scroll.offset = 0.0

    def turn(self, page: int) -> None:
        """Show another page, from its top."""
        self.page = page
        self.scroll.offset = 0.0

    def draw_text(self, canvas: Canvas, draw: Callable[[float], float]) -> None:
        """A page's text in its area, scrolled: draw(top) draws it from y = top (0 in the
        area's coordinates) and returns the y under it."""
        x, y, pw, ph = self._panel()
        head, foot = self.text_room
        top, bottom = y + head, y + ph - foot
        self.scroll.place(top, bottom, self.scroll.content)
        self.scroll.begin(canvas, x, pw)
        self.scroll.place(top, bottom, draw(0.0) + 8)  # this page's height, before its bar
        self.scroll.end(canvas, x + pw - 4)

    def _panel(self) -> tuple[float, float, float, float]:
        """The panel's (x, y, w, h): centred, as large as allowed."""
        w, h = self.size()
        widest, tallest, margin = self.panel_size
        pw, ph = min(w - margin, widest), min(h - margin, tallest)
        return (w - pw) / 2, (h - ph) / 2, pw, ph

    def close(self) -> None:
        """Back to where it was opened: the splash before a play, the outcome screen after
        FINISH (the play is kept for its Play Number), else the play, at the point it was."""
        flow = self.flow
        back = "splash" if flow.play is None else "outcome" if flow.finished is not None else "main"
        flow.go(back)

    def draw_panel(self, canvas: Canvas) -> tuple[float, float, float, float]:
        """The backdrop and the empty panel; returns the panel's (x, y, w, h)."""
        self.look.backdrop(canvas, canvas.width, canvas.height)
        x, y, pw, ph = self._panel()
        self.look.panel(canvas, x, y, pw, ph)
        return x, y, pw, ph
