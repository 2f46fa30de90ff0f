"""£500K Power Puck Shot: the Play Grid's geometry and the legs a shot is made of.

The rules are in docs/games/power-puck-shot.md ("Shots"). Units are squares: x to the right
(0..4), y downward (0..4); rows 0 and 3 are the Pockets, rows 1 and 2 the middle squares; squares
are numbered 0..15 row by row, each with its Pip at its centre. Coordinates are the puck's centre.

A shot is a chain of legs: each crosses the middle rows from one row of pocket mouths (y = 3 or
y = 1) to the other, bouncing off the side walls. Directions are exact: dx/|dy| is a multiple of
1/8, so every leg ends at a quarter-unit x and every decision (which pips a leg passes over, which
mouth it reaches) is taken here once, on first use (a page that never draws a shot never pays
for the tables), in integer arithmetic.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from engine.rng import Stream

COLUMNS = 4
ROWS = 4
TOP_POCKETS = (0, 1, 2, 3)
BOTTOM_POCKETS = (12, 13, 14, 15)
POCKETS = TOP_POCKETS + BOTTOM_POCKETS
MIDDLE_SQUARES = tuple(range(4, 12))
TOP_MOUTH = 1.0  # the line between the top pockets and the middle rows
BOTTOM_MOUTH = 3.0  # the line between the middle rows and the bottom pockets
LAUNCH = (2.0, 3.0)  # the launch gate: the post between bottom pockets 13 and 14
PIP_RADIUS = 0.25  # the puck passes over a pip when its centre comes closer than this
PIP_MARGIN = 0.02  # the engine keeps every pip at least this much off the radius
POST_MARGIN = 0.25  # the engine reaches a mouth at least this far from a post or a wall
DROP = 0.2  # how far the puck slides past an open pocket's mouth before it drops
SLOPE_UNIT = 8  # every direction has dx/|dy| = n / SLOPE_UNIT for an integer n
MAX_SLOPE = 16  # |n| <= 16: at most 63.43 degrees from straight up or down
ARROW_SLOPES = (-6, -3, -1, 1, 3, 6)  # the six arrows, left to right, launching upward
MAX_REVEALS = 16  # every pip once: the 8 middle pips and all 8 pockets' bumpers


def direction(slope: int, up: bool) -> tuple[float, float]:
    """The unit vector of slope n (dx/|dy| = n/8), moving up (dy < 0) or down."""
    norm = math.sqrt(SLOPE_UNIT * SLOPE_UNIT + slope * slope)
    return slope / norm, (-SLOPE_UNIT if up else SLOPE_UNIT) / norm


ARROWS = tuple(direction(n, True) for n in ARROW_SLOPES)
ARROW_DEGREES = tuple(round(math.degrees(math.atan2(n, SLOPE_UNIT)), 2) for n in ARROW_SLOPES)


def pip(square: int) -> tuple[float, float]:
    """The centre of a square's Pip."""
    if not 0 <= square < COLUMNS * ROWS:
        raise ValueError(f"no square {square}")
    return square % COLUMNS + 0.5, square // COLUMNS + 0.5


def mouth_pocket(x: float, top: bool, tolerance: float = 0.0) -> int | None:
    """The pocket whose mouth a puck crossing the top or bottom mouths at x enters, or None when
    x is within POST_MARGIN (less the tolerance) of a post or a wall."""
    column = math.floor(x)
    if not 0 <= column < COLUMNS:
        return None
    if not POST_MARGIN - tolerance <= x - column <= 1 - POST_MARGIN + tolerance:
        return None
    return column if top else (ROWS - 1) * COLUMNS + column


def slope_allowed(ux: float, uy: float) -> bool:
    """Whether a direction's dx/|dy| is n/8 for an integer n with |n| <= MAX_SLOPE (to 1e-3)."""
    if abs(uy) < 0.1:
        return False
    n = SLOPE_UNIT * ux / abs(uy)
    return abs(n - round(n)) < 1e-3 and abs(round(n)) <= MAX_SLOPE


