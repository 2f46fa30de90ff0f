"""The book hashes made ahead of the sales (web/endpoint/sales/presale_hashes.py)."""

from web.endpoint.sales.presale_hashes import HASH_BATCH, PRESALE_LIMIT, PresaleHashes


def test_hashing_ahead_follows_the_pace_of_the_sales() -> None:
    """Where to hash: past the entries sold between two looks (sold while a batch is built),
    a window of four looks' worth further, at least HASH_BATCH and at most PRESALE_LIMIT; the passed
    entries' hashes are forgotten, each is handed out once, and a pool no longer sold is
    dropped."""
    batch, most = HASH_BATCH, PRESALE_LIMIT
    presale = PresaleHashes()
    presale.look(7, 1000)  # the first look: nothing sold since
    assert presale.wanted(7, 10**6) == (1000, 1000 + batch)
    presale.add(7, 1000, ["a" * 64] * batch)
    assert presale.wanted(7, 10**6) == (1000 + batch,) * 2  # reached
    presale.look(7, 1100)  # 100 sold since the last look: 100 lead, a window of 400
    assert presale.take(7, 1000) is None  # passed: forgotten
    assert presale.take(7, 1200) == "a" * 64 and presale.take(7, 1200) is None
    assert presale.wanted(7, 10**6) == (1000 + batch, min(1600, 1000 + 2 * batch))
    presale.look(7, 100_000)  # a burst: the lead and the window are PRESALE_LIMIT at most
    assert presale.wanted(7, 10**6) == (100_000 + most, 100_000 + most + batch)
    presale.add(7, 100_000 + most, ["b" * 64] * most)
    assert presale.wanted(7, 10**6) == (100_000 + 2 * most,) * 2
    assert presale.wanted(7, 100_010) == (100_000 + 2 * most,) * 2  # the pool's end
    assert presale.take(7, 100_000 + most) == "b" * 64
    presale.forget({8})
    assert presale.take(7, 100_001 + most) is None
