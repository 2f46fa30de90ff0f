"""£500K Power Puck Shot art: the ice rink backdrops, the pucks, bumpers and every motif a pip
can reveal, drawn with the drawing interface only (no image files).

The procedure's pictures were lost (../shared/GAME-NOTES.md); these are the decisions: a
coloured square of its row's colour; the Bonus motif a gold star on a magenta disc; the Prize
Game symbol a gold ring round a 'P'; an extra Puck a black puck marked '+1'; a Power Puck a
black puck with a gold lightning bolt; a Prize Booster an arrow up in its row's colour; extra
squares their colour's square marked '+N'; a Prize Game amount a gold coin with the amount.
Motifs are drawn in a 10 × 10 unit box scaled to their size (`unit`).
"""

from __future__ import annotations

import math

from engine.money import format_pounds
from engine.power_puck_shot import rules
from engine.power_puck_shot.tokens import BONUS, BOOSTER, EXTRA, POT, POWER, PRIZE, SQUARE
from engine.power_puck_shot.tokens import SQUARES as PLUS
from engine.ui.draw import Canvas, Font, LinearGradient, cover, fit_text, picture
from engine.ui.widgets import unit_icon

GOLD = "#ffd54a"
INK = "#10131a"
ICE = "#e9f6ff"
GREEN = "#7dff9e"  # an extra Puck's mark (and its glow as it joins the counter)
FILLS = {
    "dark-blue": "#2347c6",
    "purple": "#8a3fd6",
    "orange": "#ff8c1a",
    "light-blue": "#38c2ff",
    "red": "#d32f2f",  # white on it reads at 5:1 (a lighter red gave 4.2:1)
    "green": "#2fbf5b",
    "pink": "#ff5fae",
    "yellow": "#ffd400",
}
DARK_INK = ("yellow", "light-blue", "orange", "pink", "green")  # fills too light for white text
# backdrop (top, bottom), Play Grid surface, its glow, arrows. The procedure's Bonus Game is a
# darker screen with the grid illuminated (a glowing cyan, nothing like the Prize Game's) and
# blue arrows; its Prize Game a lighter screen, a yellow grid and green arrows.
STAGES = {
    "main": (("#0b2a55", "#061833"), "#dff1ff", "#7fd4ff", "#2fbf5b"),
    "bonus": (("#04070f", "#0b0f22"), "#8ff0ff", "#00e5ff", "#2f8cff"),
    "prize": (("#3d6ea8", "#8fb8e0"), "#ffe066", "#fff2a8", "#2fbf5b"),
}
WORDS_ON = {"main": "#ffffff", "bonus": "#ffffff", "prize": INK}  # text on the stage's backdrop


def colour_words(colour: str) -> str:
    """'dark-blue' -> 'dark blue'."""
    return colour.replace("-", " ")


def art_key(name: str) -> str:
    """The key of one of Power Puck Shot's pictures (assets/power-puck-shot/<name>.svg)."""
    return f"{rules.GAME_ID}/{name}"


STAGE_TINT = 0.7  # how much of the stage's own gradient lies over the arena's picture


def _r(v: float) -> float:
    return round(v, 2)


def backdrop(c: Canvas, w: float, h: float, stage: str = "main") -> None:
    """The arena (the art's picture) under a gradient of the stage's colours (darker in the
    Bonus Game, lighter in the Prize Game)."""
    (top, bottom), _surface, _glow, _arrows = STAGES.get(stage, STAGES["main"])
    stage_gradient = LinearGradient(0, 0, 0, h, ((0.0, top), (1.0, bottom)))
    c.clear(stage_gradient)
    cover(c, art_key("backdrop"), w, h)  # the arena under its lights
    c.save()
    c.alpha(STAGE_TINT)
    c.rect(0, 0, w, h, fill=stage_gradient)
    c.restore()


@unit_icon
def coloured_square(c: Canvas, colour: str) -> None:
    """A coloured square of a Prize Table row."""
    c.rect(-4.0, -4.0, 8.0, 8.0, fill=FILLS[colour], radius=1.3)
    c.image(art_key("square"), -4.4, -4.4, 8.8, 8.8)  # its bevel, shine and white rim


@unit_icon
def bonus_motif(c: Canvas) -> None:
    """The Bonus motif: a gold star on a magenta gem."""
    c.image(art_key("bonus"), -5.0, -5.0, 10.0, 10.0)


