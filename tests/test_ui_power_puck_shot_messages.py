"""The window changing game under the banners (engine/ui/power_puck_shot/messages.py, `dip`):
it darkens before the change and comes up after, never a cut from one window to the other."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from backends.canvas import BatchReader, CommandCanvas
from engine.ui.power_puck_shot import messages
from engine.ui.power_puck_shot.timing import CHANGE, SECONDS
from tests.test_ui_lab_riches import faded
from tests.test_ui_power_puck_shot_lights import POWER, moment
from tests.test_ui_power_puck_shot_trail import BOOK, LAY


def darkness(mo: Any) -> float:
    """How dark the window is drawn under the banners: the alpha of a window-wide dip."""
    canvas = CommandCanvas(LAY.width, LAY.height, lambda s, px, _f, _b: len(s) * px * 0.55)
    messages.banners(canvas, LAY, mo)
    found = 0.0
    for alpha, cmd in faded(BatchReader().read(canvas.flush())):
        if cmd[0] == "rect" and cmd[1:5] == [0, 0, LAY.width, LAY.height]:
            found = max(found, alpha)
    return found


@pytest.mark.parametrize("reduced", [False, True])
@pytest.mark.parametrize("kind", ["bonus_start", "prize_start"])
def test_the_window_dips_as_it_changes_game(kind: str, reduced: bool) -> None:
    share = messages.DIP / SECONDS[kind]
    seen = [darkness(moment(BOOK, kind, CHANGE + share * k / 10, reduced=reduced))
            for k in range(-12, 13)]  # fmt: skip
    assert seen[0] == seen[-1] == 0.0  # the window itself, before and after
    assert max(seen) == pytest.approx(1.0, abs=0.11)  # dark as it changes
    peak = seen.index(max(seen))
    assert seen[:peak] == sorted(seen[:peak]) and seen[peak:] == sorted(seen[peak:], reverse=True)
    assert darkness(moment(BOOK, kind, CHANGE - 2 * share, reduced=reduced)) == 0.0


def test_after_a_bonus_game_the_main_window_comes_up_out_of_the_dark() -> None:
    seen = [darkness(moment(POWER, "bonus_end", p / 100)) for p in range(0, 60)]
    assert seen[0] == pytest.approx(1.0) and seen[-1] == 0.0
    assert seen == sorted(seen, reverse=True)


def test_the_dip_keeps_the_pace_of_the_rest() -> None:
    """At a faster pace the event's real seconds are fewer and the dip as short a share."""
    for seconds in (2.8, 0.9):
        mo = moment(BOOK, "bonus_start", CHANGE + 0.5 * messages.DIP / SECONDS["bonus_start"])
        faster = replace(mo, m=replace(mo.m, seconds=seconds))
        assert darkness(faster) == pytest.approx(0.5)
