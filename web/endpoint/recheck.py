"""When a remembered read falls due again: the session check (sessions.py, CHECK_MS) and the
purchase's admission (checkout.py, ADMIT_MS) keep what they read for at most a period, then read
it again.

Each session or account re-reads on a grid of its own: the instants `phase + k * period`, its
phase in [0, period) derived from its key (the session id, the account's pk) by Fibonacci
hashing, so keys in a row (pks 1, 2, 3 ...) get phases spread over the period. A read made at
any instant is kept until the next instant of its grid: never longer than the period, and
once a period for a key in steady use. Before, each kept its read for exactly the period from
when it was made, so clients that started together read together, every second, for as long
as they ran (docs/changelog.md: PostgreSQL's p99).
"""

from __future__ import annotations

GOLDEN = 2_654_435_761  # 2**32 divided by the golden ratio, odd: Knuth's multiplicative hash


def phase(key: int, period: int) -> int:
    """The key's offset in [0, period): keys in a row land far apart."""
    return ((key * GOLDEN) & 0xFFFF_FFFF) * period >> 32


def due(now: int, period: int, key: int) -> int:
    """The first instant after `now` (ms) on the key's grid: in (now, now + period]."""
    return now + period - (now - phase(key, period)) % period
