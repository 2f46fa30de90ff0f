"""The ledger's SQL statements compiled once per dialect, for purchase and finish.

Building and cache-keying a Core expression costs more than SQLite takes to run it, so the
statements a purchase runs are built once, compiled for the engine's dialect, and executed
as driver SQL with their parameters.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Connection,
    bindparam,
    case,
    insert,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.sql import ClauseElement

from web.endpoint import limits
from web.endpoint.schema import accounts, plays, pools, reservations, transactions


class Prepared:
    """One statement compiled for one dialect."""

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = str(compiled)
        self.defaults = dict(compiled.params)
        positional = getattr(compiled, "positional", False)
        self.order: list[str] | None = compiled.positiontup if positional else None  # type: ignore[attr-defined]

    def __call__(self, conn: Connection, **values: Any) -> Any:
        """Execute on the connection's DBAPI cursor with these values; returns the cursor."""
        params = {**self.defaults, **values}
        cursor = conn.connection.cursor()
        if self.order is not None:
            cursor.execute(self.sql, tuple(params[name] for name in self.order))
        else:
            cursor.execute(self.sql, params)
        return cursor

    def run(self, conn: Connection, **values: Any) -> None:
        """Execute for the effect only."""
        self(conn, **values).close()

    def row(self, conn: Connection, **values: Any) -> Any:
        """The first row (a tuple), or None."""
        cursor = self(conn, **values)
        row = cursor.fetchone()
        cursor.close()
        return row

    def value(self, conn: Connection, **values: Any) -> Any:
        """The first column of the first row, or None."""
        row = self.row(conn, **values)
        return None if row is None else row[0]


# The columns of a batch's plays passed in its one JSON parameter (`sales_param`, read by
# json_to_recordset), and their types; the rest are the batch's own (game, model, pool, status,
# time) or their defaults. (Passed as one array a column, psycopg dumped each array element by
# element in Python: a seventh of the serving process's interpreter time at load, py-spy
# 2026-12-01; json.dumps is C.)
SALE_FIELDS = {
    "play_number": "bigint",
    "account_id": "integer",
    "pool_index": "integer",
    "prize_pence": "bigint",
    "composition": "text",
    "seed": "text",
    "token": "text",
    "idempotency_key": "text",
    "book_hash": "text",
}


# PostgreSQL text shared by the batch statements (Ledger.sell_batch). A batch's purchases as
# rows (`n` its position in the arrays), those whose Idempotency-Key the account has not used,
# and how many each account buys:
PG_BATCH_REQUESTS = (
    "req AS (SELECT * FROM unnest(%(accounts)s::integer[], %(keys)s::text[])"
    " WITH ORDINALITY AS r(account, key, n)),"
    " fresh AS (SELECT account, key, n FROM req WHERE NOT EXISTS (SELECT FROM plays"
    " WHERE account_id = req.account AND idempotency_key = req.key)),"
    " need AS (SELECT account, count(*) AS c FROM fresh GROUP BY account)"
)
# ...and the ledger rows of the plays a `sale` CTE inserted.
PG_BATCH_LEDGER_ROWS = (
    "INSERT INTO transactions (account_id, kind, amount_pence, play_number, created_at)"
    " SELECT account_id, 'purchase', %(amount_pence)s, play_number, purchased_at"
    " FROM sale ORDER BY play_number"
)


def sales_param(sales: list[dict[str, Any]]) -> str:
    """The `sales` parameter of a batch's statement: its plays' SALE_FIELDS, a JSON array of
    objects in the batch's order."""
    rows = [{name: sale[name] for name in SALE_FIELDS} for sale in sales]
    return json.dumps(rows, separators=(",", ":"))


def pg_batch_plays(condition: str) -> str:
    """The `sale` CTE inserting a batch's plays from its `sales` parameter (SALE_FIELDS), the
    rest of each row the batch's own; `condition` (" WHERE ...", or "") decides whether it
    does."""
    fields = ", ".join(f"{name} {kind}" for name, kind in SALE_FIELDS.items())
    return (
        "sale AS (INSERT INTO plays (game, model, pool_ref, status, purchased_at,"
        f" {', '.join(SALE_FIELDS)})"
        " SELECT %(game)s, %(model)s, %(pool_ref)s, 'purchased', %(purchased_at)s, s.*"
        f" FROM json_to_recordset(%(sales)s::json) AS s({fields}){condition}"
        " RETURNING account_id, play_number, purchased_at)"
    )


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
    kind: str = "paid"  # "paid", or "try": the free plays of TRY mode


