"""TRY mode's free plays: the next entry of the game's pool of free plays (a pool of kind "try",
laid out and committed as a paid pool is: web/endpoint/pools/pools.py `Pools.ensure`), signed
as a try play (payload mode "try"), recorded in try_plays; no money moves and it is no
play of the ledger (docs/endpoint.md, TRY mode pools). An account on a break or self-excluded
gets none (web/endpoint/player/protections.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, insert

from web.endpoint import tokens
from web.endpoint.clock import Clock
from web.endpoint.errors import ApiError
from web.endpoint.keys import KeyRing
from web.endpoint.player import protections
from web.endpoint.player.accounts import Account
from web.endpoint.pools.cache import PoolCache
from web.endpoint.pools.pools import (
    MAX_DRAW_ATTEMPTS,
    NO_POOL,
    PoolKind,
    PoolRow,
    Pools,
    check_game,
)
from web.endpoint.sales.sale import outcome
from web.endpoint.sales.statements import Statements
from web.endpoint.store.database import Database
from web.endpoint.store.schema import try_plays

ANONYMOUS = "anonymous"  # the account claim of a try play's token without a session


@dataclass(frozen=True)
class FreePlays:
    """TRY mode's free plays of a database: drawn from the games' pools of free plays, signed
    with the endpoint's keys, recorded at the ledger's clock."""

    db: Database
    sql: Statements
    clock: Clock
    pools: Pools
    pool_cache: PoolCache  # the pools' entries, in this process's memory
    ring: KeyRing

    def try_play(self, account: Account | None, game: str) -> dict[str, Any]:
        """A free play: the next entry of the game's pool of free plays, signed as a try play
        (payload mode "try"); no money moves and it is no play of the account's."""
        check_game(game)
        exhausted: int | None = None
        for _ in range(MAX_DRAW_ATTEMPTS):
            self.pools.ensure(game, exhausted, kind=PoolKind.TRY)  # (loads the current pool)
            with self.db.begin() as conn:
                if account is not None:  # a break or self-exclusion stops TRY too
                    self._refuse_stopped(conn, account)
                pool = self.pools.current(conn, game, PoolKind.TRY)
                loaded = pool is not None and self.pool_cache.is_loaded(pool.pool_id)
                if pool is not None and loaded:
                    taken = self.sql.next_index.value(conn, pool=pool.id)
                    if taken is not None:
                        return self._sale(conn, account, pool, int(taken) - 1)
            # spent, or another process's new pool not loaded yet (Pools.ensure loads it)
            exhausted = pool.id if pool is not None and loaded else None
        raise ApiError(503, "pool_unavailable", NO_POOL)

    def _refuse_stopped(self, conn: Connection, account: Account) -> None:
        """403 break_taken or self_excluded (or account_closed) when the account's play is
        stopped now: read in the free play's own transaction, at the ledger's clock."""
        refused = protections.refusal(protections.read(conn, account.pk), self.clock.now_ms())
        if refused is not None:
            raise refused

    def _sale(
        self, conn: Connection, account: Account | None, pool: PoolRow, index: int
    ) -> dict[str, Any]:
        now = self.clock.now_ms()
        holder = account.public_id if account is not None else ANONYMOUS
        entry, play_number, payload = outcome(
            self.pool_cache, holder, pool, index, now, str(PoolKind.TRY)
        )
        conn.execute(
            insert(try_plays).values(
                play_number=play_number,
                account_id=None if account is None else account.pk,
                game=pool.game,
                model=pool.model,
                pool_ref=pool.id,
                pool_index=index,
                prize_pence=entry.prize_pence,
                created_at=now,
            )
        )
        return {"play_number": play_number, "token": tokens.sign(self.ring, payload)}
