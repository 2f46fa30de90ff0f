"""Lab Riches' look on the screens every game shares: the lab backdrop, glassy panels, its
inline icons and, above the name on the splash, five of its symbols."""

from __future__ import annotations

from types import MappingProxyType

from engine.ui.draw import Canvas
from engine.ui.lab_riches import art
from engine.ui.lab_riches.panels import panel
from engine.ui.look import Look

ICON_WORDS = MappingProxyType(
    {
        "bonus": "bonus symbol",
        "lightning": "lightning symbol",
        "extra-goes": "extra goes",
        "up": "up arrow",
        "meter": "meter symbol",
        "cash": "cash symbol",
        "lock": "lock",
    }
)
TITLE_SYMBOLS = ("flask", "atom", "microscope", "test-tube", "beaker")


def title_art(canvas: Canvas, w: float, h: float, unit: float) -> None:
    """Five symbols in a row above the game's name."""
    s = unit * 0.13
    for k, name in enumerate(TITLE_SYMBOLS):
        art.draw_square(canvas, name, w / 2 + (k - 2) * s * 1.25, h * 0.14, s)


LOOK = Look(
    backdrop=art.backdrop,
    panel=panel,
    icon=art.icon,
    icon_words=ICON_WORDS,
    gold=art.GOLD,
    title_art=title_art,
)
