"""The games' pools as the ledger keeps them: the current pool of a game and kind (read in one
place), a pool with unsold entries ensured (laid out and committed here when there is none),
every game's pools warmed at start, and a pool's public status."""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select

from engine import games
from engine.game import Game
from web.endpoint.clock import Clock
from web.endpoint.errors import ApiError, not_on_sale, unknown_game
from web.endpoint.log import entries
from web.endpoint.pools import files
from web.endpoint.pools.cache import PoolCache, PoolNotLoaded
from web.endpoint.pools.layout import LayOutStopped
from web.endpoint.store.database import Database
from web.endpoint.store.prepared import Prepared
from web.endpoint.store.schema import pools

MAX_DRAW_ATTEMPTS = 3  # a sale's tries at drawing, a pool laid out again between them
POOL_STATUS_TTL = 1.0  # seconds GET /api/pools/{game} may serve a status it has already read
NO_POOL = "No pool could be laid out; try again in a moment."


class PoolKind(StrEnum):
    """What a pool's entries are for: sold (paid plays), or given as TRY mode's free plays."""

    PAID = "paid"
    TRY = "try"


@dataclass(frozen=True)
class PoolRow:
    """A row of the pools table."""

    id: int
    pool_id: str
    game: str
    model: str
    size: int
    root: str
    next_index: int
    created_at: int
    kind: str = PoolKind.PAID


def unspent(row: PoolRow | None, exhausted_ref: int | None) -> PoolRow | None:
    """A current pool row if it has unsold entries and is not the one a sale found spent."""
    if row is None or row.id == exhausted_ref or row.next_index >= row.size:
        return None
    return row


class PoolExhausted(Exception):
    """The game's current pool has no unsold entry left (or there is none yet)."""


class Selling:
    """The pool each game is selling from in this process (a pool row's identity never
    changes; forgotten when it is spent or retired), each one loaded in memory (`cache`): a
    pool not loaded yet is refused (PoolNotLoaded) before the sale locks anything, and loaded
    outside the sale (web/endpoint/sales/checkout.py)."""

    def __init__(self, current_sql: Prepared, cache: PoolCache) -> None:
        self.current_sql = current_sql  # Pools.current_sql: a game's current pool
        self.cache = cache
        self._pools: dict[str, PoolRow] = {}

    def get(self, game: str) -> PoolRow | None:
        """The pool this process sells the game from, if it knows it."""
        return self._pools.get(game)

    def put(self, pool: PoolRow) -> PoolRow:
        """The pool of its game, remembered if it is loaded; PoolNotLoaded otherwise."""
        if not self.cache.is_loaded(pool.pool_id):
            raise PoolNotLoaded(pool.pool_id)
        self._pools[pool.game] = pool
        return pool

    def on(self, conn: Connection, game: str) -> PoolRow:
        """The pool the game sells from, read on this connection when not known; raises
        PoolExhausted when it has none, PoolNotLoaded when it is not loaded yet."""
        pool = self._pools.get(game)
        if pool is None:
            row = self.current_sql.row(conn, game=game)
            if row is None:
                raise PoolExhausted(None)
            pool = self.put(PoolRow(*row))
        return pool

    def forget(self, game: str) -> None:
        """Read the game's pool afresh at its next sale."""
        self._pools.pop(game, None)

    def rows(self) -> list[PoolRow]:
        """The pools this process has sold from and is selling from now, a game each."""
        return list(self._pools.values())


def next_index_sold(_conn: Connection, row: PoolRow) -> int:
    """How many entries of a pool are sold: its own counter, as entries are drawn in order."""
    return row.next_index


