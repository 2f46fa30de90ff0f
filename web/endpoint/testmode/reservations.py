"""Test mode's reserved entries: the entry an account's next purchase of a game takes
(POST /api/test/next-entry), taken by test mode's seller (web/endpoint/testmode/seller.py)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert, update

from engine.outcome import Composition
from web.endpoint.errors import ApiError
from web.endpoint.player.accounts import Account
from web.endpoint.pools.cache import PoolCache
from web.endpoint.pools.pools import Pools, check_game
from web.endpoint.store.database import Database
from web.endpoint.store.schema import pools, reservations
from web.endpoint.testmode.seller import entry_taken


def reserve_next(
    db: Database,
    games_pools: Pools,
    cache: PoolCache,
    account: Account,
    game: str,
    prize: int | None,
    composition: Any,
) -> dict[str, Any]:
    """Test mode: make the account's next purchase of a game take a matching unsold entry."""
    check_game(game)
    wanted = None
    if composition is not None:
        try:
            wanted = Composition.from_json(composition)
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise ApiError(422, "invalid_composition", f"Bad composition: {error}.") from None
    games_pools.ensure(game)
    with db.begin() as conn:
        pool = games_pools.current(conn, game)
        assert pool is not None
        conn.execute(
            update(pools).where(pools.c.id == pool.id).values(next_index=pools.c.next_index)
        )  # lock the pool row like a draw does
        conn.execute(
            reservations.delete().where(
                reservations.c.account_id == account.pk, reservations.c.game == game
            )
        )
        for index in cache.matching(pool.pool_id, prize, wanted):
            if index < pool.next_index or entry_taken(conn, pool.id, index):
                continue
            conn.execute(
                insert(reservations).values(
                    account_id=account.pk, game=game, pool_ref=pool.id, pool_index=index
                )
            )
            return {"game": game, "pool": pool.pool_id, "index": index}
    raise ApiError(404, "no_matching_entry", "No unsold entry of the current pool matches.")