class Statements:
    """The statements of purchase and finish, compiled for one dialect."""

    def __init__(self, dialect: Dialect) -> None:
        p = bindparam
        self.play_by_key = Prepared(
            select(plays.c.game, plays.c.play_number, plays.c.token).where(
                plays.c.account_id == p("account"), plays.c.idempotency_key == p("key")
            ),
            dialect,
        )
        self.current_pool = Prepared(
            select(pools)
            .where(pools.c.kind == p("kind", "paid"), pools.c.game == p("game"))
            .order_by(pools.c.id.desc())
            .limit(1),
            dialect,
        )
        # The debit of a purchase: the balance, and the day's and week's spend, only when the
        # balance covers the price and the spend stays within the limits in force (a pending
        # raise whose time has come is in force). Parameters: account, price, now, day, week.
        a = accounts.c
        day = case((a.spend_day == p("day"), a.spend_day_pence), else_=0)
        week = case((a.spend_week == p("week"), a.spend_week_pence), else_=0)
        day_limit = case(
            (a.daily_pending_at <= p("now"), a.daily_pending_pence), else_=a.daily_limit_pence
        )
        week_limit = case(
            (a.weekly_pending_at <= p("now"), a.weekly_pending_pence), else_=a.weekly_limit_pence
        )
        self.debit = Prepared(
            update(accounts)
            .where(
                a.id == p("account"),
                a.balance_pence >= p("price"),
                or_(day_limit.is_(None), day + p("price") <= day_limit),
                or_(week_limit.is_(None), week + p("price") <= week_limit),
            )
            .values(
                balance_pence=a.balance_pence - p("price"),
                spend_day=p("day"),
                spend_day_pence=day + p("price"),
                spend_week=p("week"),
                spend_week_pence=week + p("price"),
            )
            .returning(a.balance_pence),
            dialect,
        )
        # Why a debit was refused (read only then): the balance, limits and spend cache.
        self.limit_state = Prepared(select(*limits.COLUMNS).where(a.id == p("account")), dialect)
        self.credit = Prepared(
            update(accounts)
            .where(accounts.c.id == p("account"))
            .values(balance_pence=accounts.c.balance_pence + p("amount")),
            dialect,
        )
        self.balance = Prepared(
            select(accounts.c.balance_pence).where(accounts.c.id == p("account")), dialect
        )
        self.reserved = Prepared(
            select(reservations.c.pool_index).where(
                reservations.c.account_id == p("account"),
                reservations.c.game == p("game"),
                reservations.c.pool_ref == p("pool"),
            ),
            dialect,
        )
        self.next_index = Prepared(
            update(pools)
            .where(pools.c.id == p("pool"), pools.c.next_index < pools.c.size)
            .values(next_index=pools.c.next_index + 1)
            .returning(pools.c.next_index),
            dialect,
        )
        self.add_play = Prepared(
            insert(plays).values({c.name: p(c.name) for c in plays.columns if c.name != "id"}),
            dialect,
        )
        self.add_transaction = Prepared(
            insert(transactions).values(
                {c.name: p(c.name) for c in transactions.columns if c.name != "id"}
            ),
            dialect,
        )
        # PostgreSQL: the play and its debit in one statement, one round trip fewer while the
        # pool row is locked. (SQLite has no INSERT inside WITH; it is local anyway.)
        self.add_sale: Prepared | None = None
        if dialect.name == "postgresql":
            sale = (
                insert(plays)
                .values({c.name: p(c.name) for c in plays.columns if c.name != "id"})
                .returning(plays.c.account_id, plays.c.play_number, plays.c.purchased_at)
                .cte("sale")
            )
            columns = ["account_id", "kind", "amount_pence", "play_number", "created_at"]
            picked = select(
                sale.c.account_id,
                literal("purchase"),
                p("amount_pence", type_=BigInteger),
                sale.c.play_number,
                sale.c.purchased_at,
            )
            self.add_sale = Prepared(
                insert(transactions).from_select(columns, picked).add_cte(sale), dialect
            )
        # PostgreSQL: the debit and, only when it succeeded, the draw, in one statement (for
        # Ledger._purchase_pipelined). Its row: (balance after the debit or NULL when it does
        # not cover the price, the pool's new next_index or NULL when the pool is spent).
        self.take: str | None = None
        if dialect.name == "postgresql":
            self.take = (
                "WITH debit AS (UPDATE accounts SET balance_pence = balance_pence - %(price)s,"
                f" {limits.PG_SETS}"
                " WHERE id = %(account)s AND balance_pence >= %(price)s"
                f" AND {limits.PG_WITHIN} RETURNING balance_pence),"
                " draw AS (UPDATE pools SET next_index = next_index + 1"
                " WHERE id = %(pool)s AND next_index < size AND EXISTS (SELECT FROM debit)"
                " RETURNING next_index)"
                " SELECT (SELECT balance_pence FROM debit), (SELECT next_index FROM draw)"
            )
        # PostgreSQL, for Ledger.sell_batch. The debits of a batch and its draw in one
        # statement: each account pays for all its purchases whose Idempotency-Key it has not
        # used, or (balance short) for none; rows locked in id order (no deadlock between
        # batches); then, only if some were paid, the draw of as many consecutive entries as
        # purchases paid (the pool row locked after the accounts, as a single sale does). One
        # row per purchase paid: (its position in the arrays, the account's balance after, how
        # many it paid, the pool's new next_index or NULL when fewer entries are left).
        self.batch_debit: str | None = None
        if dialect.name == "postgresql":
            self.batch_debit = (
                f"WITH {PG_BATCH_REQUESTS},"
                " locked AS (SELECT id FROM accounts WHERE id IN (SELECT account FROM need)"
                " ORDER BY id FOR UPDATE),"
                " debit AS (UPDATE accounts a"
                " SET balance_pence = a.balance_pence - %(price)s * need.c,"
                f" {limits.PG_BATCH_SETS}"
                " FROM need, locked WHERE a.id = need.account AND locked.id = a.id"
                " AND a.balance_pence >= %(price)s * need.c"
                f" AND {limits.PG_BATCH_WITHIN}"
                " RETURNING a.id, a.balance_pence, need.c),"
                " paid AS (SELECT fresh.n, debit.balance_pence, debit.c FROM fresh"
                " JOIN debit ON debit.id = fresh.account),"
                " draw AS (UPDATE pools SET next_index = next_index + (SELECT count(*) FROM paid)"
                " WHERE id = %(pool)s AND EXISTS (SELECT FROM paid)"
                " AND next_index + (SELECT count(*) FROM paid) <= size RETURNING next_index)"
                " SELECT paid.n, paid.balance_pence, paid.c, (SELECT next_index FROM draw)"
                " FROM paid ORDER BY paid.n"
            )
        # PostgreSQL, for Ledger.sell_batch: the plays of a batch and their ledger rows in one
        # statement (one JSON parameter, an object a play: SALE_FIELDS), instead of one a play.
        self.add_sales: str | None = None
        if dialect.name == "postgresql":
            self.add_sales = f"WITH {pg_batch_plays('')} {PG_BATCH_LEDGER_ROWS}"
        # PostgreSQL, for Ledger.sell_batch when it knows where the pool stands (its own last
        # draw): a whole batch in one statement, its plays signed before it is sent. Only when
        # every purchase is paid (each account covers all its purchases, no key used before)
        # and the pool's next entry is still %(first)s does it debit, draw %(n)s entries and
        # insert the plays (SALE_FIELDS, in the order of the accounts' arrays) and their
        # ledger rows; otherwise it changes nothing (the accounts and the pool row stay locked
        # until the transaction ends) and returns no row. The accounts are locked in id order,
        # then the pool row, as every sale does. Its rows: as batch_debit's.
        self.batch_sale: str | None = None
        if dialect.name == "postgresql":
            self.batch_sale = (
                f"WITH {PG_BATCH_REQUESTS},"
                " locked AS (SELECT * FROM accounts WHERE id IN (SELECT account FROM need)"
                " ORDER BY id FOR UPDATE),"
                " able AS (SELECT count(*) AS k FROM locked a JOIN need ON need.account = a.id"
                f" WHERE a.balance_pence >= %(price)s * need.c AND {limits.PG_BATCH_WITHIN}),"
                " go AS (SELECT next_index FROM pools WHERE id = %(pool)s"
                " AND next_index = %(first)s AND next_index + %(n)s <= size"
                " AND (SELECT count(*) FROM fresh) = %(n)s"
                " AND (SELECT k FROM able) = (SELECT count(*) FROM need) FOR UPDATE),"
                " debit AS (UPDATE accounts a"
                " SET balance_pence = a.balance_pence - %(price)s * need.c,"
                f" {limits.PG_BATCH_SETS}"
                " FROM need WHERE a.id = need.account AND EXISTS (SELECT FROM go)"
                " RETURNING a.id, a.balance_pence, need.c),"
                " draw AS (UPDATE pools SET next_index = next_index + %(n)s"
                " WHERE id = %(pool)s AND EXISTS (SELECT FROM go) RETURNING next_index),"
                f" {pg_batch_plays(' WHERE EXISTS (SELECT FROM draw)')},"
                f" ledger AS ({PG_BATCH_LEDGER_ROWS})"
                " SELECT fresh.n, debit.balance_pence, debit.c, (SELECT next_index FROM draw)"
                " FROM fresh JOIN debit ON debit.id = fresh.account ORDER BY fresh.n"
            )
        self.finish = Prepared(
            update(plays)
            .where(
                plays.c.play_number == p("number"),
                plays.c.account_id == p("account"),
                plays.c.status == "purchased",
            )
            .values(status="finished", finished_at=p("now"), finished_by=p("by"))
            .returning(plays.c.prize_pence),
            dialect,
        )
        self.play_outcome = Prepared(
            select(plays.c.prize_pence, plays.c.status).where(
                plays.c.play_number == p("number"), plays.c.account_id == p("account")
            ),
            dialect,
        )
