"""The purchase of a play (POST /api/plays, below the HTTP layer): the game resolved once, the
seller chosen for the database once at start, the batcher over it, the pool laid out again
when one is spent, and retries answered as the purchase they repeat."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
from sqlalchemy import Connection

from engine.game import Game
from web.endpoint import recheck
from web.endpoint.clock import Clock
from web.endpoint.errors import ApiError, database_unavailable
from web.endpoint.keys import KeyRing
from web.endpoint.player import limits, protections
from web.endpoint.player.accounts import Account
from web.endpoint.player.playtime import PlayTimes, Row
from web.endpoint.pools.cache import PoolCache, PoolNotLoaded
from web.endpoint.pools.pools import MAX_DRAW_ATTEMPTS, NO_POOL, PoolExhausted, Pools, check_game
from web.endpoint.sales.batch import SaleBatcher
from web.endpoint.sales.postgres_seller import PostgresSeller
from web.endpoint.sales.presale_hashes import PresaleHashes
from web.endpoint.sales.sale import Answer, Records, answer
from web.endpoint.sales.seller import SaleParts, Seller
from web.endpoint.sales.sqlite_seller import SqliteSeller
from web.endpoint.sales.statements import Statements
from web.endpoint.store.database import LOST_RETRIES, UNAVAILABLE, Database

MAX_KEY_LENGTH = 128
MAX_GAME_LENGTH = 64  # a game id's characters, at most


Wrap = Callable[[Seller, SaleParts], Seller]  # a seller around the database's (test mode's)


def open_seller(parts: SaleParts, wrap: Wrap | None = None) -> Seller:
    """The seller of this database (`wrap`'s around it, if any): chosen once, here."""
    seller: Seller = SqliteSeller(parts) if parts.db.is_sqlite else PostgresSeller(parts)
    return seller if wrap is None else wrap(seller, parts)


# A purchase admitted (its limits chosen, no cooling-off) admits the account's purchases until
# the account's next instant on a grid of its own (web/endpoint/recheck.py: within ADMIT_MS, and
# accounts spread over it) without reading again, as the session check does: a player buying
# play after play costs one admission read a second, not one a purchase. The cooling-off is
# still judged from the row read and the clock at each purchase; a refusal is never kept. And
# the debit itself refuses a logged-out account (playtime.PG_PLAYING, playtime.logged_out): a
# purchase admitted just before the log-out is not sold after it, on whichever process.
ADMIT_MS = 1_000
MAX_ADMITTED = 100_000


class Checkout:
    """A process's purchases: its seller, the batcher over it, what they sell with (its
    `SaleParts`: the database, its statements, the ledger's clock, the pools on sale and their
    files), and the pools, which lay a spent pool's successor out."""

    def __init__(
        self,
        parts: SaleParts,
        pools: Pools,
        seller: Seller,
        presale: PresaleHashes,
        playtime: PlayTimes,
        limits_required: bool = True,
    ) -> None:
        self.db, self.sql, self.now_ms = parts.db, parts.sql, parts.now_ms
        self.selling, self.pool_cache = parts.selling, parts.pool_cache
        self.pools = pools  # lays a spent pool's successor out
        self.playtime = playtime  # the account's run of play: its cooling-off, its last play
        self.limits_required = limits_required  # LOTTERY_LIMITS_REQUIRED
        # account -> (until when, play_time row): admitted, and not read again before then
        self._admitted: dict[int, tuple[int, Any]] = {}
        self.seller = seller
        self.presale = presale  # the book hashes its sales take (the app's hasher makes them)
        self.batcher = SaleBatcher(seller, self.db.run) if seller.batches else None

    async def buy(self, account: Account, game_id: str, key: str | None) -> Answer:
        """Purchase, laying out a new pool in a thread when the current one is spent; the
        answer carries the account's play time after it."""
        if not key:
            raise ApiError(400, "idempotency_key_required", "Send an Idempotency-Key header.")
        if len(key) > MAX_KEY_LENGTH:
            raise ApiError(422, "invalid_request", "The Idempotency-Key is over 128 characters.")
        game = check_game(game_id)
        db = self.db
        try:  # reads and a write safe twice: tried again on a new connection after a lost one
            now = self.now_ms()
            admitted = self._admitted.get(account.pk)
            times = self.playtime
            if (
                admitted is not None
                and now < admitted[0]
                and times.refused(admitted[1], now) is None
            ):
                seen = admitted[1]  # admitted a moment ago (within ADMIT_MS): its read holds
            else:
                seen = await db.run_again(self._admit, account, key)
                if len(self._admitted) >= MAX_ADMITTED:
                    self._admitted.clear()
                self._admitted[account.pk] = (recheck.due(now, ADMIT_MS, account.pk), seen)
            result = await self._sell(account, game, key)
            after = self.now_ms()
            # the run goes on, its last play recent: nothing to write, no thread hop
            playing = times.going(seen, after)
            if playing is None:
                self._admitted.pop(account.pk, None)  # the run moves: read it again next time
                playing = await db.run_again(times.played, account, seen)
        except UNAVAILABLE as error:
            raise database_unavailable(error) from error
        return {**result, "play_time": playing}

    def _admit(self, account: Account, key: str) -> Any:
        """One read before a purchase (`Statements.admission`: the account's limits and its
        play_time row, one statement): refuse it (403 break_taken or self_excluded, 403
        cooling_off, then 403 limits_required)
        unless it is a retry of a purchase made (answered as that purchase); returns the
        account's play_time row as read, which `PlayTimes.played` goes on from."""
        now = self.now_ms()
        sql = self.sql
        with self.db.read() as conn:  # reads only: one round trip each on PostgreSQL
            row = sql.admission.row(conn, account=account.pk)
            if row is None:  # (a credential outlives its account only in a broken database)
                raise ApiError(401, "unauthenticated", "The account is gone.")
            seen = Row.of(row[-3:])
            refused = protections.refusal(protections.of_admission(row), now)
            if refused is None:
                refused = self.playtime.refused(seen, now)
            if refused is None and self.limits_required:
                refused = limits.Limits(row[: len(limits.COLUMNS)], now).unchosen()
            if (
                refused is not None
                and sql.play_by_key.row(conn, account=account.pk, key=key) is None
            ):
                raise refused
        return seen

    async def _sell(self, account: Account, game: Game, key: str) -> Answer:
        """The sale: in the batcher's next batch, or on its own."""
        if self.batcher is not None:
            sold = await self.batcher.buy(account, game, key)
            if sold is not None:
                return sold
        db, lost = self.db, 0
        for _ in range(MAX_DRAW_ATTEMPTS + LOST_RETRIES):
            try:
                result: Answer = await db.run(self.once, account, game, key)
                return result
            except PoolExhausted as exhausted:
                await anyio.to_thread.run_sync(self.pools.ensure, game.id, exhausted.args[0])
            except PoolNotLoaded as unloaded:  # (another instance's new pool) loaded outside
                await anyio.to_thread.run_sync(self.pool_cache.get, unloaded.pool_id)
            except UNAVAILABLE as error:  # bought again on a new connection: the key makes it safe
                await anyio.to_thread.run_sync(db.recover)
                lost += 1
                if lost > LOST_RETRIES or not self.seller.retries_lost:
                    raise database_unavailable(error) from error
        raise ApiError(503, "pool_unavailable", NO_POOL)

    def once(self, account: Account, game: Game, key: str | None) -> Answer:
        """Buy a play: debit, draw the next entry, record and sign it, all in one transaction;
        a retry of a purchase made (its Idempotency-Key used) answers that purchase.

        Raises PoolExhausted, having changed nothing, when a pool must be laid out first, and
        PoolNotLoaded when it must be loaded first (`buy` does that, and retries)."""
        db, sql = self.db, self.sql
        try:
            return self.seller.sell(account, game, key)
        except PoolExhausted:
            self.selling.forget(game.id)
            raise
        except ApiError as error:
            if key is None or error.status not in (402, 403):
                raise
            with db.begin() as conn:  # a retry of a purchase made is not refused for funds
                # (nor for a spend limit, nor for the log-out of play)
                if sql.play_by_key.row(conn, account=account.pk, key=key) is None:
                    raise
        except Exception as error:
            # A retry with a used Idempotency-Key trips the unique index; all was rolled back.
            if key is None or "idempotency" not in repr(error).lower():
                raise
        with db.begin() as conn:
            return self._repeat(conn, account, game.id, key)

    def _repeat(self, conn: Connection, account: Account, game: str, key: str) -> Answer:
        """The answer to a purchase already made with this Idempotency-Key."""
        sql = self.sql
        done = sql.play_by_key.row(conn, account=account.pk, key=key)
        if done is None:
            raise ApiError(409, "idempotency_conflict", "This Idempotency-Key is in use.")
        if done[0] != game:
            raise ApiError(409, "idempotency_conflict", "This Idempotency-Key bought another game.")
        return answer(done[1], done[2], sql.balance.value(conn, account=account.pk))


def open_checkout(
    db: Database,
    sql: Statements,
    clock: Clock,
    pools: Pools,
    pool_cache: PoolCache,
    ring: KeyRing,
    playtime: PlayTimes,
    limits_required: bool = True,
    wrap: Wrap | None = None,
) -> Checkout:
    """The purchases of an endpoint process on its database, signed with its keys (its seller
    wrapped by `wrap`)."""
    presale = PresaleHashes()
    records = Records(ring, pool_cache, presale)
    parts = SaleParts(db, sql, records, pools.selling, pool_cache, clock.now_ms, playtime.rules)
    seller = open_seller(parts, wrap)
    return Checkout(parts, pools, seller, presale, playtime, limits_required)
