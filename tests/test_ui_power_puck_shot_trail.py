"""The puck's comet trail and its bounces' sparks (engine/ui/power_puck_shot/trail.py), read
from what the Play Grid's painter draws at moments of real shots: a trail only while the puck
moves, on its path behind it, coloured by the puck, a spray at each cushion and bumper it
meets, and none of it with reduced motion."""

from __future__ import annotations

import math
from typing import Any

import pytest

from engine.book import Book
from engine.outcome import Composition
from engine.power_puck_shot.generator import build_book
from engine.power_puck_shot.replay import Replay
from engine.ui.draw import along
from engine.ui.motion import Motion
from engine.ui.power_puck_shot import paint, trail
from engine.ui.power_puck_shot.layout import layout
from engine.ui.power_puck_shot.timing import LAUNCH, SPEED, ShotClock, prepare
from tests.test_ui_power_puck_shot import CASES, EVERYTHING, MODEL
from tests.test_ui_power_puck_shot_screens import Shape, shapes

SIZE = (1280, 720)
LAY = layout(*SIZE)


def book_of(composition: list[dict[str, Any]], seed: int = 7) -> Book:
    return build_book(MODEL, Composition.from_json(composition), seed.to_bytes(16, "big"))


def at(book: Book, index: int, t: float, *, reduced: bool = False, arrow: int = 0) -> Any:
    """The Moment t seconds into shot `index` of a book, shot along `arrow`."""
    replay = Replay(book)
    event = prepare(book, book.events[index], arrow)
    total = ShotClock.of(event).total
    return paint.Moment(replay.state_at(index), replay.state_at(index - 1), event,
                        min(1.0, t / total), Motion(reduced, total), 0.0, dict(event))  # fmt: skip


def shots(book: Book, **where: Any) -> list[int]:
    """The indexes of the book's shots whose fields match `where`."""
    return [i for i, e in enumerate(book.events) if e["type"] == "shot"
            and all(bool(e.get(k)) == v if isinstance(v, bool) else e.get(k) == v
                    for k, v in where.items())]  # fmt: skip


def drawn(mo: Any) -> list[Shape]:
    return shapes(lambda c: paint.grid(c, LAY, mo, mo.stage), SIZE)


def dots(mo: Any) -> list[Shape]:
    """The trail's dots: circles in its puck's glow colour."""
    glow = trail.COLOURS[trail.kind(mo.event)][0]
    return [s for s in drawn(mo) if s.kind == "circle" and str(s.fill)[:7] == glow]


def sparks(mo: Any) -> list[Shape]:
    colours = {c for glow, core, _ in trail.COLOURS.values() for c in (glow, core)}
    return [s for s in drawn(mo) if s.kind == "path" and str(s.stroke)[:7] in colours]


def centre(s: Shape) -> tuple[float, float]:
    x, y, w, h = s.box
    return x + w / 2, y + h / 2


BOOK = book_of(EVERYTHING)
FIRST = shots(BOOK, game="main")[0]


@pytest.mark.parametrize("arrow", [0, 2, 5])
def test_the_trail_shows_only_while_the_puck_moves_on_its_path_behind_it(arrow: int) -> None:
    clock = ShotClock.of(prepare(BOOK, BOOK.events[FIRST], arrow))
    end = LAUNCH + clock.travel
    side = 4 * LAY.cell
    seen = []
    for step in range(int(clock.total / 0.02) + 1):
        t = step * 0.02
        mo = at(BOOK, FIRST, t, arrow=arrow)
        found = dots(mo)
        seen.append(len(found))
        if t <= LAUNCH or t >= end + trail.TRAIL:  # before the strike, or the puck has dropped
            assert found == [], t
            continue
        if LAUNCH + 0.05 < t < end - 0.05:
            assert found, t
        assert len(found) <= trail.SAMPLES
        path = paint.path_of(mo.event)
        assert path is not None
        head = along([LAY.at(*p) for p in path.points], clock.moved(t))
        for s in found:
            x, y = centre(s)
            assert LAY.grid_x <= x <= LAY.grid_x + side and LAY.grid_y <= y <= LAY.grid_y + side
            # behind the puck, no further than the path it slid in TRAIL seconds
            assert math.dist((x, y), head) <= trail.TRAIL * SPEED * LAY.cell + 1.0
    assert max(seen) == trail.SAMPLES  # the whole trail while the puck is under way


def test_with_reduced_motion_the_puck_leaves_no_trail_and_no_sparks() -> None:
    clock = ShotClock.of(prepare(BOOK, BOOK.events[FIRST], 0))
    assert clock.bounces  # the shot meets cushions or bumpers
    for step in range(int(clock.total / 0.02) + 1):
        mo = at(BOOK, FIRST, step * 0.02, reduced=True)
        assert dots(mo) == [] and sparks(mo) == []


def test_a_power_puck_s_trail_is_gold_and_brighter_a_bonus_puck_s_its_own() -> None:
    power = book_of(CASES["power-puck"])
    plain, bonus, charged = FIRST, shots(BOOK, game="bonus")[0], shots(power, power=True)[0]
    colours = {}
    for book, index in ((BOOK, plain), (BOOK, bonus), (power, charged)):
        clock = ShotClock.of(prepare(book, book.events[index], 0))
        mo = at(book, index, LAUNCH + clock.travel / 2)
        found = dots(mo)
        assert found
        colours[trail.kind(mo.event)] = max(int(str(s.fill)[7:9], 16) for s in found)
    assert set(colours) == {"puck", "bonus", "power"}
    assert colours["power"] > colours["puck"] and colours["bonus"] > colours["puck"]
    assert len({trail.COLOURS[k][0] for k in colours}) == 3


@pytest.mark.parametrize("arrow", [0, 5])
def test_each_bounce_throws_sparks_where_the_puck_meets_the_cushion(arrow: int) -> None:
    event = prepare(BOOK, BOOK.events[FIRST], arrow)
    clock = ShotClock.of(event)
    path = paint.path_of(event)
    assert path is not None and clock.bounces
    kinds = [path.kinds[i] for _, i in clock.bounces]
    assert set(kinds) <= {"wall", "bumper"} and kinds.count("wall") == path.kinds.count("wall")
    reach = LAY.cell * trail.REACH
    for when, i in clock.bounces:
        found = sparks(at(BOOK, FIRST, when + trail.SPARK / 3, arrow=arrow))
        x, y = LAY.at(*path.points[i])
        near = [s for s in found if math.dist(centre(s), (x, y)) <= reach]
        assert len(near) >= trail.SPARKS, (when, i)
    quiet = [t / 50 for t in range(int(clock.total * 50))
             if all(not 0 <= t / 50 - when < trail.SPARK for when, _ in clock.bounces)]  # fmt: skip
    assert quiet
    assert all(sparks(at(BOOK, FIRST, t, arrow=arrow)) == [] for t in quiet[::5])
