"""Drawing the Main Game Play Window: any replay state, plus the animation of one event.

`p` is the current event's progress (0..1); with no current event (at rest) p is 1. Each
event type has one animation here, keyed by its type, drawn over the state after it. `m`
says how things may flash and move now (engine/ui/motion.py: never more than 3 flashes a
second; with reduced motion, steady highlights and fades instead of flashes and flights).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from typing import Any

from engine.lab_riches import GAME, rules
from engine.lab_riches.replay import State
from engine.money import format_pounds
from engine.ui import fanfare
from engine.ui.celebration import Grade, shown
from engine.ui.draw import Canvas, Font, LinearGradient, Point, along, fit_text
from engine.ui.lab_riches import art
from engine.ui.lab_riches.layout import Layout
from engine.ui.lab_riches.panels import label_box
from engine.ui.motion import Motion
from engine.ui.presentation import FREE_COUNTER
from engine.ui.widgets import session_figures

Event = Mapping[str, Any]
REVEAL = 0.3  # a go's squares flip in this share of its animation, then the columns sweep
TURNED = 0.6  # the Prize Boxes' amounts have turned over at this share of their event
ARRIVE = 0.55  # a number on the Power Cable reaches the meter at this share of its event
LAND = 0.8  # extra goes and an Instant Prize reach their box at this share of their event
LANDS_IN_A_BOX = ("extra_goes", "instant")  # events whose counter changes when they LAND
SETTLE = 0.9  # new segments have filled, or a new meter box has lit up, by this share of its event
NUMBER = 0.3  # the radius of a number of segments on its way to the Power Cable, in cells
CLEAR = 4.0  # px between something flying round the Prize Boxes and their edges
LIT_INK = "#3b1d00"  # the words on a lit gold box


def swept_column(p: float) -> int:
    """The column a go's sweep highlights at progress p (-1 before the sweep, 4 after it)."""
    return int((p - REVEAL) / (1 - REVEAL) * rules.COLUMNS) if p > REVEAL else -1


def sweep_starts() -> tuple[float, ...]:
    """The progress at which the sweep reaches each column, left to right."""
    return tuple(REVEAL + (1 - REVEAL) * col / rules.COLUMNS for col in range(rules.COLUMNS))


def _square_bg(c: Canvas, x: float, y: float, s: float, fill: str, stroke: str) -> None:
    pad = round(s * 0.05)
    c.rect(x + pad, y + pad, s - 2 * pad, s - 2 * pad, fill=fill, stroke=stroke, line_width=2,
           radius=round(s * 0.14))  # fmt: skip


def _reveal(c: Canvas, name: str, cx: float, cy: float, s: float, amount: float, m: Motion) -> None:
    """A symbol turning over (amount 0..1), or fading in with reduced motion."""
    if amount >= 0.999:
        art.draw_square(c, name, cx, cy, s)
        return
    c.save()
    if m.reduced:
        c.alpha(max(0.0, amount))
        art.draw_square(c, name, cx, cy, s)
    else:
        c.translate(cx, cy)
        c.scale(1.0, max(0.05, amount))
        art.draw_square(c, name, 0, 0, s)
    c.restore()


def header(
    c: Canvas,
    lay: Layout,
    balance: int | None,
    note: str = "",
    figures: Callable[[bool], str] = lambda short: "",
) -> None:
    """The title bar with the balance, or a note in its place (a TRY's: it wins nothing), and
    under the balance the session's figures in paid play (Flow.header_figures)."""
    x, y, w, h = lay.header
    c.rect(x, y, w, h, fill=LinearGradient(0, 0, 0, h, ((0.0, "#0e3a66"), (1.0, "#092a4b"))))
    title = Font(h * 0.45, "display", True)
    art.draw_square(c, "flask", 12 + h * 0.35, h / 2, h * 0.7)
    c.text("LAB RICHES", 16 + h * 0.75, h / 2, title, fill=art.GOLD, align="left")
    if balance is not None or note:  # right-aligned, clear of the title
        text = note or f"Balance {format_pounds(balance or 0)}"
        room = min(w * 0.4, w - 24 - (16 + h * 0.75 + c.measure("LAB RICHES", title)) - 12)
        font = fit_text(c, text, Font(h * 0.3, "body", True), room)
        shown = not note and bool(figures(False))
        top = h * 0.34 if shown else h / 2
        c.text(text, w - 12, top, font, fill=art.GOLD if note else "#ffffff", align="right")
        if shown:
            session_figures(c, figures, w - 12, h * 0.74, h * 0.24, room)


