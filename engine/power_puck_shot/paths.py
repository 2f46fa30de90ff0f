"""£500K Power Puck Shot: the path of a shot, and an independent check of one.

The outcome fixes how many pips a shot reveals; the arrow the player picks changes only the path
drawn. `shot_path(seed, shot, arrow, reveals)` finds, for any arrow, a path under the rules of
docs/games/power-puck-shot.md ("Shots") that reveals exactly that many, as a pure function of its
arguments. `check_path` re-checks a path from those rules alone (it never re-runs the search).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from engine.power_puck_shot.geometry import (
    ARROW_DEGREES,
    ARROW_SLOPES,
    ARROWS,
    BOTTOM_MOUTH,
    BOTTOM_POCKETS,
    COLUMNS,
    DROP,
    LAUNCH,
    MAX_REVEALS,
    MAX_SLOPE,
    MIDDLE_SQUARES,
    NODE_CAP,
    PIP_MARGIN,
    PIP_RADIUS,
    POCKETS,
    POST_MARGIN,
    ROWS,
    SLOPE_UNIT,
    TOP_MOUTH,
    TOP_POCKETS,
    Leg,
    fallback,
    mouth_pocket,
    pip,
    route,
    slope_allowed,
)
from engine.rng import Stream

# The table's geometry is defined in geometry.py and is part of this module's interface.
__all__ = ["ARROWS", "ARROW_DEGREES", "ARROW_SLOPES", "BOTTOM_MOUTH", "BOTTOM_POCKETS", "COLUMNS"]
__all__ += ["DROP", "LAUNCH", "MAX_REVEALS", "MAX_SLOPE", "MIDDLE_SQUARES", "PIP_MARGIN"]
__all__ += ["PIP_RADIUS", "POCKETS", "POST_MARGIN", "ROWS", "SLOPE_UNIT", "TOP_MOUTH"]
__all__ += ["TOP_POCKETS", "Path", "Reveal", "check_path", "pip", "shot_path"]

DOMAIN = b"power-puck-shot/path/1\x00"  # the shot's stream: DOMAIN || seed || shot || arrow || n
BUMPER_CHANCE = (1, 4)  # each pocket the path leaves alone shows a bumper with this chance
Point = tuple[float, float]


def _r6(value: float) -> float:
    """A coordinate or distance rounded to 1e-6 (never -0.0), so its JSON is stable."""
    return round(value, 6) + 0.0


@dataclass(frozen=True, slots=True)
class Reveal:
    """A pip revealed: its square and the distance along the path where the puck reveals it."""

    square: int
    at: float


@dataclass(frozen=True, slots=True)
class Path:
    """One shot: the polyline the puck follows (from the launch gate to its drop into a pocket),
    what each point is, the bumpers shown, the pips revealed in order, the pocket, the length."""

    arrow: int
    points: tuple[Point, ...]
    kinds: tuple[str, ...]  # per point: "launch", "wall", "bumper" or "drop"
    bumpers: tuple[int, ...]  # the pockets (square numbers) showing a Spinning Bumper, sorted
    reveals: tuple[Reveal, ...]
    pocket: int  # the pocket (square number) the puck drops into
    length: float

    def to_json(self) -> dict[str, object]:
        """The path as plain JSON data."""
        return {
            "arrow": self.arrow,
            "points": [list(point) for point in self.points],
            "kinds": list(self.kinds),
            "bumpers": list(self.bumpers),
            "reveals": [{"square": r.square, "at": r.at} for r in self.reveals],
            "pocket": self.pocket,
            "length": self.length,
        }


def shot_path(seed: bytes, shot: int, arrow: int, reveals: int) -> Path:
    """The path of shot number `shot` from `arrow` (0–5) revealing exactly `reveals` pips."""
    if not isinstance(seed, bytes | bytearray):
        raise TypeError("the seed must be bytes")
    if not isinstance(shot, int) or not 0 <= shot < 1 << 32:
        raise ValueError(f"shot must be an integer in 0..2**32-1, got {shot!r}")
    if not isinstance(arrow, int) or not 0 <= arrow < len(ARROWS):
        raise ValueError(f"arrow must be 0..{len(ARROWS) - 1}, got {arrow!r}")
    if not isinstance(reveals, int) or not 1 <= reveals <= MAX_REVEALS:
        raise ValueError(f"reveals must be 1..{MAX_REVEALS}, got {reveals!r}")
    stream = Stream(DOMAIN + bytes(seed) + shot.to_bytes(4, "big") + bytes((arrow, reveals)))
    legs = route(stream, arrow, reveals, NODE_CAP) or fallback(arrow, reveals)
    return _build(stream, arrow, legs)


def _build(stream: Stream, arrow: int, legs: tuple[Leg, ...]) -> Path:
    """The Path of a chain of legs, with the bumpers it hits and the ones drawn to show."""
    points: list[Point] = [LAUNCH]
    kinds = ["launch"]
    found: list[Reveal] = []
    hits: list[int] = []
    mask = 0
    done = 0.0
    last = len(legs) - 1
    for i, leg in enumerate(legs):
        points.extend(leg.walls)
        kinds.extend("wall" for _ in leg.walls)
        for square, at in leg.pips:
            if not mask & 1 << (square - 4):
                found.append(Reveal(square, _r6(done + at)))
        mask |= leg.mask
        done += leg.length
        x, y = leg.end / 4, TOP_MOUTH if leg.up else BOTTOM_MOUTH
        if i < last:
            points.append((x, y))
            kinds.append("bumper")
            found.append(Reveal(leg.pocket, _r6(done)))
            hits.append(leg.pocket)
        else:
            points.append((_r6(x + DROP * leg.exit[0]), _r6(y + DROP * leg.exit[1])))
            kinds.append("drop")
            done += DROP
    pocket = legs[-1].pocket
    free = [p for p in POCKETS if p not in hits and p != pocket]
    shown = set(hits)
    shown.update(
        p for p, on in zip(free, stream.flags(len(free), *BUMPER_CHANCE), strict=True) if on
    )
    if not shown:
        shown.add(stream.choice(free))
    return Path(
        arrow=arrow,
        points=tuple(points),
        kinds=tuple(kinds),
        bumpers=tuple(sorted(shown)),
        reveals=tuple(found),
        pocket=pocket,
        length=_r6(done),
    )


# The checker's tolerances: points are rounded to 1e-6, distances compared to 1e-4.
ON_LINE = 2e-6
SAME = 1e-4


def _unit(a: Point, b: Point) -> tuple[float, float, float]:
    """The unit vector from a to b and the distance."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.sqrt(dx * dx + dy * dy)
    return (dx / length, dy / length, length) if length > 0 else (0.0, 0.0, 0.0)