@dataclass(frozen=True, slots=True)
class Leg:
    """One crossing of the middle rows: where it starts and ends, what it passes over."""

    up: bool  # moving up, from the bottom mouths to the top ones
    start: int  # x of the start in quarter units (0..16)
    slope: int  # n: dx/|dy| = n/8 as it starts
    end: int  # x where it reaches the other mouths, in quarter units (never on a post)
    pocket: int  # the pocket square whose mouth it reaches
    walls: tuple[tuple[float, float], ...]  # its bounces off the side walls, in order
    pips: tuple[tuple[int, float], ...]  # (middle square, distance from the start), in order
    mask: int  # the middle pips it passes over, bit (square - 4)
    length: float
    exit: tuple[float, float]  # its unit direction as it reaches the mouth


def _fold(quarters: int) -> int:
    """An unfolded x (quarter units, the table mirrored at every wall) folded into 0..16."""
    x = quarters % 32
    return 32 - x if x > 16 else x


def _leg(up: bool, start: int, slope: int) -> Leg | None:
    """The leg from quarter-unit x start at slope n, or None when a decision is too close."""
    end = _fold(start + slope)  # 2 rows at dx/|dy| = n/8 move n quarters
    if end % 4 == 0:
        return None  # a post or a corner
    norm2 = SLOPE_UNIT * SLOPE_UNIT + slope * slope
    norm = math.sqrt(norm2)
    y0 = BOTTOM_MOUTH if up else TOP_MOUTH
    sign = -1 if up else 1
    walls: list[tuple[float, float]] = []
    low, high = sorted((start, start + slope))
    # The unfolded walls (every 16 quarters) in the order the puck meets them, at y0 ± 2 dx / n.
    for wall in range(-64, 65, 16) if slope > 0 else range(64, -65, -16):
        if low < wall < high:
            y = (int(y0) * slope + sign * 2 * (wall - start)) / slope
            walls.append((float(_fold(wall) // 4), round(y, 6) + 0.0))
    found: list[tuple[int, int]] = []  # (projection numerator, square)
    for k in (1, 3):  # the rows crossed after 1/2 and 3/2 of the leg's height
        row = (2 if k == 1 else 1) if up else (1 if k == 1 else 2)
        across = 4 * start + k * slope  # unfolded x at that row, in 16ths
        # The pips' images in the unfolded table sit at every x = 8 (mod 16): two are nearest.
        below = across - (across - 8) % 16
        for image in (below, below + 16):
            offset = image - across  # horizontal, in 16ths
            # distance² = offset² / (4 norm2); compare with (1/4 ± 1/50)²
            if 4 * 529 * norm2 < 10000 * offset * offset < 4 * 729 * norm2:
                return None  # too close to the pip's edge to call
            if 4 * offset * offset < norm2:
                folded = image % 128 if image % 128 < 64 else 128 - image % 128
                column = folded // 16
                found.append(((offset + k * slope) * slope + 64 * k, 4 * row + column))
    found.sort()
    pips: list[tuple[int, float]] = []
    mask = 0
    for numerator, square in found:
        if not mask & 1 << (square - 4):
            mask |= 1 << (square - 4)
            pips.append((square, numerator / (16 * norm)))
    bounces = len(walls) % 2
    exit_x, exit_y = direction(-slope if bounces else slope, up)
    return Leg(
        up=up,
        start=start,
        slope=slope,
        end=end,
        pocket=(end // 4 if up else 12 + end // 4),
        walls=tuple(walls),
        pips=tuple(pips),
        mask=mask,
        length=norm / 4,
        exit=(exit_x, exit_y),
    )


POSITIONS = tuple(x for x in range(1, 4 * COLUMNS) if x % 4)  # mouth x's off the posts, quarters


def _legs_from(up: bool, start: int) -> tuple[Leg, ...]:
    """Every usable leg from a mouth position (quarter units), by slope."""
    found = (_leg(up, start, n) for n in range(-MAX_SLOPE, MAX_SLOPE + 1))
    return tuple(leg for leg in found if leg is not None)


@functools.cache
def legs() -> dict[tuple[bool, int], tuple[Leg, ...]]:
    """Every usable leg from each mouth position, by (upward, x in quarter units)."""
    table = {(up, x): _legs_from(up, x) for up in (True, False) for x in POSITIONS}
    if not all(table.values()):
        raise AssertionError("every mouth position needs legs to go on with")
    return table


@functools.cache
def launch_legs() -> tuple[Leg, ...]:
    """Each arrow's first leg, from the launch gate."""
    found = tuple(_leg(True, 4 * int(LAUNCH[0]), n) for n in ARROW_SLOPES)
    first = tuple(leg for leg in found if leg is not None)
    if len(first) != len(ARROW_SLOPES) or any(len(leg.pips) > 1 for leg in first):
        raise AssertionError("every arrow's first leg must be clear and pass over at most one pip")
    return first


POPCOUNT = bytes(bin(i).count("1") for i in range(256))
STRIDES = {
    n: tuple(s for s in range(1, n) if math.gcd(s, n) == 1) or (1,)
    for n in range(1, 2 * MAX_SLOPE + 2)
}
NODE_CAP = 200  # legs tried by one shot's search before it takes the precomputed route


def pocket_bit(square: int) -> int:
    """The bit of a pocket in a mask of pockets: top pockets 0–3, bottom pockets 4–7."""
    return 1 << (square if square < COLUMNS else square - 2 * COLUMNS)


class _Search:
    """A depth-first search for legs that reveal exactly `target` pips, in an order drawn from
    the stream (None: in slope order), trying at most `budget` legs."""

    def __init__(self, stream: Stream | None, target: int, budget: int) -> None:
        self.stream = stream
        self.target = target
        self.budget = budget
        self.legs = legs()

    def order(self, count: int) -> list[int]:
        """The order in which to try count options: a random start and a random stride."""
        if self.stream is None:
            return list(range(count))
        start = self.stream.below(count)
        strides = STRIDES[count]
        stride = strides[self.stream.below(len(strides))]
        return [(start + i * stride) % count for i in range(count)]

    def after(self, leg: Leg, mask: int, hits: int, count: int) -> list[Leg] | None:
        """The legs after a bumper at the end of leg, given the pips and bumpers so far."""
        self.budget -= 1
        if self.budget < 0:
            return None
        options = self.legs[(not leg.up, leg.end)]
        order = self.order(len(options))
        if MAX_REVEALS - POPCOUNT[mask] - POPCOUNT[hits] - (self.target - count) <= 1:
            # Little to spare: the legs that reveal the most first.
            order.sort(key=lambda i: -POPCOUNT[options[i].mask & ~mask])
        for i in order:
            nxt = options[i]
            got = count + POPCOUNT[nxt.mask & ~mask]
            if got == self.target:
                return [nxt]  # it drops into the pocket it reaches, open either way
            bit = pocket_bit(nxt.pocket)
            if got > self.target or hits & bit:
                continue
            rest = self.after(nxt, mask | nxt.mask, hits | bit, got + 1)
            if rest is not None:
                return [nxt, *rest]
            if self.budget < 0:
                return None
        return None


def route(stream: Stream | None, arrow: int, reveals: int, budget: int) -> tuple[Leg, ...] | None:
    """Legs from an arrow that reveal exactly `reveals` pips, or None if the search gives up."""
    first = launch_legs()[arrow]
    count = len(first.pips)
    if count >= reveals:
        return (first,) if count == reveals else None
    rest = _Search(stream, reveals, budget).after(
        first, first.mask, pocket_bit(first.pocket), count + 1
    )
    return None if rest is None else (first, *rest)


@functools.cache
def fallback(arrow: int, reveals: int) -> tuple[Leg, ...]:
    """The route the search takes in slope order from an arrow revealing `reveals` pips: the
    one a shot takes when its own search gives up."""
    found = route(None, arrow, reveals, 10_000)
    if found is None:
        raise AssertionError(f"no route from arrow {arrow} revealing {reveals}")
    return found
