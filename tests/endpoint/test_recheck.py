"""When a remembered read falls due (web/endpoint/recheck.py): never later than its period,
once a period for a key in steady use, and spread over the period for keys read together."""

from __future__ import annotations

from itertools import pairwise

from web.endpoint.player.sessions import CHECK_MS
from web.endpoint.recheck import due, phase


def test_a_read_is_never_kept_past_its_period_and_falls_due_on_the_key_s_own_grid() -> None:
    for key in (0, 1, 7, 31, 2**31, 0xDEADBEEF):
        own = phase(key, CHECK_MS)
        for now in range(1_796_000_000_000, 1_796_000_000_000 + 2 * CHECK_MS + 1, 7):
            at = due(now, CHECK_MS, key)
            assert now < at <= now + CHECK_MS
            assert at % CHECK_MS == own % CHECK_MS


def test_a_key_read_each_time_it_falls_due_is_read_once_a_period() -> None:
    now, key = 1_796_000_000_123, 12_345
    reads = [due(now, CHECK_MS, key)]
    for _ in range(10):
        reads.append(due(reads[-1], CHECK_MS, key))
    assert {b - a for a, b in pairwise(reads)} == {CHECK_MS}


def test_accounts_read_at_the_same_instant_fall_due_apart() -> None:
    """32 accounts in a row (the benchmark's clients), all read at one instant: 32 different
    instants, no two within 15 ms (before, all 32 fell due at one instant)."""
    now = 1_796_000_000_000
    times = sorted(due(now, CHECK_MS, pk) for pk in range(1, 33))
    assert min(b - a for a, b in pairwise(times)) >= 15
