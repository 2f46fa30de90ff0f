"""The Prize Game Symbol Collection Meter fills visibly (engine/ui/power_puck_shot/meter.py): a
light runs up it to meet each Prize Game symbol as it lands, the segment then fills from the
bottom within the shot; with reduced motion no light runs and the segment is lit as it lands."""

from __future__ import annotations

import pytest

from engine.power_puck_shot.tokens import PRIZE
from engine.ui.power_puck_shot import art, meter
from engine.ui.power_puck_shot.timing import FLIGHT, ShotClock, prepare
from tests.test_ui_power_puck_shot_screens import Shape, shapes
from tests.test_ui_power_puck_shot_trail import BOOK, LAY, SIZE, at, centre, shots

INDEX = next(
    i
    for i in shots(BOOK, game="main")  # a symbol for a segment off the bottom
    if PRIZE in BOOK.events[i]["reveals"] and at(BOOK, i, 0.0).before.meter >= 2
)
CLOCK = ShotClock.of(prepare(BOOK, BOOK.events[INDEX], 0))
FIRST = list(BOOK.events[INDEX]["reveals"]).index(PRIZE)
LANDS = CLOCK.reveals[FIRST] + FLIGHT
SEGMENT = at(BOOK, INDEX, 0.0).before.meter  # the segment the first one fills


def drawn(t: float, reduced: bool = False) -> list[Shape]:
    mo = at(BOOK, INDEX, t, reduced=reduced)
    return shapes(lambda c: meter.meter(c, LAY, mo), SIZE)


def light(found: list[Shape]) -> list[Shape]:
    return [s for s in found if s.kind == "rect" and str(s.fill).startswith("#fff3b0")]


def gold_in(found: list[Shape], k: int) -> list[Shape]:
    """The gold fills inside segment k."""
    _, sy, _, sh = LAY.segment(k)
    return [s for s in found if s.kind == "rect" and s.fill == art.GOLD
            and sy - 0.5 <= s.box[1] and s.box[1] + s.box[3] <= sy + sh + 0.5]  # fmt: skip


def test_a_light_runs_up_the_meter_to_meet_the_symbol_as_it_lands() -> None:
    ys = []
    for k in range(1, 20):
        found = light(drawn(CLOCK.reveals[FIRST] + FLIGHT * k / 20))
        assert len(found) == 1
        ys.append(centre(found[0])[1])
    assert ys == sorted(ys, reverse=True) and ys[0] > ys[-1]  # up the meter
    _, sy, _, sh = LAY.segment(SEGMENT)
    assert abs(ys[-1] - (sy + sh / 2)) < sh * 0.3  # where its segment is
    assert light(drawn(CLOCK.reveals[FIRST] - 0.01)) == []  # not before the pip shows


def test_the_segment_fills_from_the_bottom_then_is_lit_whole() -> None:
    _, sy, _, sh = LAY.segment(SEGMENT)
    assert gold_in(drawn(LANDS - 0.02), SEGMENT) == []
    part = gold_in(drawn(LANDS + meter.FILL / 2), SEGMENT)
    assert len(part) == 1 and part[0].box[3] < sh * 0.8  # part full, from the bottom
    assert abs(part[0].box[1] + part[0].box[3] - (sy + sh - 2)) < 0.5
    full = gold_in(drawn(LANDS + meter.FILL + 0.01), SEGMENT)
    assert len(full) == 1 and full[0].box[3] == pytest.approx(sh - 4)
    assert CLOCK.total >= LANDS + meter.FILL  # within the shot


def test_with_reduced_motion_no_light_runs_and_the_segment_lights_as_it_lands() -> None:
    _, _, _, sh = LAY.segment(SEGMENT)
    for k in range(40):
        found = drawn(CLOCK.total * k / 40, reduced=True)
        assert light(found) == []
        assert all(s.box[3] == pytest.approx(sh - 4) for s in gold_in(found, SEGMENT))
    assert gold_in(drawn(LANDS + 0.01, reduced=True), SEGMENT)
