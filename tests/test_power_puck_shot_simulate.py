"""The random-play model of Power Puck Shot (engine/power_puck_shot/simulate.py): the pips a
shot crosses are what physically drawn paths give, and every feature of the procedure happens
in random play and in model 3's books at a believable rate."""

from __future__ import annotations

import functools
import hashlib
import json
from collections import Counter

from engine.outcome import Composition
from engine.power_puck_shot import rules, stats
from engine.power_puck_shot.generator import build_book
from engine.power_puck_shot.geometry import POPCOUNT, launch_legs, legs, pocket_bit
from engine.power_puck_shot.plan import events
from engine.power_puck_shot.simulate import pays, pips, random_plan
from engine.power_puck_shot.validator import validate
from engine.rng import Stream


def pip_counts(chance: float) -> dict[int, float]:
    """The chance that a shot crosses n Pips, followed exactly: a uniform arrow; each Pocket
    the puck reaches shows a bumper with `chance` (once hit, it is open); a bumper sends it
    along a uniform crossing from there; it drops into the first open Pocket it reaches."""
    table = legs()

    @functools.cache
    def arrive(up: bool, end: int, mask: int, hits: int, count: int) -> dict[int, float]:
        out = {count: 1 - chance}  # the Pocket is open: the puck drops
        pocket = end // 4 if up else 12 + end // 4
        hits |= pocket_bit(pocket)
        options = table[(not up, end)]
        for leg in options:
            got = count + 1 + POPCOUNT[leg.mask & ~mask]  # the bumper's Pip and new middle Pips
            if hits & pocket_bit(leg.pocket):  # its bumper is gone: the Pocket is open
                ahead = {got: 1.0}
            else:
                ahead = arrive(leg.up, leg.end, mask | leg.mask, hits, got)
            for n, p in ahead.items():
                out[n] = out.get(n, 0.0) + chance / len(options) * p
        return out

    total: dict[int, float] = {}
    for first in launch_legs():
        for n, p in arrive(first.up, first.end, first.mask, 0, len(first.pips)).items():
            total[n] = total.get(n, 0.0) + p / len(launch_legs())
    return total


def test_the_pips_per_shot_are_what_drawn_paths_give() -> None:
    numerator, denominator = rules.RANDOM_BUMPER_CHANCE
    counts = pip_counts(numerator / denominator)
    assert abs(sum(counts.values()) - 1) < 1e-9 and max(counts) == 16
    some = 1 - counts[0]  # a path that crosses no Pip is drawn again
    expected = tuple(round(counts.get(n, 0.0) / some * 2**16) for n in range(1, 17))
    assert expected == rules.PIPS_PER_SHOT


def test_pips_are_drawn_with_those_weights() -> None:
    stream = Stream(b"pips")
    drawn = Counter(pips(stream) for _ in range(20_000))
    total = sum(rules.PIPS_PER_SHOT)
    for n in (1, 4, 8):
        share = rules.PIPS_PER_SHOT[n - 1] / total
        assert abs(drawn[n] / 20_000 - share) < 0.015, n


def test_random_play_shows_every_feature_of_the_procedure() -> None:
    """Five Bonus symbols (three Bonus Pucks), a Power Puck's doubling starting a Bonus Game,
    every award, long and short shots: each in random play, none vanishingly rare."""
    shown: Counter[str] = Counter()
    lost = over = 0
    n = 4_000
    for k in range(n):
        plan = random_plan(Stream(b"features" + k.to_bytes(4, "big")))
        if plan is None:  # more than MAX_RANDOM_SHOTS Main Game shots: drawn again
            over += 1
            continue
        book = {"events": events(plan)}
        shown.update(stats.features(book))
        lost += not pays(plan)
    assert over <= 4  # about 1 in 5,000
    assert 0.8 < lost / n < 0.99  # losing plays are drawn by rejection: most random plays lose
    for name in ("five_bonus_motifs", "power_bonus_game"):
        assert shown[name] / n > 0.001, name
    for name in ("bonus_games", "boosters", "extra_pucks", "power_pucks", "extra_squares"):
        assert shown[name] / n > 0.03, name


def test_model_3_books_of_a_power_puck_bonus_game_and_five_bonus_symbols_are_sound() -> None:
    found: dict[str, dict] = {}
    for k in range(3_000):
        seed = hashlib.sha256(b"m3/%d" % k).digest()[:16]
        book = json.loads(build_book("power-puck-shot/3", Composition(), seed).to_json())
        features = stats.features(book)
        for name in ("five_bonus_motifs", "power_bonus_game"):
            if features[name] and name not in found:
                found[name] = book
        if len(found) == 2:
            break
    assert set(found) == {"five_bonus_motifs", "power_bonus_game"}
    for book in found.values():
        assert validate(book) == []
    starts = [e for e in found["five_bonus_motifs"]["events"] if e["type"] == "bonus_start"]
    assert any(e["pucks"] == 3 and e["motifs"] >= 5 for e in starts)
