"""How a celebration is drawn (engine/ui/fanfare.py): by its grade, the same picture for the
same moment, a bounded number of shapes a frame, and no flourishes with reduced motion."""

from __future__ import annotations

from typing import Any

import pytest

from backends.canvas import BatchReader, CommandCanvas
from engine.ui import fanfare
from engine.ui.celebration import COUNTED, Grade
from engine.ui.motion import Motion

SIZE = (390, 844)


def drawn(grade: Grade, p: float, m: Motion) -> list[list[Any]]:
    """The commands of a celebration's backdrop and burst at progress p."""
    canvas = CommandCanvas(*SIZE, lambda s, px, f, b: len(s) * px * 0.55)
    fanfare.backdrop(canvas, *SIZE, 195, 300, grade, p, m)
    fanfare.front(canvas, 195, 400, 200, grade, p, m, COUNTED)
    return [list(c) for c in BatchReader().read(canvas.flush())]


def shapes(commands: list[list[Any]]) -> int:
    return sum(c[0] in ("rect", "circle", "path") for c in commands)


@pytest.mark.parametrize("grade", list(Grade))
def test_each_grade_draws_the_same_picture_for_the_same_moment(grade: Grade) -> None:
    for p in (0.1, 0.4, 0.7, 0.95):
        assert drawn(grade, p, Motion()) == drawn(grade, p, Motion())


def test_the_celebration_grows_with_the_grade_and_stays_cheap() -> None:
    busiest = {g: max(shapes(drawn(g, k / 50, Motion())) for k in range(51)) for g in Grade}
    assert busiest[Grade.NONE] == busiest[Grade.PRICE_BACK] == 0  # no burst, no celebration
    assert 0 < busiest[Grade.WIN] < busiest[Grade.BIG_WIN] < busiest[Grade.TOP_PRIZE] <= 200


def test_reduced_motion_keeps_the_story_without_the_flourishes() -> None:
    for g in Grade:
        for k in range(51):
            reduced = drawn(g, k / 50, Motion(reduced=True))
            assert not any(c[0] == "circle" for c in reduced)  # no sparks, no falling coins
            if g >= Grade.BIG_WIN:  # the darkened window and still rays stay
                assert reduced == drawn(g, 0.0, Motion(reduced=True)) and shapes(reduced) > 1


def test_a_glow_is_steady_at_rest_and_with_reduced_motion() -> None:
    assert fanfare.shine(1.0, Motion()) == 1.0
    assert all(fanfare.shine(k / 10, Motion(reduced=True)) == 1.0 for k in range(11))
    assert min(fanfare.shine(k / 100, Motion(seconds=2.0)) for k in range(100)) < 1.0
