"""What How To Play and Rules and Prizes share: pages on one panel over the game's backdrop,
which start at the first page and close back to where they were opened: the splash, the play
or the outcome screen. A
page's text stands between the headings and the arrows, and scrolls where it is taller than
that (a phone held sideways): it never runs under the arrows or the page counter. A turned
page's text slides in from the side it comes from as it fades in (with reduced motion it only
fades in), in a transition's time (engine/ui/transition.py)."""

from __future__ import annotations

from collections.abc import Callable

from engine.ui import transition
from engine.ui.app import App
from engine.ui.draw import Canvas
from engine.ui.flow import Flow
from engine.ui.look import Look
from engine.ui.motion import ease_out
from engine.ui.screen import Screen
from engine.ui.scroll import Scroll

SLIDE = 0.15  # of the panel's width: how far off a turned page's text comes in from


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
        self.turning: tuple[int, float] | None = None  # a page turning: (+1 or -1, seconds since)

    def enter(self, app: App) -> None:
        """Open at the first page."""
        super().enter(app)
        self.page = 0
        self.scroll.offset = 0.0

    def turn(self, page: int) -> None:
        """Show another page, from its top (its text sliding in: `update`)."""
        self.turning = (1 if page > self.page else -1, 0.0)
        self.page = page
        self.scroll.offset = 0.0

    def _turn_seconds(self) -> float:
        return transition.length(self.flow.settings.reduced_motion)

    def update(self, dt: float) -> bool:
        """A turning page moves on (True while it does, and for the frame that ends it)."""
        if self.turning is None:
            return False
        way, elapsed = self.turning
        elapsed += dt
        self.turning = (way, elapsed) if elapsed < self._turn_seconds() else None
        return True

    def changing(self) -> bool:
        """True while a page turns (the layout report waits for it to rest)."""
        return self.turning is not None

    def draw_text(self, canvas: Canvas, draw: Callable[[float], float]) -> None:
        """A page's text in its area, scrolled: draw(top) draws it from y = top (0 in the
        area's coordinates) and returns the y under it."""
        x, y, pw, ph = self._panel()
        head, foot = self.text_room
        top, bottom = y + head, y + ph - foot
        self.scroll.place(top, bottom, self.scroll.content)
        self.scroll.begin(canvas, x, pw)
        if self.turning is not None:
            way, elapsed = self.turning
            q = ease_out(elapsed / self._turn_seconds())
            canvas.alpha(q)
            if not self.flow.settings.reduced_motion:
                canvas.translate(way * pw * SLIDE * (1.0 - q), 0.0)
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
