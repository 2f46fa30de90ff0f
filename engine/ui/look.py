"""A game's look: what it styles on the screens every game shares.

The splash, How To Play, Rules and Prizes and outcome screens (engine/ui/scenes/) are the same
rooms in every game; only the backdrop, the panels, the inline icons, the title colour and the
picture above the game's name differ. A game's UI package (engine/ui/<package>/) gives them as
one Look, and its own words (How To Play pages, rules text), so the shared scenes draw any game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from engine.ui import widgets
from engine.ui.draw import Canvas, Font
from engine.ui.widgets import IconPainter

Backdrop = Callable[[Canvas, float, float], None]  # (canvas, w, h): the whole screen behind
TitleArt = Callable[[Canvas, float, float, float], None]  # (canvas, w, h, unit)


class PanelPainter(Protocol):
    """Draws a panel (a card behind text) at (x, y, w, h); glow marks a win. The five are
    passed by position, so a game's painter may name them as it likes."""

    def __call__(
        self, canvas: Canvas, x: float, y: float, w: float, h: float, /, *, glow: bool = False
    ) -> None: ...


@dataclass(frozen=True, eq=False)
class Look:
    """What a game styles on the shared screens.

    title_art draws the splash's picture above the game's name, laid out against a screen of
    w × h (the splash may pass a shorter h to fit its messages) with unit = min(w, h × 0.8).
    """

    backdrop: Backdrop
    panel: PanelPainter
    icon: IconPainter  # draws a '{name}' icon of text, centred on (cx, cy) in a square of size
    icon_words: Mapping[str, str]  # '{name}' icon -> how the narration says it
    gold: str  # the colour of titles and headings
    title_art: TitleArt
    howto_corner: bool = False  # the splash's HOW TO PLAY in its top right (else under PLAY)

    def words(self, text: str) -> str:
        """The text with its inline icons said in words (for the narration)."""
        return widgets.words(text, self.icon_words)

    def rich_text(
        self, canvas: Canvas, text: str, cx: float, y: float, font: Font, max_w: float, fill: str
    ) -> float:
        """Draw centred, wrapped text with the game's inline icons from y; returns the y below."""
        return widgets.rich_text(canvas, text, cx, y, font, max_w, fill, self.icon)
