"""The ledger: accounts and their balances, the ledger's clock and the games' pools (laid out,
committed, their status); each operation in one transaction. A purchase is sold by the
database's seller (sales/checkout.py, sales/seller.py); TRY mode's free plays
draw from the pools of free plays it commits (web/endpoint/sales/try_mode.py)."""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from engine import games
from engine.game import Game
from web.endpoint.errors import ApiError, not_on_sale, unknown_game
from web.endpoint.keys import KeyRing, load_keyring
from web.endpoint.pools.cache import PoolCache
from web.endpoint.pools.layout import LayOut, LayOutStopped
from web.endpoint.pools.vault import open_vault
from web.endpoint.sales.seller import Selling
from web.endpoint.sales.statements import PoolRow, Statements, unspent
from web.endpoint.settings import Settings
from web.endpoint.store.database import Database, private_dir
from web.endpoint.store.schema import accounts, meta, plays, pools, transactions

MAX_DRAW_ATTEMPTS = 3
POOL_STATUS_TTL = 1.0  # seconds GET /api/pools/{game} may serve a status it has already read
CLOCK_KEY = "test_clock_offset_ms"  # meta row of test mode's moved clock
POOL_KINDS = ("paid", "try")


@dataclass(frozen=True)
class Account:
    """An authenticated caller: the internal key and the public id."""

    pk: int
    public_id: str


class Ledger:
    """Accounts, the ledger's clock and the games' pools (a purchase: sales/checkout.py;
    a free play: web/endpoint/sales/try_mode.py)."""

    def __init__(
        self,
        db: Database,
        pool_cache: PoolCache,
        ring: KeyRing,
        clock: Callable[[], float],
        play_timeout_seconds: int,
        test_mode: bool = False,
    ) -> None:
        self.db = db
        self.pool_cache = pool_cache
        self.ring = ring
        self.clock = clock
        self.play_timeout_ms = play_timeout_seconds * 1000
        self.test_mode = test_mode
        self.sql = Statements(db.engine.dialect)
        self.selling = Selling(self.sql, pool_cache)  # the pool each game is selling from
        self._layout_locks = {
            (game, kind): threading.Lock() for game in games.ids() for kind in POOL_KINDS
        }
        self._status: dict[str, tuple[float, dict[str, Any]]] = {}  # game -> (time, pool status)
        self.clock_offset_ms = read_clock_offset(db) if test_mode else 0

    def now_ms(self) -> int:
        """The ledger's clock in integer milliseconds (test mode: moved on by the offset)."""
        return int(self.clock() * 1000) + self.clock_offset_ms

    def advance_clock(self, advance_ms: int) -> int:
        """Test mode: move the ledger's clock on, for every process of this database (meta
        table); returns the total offset."""
        with self.db.begin() as conn:
            self.db.advisory_lock(conn, CLOCK_LOCK)
            found = conn.execute(select(meta.c.value).where(meta.c.key == CLOCK_KEY)).scalar()
            offset = int(found or 0) + advance_ms
            if found is None:
                conn.execute(insert(meta).values(key=CLOCK_KEY, value=str(offset)))
            else:
                conn.execute(update(meta).where(meta.c.key == CLOCK_KEY).values(value=str(offset)))
        self.clock_offset_ms = offset
        return offset

    def create_account(self, balance_pence: int) -> Account:
        """A guest account granted a demo balance."""
        now = self.now_ms()
        public_id = secrets.token_hex(12)
        with self.db.begin() as conn:
            pk = conn.execute(
                insert(accounts)
                .values(public_id=public_id, created_at=now, balance_pence=balance_pence)
                .returning(accounts.c.id)
            ).scalar_one()
            conn.execute(
                insert(transactions).values(
                    account_id=pk, kind="grant", amount_pence=balance_pence, created_at=now
                )
            )
        return Account(pk, public_id)

    def balance(self, account: Account) -> int:
        """The balance: the sum of the account's transactions."""
        with self.db.begin() as conn:
            total = conn.execute(
                select(func.coalesce(func.sum(transactions.c.amount_pence), 0)).where(
                    transactions.c.account_id == account.pk
                )
            ).scalar_one()
        return int(total)

    # -- pools -----------------------------------------------------------------------------

    def current_pool(self, conn: Connection, game: str, kind: str = "paid") -> PoolRow | None:
        """The newest pool of a game (of its paid plays, or of its free "try" plays)."""
        row = self.sql.current_pool.row(conn, game=game, kind=kind)
        return None if row is None else PoolRow(*row)

    def ensure_pool(self, game: str, exhausted_ref: int | None = None, kind: str = "paid") -> None:
        """Make sure the game has a pool with unsold entries, loaded in this process's memory:
        the current one (committed by another instance, it is read and opened here, outside
        any sale), else one laid out here, its root committed.

        kind "try": the game's pool of free plays (TRY mode), laid out and committed the same
        way, from the same prize table, but never sold."""
        check_game(game)  # never a pool for a game that is not on sale
        with self._layout_locks[(game, kind)]:
            with self.db.begin() as conn:
                current = unspent(self.current_pool(conn, game, kind), exhausted_ref)
            if current is not None:
                self.pool_cache.get(current.pool_id)
                return
            try:
                pool = self.pool_cache.lay_out(game, use_spare=kind == "paid")
            except Exception as error:  # its process killed (out of memory), a full disk...
                if not isinstance(error, LayOutStopped):  # (not at a stop: nothing failed)
                    logging.getLogger("web.endpoint").exception(
                        "laying out a pool of %s failed", game
                    )
                raise ApiError(503, "pool_unavailable", NO_POOL) from error
            with self.db.begin() as conn:
                self.db.advisory_lock(conn, pool_lock(game, kind))
                current = unspent(self.current_pool(conn, game, kind), exhausted_ref)
                if current is None:
                    self.pool_cache.vault.put(conn, pool)  # any instance can open it from now on
                    conn.execute(
                        insert(pools).values(
                            pool_id=pool.pool_id,
                            game=game,
                            model=pool.model,
                            size=pool.size,
                            root=pool.root.hex(),
                            next_index=0,
                            created_at=self.now_ms(),
                            kind=kind,
                        )
                    )
                    return  # (laid out here: loaded already)
            self.pool_cache.get(current.pool_id)  # another process committed one meanwhile

    def warm(self) -> None:
        """Make sure every game on sale has a committed pool (run at start, in a thread), then
        its pool of free plays."""
        try:
            for kind in POOL_KINDS:
                for game in games.on_sale():
                    self.ensure_pool(game.id, kind=kind)
        except ApiError:  # (logged, or the endpoint is stopping): a purchase lays it out again
            return
        except (OSError, ValueError):  # a pool that does not open: its plays answer 503
            logging.getLogger("web.endpoint").exception("loading a pool at start failed")

    def pool_status(self, game: str) -> dict[str, Any]:
        """The current pool of a game: id, size, sold count and root (at most POOL_STATUS_TTL
        seconds old: the route is public, so it must stay cheap however often it is asked)."""
        check_game(game)
        now = self.clock()
        cached = self._status.get(game)
        if cached is not None and now - cached[0] < POOL_STATUS_TTL:
            return cached[1]
        self.ensure_pool(game)
        with self.db.begin() as conn:
            row = self.current_pool(conn, game)
            assert row is not None
            sold = row.next_index  # the pool's own counter: entries are drawn in order
            if self.test_mode:  # ... but for test mode's reserved entries, taken out of order
                sold = conn.execute(
                    select(func.count()).select_from(plays).where(plays.c.pool_ref == row.id)
                ).scalar_one()
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


