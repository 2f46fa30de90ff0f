"""The ledger's operations: accounts, purchase, finish, My Games; each in one transaction."""

from __future__ import annotations

import json
import logging
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from engine import games
from engine.game import Game
from engine.math.leaves import PoolEntry
from engine.payload import Payload
from web.endpoint import limits, tokens
from web.endpoint.batch import NextEntries, SaleBatcher
from web.endpoint.database import Database
from web.endpoint.errors import ApiError, not_on_sale, unknown_game
from web.endpoint.hashes import Ahead
from web.endpoint.keys import KeyRing, load_keyring
from web.endpoint.pools import LayOut, PoolFiles
from web.endpoint.schema import (
    accounts,
    meta,
    plays,
    pools,
    reservations,
    transactions,
    try_plays,
)
from web.endpoint.settings import Settings
from web.endpoint.statements import PoolRow, Statements, sales_param

PLAY_NUMBER_BASE = 10**8  # Play Number = pool sequence × 10^8 + entry index + 1
POOL_LOCK_BASE = 74_281_000  # + the game's index in the registry: the advisory lock of its pools
MAX_DRAW_ATTEMPTS = 3
SPARE_AT = 50  # lay out the next pool when 1/50 of the current one is left
POOL_STATUS_TTL = 1.0  # seconds GET /api/pools/{game} may serve a status it has already read
TRY_LOCK_OFFSET = 1_000  # the advisory lock of a game's try pools: its pools' lock + this
CLOCK_KEY = "test_clock_offset_ms"  # meta row of test mode's moved clock
POOL_KINDS = ("paid", "try")


class PoolExhausted(Exception):
    """The game's current pool has no unsold entry left (or there is none yet)."""


@dataclass(frozen=True)
class Account:
    """An authenticated caller: the internal key and the public id."""

    pk: int
    public_id: str


