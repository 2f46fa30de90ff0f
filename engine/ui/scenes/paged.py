"""What How To Play and Rules and Prizes share: pages on one panel over the game's backdrop,
which start at the first page and close back to the play, or to the splash before one."""

from __future__ import annotations

from engine.ui.app import App
from engine.ui.draw import Canvas
from engine.ui.flow import Flow
from engine.ui.look import Look
from engine.ui.screen import Screen


class PagedScreen(Screen):
    """A panel of pages in a game's look; subclasses give its size, controls and pages."""

    panel_size: tuple[float, float, float] = (760.0, 620.0, 24)  # widest, tallest, margin

    def __init__(self, flow: Flow, look: Look) -> None:
        super().__init__(flow)
        self.look = look
        self.page = 0

    def enter(self, app: App) -> None:
        """Open at the first page."""
        super().enter(app)
        self.page = 0

    def _panel(self) -> tuple[float, float, float, float]:
        """The panel's (x, y, w, h): centred, as large as allowed."""
        w, h = self.size()
        widest, tallest, margin = self.panel_size
        pw, ph = min(w - margin, widest), min(h - margin, tallest)
        return (w - pw) / 2, (h - ph) / 2, pw, ph

    def close(self) -> None:
        """Back to the play, or to the splash before one."""
        self.flow.go("main" if self.flow.play is not None else "splash")

    def draw_panel(self, canvas: Canvas) -> tuple[float, float, float, float]:
        """The backdrop and the empty panel; returns the panel's (x, y, w, h)."""
        self.look.backdrop(canvas, canvas.width, canvas.height)
        x, y, pw, ph = self._panel()
        self.look.panel(canvas, x, y, pw, ph)
        return x, y, pw, ph