@unit_icon
def prize_motif(c: Canvas) -> None:
    """The Prize Game symbol: a gold trophy in a gold ring."""
    c.image(art_key("prize"), -5.0, -5.0, 10.0, 10.0)


@unit_icon
def puck(c: Canvas, power: bool = False) -> None:
    """A Puck (seen from above); a Power Puck is charged with a gold bolt in a blue glow."""
    c.image(art_key("power-puck" if power else "puck"), -5.0, -5.0, 10.0, 10.0)


@unit_icon
def extra_puck(c: Canvas) -> None:
    """An extra Puck award: a puck in a green ring marked '+1'."""
    c.image(art_key("extra-puck"), -5.0, -5.0, 10.0, 10.0)
    c.text("+1", 0, 0.3, Font(4.6, "display", True), fill=GREEN)


@unit_icon
def booster(c: Canvas, colour: str) -> None:
    """A Prize Booster: an arrow up in its row's colour."""
    points = [(0, -4.6), (4.2, 0), (1.6, 0), (1.6, 4.4), (-1.6, 4.4), (-1.6, 0), (-4.2, 0)]
    c.path(points, fill=FILLS[colour])
    c.image(art_key("booster"), -4.6, -4.8, 9.2, 9.6)  # its bevel, white rim and spark


@unit_icon
def boost_mark(c: Canvas, ink: str) -> None:
    """A boosted row's arrow up inside its amount box, in the box's ink."""
    points = [(0, -4.6), (4.2, 0), (1.6, 0), (1.6, 4.4), (-1.6, 4.4), (-1.6, 0), (-4.2, 0)]
    c.path(points, fill=ink)


@unit_icon
def plus_squares(c: Canvas, colour: str, n: int) -> None:
    """Extra squares for a row: its colour's square marked '+N'."""
    c.rect(-4.4, -4.4, 8.8, 8.8, fill=FILLS[colour], stroke="#ffffff", line_width=0.7, radius=1.4)
    ink = INK if colour in DARK_INK else "#ffffff"
    c.text(f"+{n}", 0, 0.3, Font(4.8, "display", True), fill=ink)


@unit_icon
def coin(c: Canvas, pence: int) -> None:
    """A Prize Game amount: a gold coin with the amount."""
    c.circle(0, 0, 4.7, fill=GOLD, stroke="#b36b00", line_width=0.7)
    c.circle(0, 0, 3.8, stroke="#ffffff88", line_width=0.4)
    text = format_pounds(pence, always_pence=False)
    c.text(text, 0, 0.3, Font(3.4 if len(text) <= 3 else 2.6, "display", True), fill="#4a2a00")


@unit_icon
def bumper(c: Canvas, angle: float) -> None:
    """A Spinning Bumper at its angle of spin: a red and white star."""
    c.save()
    c.rotate(angle)
    points = []
    for k in range(12):
        r = 4.6 if k % 2 == 0 else 2.4
        a = k * math.pi / 6
        points.append((_r(r * math.cos(a)), _r(r * math.sin(a))))
    c.path(points, fill="#e53935", stroke="#ffffff", line_width=0.6)
    c.restore()
    c.circle(0, 0, 1.4, fill="#ffffff")


def motif(c: Canvas, reveal: str, x: float, y: float, s: float) -> None:
    """What a pip reveals, by its book name (docs/books.md)."""
    if reveal.startswith(SQUARE):
        coloured_square(c, x, y, s, reveal[len(SQUARE) :])
    elif reveal == BONUS:
        bonus_motif(c, x, y, s)
    elif reveal == PRIZE:
        prize_motif(c, x, y, s)
    elif reveal == EXTRA:
        extra_puck(c, x, y, s)
    elif reveal == POWER:
        puck(c, x, y, s, True)
    elif reveal.startswith(BOOSTER):
        booster(c, x, y, s, reveal[len(BOOSTER) :])
    elif reveal.startswith(PLUS):
        colour, n = reveal[len(PLUS) :].split(":")
        plus_squares(c, x, y, s, colour, int(n))
    elif reveal.startswith(POT):
        coin(c, x, y, s, int(reveal[len(POT) :]))


