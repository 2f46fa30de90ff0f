"""The fairness rule for presentation: a losing play must look no closer to a win than chance.

A game whose statistics module gives `random_losses(n, model)` (the books of n random plays
under its model's documented rules that won nothing) is measured against them: for each feature
its statistics count (a row one lock short, the meter one segment short, extra goes, a Bonus
Game...), the share of the game's losing books showing it may exceed the share of random
losing plays by no more than sampling error (`SIGMAS` standard errors of the difference of
the two shares). `build.py certify` reports the figures; tests/test_lab_riches_honesty.py holds
the generator to them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

SIGMAS = 4.0  # a false alarm about 1 time in 30,000 per feature


def rates(
    books: Iterable[Mapping[str, Any]], features: Callable[[Mapping[str, Any]], Mapping[str, int]]
) -> tuple[Counter[str], int]:
    """How many books show each feature, and how many books there were."""
    shown: Counter[str] = Counter()
    n = 0
    for book in books:
        shown.update(features(book))
        n += 1
    return shown, n


def compare(
    losing: Counter[str], n_losing: int, random: Counter[str], n_random: int, names: Iterable[str]
) -> dict[str, dict[str, Any]]:
    """Per feature: the losing books' share, the random losing plays' share, the most the
    first may be (the second plus SIGMAS standard errors), and whether it is within."""
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        a = losing[name] / n_losing if n_losing else 0.0
        b = random[name] / n_random if n_random else 0.0
        pooled = (losing[name] + random[name]) / max(1, n_losing + n_random)
        se = math.sqrt(pooled * (1 - pooled) * (1 / max(1, n_losing) + 1 / max(1, n_random)))
        allowed = b + SIGMAS * se
        out[name] = {"losing": round(a, 4), "random_play": round(b, 4),
                     "allowed": round(allowed, 4), "within": a <= allowed + 1e-12}  # fmt: skip
    return out


def near_misses(
    losing: Iterable[Mapping[str, Any]],
    random: Iterable[Mapping[str, Any]],
    features: Callable[[Mapping[str, Any]], Mapping[str, int]],
    names: Iterable[str],
) -> tuple[dict[str, dict[str, Any]], int, int]:
    """`compare` of losing books with random losing plays, and how many of each there were."""
    shown, n = rates(losing, features)
    chance, m = rates(random, features)
    return compare(shown, n, chance, m, names), n, m