def grid(c: Canvas, lay: Layout, s: State, e: Event | None, p: float, m: Motion) -> None:
    """The Top Row and the 4 × 5 grid, with reveals, the column sweep, locks and row wins."""
    cell = lay.cell
    kind = e["type"] if e is not None else ""
    flip = min(1.0, p / REVEAL) if kind == "go" else 1.0
    sweep = swept_column(p) if kind == "go" else -1
    c.rect(lay.grid_x - 6, lay.top_row_y - 6, 4 * cell + 12, lay.grid_y + 5 * cell - lay.top_row_y
           + 12, fill="#06182c", stroke="#7fd4ff", line_width=2, radius=12)  # fmt: skip
    for col in range(rules.COLUMNS):
        x = lay.grid_x + col * cell
        lit = col == sweep
        if lit:
            c.rect(x + 2, lay.top_row_y, cell - 4, lay.grid_y + 5 * cell - lay.top_row_y,
                   fill="#38b6ff40", radius=10)  # fmt: skip
        _square_bg(c, x, lay.top_row_y, cell, "#223f5e" if s.top_active else "#1a2d42",
                   art.GOLD if lit else "#4d7aa5")  # fmt: skip
        cx, cy = lay.top(col)
        if not s.top_active:
            c.save()
            c.alpha(0.45)
            art.draw_square(c, s.top[col], cx, cy, cell * 0.8)
            c.restore()
            art.draw_words(c, s.top[col], cx, cy, cell * 0.8)  # dimmed, yet readable
        else:
            _reveal(c, s.top[col], cx, cy, cell * 0.8, flip, m)
    won = set(s.won_rows)
    for row in range(rules.ROWS):
        for col in range(rules.COLUMNS):
            x, y = lay.grid_x + col * cell, lay.grid_y + row * cell
            locked = (row, col) in s.locks
            fill = "#fff3c4" if locked else "#e9f4ff"
            _square_bg(c, x, y, cell, fill, "#39d98a" if row in won else "#9cc3e6")
            cx, cy = x + cell / 2, y + cell / 2
            scale = 1.0 if locked else flip
            _reveal(c, s.grid[row][col], cx, cy, cell * 0.74, scale, m)
            if locked:
                pop, fade = 1.0, 1.0
                if kind == "lock" and (e or {}).get("row") == row and (e or {}).get("col") == col:
                    pop, fade = (1.0, p) if m.reduced else (1.0 + 0.8 * (1 - p), 1.0)
                c.save()
                c.alpha(fade)
                art.lock(c, x + cell * 0.8, y + cell * 0.22, cell * 0.32 * pop)
                c.restore()
    winning = int(e["row"]) if kind == "row_win" and e is not None else -1
    for row in won:  # a won row stays outlined in glowing gold; the one winning now pulses
        y = lay.grid_y + row * cell
        strength = fanfare.shine(p, m) if row == winning else 1.0
        fanfare.glow(c, lay.grid_x, y, 4 * cell, cell, 10, strength)
        width = 3 + 4 * m.pulse(p, 3) if row == winning else 3
        c.rect(lay.grid_x, y, 4 * cell, cell, stroke=art.GOLD, line_width=width, radius=10)


def lit_gold(x: float, y: float, h: float) -> LinearGradient:
    """The bright gold of a won Prize Box or a paying meter box (lit, not dark: it reads 'on')."""
    return LinearGradient(x, y, x, y + h, ((0.0, "#fff3b0"), (0.5, art.GOLD), (1.0, "#f2a900")))


def celebrated(e: Event | None, kind: str) -> bool:
    """Whether the event animating is a prize of `kind` that pays more than the price (its
    burst; the price back, or any prize in a free TRY, gets none: engine/ui/celebration.py)."""
    if e is None or e["type"] != kind:
        return False
    return shown(int(e["pence"]), e, GAME) >= Grade.WIN


