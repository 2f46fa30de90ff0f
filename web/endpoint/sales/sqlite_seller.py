"""The SQLite seller: a purchase's statements on the database's connection, one transaction,
and batches of them with one commit (SQLite is local, so a statement costs no round trip; the
transactions and the commit were most of a sale's time, not its statements)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from engine.game import Game
from web.endpoint.pools.cache import PoolNotLoaded
from web.endpoint.pools.pools import PoolExhausted, PoolRow
from web.endpoint.sales.sale import Answer, Record, answer_of
from web.endpoint.sales.seller import Requests, SaleParts

if TYPE_CHECKING:
    from web.endpoint.player.accounts import Account

Draw = Callable[[Connection, "Account", PoolRow], int]  # the entry a sale takes


def ledger_row(record: Record, price: int) -> dict[str, Any]:
    """The ledger's row of a sale (transactions: the purchase's debit)."""
    return {
        "account_id": record["account_id"],
        "kind": "purchase",
        "amount_pence": -price,
        "play_number": record["play_number"],
        "created_at": record["purchased_at"],
    }


class StatementSale:
    """One purchase as statements on a SQLAlchemy connection, in the caller's transaction:
    the debit, the draw, the play, its public log record and its ledger row. SQLite's seller
    sells with it, and test mode's on either database (its draw honours reserved entries)."""

    def __init__(self, parts: SaleParts) -> None:
        self.parts = parts

    def __call__(
        self, conn: Connection, account: Account, game: Game, key: str | None, draw: Draw,
        sold: list[Record] | None = None,
    ) -> Answer:  # fmt: skip
        """Sell a play of `game` to `account`, its entry taken by `draw`; its public log
        record and its ledger row inserted now, or, given `sold`, its record added to it once
        the sale's statements have all run, for the caller to insert those rows of them all
        before it commits (`insert_sold`)."""
        sql, price = self.parts.sql, game.price_pence
        pool = self.parts.selling.on(conn, game.id)
        now = self.parts.now_ms()
        params = self.parts.debit_params(now)
        balance = sql.debit.value(conn, account=account.pk, price=price, **params)
        if balance is None:  # nothing taken: the caller's transaction (or savepoint) is undone
            raise self.parts.refusal(sql.admission.row(conn, account=account.pk), price, now)
        index = draw(conn, account, pool)
        record = self.parts.records.record(account, pool, index, key, now)
        sql.add_play.run(conn, **record)
        if sold is None:
            sql.add_log_entry.run(conn, **record)  # the public log's record, in this transaction
            sql.add_transaction.run(conn, **ledger_row(record, price))
        else:
            sold.append(record)
        return answer_of(record, balance)

    def insert_sold(self, conn: Connection, sold: list[Record], price: int) -> None:
        """The public log records and ledger rows of sales made with `sold`, in their order
        (their pool's index order), each kind in one executemany: a statement a sale cost it
        about a tenth of its time on SQLite."""
        self.parts.sql.add_log_entry.many(conn, sold)
        self.parts.sql.add_transaction.many(conn, [ledger_row(r, price) for r in sold])

    def next_entry(self, conn: Connection, _account: Account, pool: PoolRow) -> int:
        """Take the pool's next unsold entry (the row lock on the pool serializes draws across
        processes on PostgreSQL); raises PoolExhausted when it has none."""
        taken = self.parts.sql.next_index.value(conn, pool=pool.id)
        if taken is None:
            raise PoolExhausted(pool.id)
        index = int(taken) - 1
        self.parts.spare_at(pool, index)
        return index


class SqliteSeller:
    """Sells on SQLite: a purchase in one transaction, or a batch in one (`sell_batch`)."""

    batches = True
    # SQLite has no connection to lose: its file was locked for the whole busy timeout, or
    # could not be written; no use waiting that long again.
    retries_lost = False

    def __init__(self, parts: SaleParts) -> None:
        self.parts = parts
        self.sale = StatementSale(parts)

    def sell(self, account: Account, game: Game, key: str | None) -> Answer:
        """A purchase in a transaction of its own."""
        with self.parts.db.begin() as conn:
            return self.sale(conn, account, game, key, self.sale.next_entry)

    def sell_batch(self, game: Game, requests: Requests) -> list[Answer | None]:
        """A batch of purchases in one transaction and one commit (sold inline on the event
        loop: those that reached the batcher in one turn of the loop), each purchase the
        single sale's own statements inside a savepoint of its own. A purchase that fails
        (balance or limit short, Idempotency-Key already used, the pool spent) is rolled back
        to its savepoint alone and answered None, to be bought on its own for its exact
        answer; any other error (the commit's) rolls the whole batch back (raised: each is
        then bought on its own). The sales' public log records and ledger rows go in last
        (`StatementSale.insert_sold`)."""
        results: list[Answer | None] = [None] * len(requests)
        sold: list[Record] = []
        with self.parts.db.begin() as conn:
            raw = conn.connection.driver_connection
            assert raw is not None
            for i, (account, key) in enumerate(requests):
                raw.execute("SAVEPOINT sale")
                try:
                    results[i] = self.sale(conn, account, game, key, self.sale.next_entry, sold)
                except (PoolExhausted, PoolNotLoaded):  # the rest go on their own, which lay
                    # out or load the pool outside this transaction
                    raw.execute("ROLLBACK TO sale")
                    raw.execute("RELEASE sale")
                    self.parts.selling.forget(game.id)
                    break
                except Exception:  # bought again on its own, which answers it exactly
                    raw.execute("ROLLBACK TO sale")
                raw.execute("RELEASE sale")
            if sold:
                self.sale.insert_sold(conn, sold, game.price_pence)
        return results
