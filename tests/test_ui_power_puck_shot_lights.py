"""What lights up as a feature starts (engine/ui/power_puck_shot/lights.py), read from what the
painters draw: the highlights stand at the symbols that started it, pulse no more than motion.py
allows, and hold steady with reduced motion."""

from __future__ import annotations

import math
from itertools import pairwise
from typing import Any

import pytest

from engine.book import Book
from engine.power_puck_shot.replay import Replay
from engine.power_puck_shot.tokens import BONUS
from engine.ui.motion import MAX_FLASHES_PER_SECOND, Motion
from engine.ui.power_puck_shot import art, lights, meter, paint
from engine.ui.power_puck_shot.timing import CHANGE, JOIN, SECONDS, power_message_at, prepare
from tests.test_ui_power_puck_shot import CASES
from tests.test_ui_power_puck_shot_screens import Shape, shapes
from tests.test_ui_power_puck_shot_trail import BOOK, LAY, SIZE, at, book_of, centre, shots

POWER = book_of(CASES["power-puck"])


def moment(book: Book, kind: str, p: float, *, reduced: bool = False) -> Any:
    """The Moment at progress p of the book's first event of a kind, its last shot prepared."""
    index = next(i for i, e in enumerate(book.events) if e["type"] == kind)
    replay = Replay(book)
    event = book.events[index]
    last = max(i for i in range(index) if book.events[i]["type"] == "shot")
    shot = dict(prepare(book, book.events[last], 0))
    seconds = SECONDS.get(kind, 1.0)
    return paint.Moment(replay.state_at(index), replay.state_at(index - 1), event, p,
                        Motion(reduced, seconds), 0.0, shot)  # fmt: skip


def gold(found: list[Shape], kind: str) -> list[Shape]:
    """The shapes of a kind outlined in gold (a highlight's ring or glow)."""
    return [s for s in found if s.kind == kind and str(s.stroke)[:7] == art.GOLD]


def near(point: tuple[float, float], s: Shape) -> bool:
    return math.dist(point, centre(s)) < 0.5


def grid(mo: Any) -> list[Shape]:
    return shapes(lambda c: paint.grid(c, LAY, mo, mo.stage), SIZE)


def test_the_bonus_motifs_that_start_a_bonus_game_glow_where_they_are() -> None:
    mo = moment(BOOK, "bonus_start", 0.1)
    path = paint.path_of(mo.last_shot)
    assert path is not None
    motifs = [LAY.square(r.square) for r, name in zip(path.reveals, mo.last_shot["reveals"],
                                                     strict=True) if name == BONUS]  # fmt: skip
    assert len(motifs) >= 3
    rings = gold(grid(mo), "circle")
    assert rings and all(any(near(m, s) for m in motifs) for s in rings)
    assert all(any(near(m, s) for s in rings) for m in motifs)
    assert gold(grid(moment(BOOK, "bonus_start", CHANGE + 0.01)), "circle") == []
    shot = at(BOOK, shots(BOOK, game="main")[0], 100.0)  # the shot itself, at rest
    assert gold(grid(shot), "circle") == []


@pytest.mark.parametrize("kind", ["bonus_start", "prize_start"])
def test_with_reduced_motion_a_feature_s_highlight_is_steady(kind: str) -> None:
    def looks(reduced: bool) -> set[tuple[Any, ...]]:
        seen = set()
        for step in range(1, 60):
            mo = moment(BOOK, kind, CHANGE * step / 60, reduced=reduced)
            found = grid(mo) + shapes(lambda c, mo=mo: meter.meter(c, LAY, mo), SIZE)
            seen.add(tuple((s.kind, s.box, s.stroke) for s in found if str(s.stroke)[:7]
                           == art.GOLD))  # fmt: skip
        return seen

    assert len(looks(reduced=True)) == 1  # the same highlight all through
    assert len(looks(reduced=False)) > 3  # it pulses


def test_the_collected_segments_light_in_turn_as_the_prize_game_unlocks() -> None:
    def lit(p: float, reduced: bool = False) -> set[int]:
        mo = moment(BOOK, "prize_start", p, reduced=reduced)
        found = gold(shapes(lambda c: meter.meter(c, LAY, mo), SIZE), "rect")
        return {k for k in range(10) if any(near(centre_of(LAY.segment(k)), s) for s in found)}

    collected = Replay(BOOK).state_at(len(BOOK.events) - 1).meter
    assert collected >= 6
    assert lit(0.005) == {0}  # the bottom one first
    assert lit(CHANGE - 0.01) == set(range(collected))
    assert lit(CHANGE + 0.01) == set()  # the window has changed
    assert lit(0.005, reduced=True) == set(range(collected))  # all at once, steady
    counts = [len(lit(CHANGE * k / 40)) for k in range(40)]
    assert counts == sorted(counts)  # one after another, none going out