def prize_boxes(c: Canvas, lay: Layout, s: State, e: Event | None, p: float, m: Motion) -> None:
    """The Prize Boxes: 'PRIZE' with a gold arrow until GO 1, then their amounts; a won row's
    lit bright gold and glowing (pulsing while it wins, with a burst when it pays more than
    the price)."""
    kind = e["type"] if e is not None else ""
    won = set(s.won_rows)
    for row in range(rules.ROWS):
        x, y, w, h = lay.prize_box(row)
        flash = kind == "row_win" and e is not None and int(e["row"]) == row
        lit = row in won and (not flash or m.blink(p, 3))
        if row in won:
            fanfare.glow(c, x, y, w, h, 8, fanfare.shine(p, m) if flash else 1.0)
        c.rect(x, y, w, h, fill=lit_gold(x, y, h) if lit else "#0d2c4c",
               stroke="#ffffff" if lit else "#7fd4ff", line_width=3 if lit else 2,
               radius=8)  # fmt: skip
        if flash and celebrated(e, "row_win"):
            fanfare.burst(c, x + w / 2, y + h / 2, h * 1.8, p, m, 14)
        if s.prize_boxes is None:
            ax = x + h * 0.15
            c.path([(ax, y + h / 2), (ax + h * 0.35, y + h * 0.25), (ax + h * 0.35, y + h * 0.75)],
                   fill=art.GOLD)  # fmt: skip
            font = fit_text(c, "PRIZE", Font(h * 0.34, "display", True), w - h * 0.65)
            c.text("PRIZE", x + w / 2 + h * 0.2, y + h / 2, font, fill=art.GOLD)
            continue
        amount = format_pounds(s.prize_boxes[row], always_pence=False)
        shown = min(1.0, p / TURNED) if kind == "prize_boxes" else 1.0
        font = fit_text(c, amount, Font(h * 0.42, "display", True), w * 0.86)
        c.save()
        c.translate(x + w / 2, y + h / 2)
        if m.reduced:
            c.alpha(shown)  # fades in rather than turning over
        elif shown < 1.0:
            c.scale(max(0.05, shown), 1.0)
        c.text(amount, 0, 0, font, fill=LIT_INK if lit else "#ffffff")
        c.restore()


def cable(c: Canvas, lay: Layout) -> None:
    """The Power Cable from the right of the grid round to the meter."""
    c.path(lay.cable, stroke="#222f3d", line_width=max(8.0, lay.cell * 0.16), closed=False)
    c.path(lay.cable, stroke="#f0a500", line_width=max(3.0, lay.cell * 0.05), closed=False)


def flying(c: Canvas, lay: Layout, s: State, e: Event | None, p: float, m: Motion) -> None:
    """Numbers on the move: segments along the Power Cable, extra goes to the GOES counter and
    an Instant Prize to INSTANT WINS (`flight`; with reduced motion they fade in where they
    are going instead)."""
    if e is None:
        return
    kind = e["type"]
    c.save()
    if kind == "segments":
        route, joined = cable_route(lay, e)
        q, fade = m.travel(p / ARRIVE)
        x, y = along(route, q)
        c.alpha(fade)
        if not m.reduced:
            c.path(route[: 2 + int(q * (len(route) - 2))], stroke="#ffffffaa", line_width=3,
                   closed=False)  # fmt: skip
        if joined <= q < 1.0:  # in the cable: a flash runs along it to the meter
            c.circle(x, y, pulse_radius(lay), fill="#ffffff")
        else:
            c.circle(x, y, lay.cell * NUMBER, fill=art.BLUE, stroke="#ffffff", line_width=3)
            c.text(str(e["count"]), x, y, Font(lay.cell * 0.34, "display", True))
    elif kind in LANDS_IN_A_BOX:
        q, fade = m.travel(p / LAND)
        x, y = flight(lay, e, q)
        c.alpha(fade)
        if kind == "extra_goes":
            art.extra_goes(c, x, y, lay.cell * 0.8, int(e["count"]))
        else:
            art.cash(c, x, y, lay.cell, format_pounds(int(e["pence"]), always_pence=False))
    c.restore()


def cable_route(lay: Layout, e: Event) -> tuple[tuple[Point, ...], float]:
    """The way a number of segments goes to the meter, and the share of it (0..1) at which it
    reaches the Power Cable: from its Top Row square straight up to the cable's run over the
    top, or from the Bonus Game (`bonus_start`) down under the last Prize Box and
    across until it touches the cable's foot; then along the cable (a flash: `pulse_radius`)
    and down the meter to its bottom box. Neither the number nor the flash passes over a Prize
    Box, nor over a square of the Top Row but the one the number comes from."""
    end = (lay.meter[0] + lay.meter[2] / 2, lay.meter[1] + lay.meter[3])
    cable = lay.cable
    if e["source"] == "top":
        start = lay.top(int(e["col"]))
        joins = (start[0], cable[2][1])
        reach: tuple[Point, ...] = (start, joins)
        rest = (joins, *cable[3:], end)
    else:
        grid_right = lay.grid_x + rules.COLUMNS * lay.cell
        foot = cable[0]
        r = lay.cell * NUMBER  # it joins the cable as its circle touches it
        start = bonus_start(lay, r)
        reach = (start, (min(start[0], grid_right - r), foot[1]), (foot[0] - r, foot[1]))
        rest = (reach[-1], *cable, end)
    route = (*reach, *rest[1:])
    reached = sum(math.dist(a, b) for a, b in itertools.pairwise(reach))
    whole = sum(math.dist(a, b) for a, b in itertools.pairwise(route))
    return route, reached / whole if whole else 1.0


