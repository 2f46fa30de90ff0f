"""Lab Riches' art drawn through the Canvas: the symbols, specials and the lab backdrop are
pictures of its atlas (assets/lab-riches/, tools/build/atlas.py); the numbers and words on them and
the smaller motifs (lock, up arrow, meter, cash) are drawn as shapes.

Every icon is drawn centred on (cx, cy) inside a square of side s, so the same call serves
the grid, the Top Row, the How To Play pages and the Bonus Game.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

from engine.lab_riches.rules import GAME_ID
from engine.ui import widgets
from engine.ui.draw import Canvas, Font, LinearGradient, cover, picture

INK = "#10243a"
GLASS = "#e8f6ff"
GOLD = "#ffd54a"
BLUE = "#38b6ff"
GREEN = "#1e8449"  # the extra-goes badge: its white '+' reads at 4.5:1
RIBBON = "#0b4a27"  # the extra-goes badge's GOES ribbon: white on it reads at 10:1
NAMES = {
    "flask": "flask",
    "beaker": "beaker",
    "microscope": "microscope",
    "atom": "atom",
    "test-tube": "test tube",
    "magnet": "magnet",
    "dna": "DNA",
    "burner": "Bunsen burner",
    "lightning": "lightning",
    "extra-goes": "extra goes",
    "bonus": "bonus",
}


def _r(v: float) -> float:
    """A coordinate in icon units, rounded (short numbers draw and serialise faster)."""
    return round(v, 2)


def _unit(fn: Callable[..., None]) -> Callable[..., None]:
    """Draw fn in a 10 × 10 unit box scaled to (x, y, s): icons are drawn in unit coordinates
    (fn takes its own x, y, s: the box's centre and size)."""
    drawn = widgets.unit_icon(lambda c, *args: fn(c, 0.0, 0.0, 10.0, *args))
    return functools.wraps(fn)(drawn)


def _number(c: Canvas, text: str, x: float, y: float, s: float, fill: str = INK) -> None:
    c.text(text, x, y, Font(s * 0.42, "display", True), fill=fill)


def _lightning_badge(c: Canvas, x: float, y: float, s: float, value: int) -> None:
    """The lightning motif's number on its blue badge."""
    u = s / 10
    c.circle(x + 2.6 * u, y + 2.6 * u, 2 * u, fill=BLUE, stroke="#ffffff", line_width=u * 0.4)
    _number(c, str(value), x + 2.6 * u, y + 2.7 * u, s * 0.7)  # ink: 7:1 on the blue


def _extra_goes_label(c: Canvas, x: float, y: float, s: float, value: int | None) -> None:
    """The extra-goes motif's words: '+3' white on the green, over GOES on a ribbon across the
    badge's foot as wide as the square (GOES at 0.32 of it: 10 px in the smallest grid)."""
    u = s / 10
    label = f"+{value}" if value is not None else "+"
    _number(c, label, x, y - 1.0 * u, s * 0.9, "#ffffff")
    # the ribbon taller than GOES's letters, so they stand on its dark green alone
    c.rect(x - 4.8 * u, y + 1.0 * u, 9.6 * u, 3.6 * u, fill=RIBBON, stroke="#ffffff",
           line_width=u * 0.35, radius=0.6 * u)  # fmt: skip
    c.text("GOES", x, y + 2.8 * u, Font(s * 0.32, "display", True), fill="#ffffff")


def _lock(c: Canvas, x: float, y: float, s: float) -> None:
    """The lock motif marking a Locked Symbol."""
    u = s / 10
    lw = u * 0.9
    arc = [(_r(x + 1.6 * u * math.cos(t * math.pi / 8)),
            _r(y - 0.5 * u - 1.8 * u * math.sin(t * math.pi / 8))) for t in range(9)]  # fmt: skip
    c.path(arc, stroke=INK, line_width=lw, closed=False)
    c.rect(x - 2.6 * u, y - 0.6 * u, 5.2 * u, 4 * u, fill=GOLD, stroke=INK, line_width=u * 0.5,
           radius=0.6 * u)  # fmt: skip
    c.circle(x, y + 1.2 * u, 0.6 * u, fill=INK)


def _up_arrow(c: Canvas, x: float, y: float, s: float) -> None:
    """The Bonus Game up arrow (move up a row)."""
    u = s / 10
    c.path([(x, y - 4 * u), (x + 3.4 * u, y - 0.4 * u), (x + 1.3 * u, y - 0.4 * u),
            (x + 1.3 * u, y + 4 * u), (x - 1.3 * u, y + 4 * u), (x - 1.3 * u, y - 0.4 * u),
            (x - 3.4 * u, y - 0.4 * u)], fill="#00e5ff", stroke=INK,
           line_width=u * 0.3)  # fmt: skip


def _cash(c: Canvas, x: float, y: float, s: float, label: str) -> None:
    """The cash motif (an Instant Prize) with its amount."""
    u = s / 10
    c.rect(x - 4.4 * u, y - 2.8 * u, 8.8 * u, 5.6 * u, fill="#2e7d32", stroke="#c8e6c9",
           line_width=u * 0.4, radius=0.8 * u)  # fmt: skip
    c.text(label, x, y, Font(s * 0.3, "display", True), fill="#ffffff")


lightning_badge = _unit(_lightning_badge)
extra_goes_label = _unit(_extra_goes_label)
lock = _unit(_lock)
up_arrow = _unit(_up_arrow)
cash = _unit(_cash)
ART = 1.08  # a square's picture is this much of its size (its glow and shadow reach past it)


def art_key(name: str) -> str:
    """The key of one of Lab Riches' pictures (assets/lab-riches/<name>.svg)."""
    return f"{GAME_ID}/{name}"


def draw_square(c: Canvas, name: str, x: float, y: float, s: float) -> None:
    """Any Top Row or grid square by its book name ('atom', 'lightning/3', 'bonus'...): its
    picture from the art, with a lightning's number and an extra goes' words drawn over it."""
    kind = name.partition("/")[0]
    picture(c, art_key(kind), x, y, s * ART)
    if kind in ("lightning", "extra-goes"):
        draw_words(c, name, x, y, s)


def extra_goes(c: Canvas, x: float, y: float, s: float, value: int | None = None) -> None:
    """The extra-goes badge with its +N and GOES."""
    draw_square(c, "extra-goes" if value is None else f"extra-goes/{value}", x, y, s)


def draw_words(c: Canvas, name: str, x: float, y: float, s: float) -> None:
    """The words and numbers of a square (a lightning's number, an extra-goes' '+3 GOES'), for
    a square drawn dimmed: what a player reads stays at full contrast over it."""
    kind, _, value = name.partition("/")
    if kind == "lightning" and value:
        lightning_badge(c, x, y, s, int(value))
    elif kind == "extra-goes":
        extra_goes_label(c, x, y, s, int(value) if value else None)


def spoken(name: str) -> str:
    """A square's name in words, for the narration."""
    kind, _, value = name.partition("/")
    if kind == "lightning":
        return f"lightning {value}"
    if kind == "extra-goes":
        return f"extra goes {value}"
    return NAMES.get(kind, kind)


def backdrop(c: Canvas, w: float, h: float) -> None:
    """The laboratory at night (the art's scene, over its own gradient), dimmed towards the
    middle where the play stands."""
    c.clear(LinearGradient(0, 0, 0, h, ((0.0, "#071a33"), (0.55, "#0d3158"), (1.0, "#0a2440"))))
    cover(c, art_key("backdrop"), w, h)
    c.rect(0, 0, w, h, fill=LinearGradient(0, 0, 0, h, ((0.0, "#04102255"), (0.5, "#04102299"),
                                                      (1.0, "#04102244"))))  # fmt: skip


def _meter_symbol(c: Canvas, x: float, y: float, s: float, value: int | None = None) -> None:
    """The Bonus Game meter symbol (segments for the Power Surge Prize Meter), with its number."""
    u = s / 10
    c.rect(x - 2.4 * u, y - 4.2 * u, 4.8 * u, 8.4 * u, fill="#0b2a4a", stroke=BLUE,
           line_width=u * 0.5, radius=0.8 * u)  # fmt: skip
    for k in range(4):
        c.rect(x - 1.7 * u, y + 2.4 * u - k * 1.9 * u, 3.4 * u, 1.3 * u, fill=BLUE, radius=0.3 * u)
    if value is not None:
        c.circle(x + 2.8 * u, y - 2.8 * u, 1.9 * u, fill=GOLD, stroke=INK, line_width=u * 0.3)
        _number(c, str(value), x + 2.8 * u, y - 2.7 * u, s * 0.65)


meter_symbol = _unit(_meter_symbol)


def icon(c: Canvas, name: str, x: float, y: float, s: float) -> None:
    """An icon named in text ('{bonus}', '{up}', '{meter}', '{cash}' or any square name)."""
    if name == "up":
        up_arrow(c, x, y, s)
    elif name == "meter":
        meter_symbol(c, x, y, s)
    elif name == "cash":
        cash(c, x, y, s, "£")
    elif name == "lock":
        lock(c, x, y, s)
    else:
        draw_square(c, name, x, y, s)
