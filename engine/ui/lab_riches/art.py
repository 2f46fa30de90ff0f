"""Lab Riches vector art drawn through the Canvas: the symbols, motifs and the lab backdrop.

Every icon is drawn centred on (cx, cy) inside a square of side s, so the same call serves
the grid, the Top Row, the How To Play pages and the Bonus Game.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

from engine.ui import widgets
from engine.ui.draw import Canvas, Font, LinearGradient

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


def _flask(c: Canvas, x: float, y: float, s: float) -> None:
    u = s / 10
    body = [(x - u, y - 4 * u), (x + u, y - 4 * u), (x + u, y - u), (x + 3.6 * u, y + 3.8 * u),
            (x - 3.6 * u, y + 3.8 * u), (x - u, y - u)]  # fmt: skip
    c.path(body, fill=GLASS, stroke=INK, line_width=u * 0.5)
    liquid = [(x - 2.2 * u, y + 1.2 * u), (x + 2.2 * u, y + 1.2 * u), (x + 3.3 * u, y + 3.4 * u),
              (x - 3.3 * u, y + 3.4 * u)]  # fmt: skip
    c.path(liquid, fill="#39d98a")
    c.circle(x - 0.6 * u, y + 2.2 * u, 0.5 * u, fill="#b9ffd9")
    c.rect(x - 1.5 * u, y - 4.6 * u, 3 * u, 0.9 * u, fill=INK, radius=0.3 * u)


def _beaker(c: Canvas, x: float, y: float, s: float) -> None:
    u = s / 10
    c.rect(x - 3 * u, y - 3.6 * u, 6 * u, 7.4 * u, fill=GLASS, stroke=INK,
           line_width=u * 0.5, radius=0.6 * u)  # fmt: skip
    c.rect(x - 2.6 * u, y - 0.2 * u, 5.2 * u, 3.6 * u, fill="#ff7a45", radius=0.4 * u)
    for k in range(3):
        c.rect(x + 0.8 * u, y - 2.8 * u + k * 1.3 * u, 1.8 * u, 0.35 * u, fill=INK)
    c.path([(x - 3 * u, y - 3.6 * u), (x - 4 * u, y - 4.2 * u), (x - 2.6 * u, y - 3.6 * u)],
           fill=GLASS, stroke=INK, line_width=u * 0.4)  # fmt: skip


def _microscope(c: Canvas, x: float, y: float, s: float) -> None:
    u = s / 10
    lw = u * 0.5
    c.rect(x - 3.5 * u, y + 3 * u, 7 * u, 1.2 * u, fill="#6d7b8d", stroke=INK, line_width=lw,
           radius=0.4 * u)  # fmt: skip
    c.path([(x + 1.5 * u, y + 3 * u), (x + 2.2 * u, y - 1 * u), (x + 0.6 * u, y - 3 * u)],
           stroke=INK, line_width=u * 1.1, closed=False)  # fmt: skip
    c.save()
    c.translate(x - 0.6 * u, y - 1.2 * u)
    c.rotate(-0.55)
    c.rect(-0.9 * u, -3.4 * u, 1.8 * u, 5.2 * u, fill="#9b6bff", stroke=INK, line_width=lw,
           radius=0.4 * u)  # fmt: skip
    c.rect(-1.2 * u, -4 * u, 2.4 * u, 0.9 * u, fill=INK, radius=0.2 * u)
    c.restore()
    c.rect(x - 2.4 * u, y + 1.2 * u, 4 * u, 0.7 * u, fill=INK)


_RING = tuple((round(math.cos(t * math.pi / 6), 3), round(math.sin(t * math.pi / 6), 3))
              for t in range(12))  # fmt: skip


_TURNS = (0.0, 1.047, 2.094)


def _atom(c: Canvas, x: float, y: float, s: float) -> None:
    u = s / 10
    for k in range(3):
        c.save()
        c.translate(x, y)
        c.rotate(_TURNS[k])
        ring = [(_r(4.2 * u * cx), _r(1.6 * u * cy)) for cx, cy in _RING]
        c.path(ring, stroke="#1e88e5", line_width=u * 0.55)
        c.restore()
    c.circle(x, y, 1.2 * u, fill="#ff5d73", stroke=INK, line_width=u * 0.3)


def _test_tube(c: Canvas, x: float, y: float, s: float) -> None:
    u = s / 10
    c.save()
    c.translate(x, y)
    c.rotate(0.35)
    c.rect(-1.3 * u, -4.2 * u, 2.6 * u, 8.4 * u, fill=GLASS, stroke=INK,
           line_width=u * 0.5, radius=1.3 * u)  # fmt: skip
    c.rect(-1.05 * u, 0.2 * u, 2.1 * u, 3.8 * u, fill="#ff4fa3", radius=1.0 * u)
    c.rect(-1.8 * u, -4.6 * u, 3.6 * u, 0.8 * u, fill=INK, radius=0.3 * u)
    c.restore()


def _magnet(c: Canvas, x: float, y: float, s: float) -> None:
    u = s / 10
    r = 2.6 * u
    arc = [(_r(x + r * math.cos(t * math.pi / 10)),
            _r(y + 0.5 * u + r * math.sin(t * math.pi / 10))) for t in range(11)]  # fmt: skip
    c.path(arc, stroke="#e53935", line_width=2.2 * u, closed=False)
    c.path([(x - 2.6 * u, y + 0.5 * u), (x - 2.6 * u, y - 2.5 * u)], stroke="#e53935",
           line_width=2.2 * u, closed=False)  # fmt: skip
    c.path([(x + 2.6 * u, y + 0.5 * u), (x + 2.6 * u, y - 2.5 * u)], stroke="#e53935",
           line_width=2.2 * u, closed=False)  # fmt: skip
    c.rect(x - 3.7 * u, y - 4.2 * u, 2.2 * u, 1.8 * u, fill="#cfd8dc")
    c.rect(x + 1.5 * u, y - 4.2 * u, 2.2 * u, 1.8 * u, fill="#cfd8dc")


def _dna(c: Canvas, x: float, y: float, s: float) -> None:
    u = s / 10
    a = [(_r(x + 2 * u * math.sin(t)), y - 4 * u + t * u) for t in range(9)]
    b = [(_r(x - 2 * u * math.sin(t)), y - 4 * u + t * u) for t in range(9)]
    for k in (1, 3, 5, 7):
        c.path([a[k], b[k]], stroke="#8aa4bd", line_width=u * 0.4, closed=False)
    c.path(a, stroke="#00b894", line_width=u * 0.7, closed=False)
    c.path(b, stroke="#6c5ce7", line_width=u * 0.7, closed=False)


def _burner(c: Canvas, x: float, y: float, s: float) -> None:
    u = s / 10
    flame = [(x, y - 4.6 * u), (x + 1.6 * u, y - 1.6 * u), (x + 1 * u, y - 0.4 * u),
             (x - 1 * u, y - 0.4 * u), (x - 1.6 * u, y - 1.6 * u)]  # fmt: skip
    c.path(flame, fill="#2f80ff")
    c.path([(x, y - 3 * u), (x + 0.8 * u, y - 1.2 * u), (x - 0.8 * u, y - 1.2 * u)], fill="#9fd3ff")
    c.rect(x - 0.8 * u, y - 0.4 * u, 1.6 * u, 3.4 * u, fill="#9aa6b2", stroke=INK,
           line_width=u * 0.4)  # fmt: skip
    c.rect(x - 3 * u, y + 3 * u, 6 * u, 1.2 * u, fill="#6d7b8d", stroke=INK,
           line_width=u * 0.4, radius=0.5 * u)  # fmt: skip


def _number(c: Canvas, text: str, x: float, y: float, s: float, fill: str = INK) -> None:
    c.text(text, x, y, Font(s * 0.42, "display", True), fill=fill)


def _lightning(c: Canvas, x: float, y: float, s: float, value: int | None = None) -> None:
    """The lightning motif (meter segments), with its number."""
    u = s / 10
    bolt = [(x + 0.8 * u, y - 4.6 * u), (x - 3 * u, y + 0.6 * u), (x - 0.2 * u, y + 0.6 * u),
            (x - 1 * u, y + 4.6 * u), (x + 3 * u, y - 0.8 * u),
            (x + 0.2 * u, y - 0.8 * u)]  # fmt: skip
    c.path(bolt, fill=GOLD, stroke="#b36b00", line_width=u * 0.4)
    if value is not None:
        _lightning_badge(c, x, y, s, value)


def _lightning_badge(c: Canvas, x: float, y: float, s: float, value: int) -> None:
    """The lightning motif's number on its blue badge."""
    u = s / 10
    c.circle(x + 2.6 * u, y + 2.6 * u, 2 * u, fill=BLUE, stroke="#ffffff", line_width=u * 0.4)
    _number(c, str(value), x + 2.6 * u, y + 2.7 * u, s * 0.7)  # ink: 7:1 on the blue


