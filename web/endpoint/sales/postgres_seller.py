"""The PostgreSQL seller: a purchase in two round trips and a batch in one or two, the
statements sent in psycopg's pipeline mode (web/endpoint/sales/statements.py has them; the figures
that chose them are in docs/changelog.md)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from engine.game import Game
from web.endpoint.pools.cache import PoolNotLoaded
from web.endpoint.pools.pools import PoolExhausted, PoolRow
from web.endpoint.sales.pg_statements import PostgresStatements, sales_params
from web.endpoint.sales.sale import Answer, Record, answer, answer_of
from web.endpoint.sales.seller import Requests, SaleParts

if TYPE_CHECKING:
    from web.endpoint.player.accounts import Account

GUESS_BACKOFF = 8  # batches of a pool sold the long way after a wrong guess


class PostgresSeller:
    """Sells on PostgreSQL, holding the pool row's lock as briefly as it can: a single sale
    for one round trip and the signature, a batch signed ahead for its statement only."""

    batches = True
    retries_lost = True  # a lost connection (a restarted server): tried on a new one

    def __init__(self, parts: SaleParts) -> None:
        self.parts = parts
        self.sql = PostgresStatements(parts.db.engine.dialect)  # its own SQL
        self.guesses = DrawGuesses()  # where batches signed ahead start

    def sell(self, account: Account, game: Game, key: str | None) -> Answer:
        """The purchase in two round trips (pipeline mode):

        1. BEGIN and one statement that debits the balance and, only if that succeeded, takes
           the pool's next entry (locking the pool row);
        2. the play and its ledger row in one statement, and COMMIT.
        The pool row is locked from the middle of the first round trip to the commit: for
        the signature and one round trip, not for five.
        """
        sql, own, price = self.parts.sql, self.sql, game.price_pence
        with self._pipeline() as (pg, cursor):
            pool = self._pool_on(cursor, game.id)
            if pool is None:
                raise PoolExhausted(None)
            now = self.parts.now_ms()
            cursor.execute(
                own.take,
                {"account": account.pk, "price": price, "pool": pool.id}
                | self.parts.debit_params(now),
            )
            balance, taken = cursor.fetchone()
            if balance is None:  # refused, nothing taken: rolled back as the error leaves
                state = sql.admission
                cursor.execute(state.sql, {**state.defaults, "account": account.pk})
                raise self.parts.refusal(cursor.fetchone(), price, now)
            if taken is None:
                raise PoolExhausted(pool.id)
            index = int(taken) - 1
            self.parts.spare_at(pool, index)
            record = self.parts.records.record(account, pool, index, key, now)
            cursor.execute(
                own.add_sale.sql, {**own.add_sale.defaults, **record, "amount_pence": -price}
            )
            pg.commit()
            self.guesses.drawn(pool.id, int(taken))
        return answer_of(record, balance)

    def sell_batch(self, game: Game, requests: Requests) -> list[Answer | None]:
        """A batch of purchases of a game in one transaction.

        Signed ahead (`_sell_signed`) when this process knows where the pool stands: one round
        trip. Otherwise two (pipeline mode): BEGIN and one statement debiting every account for
        all its purchases whose Idempotency-Key it has not used (an account whose balance does
        not cover them all, or a spend limit, or its log-out of play refuses, pays for none: its
        purchases go on their own) and drawing as many
        consecutive entries as purchases were paid; the plays and ledger rows (one statement)
        and COMMIT.
        Accounts are locked in id order, so two batches (or a batch and a single sale) never
        wait on each other in a cycle.
        """
        own, price = self.sql, game.price_pence
        results: list[Answer | None] = [None] * len(requests)
        chosen: list[int] = []
        keys: set[tuple[int, str]] = set()
        for i, (account, key) in enumerate(requests):
            if (account.pk, key) not in keys:  # the same key twice: the second on its own
                keys.add((account.pk, key))
                chosen.append(i)
        chosen.sort(key=lambda i: requests[i][0].pk)
        with self._pipeline() as (pg, cursor):
            try:
                pool = self._pool_on(cursor, game.id)
            except PoolNotLoaded:  # each on its own, which loads it outside the transaction
                return results
            if pool is None:
                return results
            now = self.parts.now_ms()
            first = self.guesses.claim(pool.id, len(chosen))
            if first is not None:
                if self._sell_signed(
                    pg, cursor, pool, price, requests, chosen, first, now, results
                ):
                    return results
                self.guesses.missed(pool.id)
            cursor.execute(
                own.batch_debit,
                {
                    "accounts": [requests[i][0].pk for i in chosen],
                    "keys": [requests[i][1] for i in chosen],
                    "price": price,
                    "pool": pool.id,
                }
                | self.parts.debit_params(now),
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
                self.parts.selling.forget(game.id)
                return results
            first = int(drawn) - len(paid)
            records: list[Record] = []
            for n, (i, balance) in enumerate(paid):
                account, key = requests[i]
                self.parts.spare_at(pool, first + n)
                record = self.parts.records.record(account, pool, first + n, key, now)
                records.append(record)
                results[i] = answer_of(record, balance)
            # every play and its ledger row in one statement
            cursor.execute(
                own.add_sales,
                sales_params(records)
                | {"game": pool.game, "model": pool.model}
                | {"pool_ref": pool.id, "purchased_at": now, "amount_pence": -price},
            )
            pg.commit()
            self.guesses.drawn(pool.id, int(drawn))
        return results

    def _sell_signed(
        self,
        pg: Any,
        cursor: Any,
        pool: PoolRow,
        price: int,
        requests: Requests,
        chosen: list[int],
        first: int,
        now: int,
        results: list[Answer | None],
    ) -> bool:
        """Sell the chosen purchases (in account order) as entries first, first + 1, ... of the
        pool, signed before the one statement that sells them (its `batch_sale`) is sent with
        its COMMIT: one round trip. False when the statement sold nothing (the pool has
        moved on, or a purchase is not paid); the transaction is then over and changed
        nothing, and no token signed here is kept."""
        own = self.sql
        records = [
            self.parts.records.record(requests[i][0], pool, first + k, requests[i][1], now)
            for k, i in enumerate(chosen)
        ]
        cursor.execute(
            own.batch_sale,
            sales_params(records)
            | {
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
            | self.parts.debit_params(now),
        )
        pg.commit()
        rows = cursor.fetchall()
        if not rows:
            return False
        # one row per purchase, in account order: (its position, the account's balance after
        # all its debits, how many it paid, the pool's new next_index)
        assert len(rows) == len(chosen) and int(rows[0][3]) == first + len(chosen), rows
        self.guesses.drawn(pool.id, first + len(chosen))
        taken: dict[int, int] = {}
        for n, (position, after, count, _) in enumerate(rows):
            assert position == n + 1, rows
            i, record = chosen[n], records[n]
            k = taken[requests[i][0].pk] = taken.get(requests[i][0].pk, -1) + 1
            self.parts.spare_at(pool, record["pool_index"])
            results[i] = answer(
                record["play_number"], record["token"], int(after) + price * (int(count) - 1 - k)
            )
        return True

    @contextmanager
    def _pipeline(self) -> Iterator[tuple[Any, Any]]:
        """A psycopg connection in pipeline mode and its cursor: the statements of a sale go
        out without waiting for each answer; any error rolls the transaction back."""
        raw = self.parts.db.engine.raw_connection()
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
        """The game's pool (remembered), read through a psycopg cursor of a pipelined sale
        before anything is locked; PoolNotLoaded if this process has not loaded it yet."""
        pool = self.parts.selling.get(game)
        if pool is None:
            sql = self.parts.selling.current_sql
            cursor.execute(sql.sql, {**sql.defaults, "game": game})
            found = cursor.fetchone()
            if found is None:
                return None
            pool = self.parts.selling.put(PoolRow(*found))
        return pool


class DrawGuesses:
    """This process's guess of each pool's next entry: the index after its own last draw.
    A batch signed ahead claims the entries it guesses. After a wrong guess the pool's
    next GUESS_BACKOFF batches are sold the long way (which tells the truth again), so
    processes that share a pool, each drawing between the other's batches, do not keep signing
    for nothing."""

    def __init__(self) -> None:
        self._next: dict[int, int] = {}
        self._backoff: dict[int, int] = {}
        self._lock = threading.Lock()

    def claim(self, pool: int, count: int) -> int | None:
        """The first of `count` entries to sign ahead, claimed; None: sell the long way."""
        with self._lock:
            if self._backoff.get(pool, 0) > 0:
                self._backoff[pool] -= 1
                return None
            first = self._next.get(pool)
            if first is not None:
                self._next[pool] = first + count
            return first

    def drawn(self, pool: int, next_index: int) -> None:
        """A draw of this process left the pool's next entry at `next_index`."""
        with self._lock:
            self._next[pool] = next_index

    def missed(self, pool: int) -> None:
        """A guess was wrong (or another draw made it unknown): forget it, back off."""
        with self._lock:
            self._next.pop(pool, None)
            self._backoff[pool] = GUESS_BACKOFF
