"""The hashes made ahead of the sales (web/endpoint/ahead.py)."""

from web.endpoint.ahead import AHEAD, HASH_BATCH, Ahead


def test_hashing_ahead_follows_the_pace_of_the_sales() -> None:
    """Where to hash: past the entries sold between two looks (sold while a batch is built),
    reaching four looks' worth further, at least HASH_BATCH and at most AHEAD; the passed
    entries' hashes are forgotten, each is handed out once, and a pool no longer sold is
    dropped."""
    batch, most = HASH_BATCH, AHEAD
    ahead = Ahead()
    ahead.look(7, 1000)  # the first look: nothing sold since
    assert ahead.wanted(7, 10**6) == (1000, 1000 + batch)
    ahead.add(7, 1000, ["a" * 64] * batch)
    assert ahead.wanted(7, 10**6) == (1000 + batch,) * 2  # reached
    ahead.look(7, 1100)  # 100 sold since the last look: 100 lead, 400 reach
    assert ahead.take(7, 1000) is None  # passed: forgotten
    assert ahead.take(7, 1200) == "a" * 64 and ahead.take(7, 1200) is None
    assert ahead.wanted(7, 10**6) == (1000 + batch, min(1600, 1000 + 2 * batch))
    ahead.look(7, 100_000)  # a burst: the lead and the reach are AHEAD at most
    assert ahead.wanted(7, 10**6) == (100_000 + most, 100_000 + most + batch)
    ahead.add(7, 100_000 + most, ["b" * 64] * most)
    assert ahead.wanted(7, 10**6) == (100_000 + 2 * most,) * 2
    assert ahead.wanted(7, 100_010) == (100_000 + 2 * most,) * 2  # the pool's end
    assert ahead.take(7, 100_000 + most) == "b" * 64
    ahead.forget({8})
    assert ahead.take(7, 100_001 + most) is None
