"""engine/power_puck_shot/stats.py: the random plays drawn again, on the baseline's streams."""

from __future__ import annotations

from engine.power_puck_shot import rules, stats
from engine.power_puck_shot.simulate import random_plan
from engine.rng import Stream


def test_drawn_again_counts_the_random_plays_past_the_most_shots() -> None:
    # 5 of the baseline's first 20,000 random plays need more than 40 Main Game shots: the
    # stream is pinned, so this count is too (`certify --random-plays N` prints the rate).
    assert stats.drawn_again(20_000) == 5
    first = next(
        k
        for k in range(20_000)
        if random_plan(Stream(stats.BASELINE + k.to_bytes(8, "big"))) is None
    )
    assert stats.drawn_again(first) == 0 and stats.drawn_again(first + 1) == 1
    assert rules.MAX_RANDOM_SHOTS == 40