NO_POOL = "No pool could be laid out; try again in a moment."


CLOCK_LOCK = 74_280_002  # PostgreSQL advisory lock id: one mover of the test clock at a time


def read_clock_offset(db: Database) -> int:
    """Test mode: how far the ledger's clock has been moved on (meta table), in ms."""
    with db.begin() as conn:
        found = conn.execute(select(meta.c.value).where(meta.c.key == CLOCK_KEY)).scalar()
    return int(found or 0)


def pool_lock(game: str, kind: str = "paid") -> int:
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


def open_ledger(
    settings: Settings, clock: Callable[[], float], lay_out: LayOut | None = None
) -> Ledger:
    """The ledger of an endpoint's configuration: its database opened (and migrated), its
    signing keys, its pool-encryption key and its pools' cache directory. The app and the
    operators' commands open it alike."""
    if not settings.database_url or settings.var_dir.exists():
        private_dir(settings.var_dir)  # the SQLite ledger, the development key, the secret
    db = Database(settings.db_url, settings.db_pool_size, settings.db_connect_timeout_seconds)
    db.migrate()
    ring = load_keyring(
        settings.var_dir,
        settings.signing_key_file,
        settings.signing_key_pem,
        settings.retired_keys_dir,
    )
    vault = open_vault(db, settings.var_dir, settings.pool_key, settings.pool_key_file)
    pool_cache = PoolCache(settings.pools_path, vault, settings.pool_size, lay_out)
    return Ledger(db, pool_cache, ring, clock, settings.play_timeout_seconds, settings.test_mode)