def centre_of(rect: tuple[float, float, float, float]) -> tuple[float, float]:
    x, y, w, h = rect
    return x + w / 2, y + h / 2


def counter(mo: Any) -> list[Shape]:
    return shapes(lambda c: paint.counter(c, LAY, mo), SIZE)


def test_power_puck_all_symbols_x2_pops_a_badge_onto_each_power_puck() -> None:
    start = power_message_at(next(e for e in POWER.events if e["type"] == "bonus_end"))
    spots = paint.icon_spots(LAY, moment(POWER, "bonus_end", 1.0).state.pucks_left)
    power = moment(POWER, "bonus_end", 1.0).state.power_pucks
    assert power >= 1
    assert [s for s in counter(moment(POWER, "bonus_end", start - 0.01)) if s.text == "×2"] == []
    badges = [s for s in counter(moment(POWER, "bonus_end", 0.999)) if s.text == "×2"]
    assert len(badges) == power
    for (x, y, size), s in zip(spots, badges, strict=False):
        assert math.dist((x, y), centre(s)) < size  # on its puck
    rings = gold(counter(moment(POWER, "bonus_end", JOIN + 0.05)), "circle")
    assert {round(centre(s)[0]) for s in rings} == {round(x) for x, _, _ in spots[:power]}
    waiting = gold(counter(moment(POWER, "bonus_end", JOIN - 0.05)), "circle")
    x, _, w, _ = LAY.pucks
    assert waiting and all(centre(s)[0] > x + w for s in waiting)  # beside the counter
    assert gold(counter(moment(POWER, "row_won", 0.5)), "circle") == []  # no Bonus Game ending


def test_a_power_puck_s_symbols_wear_x2_as_they_show() -> None:
    index = shots(POWER, power=True)[0]
    mo = at(POWER, index, 100.0)
    path = paint.path_of(mo.event)
    assert path is not None
    badges = [s for s in grid(mo) if s.text == "×2"]
    assert len(badges) == len(path.reveals)
    for r in path.reveals:
        assert any(math.dist(LAY.square(r.square), centre(s)) < LAY.cell / 2 for s in badges)
    plain = at(POWER, shots(POWER, power=False, game="main")[0], 100.0)
    assert [s for s in grid(plain) if s.text == "×2"] == []


@pytest.mark.parametrize("seconds", [0.3, 0.8, 1.5, 2.8, 6.0])
def test_a_highlight_pulses_no_more_than_three_times_a_second(seconds: float) -> None:
    m = Motion(False, seconds)
    steps = 2000
    for start, end in ((0.0, CHANGE), (JOIN, 1.0)):
        values = [lights.pulse(m, start + (end - start) * k / steps, start, end)
                  for k in range(steps)]  # fmt: skip
        dips = sum(1 for a, b, c in zip(values, values[1:], values[2:], strict=False)
                   if b < a and b <= c)  # fmt: skip
        assert dips <= max(0.0, seconds * (end - start) * MAX_FLASHES_PER_SECOND)
        assert all(0.0 <= v <= 1.0 for v in values)
    steady = Motion(True, seconds)
    assert {lights.pulse(steady, p / 10, 0.0, CHANGE) for p in range(7)} == {1.0}
    assert all(b >= a for a, b in pairwise(lights.pop(steady, q / 10)[1] for q in range(11)))


def test_a_revealed_symbol_lands_larger_and_settles_or_fades_in_with_reduced_motion() -> None:
    index = shots(BOOK, game="main")[0]
    clock = at(BOOK, index, 0.0).event["clock"]
    path = paint.path_of(at(BOOK, index, 0.0).event)
    assert path is not None
    first = clock.reveals[0]
    x, y = LAY.square(path.reveals[0].square)

    def rings(t: float, reduced: bool = False) -> list[Shape]:
        """The white ring widening from the first pip as it shows its symbol."""
        return [s for s in grid(at(BOOK, index, t, reduced=reduced)) if s.kind == "circle"
                and str(s.stroke).startswith("#ffffff") and near((x, y), s)]  # fmt: skip

    steps = [first + lights.POP * k / 10 for k in range(1, 10)]
    landing = [lights.pop(Motion(), (t - first) / lights.POP)[0] for t in steps]
    assert landing == sorted(landing, reverse=True) and landing[0] > 1.2 and landing[-1] > 1.0
    assert lights.pop(Motion(), 1.0) == (1.0, 1.0)
    assert all(lights.pop(Motion(reduced=True), q / 10)[0] == 1.0 for q in range(11))
    widths = [rings(first + lights.FLASH * k / 5)[0].box[2] for k in range(5)]
    assert widths == sorted(widths) and widths[0] < widths[-1]  # widening
    assert rings(first - 0.02) == rings(first + lights.FLASH + 0.01) == []
    assert rings(first + 0.05, reduced=True) == []
