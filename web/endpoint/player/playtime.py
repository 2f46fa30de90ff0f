"""Play time: the log-out after a run of play, its cooling-off, and the reality check, per
account (every device of it alike; docs/endpoint.md, Play time).

A run of play begins with a paid purchase and goes on while paid purchases follow one another
with gaps shorter than the break (LOTTERY_PLAY_BREAK_SECONDS); a gap that long ends it. The
minutes of play are the minutes since the run began. When they reach the play session
(LOTTERY_PLAY_SESSION_SECONDS) the account is logged out of play: paid purchases are refused
with 403 cooling_off until the cooling-off (LOTTERY_COOLING_OFF_SECONDS) has passed, on every
device; everything else (finishing, recall, My Games, REPLAY, VERIFY, TRY, limits) stays open, so
an unfinished play finishes and nothing is lost. A reality check is due every
LOTTERY_REALITY_CHECK_SECONDS of the run; acknowledging one (POST /api/play-time/reality-check)
is recorded and the next is due that long after it.

The state is one row of `play_time` per account (migration 0008); a run is derived from it and
the ledger's clock, never from a device. The purchase's admission reads it to refuse early, and
the purchase's debit statement itself refuses to debit a logged-out account (`PG_PLAYING`,
`logged_out`: `run_at`'s rule in SQL), so a purchase admitted just before the log-out is not
sold after it, whatever the process.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Connection,
    and_,
    bindparam,
    exc,
    exists,
    insert,
    select,
    update,
)

from web.endpoint.errors import ApiError
from web.endpoint.settings import Settings
from web.endpoint.store.schema import play_time
from web.endpoint.times import iso

if TYPE_CHECKING:
    from web.endpoint.clock import Clock
    from web.endpoint.player.accounts import Account
    from web.endpoint.store.database import Database

# A run's last play is written again once it is this old: a break between paid plays is
# measured to within it, and a player buying play after play costs a write only so often.
TOUCH_MS = 10_000
RUNS_KEPT = 4096  # runs whose times are kept formatted: about one a busy account


@dataclass(frozen=True)
class Rules:
    """The operator's play-time settings, in milliseconds (0: that protection is off)."""

    session_ms: int
    cooling_ms: int
    break_ms: int  # always positive
    reality_ms: int

    @classmethod
    def of(cls, settings: Settings) -> Rules:
        """The rules of the endpoint's settings."""
        return cls(
            settings.play_session_seconds * 1000,
            settings.cooling_off_seconds * 1000,
            settings.play_break_seconds * 1000,
            settings.reality_check_seconds * 1000,
        )

    @cached_property
    def params(self) -> dict[str, int]:
        """The parameters of the log-out test in a purchase's debit (`PG_PLAYING`,
        `logged_out`; with limits.period_params' `now`)."""
        return {
            "play_session": self.session_ms,
            "play_cooling": self.cooling_ms,
            "play_break": self.break_ms,
        }


class Run(NamedTuple):
    """An account's run of play at a time: when it began, when it logs out (None: never), and
    when the next reality check is due (None: none)."""

    started_at: int
    logout_at: int | None
    resumes_at: int | None
    reality_due_at: int | None

    def cooling_off(self, now: int) -> bool:
        """True while paid purchases are refused: after the log-out, before play resumes."""
        return self.logout_at is not None and now >= self.logout_at


def run_at(row: Any, rules: Rules, now: int) -> Run | None:
    """The run of play of an account's play_time row at `now` (None: no run; the next paid
    purchase begins one). `row` has run_started_at, last_play_at and reality_due_at."""
    if row is None:
        return None
    start, last = int(row.run_started_at), int(row.last_play_at)
    logout = start + rules.session_ms if rules.session_ms else None
    resumes = None if logout is None else logout + rules.cooling_ms
    ends = last + rules.break_ms  # the break that ends the run, unless the log-out comes first
    if logout is not None and logout <= ends:
        return Run(start, logout, resumes, _due(row, rules)) if now < (resumes or 0) else None
    if now >= ends:
        return None
    return Run(start, logout, resumes, _due(row, rules))


