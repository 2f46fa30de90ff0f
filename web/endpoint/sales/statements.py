"""The ledger's SQL statements compiled once per dialect (web/endpoint/store/prepared.py), for
purchase and finish."""

from __future__ import annotations

from sqlalchemy import (
    bindparam,
    case,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Dialect

from web.endpoint.log import entries
from web.endpoint.player import limits, playtime, protections
from web.endpoint.store.prepared import Prepared
from web.endpoint.store.schema import (
    accounts,
    log_entries,
    play_time,
    plays,
    pools,
    reservations,
    transactions,
)


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
        # raise whose time has come is in force), the account is not logged out of play
        # at `now` (playtime.logged_out) and neither on a break nor self-excluded
        # (protections.paused). Parameters: account, price, now, day, week and the
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
                ~protections.paused(a.paused_until),
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
        # spend cache (limits.COLUMNS), its protections (protections.COLUMNS), then the
        # account's play_time row (NULLs when it has none).
        t = play_time.c
        self.admission = Prepared(
            select(
                *limits.COLUMNS,
                *protections.COLUMNS,
                t.run_started_at,
                t.last_play_at,
                t.reality_due_at,
            )
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
        # A sale's public log record (sale.LOG_RECORD), pending until the sequencer adds it to
        # the tree (web/endpoint/log/sequencer.py), its index given now on SQLite
        # (entries.index_at_append): parameters a sale's Record.
        self.add_log_entry = Prepared(
            insert(log_entries).values(
                data=p("log_record"),
                play_number=p("play_number"),
                created_at=p("purchased_at"),
                log_index=entries.index_at_append(dialect.name),
            ),
            dialect,
        )
        self.add_transaction = Prepared(
            insert(transactions).values(
                {c.name: p(c.name) for c in transactions.columns if c.name != "id"}
            ),
            dialect,
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