def check_path(path: Path, reveals: int) -> list[str]:
    """What breaks the rules of a shot in this path revealing `reveals` pips; empty when sound."""
    if not 0 <= path.arrow < len(ARROWS):
        return [f"no arrow {path.arrow}"]
    points, kinds = path.points, path.kinds
    if len(points) < 2 or len(kinds) != len(points):
        return ["a path needs two points or more, each with its kind"]
    errors: list[str] = []
    if sorted(set(path.bumpers)) != list(path.bumpers) or not set(path.bumpers) <= set(POCKETS):
        errors.append(f"bumpers {path.bumpers} are not distinct pockets in order")
    segments = [_unit(a, b) for a, b in itertools.pairwise(points)]
    if any(length < 1e-3 for _, _, length in segments):
        return [*errors, "a segment has no length"]
    if math.dist(points[0], LAUNCH) > ON_LINE:
        errors.append(f"starts at {points[0]}, not at the launch gate {LAUNCH}")
    ux, uy, _ = segments[0]
    if math.dist((ux, uy), ARROWS[path.arrow]) > SAME:
        errors.append(f"leaves the gate at ({ux:.6f}, {uy:.6f}), not along arrow {path.arrow}")
    for x, y in points[:-1]:
        if not (
            -ON_LINE <= x <= 4 + ON_LINE and TOP_MOUTH - ON_LINE <= y <= BOTTOM_MOUTH + ON_LINE
        ):
            errors.append(f"({x}, {y}) is off the middle rows before the puck drops")
    hits: dict[int, float] = {}  # pocket -> distance along the path of its bumper
    done = segments[0][2]
    for i in range(1, len(points) - 1):
        errors.extend(_turn(path, i, segments[i - 1], segments[i], hits, done))
        done += segments[i][2]
    errors.extend(_drop(path, segments[-1], hits))
    if kinds[0] != "launch" or kinds[-1] != "drop":
        errors.append("the first point must be the launch and the last the drop")
    errors.extend(_reveals(path, segments, hits, reveals))
    if abs(sum(length for _, _, length in segments) - path.length) > SAME:
        errors.append(f"length {path.length} is not the polyline's")
    return errors