def _due(row: Any, rules: Rules) -> int | None:
    return int(row.reality_due_at) if rules.reality_ms else None


def as_json(run: Run | None, rules: Rules, now: int) -> dict[str, Any]:
    """The account's play time as the API says it (GET /api/wallet's play_time)."""
    if run is None:
        started = logout = resumes = reality = None
        cooling = False
    else:
        started, logout, resumes, reality = _iso_times(run)
        cooling = run.cooling_off(now)
    return {
        "run_started_at": started,
        "logout_at": logout,
        "cooling_off": cooling,
        "resumes_at": resumes if cooling else None,
        "reality_check_at": None if cooling else reality,
        "reality_check_seconds": rules.reality_ms // 1000,
        "now": iso(now),  # the endpoint's clock: a page counts to the times above from it
    }


@lru_cache(maxsize=RUNS_KEPT)
def _iso_times(run: Run) -> tuple[str | None, ...]:
    """A run's times as ISO 8601, worked out once a run (every purchase's answer has them)."""
    return iso(run.started_at), iso(run.logout_at), iso(run.resumes_at), iso(run.reality_due_at)


# The debit's side of `run_at`: an account is logged out of play (its purchase's debit refused)
# when it has a play_time row whose run reached its log-out before the break would have ended
# it (logout <= last play + break), and `now` is from that log-out to the end of its
# cooling-off; never with a play session of 0 (no log-out), nor with a cooling-off of 0.
def _pg_playing(account: str) -> str:
    """PostgreSQL text of the condition that the account whose id is `account` is not logged
    out of play at %(now)s (psycopg %(name)s parameters: Rules.params and now)."""
    logout = "t.run_started_at + %(play_session)s"
    return (
        f"NOT EXISTS (SELECT FROM play_time t WHERE t.account_id = {account}"
        f" AND %(play_session)s > 0 AND {logout} <= t.last_play_at + %(play_break)s"
        f" AND {logout} <= %(now)s AND %(now)s < {logout} + %(play_cooling)s)"
    )


PG_PLAYING = _pg_playing("%(account)s")  # a single sale's debit (pg_statements.TAKE)
PG_BATCH_PLAYING = _pg_playing("a.id")  # a batch's, its accounts as `a`


def logged_out(account: ColumnElement[Any]) -> ColumnElement[bool]:
    """True when the account is logged out of play at the parameter `now`, as a SQLAlchemy
    clause (Statements.debit, negated: SQLite's sales and test mode's)."""
    t, p = play_time.c, bindparam
    session = p("play_session", type_=BigInteger)
    logout = t.run_started_at + session
    return exists().where(
        and_(
            t.account_id == account,
            session > 0,
            logout <= t.last_play_at + p("play_break", type_=BigInteger),
            logout <= p("now", type_=BigInteger),
            p("now", type_=BigInteger) < logout + p("play_cooling", type_=BigInteger),
        )
    )


def refusal(run: Run) -> ApiError:
    """403 cooling_off: the account is logged out of play until resumes_at."""
    resumes = iso(run.resumes_at)
    return ApiError(
        403,
        "cooling_off",
        f"Your play session has ended: you can buy plays again at {resumes} (UTC). Nothing "
        "was charged; an unfinished play can still be finished.",
        {"resumes_at": resumes},
    )


def refused(row: Any, rules: Rules, now: int) -> ApiError | None:
    """403 cooling_off when the account's run (its play_time row as read) is logged out now."""
    run = run_at(row, rules, now)
    return refusal(run) if run is not None and run.cooling_off(now) else None