def _extra_goes(c: Canvas, x: float, y: float, s: float, value: int | None = None) -> None:
    """The extra-goes motif: a green plus badge with its number."""
    u = s / 10
    c.circle(x, y, 4.2 * u, fill=GREEN, stroke="#ffffff", line_width=u * 0.5)
    _extra_goes_label(c, x, y, s, value)


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


def _bonus(c: Canvas, x: float, y: float, s: float) -> None:
    """The bonus motif: a gold star on a purple disc."""
    u = s / 10
    c.circle(x, y, 4.3 * u, fill="#7b2ff7", stroke=GOLD, line_width=u * 0.5)
    star = []
    for k in range(10):
        r = 3.4 * u if k % 2 == 0 else 1.4 * u
        a = -math.pi / 2 + k * math.pi / 5
        star.append((_r(x + r * math.cos(a)), _r(y + r * math.sin(a))))
    c.path(star, fill=GOLD)


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


lightning = _unit(_lightning)
lightning_badge = _unit(_lightning_badge)
extra_goes = _unit(_extra_goes)
extra_goes_label = _unit(_extra_goes_label)
bonus = _unit(_bonus)
lock = _unit(_lock)
up_arrow = _unit(_up_arrow)
cash = _unit(_cash)
SYMBOLS = {
    "flask": _unit(_flask),
    "beaker": _unit(_beaker),
    "microscope": _unit(_microscope),
    "atom": _unit(_atom),
    "test-tube": _unit(_test_tube),
    "magnet": _unit(_magnet),
    "dna": _unit(_dna),
    "burner": _unit(_burner),
}


def draw_square(c: Canvas, name: str, x: float, y: float, s: float) -> None:
    """Any Top Row or grid square by its book name ('atom', 'lightning/3', 'bonus'...)."""
    kind, _, value = name.partition("/")
    if kind == "lightning":
        lightning(c, x, y, s, int(value) if value else None)
    elif kind == "extra-goes":
        extra_goes(c, x, y, s, int(value) if value else None)
    elif kind == "bonus":
        bonus(c, x, y, s)
    else:
        SYMBOLS[kind](c, x, y, s)


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
    """The laboratory background: a deep blue gradient, shelves and bubbles."""
    c.clear(LinearGradient(0, 0, 0, h, ((0.0, "#071a33"), (0.55, "#0d3158"), (1.0, "#0a2440"))))
    for k in range(9):
        bx = (k * 0.137 + 0.05) % 1.0 * w
        by = ((k * 0.29 + 0.1) % 1.0) * h
        c.circle(bx, by, 6 + (k % 4) * 5, fill="#ffffff0d")


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
