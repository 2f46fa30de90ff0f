"""The shuffle: a permutation, every order about equally likely, made only of the given bytes."""

from __future__ import annotations

import hashlib
import secrets
from collections import Counter
from collections.abc import Callable

import pytest

from engine.math import shuffle as shuffle_module
from engine.math.shuffle import SHUFFLE_BATCH, shuffle


def stream(label: bytes, asked: list[int] | None = None) -> Callable[[int], bytes]:
    """A deterministic byte source (SHAKE-256 of a label and a call counter)."""
    calls = 0

    def entropy(n: int) -> bytes:
        nonlocal calls
        calls += 1
        if asked is not None:
            asked.append(n)
        return hashlib.shake_256(label + calls.to_bytes(8, "big")).digest(n)

    return entropy


def test_shuffle_is_a_permutation() -> None:
    items = list(range(1_000))
    shuffle(items, secrets.token_bytes)
    assert sorted(items) == list(range(1_000))
    assert items != list(range(1_000))


def test_every_order_of_three_is_about_equally_likely() -> None:
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(6_000):
        items = [0, 1, 2]
        shuffle(items, secrets.token_bytes)
        seen[tuple(items)] += 1
    assert len(seen) == 6
    assert all(800 < n < 1_200 for n in seen.values()), seen  # each ±7 standard deviations


def test_progress_is_reported() -> None:
    calls: list[tuple[int, int]] = []
    shuffle(list(range(200_000)), secrets.token_bytes, lambda d, t: calls.append((d, t)), 7)
    assert calls[0] == (0, 7) and len(calls) == 4


def test_the_order_comes_only_from_the_given_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_secrets(_n: int) -> bytes:
        raise AssertionError("the shuffle must not draw from secrets")

    monkeypatch.setattr(secrets, "token_bytes", no_secrets)
    monkeypatch.setattr(secrets, "randbits", no_secrets)
    assert not hasattr(shuffle_module, "secrets")
    asked: list[int] = []
    first, again, other = list(range(100_000)), list(range(100_000)), list(range(100_000))
    shuffle(first, stream(b"one", asked))
    shuffle(again, stream(b"one"))
    shuffle(other, stream(b"two"))
    assert first == again  # the same bytes, the same order
    assert other != first and sorted(other) == sorted(first)
    assert asked and all(n == 8 * SHUFFLE_BATCH for n in asked)  # 64-bit draws, in batches
    assert len(asked) == 2  # 99,999 draws (and a few rejected) need two batches of 65,536