class Row(NamedTuple):
    """A play_time row's times: read with a purchase's admission (`Statements.admission`), or
    the one a purchase has just written."""

    run_started_at: int
    last_play_at: int
    reality_due_at: int

    @classmethod
    def of(cls, values: Sequence[Any]) -> Row | None:
        """The row of its three columns as read (None when the account has none: NULLs)."""
        return None if values[0] is None else cls(*(int(v) for v in values))


def _row(conn: Connection, account_pk: int, lock: bool = False) -> Any:
    query = select(
        play_time.c.run_started_at, play_time.c.last_play_at, play_time.c.reality_due_at
    ).where(play_time.c.account_id == account_pk)
    return conn.execute(query.with_for_update() if lock else query).first()


class PlayTimes:
    """The play-time rules of one endpoint, kept in its ledger's database."""

    def __init__(self, db: Database, clock: Clock, settings: Settings) -> None:
        self.db = db
        self.clock = clock
        self.rules = Rules.of(settings)

    def status(self, account: Account) -> dict[str, Any]:
        """The account's play time now (GET /api/wallet, GET /api/play-time)."""
        now = self.clock.now_ms()
        with self.db.begin() as conn:
            return as_json(run_at(_row(conn, account.pk), self.rules, now), self.rules, now)

    def refused(self, seen: Any, now: int) -> ApiError | None:
        """403 cooling_off when the account's run (its row as `seen`) is logged out now."""
        return refused(seen, self.rules, now)

    def going(self, seen: Any, now: int) -> dict[str, Any] | None:
        """The play time after a paid purchase made now that writes nothing; None when it
        writes the run (`played`): it begins one (`seen`, the row as the purchase's admission
        read it, has none going), or the last play written is TOUCH_MS old."""
        run = run_at(seen, self.rules, now)
        if run is None or now - int(seen.last_play_at) >= TOUCH_MS:
            return None
        return as_json(run, self.rules, now)

    def played(self, account: Account, seen: Any) -> dict[str, Any]:
        """A paid purchase was made now: it goes on the account's run, or begins one; returns
        the play time after it (the purchase's answer carries it). `seen` is the row as the
        purchase's admission read it: a run going on whose last play is under TOUCH_MS old is
        left as it is, so a player buying play after play writes it only so often."""
        now = self.clock.now_ms()
        kept = self.going(seen, now)
        if kept is not None:
            return kept
        first = {
            "run_started_at": now,
            "last_play_at": now,
            "reality_due_at": now + self.rules.reality_ms,
        }
        with self.db.begin() as conn:
            row = _row(conn, account.pk, lock=True)
            if row is None:
                try:
                    with conn.begin_nested():
                        conn.execute(insert(play_time).values(account_id=account.pk, **first))
                    return as_json(self._run(first, now), self.rules, now)
                except exc.IntegrityError:  # another device's purchase made it just now
                    row = _row(conn, account.pk, lock=True)
            run = run_at(row, self.rules, now)
            values = {"last_play_at": now} if run is not None else first
            conn.execute(
                update(play_time).where(play_time.c.account_id == account.pk).values(**values)
            )
            return as_json(run or self._run(first, now), self.rules, now)

    def _run(self, first: dict[str, int], now: int) -> Run | None:
        return run_at(Row(**first), self.rules, now)

    def acknowledge(self, account: Account) -> dict[str, Any]:
        """The player has seen the reality check: recorded, and the next one is due a reality
        check's interval from now (a check not yet due is left as it is)."""
        now = self.clock.now_ms()
        with self.db.begin() as conn:
            run = run_at(_row(conn, account.pk, lock=True), self.rules, now)
            due = None if run is None else run.reality_due_at
            if run is not None and due is not None and due <= now and not run.cooling_off(now):
                conn.execute(
                    update(play_time)
                    .where(play_time.c.account_id == account.pk)
                    .values(reality_due_at=now + self.rules.reality_ms, reality_acked_at=now)
                )
                run = Run(run.started_at, run.logout_at, run.resumes_at,
                          now + self.rules.reality_ms)  # fmt: skip
            return as_json(run, self.rules, now)
