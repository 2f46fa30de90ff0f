"""Settlement: a purchased play finished and its prize credited exactly once, by its player
(sales/progress.py's `finish`), by a sweeper or `build.py settle` once it is overdue."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, select

from web.endpoint.clock import Clock
from web.endpoint.player.accounts import Account
from web.endpoint.sales.statements import Statements
from web.endpoint.store.database import Database
from web.endpoint.store.schema import plays

SWEEP_BATCH = 500


def finish_play(
    sql: Statements, conn: Connection, account_pk: int, play_number: int, now: int, by: str
) -> int | None:
    """Finish a purchased play and credit it; None if it is not a purchased play of the account."""
    prize = sql.finish.value(conn, number=play_number, account=account_pk, now=now, by=by)
    if prize is None:
        return None
    if prize > 0:
        sql.credit.run(conn, account=account_pk, amount=prize)
        # unique (play_number, kind): a second prize credit for one play cannot be recorded
        sql.add_transaction.run(
            conn,
            account_id=account_pk,
            kind="prize",
            amount_pence=prize,
            play_number=play_number,
            created_at=now,
        )
    return int(prize)


@dataclass(frozen=True)
class Settlement:
    """The overdue plays of a database settled at the ledger's clock (the endpoint's sweeper,
    and each read of an account's plays first)."""

    db: Database
    sql: Statements
    clock: Clock
    timeout_ms: int  # LOTTERY_PLAY_TIMEOUT_SECONDS, in ms

    def finish_expired(self, account: Account | None = None) -> int:
        """Finish and pay every purchased play older than the play timeout (or only the
        account's); returns how many."""
        pk = None if account is None else account.pk
        return settle(self.db, self.sql, self.clock.now_ms(), self.timeout_ms, pk)


def settle(
    db: Database, sql: Statements, now: int, timeout_ms: int, account_pk: int | None = None
) -> int:
    """Settle (finish with finished_by "auto" and pay) every purchased play bought at least
    timeout_ms before now, or only those of one account; returns how many this call settled.

    Safe with any number of settlers at once (endpoint sweepers, `build.py settle`): the finish
    is a conditional UPDATE (a play already finished is not finished again) and its prize row is
    unique per play; on PostgreSQL a settler skips the plays another one holds (SKIP LOCKED)."""
    cutoff = now - timeout_ms
    count = 0
    while True:
        query = select(plays.c.play_number, plays.c.account_id).where(
            plays.c.status == "purchased", plays.c.purchased_at <= cutoff
        )
        if account_pk is not None:
            query = query.where(plays.c.account_id == account_pk)
        query = query.order_by(plays.c.play_number).limit(SWEEP_BATCH)
        with db.begin() as conn:
            rows = conn.execute(query.with_for_update(skip_locked=True)).all()
            for row in rows:
                if finish_play(sql, conn, row.account_id, row.play_number, now, "auto") is not None:
                    count += 1
        if len(rows) < SWEEP_BATCH:
            return count
