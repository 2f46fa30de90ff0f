"""How To Play: a game's pages of instructions, one at a time, in the game's look.

Turning pages, reading each out and closing back to where the player came from work the same
in every game; a game gives only its pages, a heading and paragraphs each ('{icon}' tokens are
drawn and said by its Look).
"""

from __future__ import annotations

from engine.ui.app import App
from engine.ui.draw import Canvas, Font
from engine.ui.flow import Flow
from engine.ui.input import Control, Event, Key
from engine.ui.look import Look
from engine.ui.scenes.paged import PagedScreen
from engine.ui.widgets import draw_controls

Page = tuple[str, tuple[str, ...]]  # (heading, paragraphs)


class HowToPlayScene(PagedScreen):
    """The How To Play pages, the arrow to the next and the 'X' that closes."""

    name = "howto"

    def __init__(self, flow: Flow, look: Look, pages: tuple[Page, ...]) -> None:
        super().__init__(flow, look)
        self.pages = pages

    def enter(self, app: App) -> None:
        """Start at page 1 and read it out."""
        super().enter(app)
        self._narrate()

    def _narrate(self) -> None:
        heading, paras = self.pages[self.page]
        self.flow.say(f"How to play, page {self.page + 1} of {len(self.pages)}. {heading}. "
                      + " ".join(self.look.words(p) for p in paras))  # fmt: skip

    def controls(self) -> list[Control]:
        """Next (except on the last page), Back (except on the first) and Close."""
        x, y, pw, ph = self._panel()
        out = []
        if self.page < len(self.pages) - 1:
            out.append(Control("next", "Next", x + pw - 70, y + ph - 70, 56, 56))
        if self.page > 0:
            out.append(Control("back", "Back", x + 14, y + ph - 70, 56, 56))
        out.append(Control("close", "Close", x + pw - 62, y + 10, 52, 52))
        return out

    def activate(self, control: str) -> None:
        """Turn the page or close."""
        if control == "next" and self.page < len(self.pages) - 1:
            self.turn(self.page + 1)
            self._narrate()
        elif control == "back" and self.page > 0:
            self.turn(self.page - 1)
            self._narrate()
        elif control == "close":
            self.close()

    def handle(self, event: Event) -> None:
        """Arrows turn pages too."""
        if isinstance(event, Key) and event.key in ("ArrowRight", "ArrowLeft"):
            self.press("next" if event.key == "ArrowRight" else "back")
        else:
            super().handle(event)

    def draw(self, canvas: Canvas) -> None:
        """The panel with its heading and text."""
        x, y, pw, ph = self.draw_panel(canvas)
        head = Font(min(34.0, pw * 0.07), "display", True)
        canvas.text("HOW TO PLAY", x + pw / 2, y + 36, head, fill=self.look.gold)
        heading, paras = self.pages[self.page]
        canvas.text(heading, x + pw / 2, y + 80, Font(head.size * 0.7, "display", True))
        size = max(15.0, min(23.0, pw * 0.048, ph * 0.05))
        if len(paras) > 4:
            size = max(15.0, size * 0.85)
        font = Font(size, "body", True)

        def text(ty: float) -> float:
            for para in paras:
                ty = self.look.rich_text(canvas, para, x + pw / 2, ty, font, pw - 56, "#ffffff")
                ty += size * 0.6
            return ty

        self.draw_text(canvas, text)
        canvas.text(f"{self.page + 1} / {len(self.pages)}", x + pw / 2, y + ph - 42,
                    Font(16, "body", True), fill="#cfe8ff")  # fmt: skip
        draw_controls(canvas, self.controls())