def _turn(
    path: Path,
    i: int,
    before: tuple[float, float, float],
    after: tuple[float, float, float],
    hits: dict[int, float],
    done: float,
) -> list[str]:
    """What is wrong with the turn at points[i]: a bounce off a side wall or off a bumper."""
    x, y = path.points[i]
    on_wall = min(abs(x), abs(x - 4)) <= ON_LINE
    on_mouth = min(abs(y - TOP_MOUTH), abs(y - BOTTOM_MOUTH)) <= ON_LINE
    where = f"turn {i} at ({x}, {y})"
    if on_wall and not on_mouth:
        into = -1 if x < 2 else 1  # the wall is to the left (-1) or to the right (+1)
        if path.kinds[i] != "wall":
            return [f"{where} is a wall bounce, not a {path.kinds[i]!r}"]
        if before[0] * into < 1e-3:
            return [f"{where}: the puck is not moving into the wall"]
        if abs(after[0] + before[0]) > SAME or abs(after[1] - before[1]) > SAME:
            return [f"{where}: the angle out is not the angle in"]
        return []
    if on_mouth and not on_wall:
        top = y < 2
        pocket = mouth_pocket(x, top, ON_LINE)
        if path.kinds[i] != "bumper":
            return [f"{where} is a bumper bounce, not a {path.kinds[i]!r}"]
        if pocket is None:
            return [f"{where}: the puck reaches the mouths on or near a post"]
        if pocket not in path.bumpers:
            return [f"{where}: pocket {pocket} shows no bumper to bounce off"]
        if pocket in hits:
            return [f"{where}: the bumper of pocket {pocket} was hit already and is gone"]
        inward = -1 if top else 1  # into the pocket
        if before[1] * inward <= 0 or after[1] * inward >= 0:
            return [f"{where}: must come in from the table and go back into it"]
        if not slope_allowed(after[0], after[1]):
            return [f"{where}: the bumper sends the puck off at a slope it never takes"]
        hits[pocket] = done
        return []
    return [f"{where} is neither on a side wall nor on a pocket's mouth"]


def _drop(path: Path, last: tuple[float, float, float], hits: dict[int, float]) -> list[str]:
    """What is wrong with the last segment: it must cross an open pocket's mouth and drop."""
    (ax, ay), (bx, by) = path.points[-2], path.points[-1]
    top = by < TOP_MOUTH
    if not top and by <= BOTTOM_MOUTH:
        return [f"ends at ({bx}, {by}), on the table, not in a pocket"]
    mouth = TOP_MOUTH if top else BOTTOM_MOUTH
    if (ay - mouth) * (by - mouth) >= 0:
        return ["the last segment does not cross a pocket's mouth"]
    part = (mouth - ay) / (by - ay)
    cross = ax + part * (bx - ax)
    pocket = mouth_pocket(cross, top, ON_LINE)
    if pocket is None:
        return [f"crosses the mouths at x = {cross:.6f}, on or near a post"]
    errors = []
    column = pocket % COLUMNS
    inside = column < bx < column + 1 and (0 < by < 1 if top else ROWS - 1 < by < ROWS)
    if not inside:
        errors.append(f"ends at ({bx}, {by}), outside pocket {pocket}")
    if abs((1 - part) * last[2] - DROP) > SAME:
        errors.append(f"slides {(1 - part) * last[2]:.6f} into the pocket, not {DROP}")
    if pocket != path.pocket:
        errors.append(f"drops into pocket {pocket}, not {path.pocket}")
    if pocket in path.bumpers and pocket not in hits:
        errors.append(f"runs through the bumper of pocket {pocket} without bouncing off it")
    return errors


def _reveals(
    path: Path, segments: list[tuple[float, float, float]], hits: dict[int, float], reveals: int
) -> list[str]:
    """What is wrong with the reveals: each pip passed over (first pass) or bumper hit, in order."""
    seen = dict(hits)  # the pockets whose bumpers were hit, and where
    done = 0.0
    errors = []
    for (ax, ay), (ux, uy, length) in zip(path.points, segments, strict=False):
        for square in range(COLUMNS * ROWS):
            px, py = pip(square)
            along = min(max((px - ax) * ux + (py - ay) * uy, 0.0), length)
            gap = math.dist((ax + along * ux, ay + along * uy), (px, py))
            if abs(gap - PIP_RADIUS) < PIP_MARGIN / 2:
                errors.append(f"passes {gap:.6f} from pip {square}: too close to its edge to call")
            elif gap < PIP_RADIUS and square not in seen:
                seen[square] = done + along
        done += length
    expected = sorted(seen.items(), key=lambda item: item[1])
    got = [(r.square, r.at) for r in path.reveals]
    if [s for s, _ in expected] != [s for s, _ in got]:
        errors.append(f"reveals {[s for s, _ in got]}, the path gives {[s for s, _ in expected]}")
    elif any(abs(a - b) > SAME for (_, a), (_, b) in zip(expected, got, strict=True)):
        errors.append("a reveal is not where the puck passes its pip")
    if len(got) != reveals:
        errors.append(f"reveals {len(got)} pips, not {reveals}")
    return errors
