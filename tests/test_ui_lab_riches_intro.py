"""The Bonus Game's intro and its way out (engine/ui/lab_riches/intro.py), and the Power Surge
Prize Meter filling (engine/ui/lab_riches/meter.py), drawn from a real book."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from backends.canvas import BatchReader, CommandCanvas
from engine.games import get
from engine.lab_riches import rules
from engine.lab_riches.replay import Replay, State
from engine.outcome import Composition
from engine.ui.lab_riches import intro, meter
from engine.ui.lab_riches.layout import Layout, layout
from engine.ui.lab_riches.paint import ARRIVE, SETTLE
from engine.ui.motion import Motion
from engine.ui.widgets import BANNER_OPENS
from tests.test_ui_lab_riches import faded

LAY = layout(1280, 720)


def replay_of(composition: list[dict[str, Any]], seed: int = 7) -> Replay:
    """The replay of the current model's book of this composition."""
    game = get("lab-riches")
    book = game.book(game.table.model, Composition.from_json(composition), seed.to_bytes(16, "big"))
    return Replay(book)


def at(replay: Replay, kind: str, nth: int = 0) -> tuple[State, dict[str, Any]]:
    """The state after the nth event of a kind, and the event."""
    found = [i for i, e in enumerate(replay.events) if e["type"] == kind]
    return replay.state_at(found[nth]), dict(replay.events[found[nth]])


def drawn(paint: Any) -> list[list[Any]]:
    """The commands a painter draws at 1280 × 720."""
    canvas = CommandCanvas(1280, 720, lambda s, px, f, b: len(s) * px * 0.55)
    paint(canvas)
    return BatchReader().read(canvas.flush())


def top_squares(lay: Layout, state: State) -> set[int]:
    """The columns of the Top Row holding a bonus motif."""
    return {col for col in range(rules.COLUMNS) if state.top[col] == rules.BONUS}


@pytest.mark.parametrize("reduced", [False, True])
def test_the_motifs_that_started_the_bonus_game_light_up_before_the_banner(reduced: bool) -> None:
    state, _e = at(replay_of([{"feature": "instant", "pence": 500}]), "bonus_activated")
    motifs = top_squares(LAY, state)
    assert len(motifs) >= rules.BONUS_MOTIFS_TO_ACTIVATE
    m = Motion(reduced, 2.0)
    calls = drawn(lambda c: intro.motifs(c, LAY, state, intro.MOTIFS / 3, m))
    ringed = {col for col in range(rules.COLUMNS) for call in calls if call[0] == "rect"
              and call[1] == LAY.grid_x + col * LAY.cell + 3 and call[6] is not None}  # fmt: skip
    assert ringed == motifs  # each motif, and no other square
    rings = [call for call in calls if call[0] == "circle"]
    assert (len(rings) > 0) is not reduced  # rings spread from them unless motion is reduced
    banner = drawn(lambda c: intro.banner(c, LAY, intro.MOTIFS / 2, m))
    assert banner == []  # the banner waits for the motifs
    shown = drawn(lambda c: intro.banner(c, LAY, intro.banner_said(), m))
    assert "".join(c[1] for c in shown if c[0] == "text") == "BONUSGAMEACTIVATED"


def test_the_banner_is_said_when_its_words_are_in_place_and_the_window_comes_after() -> None:
    assert intro.banner_at(intro.banner_said()) == pytest.approx(BANNER_OPENS)
    e = {"type": "bonus_activated", "go": 1}
    shares = [intro.window_shown(e, k / 100) for k in range(101)]
    assert shares[0] == 0.0 and shares[-1] == 1.0
    assert all(a <= b for a, b in pairwise(shares))
    first = next(k for k, s in enumerate(shares) if s > 0) / 100
    assert intro.banner_said() < first < intro.BANNER_ENDS  # under the closing banner
    last = {"type": "bonus_row", "row": 0, "landed": 1, "award": "instant", "value": 500}
    assert intro.window_shown(last, 0.5) == 1.0 and intro.window_shown(last, 1.0) == 0.0
    up = {**last, "award": rules.UP}
    assert intro.window_shown(up, 1.0) == 1.0  # the Bonus Game goes on


def segments_event(replay: Replay) -> tuple[State, dict[str, Any]]:
    """A segments event that adds to segments already lit, and the state after it."""
    for i, e in enumerate(replay.events):
        if e["type"] == "segments" and int(e["meter"]) > int(e["count"]) and int(e["count"]) > 1:
            return replay.state_at(i), dict(e)
    raise AssertionError("no segments event on lit segments")


def test_new_segments_fill_one_after_another_after_the_number_arrives() -> None:
    replays = (replay_of([{"feature": "meter", "pence": 400}], seed) for seed in range(1, 60))
    replay = next(r for r in replays if any(
        e["type"] == "segments" and e["meter"] > e["count"] > 1 for e in r.events))  # fmt: skip
    state, e = segments_event(replay)
    before = state.meter - int(e["count"])
    levels = [meter.level(state, e, k / 400) for k in range(401)]
    assert levels[0] == before and levels[int(ARRIVE * 400)] == before  # not before it arrives
    assert levels[int(SETTLE * 400)] == state.meter and levels[-1] == state.meter
    assert all(a <= b for a, b in pairwise(levels))
    lit = [int(v + 1e-9) for v in levels]
    assert all(b - a <= 1 for a, b in pairwise(lit))  # one segment at a time
    assert sorted(set(lit)) == list(range(before, state.meter + 1))
    # the charge climbs the meter: from its foot, up, never down
    heights = [meter.charge_at(LAY, state, e, k / 400) for k in range(401)]
    ys = [h[1] for h in heights if h is not None]
    assert ys and all(a >= b for a, b in pairwise(ys)) and ys[0] > ys[-1]
    assert ys[0] >= meter.segment_rect(LAY, 1)[1]  # it sets off at the foot, by segment 1
    _x, top, _w, high = meter.segment_rect(LAY, state.meter)
    assert ys[-1] <= top + high + 1  # and ends on the last segment lit


@pytest.mark.parametrize("reduced", [False, True])
def test_the_charge_shows_only_when_motion_is_not_reduced(reduced: bool) -> None:
    replay = replay_of([{"feature": "meter", "pence": 400}])
    state, e = at(replay, "segments")
    p = (ARRIVE + SETTLE) / 2
    calls = drawn(lambda c: meter.meter(c, LAY, state, e, p, Motion(reduced, 1.5)))
    assert any(c[0] == "circle" for c in calls) is not reduced


def test_a_lighting_box_s_gold_and_glow_grow_rather_than_jump() -> None:
    replay = replay_of([{"feature": "meter", "pence": 400}])
    state, e = at(replay, "meter_box", -1)
    box = int(e["box"])
    bx, by = LAY.meter_box(box)[:2]

    def gold_alpha(p: float) -> float:
        calls = drawn(lambda c: meter.meter(c, LAY, state, e, p, Motion(False, 0.8)))
        for alpha, call in faded(calls):
            if (
                call[0] == "rect"
                and (call[1], call[2]) == (bx + 1, by + 1)
                and call[6] == "#ffffff"
            ):
                return alpha
        return 0.0

    shown = [gold_alpha(k / 20) for k in range(21)]
    assert shown[0] < 0.05 and shown[-1] == 1.0
    assert all(a <= b for a, b in pairwise(shown))
    assert 0.3 < gold_alpha(SETTLE / 3) < 1.0
