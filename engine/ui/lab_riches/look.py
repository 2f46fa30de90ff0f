"""Lab Riches' look on the screens every game shares: the lab backdrop, glassy panels, its
inline icons and, above the name on the splash, its emblem."""

from __future__ import annotations

from types import MappingProxyType

from engine.ui.draw import Canvas, picture
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
LOGO = 200 / 120  # the emblem's width over its height (assets/lab-riches/logo.svg)


def title_art(canvas: Canvas, w: float, h: float, unit: float) -> None:
    """The game's emblem above its name: a flask spilling gold between two bolts."""
    s = min(unit * 0.24, h * 0.2)
    picture(canvas, art.art_key("logo"), w / 2, max(h * 0.14, s / 2 + 2), s, LOGO)


LOOK = Look(
    backdrop=art.backdrop,
    panel=panel,
    icon=art.icon,
    icon_words=ICON_WORDS,
    gold=art.GOLD,
    title_art=title_art,
)
