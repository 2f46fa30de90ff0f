"""The secure shuffle: a permutation, every order about equally likely, progress reported."""

from __future__ import annotations

from collections import Counter

from engine.math.shuffle import shuffle


def test_shuffle_is_a_permutation() -> None:
    items = list(range(1_000))
    shuffle(items)
    assert sorted(items) == list(range(1_000))
    assert items != list(range(1_000))


def test_every_order_of_three_is_about_equally_likely() -> None:
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(6_000):
        items = [0, 1, 2]
        shuffle(items)
        seen[tuple(items)] += 1
    assert len(seen) == 6
    assert all(800 < n < 1_200 for n in seen.values()), seen  # each ±7 standard deviations


def test_progress_is_reported() -> None:
    calls: list[tuple[int, int]] = []
    shuffle(list(range(200_000)), lambda done, total: calls.append((done, total)), 7)
    assert calls[0] == (0, 7) and len(calls) == 4