class Pools:
    """The games' pools of one database, each loaded in this process's memory (`cache`) before
    anything is sold from it."""

    def __init__(self, db: Database, cache: PoolCache, clock: Clock) -> None:
        self.db = db
        self.cache = cache
        self.clock = clock
        # The one read of a game's current pool (a sale's, pipelined on PostgreSQL, too).
        self.current_sql = Prepared(
            select(pools)
            .where(
                pools.c.kind == bindparam("kind", str(PoolKind.PAID)),
                pools.c.game == bindparam("game"),
            )
            .order_by(pools.c.id.desc())
            .limit(1),
            db.engine.dialect,
        )
        self._layout_locks = {
            (game, kind): threading.Lock() for game in games.ids() for kind in PoolKind
        }
        self._status: dict[str, tuple[float, dict[str, Any]]] = {}  # game -> (time, status)
        self.selling = Selling(self.current_sql, cache)  # the pool each game is selling from
        # How many entries of a pool are sold (test mode's sells entries out of order).
        self.sold: Callable[[Connection, PoolRow], int] = next_index_sold

    def current(self, conn: Connection, game: str, kind: str = PoolKind.PAID) -> PoolRow | None:
        """The newest pool of a game (of its paid plays, or of its free "try" plays)."""
        row = self.current_sql.row(conn, game=game, kind=str(kind))
        return None if row is None else PoolRow(*row)

    def ensure(
        self, game: str, exhausted_ref: int | None = None, kind: str = PoolKind.PAID
    ) -> None:
        """Make sure the game has a pool with unsold entries, loaded in this process's memory:
        the current one (committed by another instance, it is read and opened here, outside
        any sale), else one laid out here, its root committed.

        kind "try": the game's pool of free plays (TRY mode), laid out and committed the same
        way, from the same prize table, but never sold."""
        check_game(game)  # never a pool for a game that is not on sale
        with self._layout_locks[(game, PoolKind(kind))]:
            with self.db.begin() as conn:
                current = unspent(self.current(conn, game, kind), exhausted_ref)
            if current is not None:
                self.cache.get(current.pool_id)
                return
            try:
                pool = self.cache.lay_out(game, use_spare=kind == PoolKind.PAID)
            except Exception as error:  # its process killed (out of memory), a full disk...
                if not isinstance(error, LayOutStopped):  # (not at a stop: nothing failed)
                    logging.getLogger("web.endpoint").exception(
                        "laying out a pool of %s failed", game
                    )
                raise ApiError(503, "pool_unavailable", NO_POOL) from error
            with self.db.begin() as conn:
                self.db.advisory_lock(conn, pool_lock(game, kind))
                current = unspent(self.current(conn, game, kind), exhausted_ref)
                if current is None:
                    self.cache.vault.put(conn, pool)  # any instance can open it from now on
                    now = self.clock.now_ms()
                    conn.execute(
                        insert(pools).values(
                            pool_id=pool.pool_id,
                            game=game,
                            model=pool.model,
                            size=pool.size,
                            root=pool.root.hex(),
                            next_index=0,
                            created_at=now,
                            kind=str(kind),
                        )
                    )
                    # its commitment in the public log, before any sale can follow it
                    record = entries.commitment(files.commitment(pool), str(kind))
                    entries.append(conn, record, now)
                    return  # (laid out here: loaded already)
            self.cache.get(current.pool_id)  # another process committed one meanwhile

    def warm(self) -> None:
        """Make sure every game on sale has a committed pool (run at start, in a thread), then
        its pool of free plays."""
        try:
            for kind in PoolKind:
                for game in games.on_sale():
                    self.ensure(game.id, kind=kind)
        except ApiError:  # (logged, or the endpoint is stopping): a purchase lays it out again
            return
        except (OSError, ValueError):  # a pool that does not open: its plays answer 503
            logging.getLogger("web.endpoint").exception("loading a pool at start failed")

    def status(self, game: str) -> dict[str, Any]:
        """The current pool of a game: id, size, sold count and root (at most POOL_STATUS_TTL
        seconds old: the route is public, so it must stay cheap however often it is asked)."""
        check_game(game)
        now = self.clock.seconds()
        cached = self._status.get(game)
        if cached is not None and now - cached[0] < POOL_STATUS_TTL:
            return cached[1]
        self.ensure(game)
        with self.db.begin() as conn:
            row = self.current(conn, game)
            assert row is not None
            sold = self.sold(conn, row)
        status = {
            "game": game,
            "pool_id": row.pool_id,
            "model": row.model,
            "size": row.size,
            "sold": int(sold),
            "root": row.root,
            "created_at": row.created_at,
        }
        self._status[game] = (now, status)
        return status

    def forget(self, game: str) -> None:
        """Read the game's pool afresh at its next sale and status (its pool was closed)."""
        self.selling.forget(game)
        self._status.pop(game, None)


def pool_lock(game: str, kind: str = PoolKind.PAID) -> int:
    """The PostgreSQL advisory lock held by whoever commits or closes a game's pools of a kind
    (its free plays' pools have one of their own): the first 8 bytes of SHA-256 of "pool lock
    <game id> <kind>" as a signed bigint, so it is the game's own and no inserted or reordered
    game moves it (docs/endpoint.md)."""
    digest = hashlib.sha256(f"pool lock {game} {kind}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def check_game(game_id: str) -> Game:
    """The game of this id if it is on sale; 404 for an unknown id, 409 for a game not on sale."""
    try:
        game = games.get(game_id)
    except games.UnknownGame:
        raise unknown_game(game_id) from None
    if not game.on_sale:
        raise not_on_sale(game.id, game.name)
    return game