def bonus_start(lay: Layout, half_w: float) -> Point:
    """Where what the Bonus Game awards sets off from: the middle of the window, or, where that
    lies over the Prize Boxes (a phone held sideways, the board moved left to leave the
    settings room), as far right over the board as its half width `half_w` allows."""
    grid_right = lay.grid_x + rules.COLUMNS * lay.cell
    x = lay.width / 2
    if not lay.portrait and x + half_w > lay.prize_x:
        x = min(x, grid_right - half_w)
    return x, lay.height / 2


def pulse_radius(lay: Layout) -> float:
    """The flash running along the Power Cable: as wide as the cable's clearance from the Top
    Row and the Prize Boxes allows (it passes close to both)."""
    room = min(lay.top_row_y - lay.cable[2][1], lay.cable[0][0] - (lay.prize_x + lay.prize_w))
    return max(1.5, room - 1.0)


def flier_half(lay: Layout, kind: str) -> tuple[float, float]:
    """Half the width and half the height of what flies to a box, its outline included: the
    extra-goes badge (art.extra_goes at 0.8 of a cell) or the Instant Prize note (art.cash)."""
    if kind == "extra_goes":  # its GOES ribbon, 9.6 of its 10 units wide, and the circle, 4.2
        return lay.cell * 0.8 * 0.5, lay.cell * 0.8 * 0.48  # the ribbon's foot, with its outline
    return lay.cell * 0.46, lay.cell * 0.3  # the note, 8.8 × 5.6 of 10 units, and its outline


def flight_route(lay: Layout, e: Event) -> tuple[Point, ...]:
    """The way extra goes fly to GOES, or an Instant Prize to INSTANT WINS, passing over no
    Prize Box (whose amount the flier would seem to show) and no square of the Top Row but
    the one the extra goes come from. Where the box lies beside the Prize Boxes (landscape),
    the flier goes round them: from the Top Row up over it (through the gap to the header),
    or from where the Bonus Game's award sets off (`bonus_start`) down under the last Prize Box,
    then up their right-hand side and into its box. Where the boxes are below the board
    (portrait) the way is straight (from the Top Row, once down off it): it passes under the
    last Prize Box."""
    kind = e["type"]
    hw, hh = flier_half(lay, kind)
    box = lay.goes if kind == "extra_goes" else lay.instant_wins
    end = (box[0] + box[2] / 2, box[1] + box[3] / 2)
    top = kind == "extra_goes" and e["source"] == "top"
    start = lay.top(int(e["col"])) if top else bonus_start(lay, hw)
    right = lay.prize_x + lay.prize_w  # the Prize Boxes' right-hand side
    if end[0] - hw < right + CLEAR:  # the box is below the board
        if top:  # first straight down, off the Top Row, so as to pass over no other square of it
            return start, (start[0], lay.top_row_y + lay.cell + hh + CLEAR), end
        return start, end
    side = right + hw + CLEAR
    if top:
        over = lay.top_row_y - hh - CLEAR
        return start, (start[0], over), (side, over), (side, end[1]), end
    _x, y, _w, h = lay.prize_box(rules.ROWS - 1)
    under = y + h + hh + CLEAR
    grid_right = lay.grid_x + rules.COLUMNS * lay.cell
    return start, (min(start[0], grid_right - hw), under), (side, under), (side, end[1]), end


def flight(lay: Layout, e: Event, q: float) -> Point:
    """Where extra goes or an Instant Prize is, q (0..1) of the way along its flight_route;
    extra goes that fly straight from the middle of the window rise a little on the way (an
    arc of a cell's height)."""
    route = flight_route(lay, e)
    x, y = along(route, q)
    if len(route) == 2 and e["type"] == "extra_goes":
        y -= math.sin(q * math.pi) * lay.cell
    return x, y


def boxes(c: Canvas, lay: Layout, s: State, free: bool = False) -> None:
    """GOES, TOTAL WON and INSTANT WINS; in a free TRY the two counters of money read
    FREE_COUNTER ('NOTHING'), unlit: a free play wins nothing, whatever its board collects."""
    label_box(c, lay.goes, "GOES", str(s.goes_left))
    total, instant = (FREE_COUNTER,) * 2 if free else map(format_pounds, (s.total, s.instant_pence))
    label_box(c, lay.total_won, "TOTAL WON", total, glow=s.total > 0 and not free)
    label_box(c, lay.instant_wins, "INSTANT WINS", instant, glow=s.instant_pence > 0 and not free)
