"""The pools a process holds in memory (web/endpoint/pools/cache.py): every pool that may sell
stays, and of the closed ones (retired, sold out) only the few used last, so a long-running
instance does not keep every pool it ever opened.

Real databases (SQLite, and PostgreSQL from DATABASE_URL), real pools, retired as an operator
retires them."""

from __future__ import annotations

from fastapi import FastAPI

from web.endpoint.http.services import Services
from web.endpoint.pools import reveal

GAME = "lab-riches"


def current(services: Services, kind: str = "paid") -> str:
    """The game's current pool of a kind, committed and loaded first."""
    services.pools.ensure(GAME, kind=kind)
    with services.db.begin() as conn:
        row = services.pools.current(conn, GAME, kind)
    assert row is not None
    return row.pool_id


def test_closed_pools_are_dropped_but_the_last_used_and_the_pools_on_sale(app: FastAPI) -> None:
    services: Services = app.state.services
    cache = services.pool_cache
    cache.keep_closed = 1
    free = current(services, "try")
    first = current(services)
    reveal.retire(services.pools, GAME)
    second = current(services)
    reveal.retire(services.pools, GAME)
    selling = current(services)
    assert len({first, second, selling}) == 3

    assert cache.get(first).pool_id == first  # a recall of a play of the first, say
    assert [cache.is_loaded(p) for p in (first, second, selling, free)] == [
        True,  # closed, used last: kept
        False,  # closed, used before it: dropped
        True,  # on sale
        True,  # on sale (free plays), never used since it was loaded
    ]
    assert cache.loaded(selling).pool_id == selling  # a sale reads it from memory

    assert cache.get(second).pool_id == second  # a dropped pool opens again, from the files
    assert [cache.is_loaded(p) for p in (first, second, selling, free)] == [
        False,
        True,
        True,
        True,
    ]