def spoken(reveal: str) -> str:
    """A reveal in words."""
    if reveal.startswith(SQUARE):
        return f"{colour_words(reveal[len(SQUARE) :])} square"
    if reveal.startswith(BOOSTER):
        return f"{colour_words(reveal[len(BOOSTER) :])} Prize Booster"
    if reveal.startswith(PLUS):
        colour, n = reveal[len(PLUS) :].split(":")
        return f"{n} extra {colour_words(colour)} squares"
    if reveal.startswith(POT):
        return format_pounds(int(reveal[len(POT) :]))
    return {BONUS: "Bonus symbol", PRIZE: "Prize Game symbol", EXTRA: "extra Puck",
            POWER: "Power Puck"}.get(reveal, reveal)  # fmt: skip


ICONS = {  # the inline icons of the How To Play and Rules text, and their words
    "puck": "puck",
    "bonus": "Bonus symbol",
    "prize": "Prize Game symbol",
    "square": "coloured square",
    "bumper": "Spinning Bumper",
    "extra": "extra Puck",
    "power": "Power Puck",
    "booster": "Prize Booster",
    "plus": "extra squares",
    "coin": "prize amount",
}


def icon(c: Canvas, name: str, x: float, y: float, s: float) -> None:
    """An icon named in text ('{bonus}', '{puck}' ...)."""
    if name == "puck":
        puck(c, x, y, s)
    elif name == "bonus":
        bonus_motif(c, x, y, s)
    elif name == "prize":
        prize_motif(c, x, y, s)
    elif name == "square":
        coloured_square(c, x, y, s, "red")
    elif name == "bumper":
        bumper(c, x, y, s, 0.3)
    elif name == "extra":
        extra_puck(c, x, y, s)
    elif name == "power":
        puck(c, x, y, s, True)
    elif name == "booster":
        booster(c, x, y, s, "green")
    elif name == "plus":
        plus_squares(c, x, y, s, "orange", 2)
    elif name == "coin":
        coin(c, x, y, s, 1000)


def arrow(c: Canvas, rect: tuple[float, float, float, float], degrees: float, fill: str,
          *, lit: bool = False, enabled: bool = True) -> None:  # fmt: skip
    """A Directional Arrow button pointing along its launch angle (degrees from straight up)."""
    x, y, w, h = rect
    cx, cy, r = x + w / 2, y + h / 2, min(w, h) / 2
    c.circle(cx, cy + 2, r, fill="#00000055")
    c.circle(cx, cy, r, fill=fill if enabled else "#59606b", stroke=GOLD if lit else "#ffffff",
             line_width=4 if lit else 2)  # fmt: skip
    c.save()
    c.translate(cx, cy)
    c.rotate(math.radians(degrees))
    u = r / 5
    c.path([(0, -3.6 * u), (2.6 * u, -0.6 * u), (1 * u, -0.6 * u), (1 * u, 3.2 * u),
            (-1 * u, 3.2 * u), (-1 * u, -0.6 * u), (-2.6 * u, -0.6 * u)],
           fill="#ffffff")  # fmt: skip
    c.restore()


def label(c: Canvas, text: str, x: float, y: float, size: float, max_w: float,
          fill: str = "#ffffff") -> None:  # fmt: skip
    """A line of bold text fitted to a width."""
    c.text(text, x, y, fit_text(c, text, Font(size, "body", True), max_w), fill=fill)


LOGO = 200 / 120  # the emblem's width over its height (assets/power-puck-shot/logo.svg)


def title_art(c: Canvas, w: float, h: float, unit_px: float) -> None:
    """The splash's picture: the game's emblem, a charged puck flying over crossed sticks,
    inside the screen's top edge."""
    s = min(unit_px * 0.24, h * 0.2)
    picture(c, art_key("logo"), w / 2, max(h * 0.13, s / 2 + 2), s, LOGO)


def panel(c: Canvas, x: float, y: float, w: float, h: float, *, glow: bool = False) -> None:
    """A card behind text: deep blue ice with a light rim (gold for a win)."""
    c.rect(x, y + 5, w, h, fill="#00000066", radius=18)
    c.rect(x, y, w, h, fill=LinearGradient(x, y, x, y + h, ((0.0, "#123a6b"), (1.0, "#0a2245"))),
           stroke=GOLD if glow else "#7fd4ff", line_width=3 if glow else 2, radius=18)  # fmt: skip