class Ledger:
    """Everything that reads or moves money or pool entries."""

    def __init__(
        self,
        db: Database,
        pool_files: PoolFiles,
        ring: KeyRing,
        clock: Callable[[], float],
        play_timeout_seconds: int,
        test_mode: bool = False,
    ) -> None:
        self.db = db
        self.pool_files = pool_files
        self.ring = ring
        self.clock = clock
        self.play_timeout_ms = play_timeout_seconds * 1000
        self.test_mode = test_mode
        self.sql = Statements(db.engine.dialect)
        self._pools: dict[str, PoolRow] = {}  # the pool each game is selling from (immutable)
        self._layout_locks = {
            (game, kind): threading.Lock() for game in games.ids() for kind in POOL_KINDS
        }
        self._status: dict[str, tuple[float, dict[str, Any]]] = {}  # game -> (time, pool status)
        # Outside test mode: concurrent purchases of a game sold in one transaction (PostgreSQL:
        # those that arrive while a batch is sold; SQLite: those of one turn of the event loop)
        batching = (self.sql.batch_debit is not None or db.is_sqlite) and not test_mode
        self.batcher = SaleBatcher(self) if batching else None
        self.next_entries = NextEntries()  # PostgreSQL batches signed ahead (web.endpoint.batch)
        self.ahead = Ahead()  # book hashes of the next entries (web.endpoint.hashes)
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
        """Make sure the game has a pool with unsold entries; lay one out and commit its root.

        kind "try": the game's pool of free plays (TRY mode), laid out and committed the same
        way, from the same prize table, but never sold."""
        check_game(game)  # never a pool for a game that is not on sale
        with self._layout_locks[(game, kind)]:
            with self.db.begin() as conn:
                row = self.current_pool(conn, game, kind)
            if row is not None and row.id != exhausted_ref and row.next_index < row.size:
                return
            try:
                pool = self.pool_files.lay_out(game, use_spare=kind == "paid")
            except Exception as error:  # its process killed (out of memory), a full disk...
                logging.getLogger("web.endpoint").exception("laying out a pool of %s failed", game)
                raise ApiError(503, "pool_unavailable", NO_POOL) from error
            with self.db.begin() as conn:
                self.db.advisory_lock(conn, pool_lock(game, kind))
                row = self.current_pool(conn, game, kind)
                if row is not None and row.id != exhausted_ref and row.next_index < row.size:
                    return  # another process committed a fresh pool meanwhile
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

    def warm(self) -> None:
        """Make sure every game on sale has a committed pool (run at start, in a thread), then
        its pool of free plays."""
        for kind in POOL_KINDS:
            for game in games.on_sale():
                self.ensure_pool(game.id, kind=kind)

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

    # -- purchase --------------------------------------------------------------------------

    def try_purchase(self, account: Account, game: str, key: str | None) -> dict[str, Any]:
        """Buy a play: debit, draw the next entry, record and sign it, all in one transaction.

        Raises PoolExhausted, having changed nothing, when a pool must be laid out first
        (web.endpoint.sales.buy does that and retries). 404 for an unknown game, 409 for one
        that is not on sale.
        """
        price = check_game(game).price_pence
        try:
            if self.sql.take is not None and not self.test_mode:
                return self._purchase_pipelined(account, game, price, key)
            with self.db.begin() as conn:
                return self._purchase(conn, account, game, price, key)
        except PoolExhausted:
            self._pools.pop(game, None)
            raise
        except ApiError as error:
            if key is None or error.status not in (402, 403):
                raise
            with self.db.begin() as conn:  # a retry of a purchase made is not refused for funds
                # (nor for a spend limit)
                if self.sql.play_by_key.row(conn, account=account.pk, key=key) is None:
                    raise
        except Exception as error:
            # A retry with a used Idempotency-Key trips the unique index; all was rolled back.
            if key is None or "idempotency" not in repr(error).lower():
                raise
        with self.db.begin() as conn:
            return self._repeat(conn, account, game, key)

    def _repeat(self, conn: Connection, account: Account, game: str, key: str) -> dict[str, Any]:
        """The answer to a purchase already made with this Idempotency-Key."""
        done = self.sql.play_by_key.row(conn, account=account.pk, key=key)
        if done is None:
            raise ApiError(409, "idempotency_conflict", "This Idempotency-Key is in use.")
        if done[0] != game:
            raise ApiError(409, "idempotency_conflict", "This Idempotency-Key bought another game.")
        balance = self.sql.balance.value(conn, account=account.pk)
        return {"play_number": done[1], "token": done[2], "balance_pence": int(balance)}

    def _purchase(
        self, conn: Connection, account: Account, game: str, price: int, key: str | None
    ) -> dict[str, Any]:
        sql = self.sql
        pool = self._pool(conn, game)
        now = self.now_ms()
        period = limits.period_params(now)
        balance = sql.debit.value(conn, account=account.pk, price=price, **period)
        if balance is None:
            raise self._refusal(sql.limit_state.row(conn, account=account.pk), price, now)
        index = self._draw(conn, account, pool)
        sale = self._sale(account, pool, index, key, now)
        if sql.add_sale is not None:
            sql.add_sale.run(conn, amount_pence=-price, **sale)
        else:
            sql.add_play.run(conn, **sale)
            sql.add_transaction.run(
                conn,
                account_id=account.pk,
                kind="purchase",
                amount_pence=-price,
                play_number=sale["play_number"],
                created_at=now,
            )
        return {
            "play_number": sale["play_number"],
            "token": sale["token"],
            "balance_pence": int(balance),
        }

    def selling(self) -> list[PoolRow]:
        """The pools this process has sold from and is selling from now, a game each."""
        return list(self._pools.values())

    def _pool(self, conn: Connection, game: str) -> PoolRow:
        """The pool the game sells from (cached: a pool row's identity never changes)."""
        pool = self._pools.get(game) or self.current_pool(conn, game)
        if pool is None:
            raise PoolExhausted(None)
        self._pools[game] = pool
        return pool

    @staticmethod
    def _refusal(state: Any, price: int, now: int) -> ApiError:
        """Why a purchase's debit was refused: a spend limit (403), else the balance (402)."""
        refused = limits.Limits(state, now).refusal(price)
        if refused is not None:
            return refused
        return ApiError(402, "insufficient_funds", "The balance does not cover this play.")

    def _outcome(
        self, holder: str, pool: PoolRow, index: int, now: int, mode: str | None = None
    ) -> tuple[PoolEntry, int, dict[str, Any]]:
        """A pool entry sold (or given as a try) to `holder`: the entry, its play number and
        the token payload that says so."""
        entry = self.pool_files.get(pool.pool_id).entry(index)
        play_number = pool.id * PLAY_NUMBER_BASE + index + 1
        payload = Payload(
            account=holder,
            game=pool.game,
            model=pool.model,
            play_number=play_number,
            pool=pool.pool_id,
            index=index,
            prize_pence=entry.prize_pence,
            composition=entry.composition,
            seed=entry.seed.hex(),
            iat=now // 1000,
            mode=mode,
        ).to_json()
        return entry, play_number, payload

    def _sale(
        self, account: Account, pool: PoolRow, index: int, key: str | None, now: int
    ) -> dict[str, Any]:
        """The plays row of a sale of this pool entry, with its signed outcome token and its
        book's hash when the hasher made it ahead (else it is recorded just after, off the
        sale's path: web/endpoint/hashes.py)."""
        entry, play_number, payload = self._outcome(account.public_id, pool, index, now)
        return {
            "play_number": play_number,
            "account_id": account.pk,
            "game": pool.game,
            "model": pool.model,
            "pool_ref": pool.id,
            "pool_index": index,
            "prize_pence": entry.prize_pence,
            "composition": json.dumps(payload["composition"], separators=(",", ":")),
            "seed": payload["seed"],
            "status": "purchased",
            "token": tokens.sign(self.ring, payload),
            "idempotency_key": key,
            "purchased_at": now,
            "finished_at": None,
            "finished_by": None,
            "book_hash": self.ahead.take(pool.id, index),
            "progress_event": 0,
            "choices": "[]",
        }

    def _purchase_pipelined(
        self, account: Account, game: str, price: int, key: str | None
    ) -> dict[str, Any]:
        """PostgreSQL outside test mode: the purchase in two round trips (pipeline mode).

        1. BEGIN and one statement that debits the balance and, only if that succeeded, takes
           the pool's next entry (locking the pool row);
        2. the play and its ledger row in one statement, and COMMIT.
        The pool row is locked from the middle of the first round trip to the commit: for
        the signature and one round trip, not for five (see docs/endpoint-benchmarks.md).
        """
        sql = self.sql
        assert sql.take is not None and sql.add_sale is not None
        with self._pipeline() as (pg, cursor):
            pool = self._pool_on(cursor, game)
            if pool is None:
                raise PoolExhausted(None)
            now = self.now_ms()
            cursor.execute(
                sql.take,
                {"account": account.pk, "price": price, "pool": pool.id}
                | limits.period_params(now),
            )
            balance, taken = cursor.fetchone()
            if balance is None:
                state = sql.limit_state
                cursor.execute(state.sql, {**state.defaults, "account": account.pk})
                raise self._refusal(cursor.fetchone(), price, now)
            if taken is None:
                raise PoolExhausted(pool.id)
            index = int(taken) - 1
            self._spare_at(pool, index)
            sale = self._sale(account, pool, index, key, now)
            cursor.execute(
                sql.add_sale.sql, {**sql.add_sale.defaults, **sale, "amount_pence": -price}
            )
            pg.commit()
            self.next_entries.drawn(pool.id, int(taken))
        return {
            "play_number": sale["play_number"],
            "token": sale["token"],
            "balance_pence": int(balance),
        }

    def sell_batch(
        self, game: str, requests: list[tuple[Account, str]]
    ) -> list[dict[str, Any] | None]:
        """PostgreSQL outside test mode: sell a batch of purchases of a game in one transaction
        (web.endpoint.batch); the answer of each, or None for one to buy on its own.

        Two round trips (pipeline mode): BEGIN and one statement debiting every account for
        all its purchases whose Idempotency-Key it has not used (an account whose balance does
        not cover them all pays for none: its purchases go on their own) and drawing as many
        consecutive entries as purchases were paid; the plays and ledger rows (one statement)
        and COMMIT.
        Accounts are locked in id order, so two batches (or a batch and a single sale) never
        wait on each other in a cycle. Any error rolls the whole batch back (raised: the caller
        buys each on its own).
        """
        if self.db.is_sqlite:
            return self._sell_batch_local(game, requests)
        sql = self.sql
        assert sql.batch_debit is not None and sql.add_sales is not None
        price = check_game(game).price_pence
        results: list[dict[str, Any] | None] = [None] * len(requests)
        chosen: list[int] = []
        keys: set[tuple[int, str]] = set()
        for i, (account, key) in enumerate(requests):
            if (account.pk, key) not in keys:  # the same key twice: the second on its own
                keys.add((account.pk, key))
                chosen.append(i)
        chosen.sort(key=lambda i: requests[i][0].pk)
        with self._pipeline() as (pg, cursor):
            pool = self._pool_on(cursor, game)
            if pool is None:
                return results
            now = self.now_ms()
            first = self.next_entries.claim(pool.id, len(chosen))
            if first is not None:
                if self._sell_signed(
                    pg, cursor, pool, price, requests, chosen, first, now, results
                ):
                    return results
                self.next_entries.missed(pool.id)
            cursor.execute(
                sql.batch_debit,
                {
                    "accounts": [requests[i][0].pk for i in chosen],
                    "keys": [requests[i][1] for i in chosen],
                    "price": price,
                    "pool": pool.id,
                }
                | limits.period_params(now),
            )
            # (position in chosen, the account's balance after all its debits, how
            # many, the draw): its k-th purchase leaves that balance + price x (count - 1 - k)
            paid: list[tuple[int, int]] = []  # (request, balance after its debit)
            taken: dict[int, int] = {}
            rows = cursor.fetchall()
            drawn = rows[0][3] if rows else None  # the same on every row
            for position, after, count, _ in rows:
                i = chosen[position - 1]
                k = taken[requests[i][0].pk] = taken.get(requests[i][0].pk, -1) + 1
                paid.append((i, int(after) + price * (int(count) - 1 - k)))
            if not paid:
                pg.rollback()
                return results
            if drawn is None:  # fewer entries left than sales: each on its own
                pg.rollback()
                self._pools.pop(game, None)
                return results
            first = int(drawn) - len(paid)
            sales = []
            for n, (i, balance) in enumerate(paid):
                account, key = requests[i]
                self._spare_at(pool, first + n)
                sale = self._sale(account, pool, first + n, key, now)
                sales.append(sale)
                results[i] = {
                    "play_number": sale["play_number"],
                    "token": sale["token"],
                    "balance_pence": balance,
                }
            # every play and its ledger row in one statement
            cursor.execute(
                sql.add_sales,
                {"sales": sales_param(sales), "game": pool.game, "model": pool.model}
                | {"pool_ref": pool.id, "purchased_at": now, "amount_pence": -price},
            )
            pg.commit()
            self.next_entries.drawn(pool.id, int(drawn))
        return results

    def _sell_signed(
        self,
        pg: Any,
        cursor: Any,
        pool: PoolRow,
        price: int,
        requests: list[tuple[Account, str]],
        chosen: list[int],
        first: int,
        now: int,
        results: list[dict[str, Any] | None],
    ) -> bool:
        """Sell the chosen purchases (in account order) as entries first, first + 1, ... of the
        pool, signed before the one statement that sells them (Statements.batch_sale) is sent
        with its COMMIT: one round trip. False when the statement sold nothing (the pool has
        moved on, or a purchase is not paid); the transaction is then over and changed
        nothing, and no token signed here is kept."""
        sql = self.sql
        assert sql.batch_sale is not None
        sales = [
            self._sale(requests[i][0], pool, first + k, requests[i][1], now)
            for k, i in enumerate(chosen)
        ]
        cursor.execute(
            sql.batch_sale,
            {
                "sales": sales_param(sales),
                "accounts": [requests[i][0].pk for i in chosen],
                "keys": [requests[i][1] for i in chosen],
                "price": price,
                "pool": pool.id,
                "first": first,
                "n": len(chosen),
                "game": pool.game,
                "model": pool.model,
                "pool_ref": pool.id,
                "purchased_at": now,
                "amount_pence": -price,
            }
            | limits.period_params(now),
        )
        pg.commit()
        rows = cursor.fetchall()
        if not rows:
            return False
        # one row per purchase, in account order: (its position, the account's balance after
        # all its debits, how many it paid, the pool's new next_index)
        assert len(rows) == len(chosen) and int(rows[0][3]) == first + len(chosen), rows
        self.next_entries.drawn(pool.id, first + len(chosen))
        taken: dict[int, int] = {}
        for n, (position, after, count, _) in enumerate(rows):
            assert position == n + 1, rows
            i, sale = chosen[n], sales[n]
            k = taken[requests[i][0].pk] = taken.get(requests[i][0].pk, -1) + 1
            self._spare_at(pool, sale["pool_index"])
            results[i] = {
                "play_number": sale["play_number"],
                "token": sale["token"],
                "balance_pence": int(after) + price * (int(count) - 1 - k),
            }
        return True

    def _sell_batch_local(
        self, game: str, requests: list[tuple[Account, str]]
    ) -> list[dict[str, Any] | None]:
        """SQLite: a batch of purchases in one transaction and one commit, each purchase the
        single sale's own statements (`_purchase`) inside a savepoint of its own. A purchase
        that fails (balance or limit short, Idempotency-Key already used, the pool spent) is
        rolled back to its savepoint alone and answered None, to be bought on its own for its
        exact answer; any other error (the commit's) rolls the whole batch back (raised: each
        is then bought on its own). The transactions and the commit were most of a sale's time
        on SQLite, not its statements."""
        price = check_game(game).price_pence
        results: list[dict[str, Any] | None] = [None] * len(requests)
        with self.db.begin() as conn:
            raw = conn.connection.driver_connection
            assert raw is not None
            for i, (account, key) in enumerate(requests):
                raw.execute("SAVEPOINT sale")
                try:
                    results[i] = self._purchase(conn, account, game, price, key)
                except PoolExhausted:  # the rest go on their own, which lays out a pool
                    raw.execute("ROLLBACK TO sale")
                    raw.execute("RELEASE sale")
                    self._pools.pop(game, None)
                    break
                except Exception:  # bought again on its own, which answers it exactly
                    raw.execute("ROLLBACK TO sale")
                raw.execute("RELEASE sale")
        return results

    @contextmanager
    def _pipeline(self) -> Iterator[tuple[Any, Any]]:
        """A psycopg connection in pipeline mode and its cursor (PostgreSQL): the statements of
        a sale go out without waiting for each answer; any error rolls the transaction back."""
        raw = self.db.engine.raw_connection()
        try:
            pg: Any = raw.driver_connection
            try:
                with pg.pipeline(), pg.cursor() as cursor:
                    yield pg, cursor
            except BaseException:
                if pg.broken:  # the connection was lost: drop it, not back to the pool
                    raw.invalidate()
                else:
                    pg.rollback()
                raise
        finally:
            raw.close()

    def _pool_on(self, cursor: Any, game: str) -> PoolRow | None:
        """The game's pool (cached), read through a psycopg cursor of a pipelined sale."""
        pool = self._pools.get(game)
        if pool is None:
            sql = self.sql.current_pool
            cursor.execute(sql.sql, {**sql.defaults, "game": game})
            found = cursor.fetchone()
            if found is None:
                return None
            pool = self._pools[game] = PoolRow(*found)
        return pool

    def _spare_at(self, pool: PoolRow, index: int) -> None:
        """Lay out the game's next pool in the background when this sale leaves 1/SPARE_AT."""
        if index == pool.size - pool.size // SPARE_AT:
            threading.Thread(
                target=self.pool_files.prepare_spare, args=(pool.game,), daemon=True
            ).start()

    def _draw(self, conn: Connection, account: Account, pool: PoolRow) -> int:
        """Take the reserved entry (test mode) or the next unsold entry of the pool."""
        held = None
        if self.test_mode:
            held = self.sql.reserved.value(conn, account=account.pk, game=pool.game, pool=pool.id)
        if held is not None:
            conn.execute(
                reservations.delete().where(
                    reservations.c.account_id == account.pk, reservations.c.game == pool.game
                )
            )
            return int(held)
        while True:
            # The row lock on the pool serializes draws across processes (PostgreSQL).
            taken = self.sql.next_index.value(conn, pool=pool.id)
            if taken is None:
                raise PoolExhausted(pool.id)
            index = int(taken) - 1
            self._spare_at(pool, index)
            # Only test mode sells entries out of order; otherwise the unique (pool, index)
            # constraint is the guard.
            if not self.test_mode or not entry_taken(conn, pool.id, index):
                return index

    # -- TRY mode ----------------------------------------------------------------------------

    def try_play(self, account: Account | None, game: str) -> dict[str, Any]:
        """A free play: the next entry of the game's pool of free plays, signed as a try play
        (payload mode "try"); no money moves and it is no play of the account's."""
        check_game(game)
        exhausted: int | None = None
        for _ in range(MAX_DRAW_ATTEMPTS):
            self.ensure_pool(game, exhausted, kind="try")
            with self.db.begin() as conn:
                pool = self.current_pool(conn, game, "try")
                taken = None if pool is None else self.sql.next_index.value(conn, pool=pool.id)
                if pool is not None and taken is not None:
                    return self._try_sale(conn, account, pool, int(taken) - 1)
            exhausted = None if pool is None else pool.id
        raise ApiError(503, "pool_unavailable", NO_POOL)

    def _try_sale(
        self, conn: Connection, account: Account | None, pool: PoolRow, index: int
    ) -> dict[str, Any]:
        now = self.now_ms()
        holder = account.public_id if account is not None else ANONYMOUS
        entry, play_number, payload = self._outcome(holder, pool, index, now, "try")
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


