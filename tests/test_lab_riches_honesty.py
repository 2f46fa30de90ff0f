"""The fairness rule for Lab Riches: a losing play looks no closer to a win than chance.

Losing books of the current model are compared, feature by feature (engine/lab_riches/stats.py:
a row one lock short, the meter short of a prize or at 7, extra goes, a Bonus Game, two bonus
motifs in a GO...), with random plays under the documented rules that lost
(engine/lab_riches/simulate.py), within sampling error (engine/math/fairness.py). Model 1 built
its losing plays with as many goes as any play and fails the same comparison: the test can fail.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from engine.games import get
from engine.lab_riches import stats
from engine.lab_riches.generator import build_book
from engine.math import fairness
from engine.outcome import Composition

LOSING_BOOKS = 2_500
RANDOM_LOSSES = 5_000


def losing_books(model: str) -> Iterator[dict[str, Any]]:
    for n in range(LOSING_BOOKS):
        seed = (0xF00D_0000 + n).to_bytes(16, "big")
        yield json.loads(build_book(model, Composition(), seed).to_json())


def near_misses(model: str) -> dict[str, dict[str, Any]]:
    random = stats.random_losses(RANDOM_LOSSES, model)
    found, n, m = fairness.near_misses(losing_books(model), random, stats.features, stats.FEATURES)
    assert (n, m) == (LOSING_BOOKS, RANDOM_LOSSES)
    return found


def test_losing_plays_are_no_more_teasing_than_random_losing_plays() -> None:
    model = get("lab-riches").table.model
    found = near_misses(model)
    assert {name: f for name, f in found.items() if not f["within"]} == {}
    assert found["near_miss_rows"]["random_play"] > 0.5  # the comparison has something to see


def test_model_1_fails_the_rule() -> None:
    found = near_misses("lab-riches/1")
    over = {name for name, f in found.items() if not f["within"]}
    assert {"bonus_games", "extra_goes", "long_play", "near_miss_rows_3"} <= over
