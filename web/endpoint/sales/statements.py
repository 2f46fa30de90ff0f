"""The ledger's SQL statements compiled once per dialect, for purchase and finish.

Building and cache-keying a Core expression costs more than SQLite takes to run it, so the
statements a purchase runs are built once, compiled for the engine's dialect, and executed
as driver SQL with their parameters.
"""

from __future__ import annotations

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

from web.endpoint.player import limits, playtime
from web.endpoint.sales import pg_statements as pg
from web.endpoint.store.schema import accounts, play_time, plays, pools, reservations, transactions


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


def unspent(row: PoolRow | None, exhausted_ref: int | None) -> PoolRow | None:
    """A current pool row if it has unsold entries and is not the one a sale found spent."""
    if row is None or row.id == exhausted_ref or row.next_index >= row.size:
        return None
    return row


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
        # balance covers the price, the spend stays within the limits in force (a pending
        # raise whose time has come is in force) and the account is not logged out of play
        # at `now` (playtime.logged_out). Parameters: account, price, now, day, week and the
        # play-time rules (playtime.Rules.params). A stored day or week later than this
        # process's is kept and added to (limits.py).
        a = accounts.c
        day = case((a.spend_day >= p("day"), a.spend_day_pence), else_=0)
        week = case((a.spend_week >= p("week"), a.spend_week_pence), else_=0)
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
                ~playtime.logged_out(a.id),
            )
            .values(
                balance_pence=a.balance_pence - p("price"),
                spend_day=case((a.spend_day > p("day"), a.spend_day), else_=p("day")),
                spend_day_pence=day + p("price"),
                spend_week=case((a.spend_week > p("week"), a.spend_week), else_=p("week")),
                spend_week_pence=week + p("price"),
            )
            .returning(a.balance_pence),
            dialect,
        )
        # A purchase's admission (web/endpoint/sales/checkout.py), once a second per buying account,
        # and why a debit was refused (read only then: SaleParts.refusal): the balance, limits and
        # spend cache (limits.COLUMNS), then the account's play_time row (NULLs when it has
        # none).
        t = play_time.c
        self.admission = Prepared(
            select(*limits.COLUMNS, t.run_started_at, t.last_play_at, t.reality_due_at)
            .select_from(accounts.outerjoin(play_time, t.account_id == a.id))
            .where(a.id == p("account")),
            dialect,
        )
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
        # PostgreSQL's sale and batch statements, as text (web/endpoint/sales/pg_statements.py)
        postgresql = dialect.name == "postgresql"
        self.take: str | None = pg.TAKE if postgresql else None
        self.batch_debit: str | None = pg.BATCH_DEBIT if postgresql else None
        self.add_sales: str | None = pg.ADD_SALES if postgresql else None
        self.batch_sale: str | None = pg.BATCH_SALE if postgresql else None
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

    def add_purchase(self, conn: Connection, record: dict[str, Any], price: int) -> None:
        """Insert a sale's play (its record) and its ledger row: one statement on PostgreSQL
        (`add_sale`), two on SQLite."""
        if self.add_sale is not None:
            self.add_sale.run(conn, amount_pence=-price, **record)
            return
        self.add_play.run(conn, **record)
        self.add_transaction.run(
            conn,
            account_id=record["account_id"],
            kind="purchase",
            amount_pence=-price,
            play_number=record["play_number"],
            created_at=record["purchased_at"],
        )
