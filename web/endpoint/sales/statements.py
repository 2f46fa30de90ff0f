"""The ledger's SQL statements compiled once per dialect (web/endpoint/store/prepared.py), for
purchase and finish."""

from __future__ import annotations

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

from web.endpoint.player import limits, playtime
from web.endpoint.sales import pg_statements as pg
from web.endpoint.store.prepared import Prepared
from web.endpoint.store.schema import accounts, play_time, plays, pools, reservations, transactions


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