NO_POOL = "No pool could be laid out; try again in a moment."
ANONYMOUS = "anonymous"  # the account claim of a try play's token without a session
CLOCK_LOCK = 74_280_002  # PostgreSQL advisory lock id: one mover of the test clock at a time


def read_clock_offset(db: Database) -> int:
    """Test mode: how far the ledger's clock has been moved on (meta table), in ms."""
    with db.begin() as conn:
        found = conn.execute(select(meta.c.value).where(meta.c.key == CLOCK_KEY)).scalar()
    return int(found or 0)


def pool_lock(game: str, kind: str = "paid") -> int:
    """The PostgreSQL advisory lock held by whoever commits or closes a game's pools of a kind
    (its free plays' pools have one of their own)."""
    return POOL_LOCK_BASE + games.ids().index(game) + (TRY_LOCK_OFFSET if kind == "try" else 0)


def check_game(game_id: str) -> Game:
    """The game of this id if it is on sale; 404 for an unknown id, 409 for a game not on sale."""
    try:
        game = games.get(game_id)
    except games.UnknownGame:
        raise unknown_game(game_id) from None
    if not game.on_sale:
        raise not_on_sale(game.id, game.name)
    return game


def entry_taken(conn: Connection, pool_ref: int, index: int) -> bool:
    """True when a pool entry is sold or reserved (test mode)."""
    sold = conn.execute(
        select(plays.c.id).where(plays.c.pool_ref == pool_ref, plays.c.pool_index == index)
    ).first()
    held = conn.execute(
        select(reservations.c.account_id).where(
            reservations.c.pool_ref == pool_ref, reservations.c.pool_index == index
        )
    ).first()
    return sold is not None or held is not None


def open_ledger(
    settings: Settings, clock: Callable[[], float], lay_out: LayOut | None = None
) -> Ledger:
    """The ledger of an endpoint's configuration: its database opened (and migrated), its
    signing keys and its pools' directory. The app and the operators' commands open it alike."""
    db = Database(settings.db_url, settings.db_pool_size, settings.db_connect_timeout_seconds)
    db.migrate()
    ring = load_keyring(
        settings.var_dir,
        settings.signing_key_file,
        settings.signing_key_pem,
        settings.retired_keys_dir,
    )
    pool_files = PoolFiles(settings.pools_path, settings.pool_size, lay_out)
    return Ledger(db, pool_files, ring, clock, settings.play_timeout_seconds, settings.test_mode)
