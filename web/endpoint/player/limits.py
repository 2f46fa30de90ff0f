"""Spend limits per account: a daily (UTC calendar day) and a weekly (ISO week, Monday 00:00
UTC) limit on the stakes bought, checked by the purchase's own debit statement.

The limits and the spend cache are columns of `accounts` (migration 0003): the debit that pays
for a purchase also adds its price to the day's and the week's spend, in the same statement and
only when that stays within the limits in force, so concurrent purchases can never overshoot.
Lowering a limit (or setting one where there was none) takes effect at once; raising or removing
one is kept pending for RAISE_DELAY_MS and then takes effect (docs/endpoint.md, Spend limits).
When the operator requires limits (LOTTERY_LIMITS_REQUIRED, on by default), an account buys no
paid play while either period has no limit in force (`unchosen`, 403 limits_required).

Processes on one database may disagree on the day (clock skew between hosts, two purchases
either side of midnight). The spend cache only ever moves forward: a stored day (or week) later
than the debiting process's own is the one it counts in, so its spend is added to, never reset.
A period's spend goes back to zero only when a process whose clock has reached a later period
debits or reads it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, insert, select, update

from engine import money
from web.endpoint.errors import ApiError
from web.endpoint.store.schema import accounts, limit_changes
from web.endpoint.times import iso

DAY_MS = 86_400_000
WEEK_MS = 7 * DAY_MS
RAISE_DELAY_MS = DAY_MS
MAX_LIMIT_PENCE = money.MAX_LIMIT_PENCE  # one home: what a player may type (engine/money.py)
PERIODS = ("daily", "weekly")


def day_start(now_ms: int) -> int:
    """The start of the UTC calendar day of a time."""
    return now_ms - now_ms % DAY_MS


def week_start(now_ms: int) -> int:
    """The start (Monday 00:00 UTC) of the ISO week of a time; 1970-01-01 was a Thursday."""
    day = now_ms // DAY_MS
    return (day - (day + 3) % 7) * DAY_MS


def period_params(now_ms: int) -> dict[str, int]:
    """The parameters of the purchase's debit statement: now, the day and the week it counts."""
    return {"now": now_ms, "day": day_start(now_ms), "week": week_start(now_ms)}


def _sql_parts(table: str, amount: str) -> tuple[str, str]:
    """PostgreSQL text of the spend cache's SET clause and the within-limits condition, for
    the accounts row named `table` paying `amount` (psycopg %(name)s parameters)."""
    t = f"{table}." if table else ""
    day = f"(CASE WHEN {t}spend_day >= %(day)s THEN {t}spend_day_pence ELSE 0 END)"
    week = f"(CASE WHEN {t}spend_week >= %(week)s THEN {t}spend_week_pence ELSE 0 END)"
    day_limit = (
        f"(CASE WHEN {t}daily_pending_at <= %(now)s THEN {t}daily_pending_pence"
        f" ELSE {t}daily_limit_pence END)"
    )
    week_limit = (
        f"(CASE WHEN {t}weekly_pending_at <= %(now)s THEN {t}weekly_pending_pence"
        f" ELSE {t}weekly_limit_pence END)"
    )
    sets = (
        f"spend_day = GREATEST({t}spend_day, %(day)s), spend_day_pence = {day} + {amount},"
        f" spend_week = GREATEST({t}spend_week, %(week)s), spend_week_pence = {week} + {amount}"
    )
    within = (
        f"({day_limit} IS NULL OR {day} + {amount} <= {day_limit})"
        f" AND ({week_limit} IS NULL OR {week} + {amount} <= {week_limit})"
    )
    return sets, within


PG_SETS, PG_WITHIN = _sql_parts("", "%(price)s")
PG_BATCH_SETS, PG_BATCH_WITHIN = _sql_parts("a", "%(price)s * need.c")

COLUMNS = (
    accounts.c.balance_pence,
    accounts.c.daily_limit_pence,
    accounts.c.daily_pending_pence,
    accounts.c.daily_pending_at,
    accounts.c.weekly_limit_pence,
    accounts.c.weekly_pending_pence,
    accounts.c.weekly_pending_at,
    accounts.c.spend_day,
    accounts.c.spend_day_pence,
    accounts.c.spend_week,
    accounts.c.spend_week_pence,
)


class Limits:
    """An account's limits and spend as read from its row, seen at a time `now`."""

    def __init__(self, row: Any, now: int) -> None:
        self.now = now
        self.balance = int(row[0])
        self.limit: dict[str, int | None] = {}
        self.pending: dict[str, tuple[int | None, int] | None] = {}
        for n, period in enumerate(PERIODS):
            limit, pending, pending_at = row[1 + 3 * n : 4 + 3 * n]
            if pending_at is not None and pending_at <= now:  # the raise is due: in force
                limit, pending_at = pending, None
            self.limit[period] = None if limit is None else int(limit)
            self.pending[period] = None if pending_at is None else (_opt(pending), int(pending_at))
        # A period another process has already moved on to is the one in force (see above).
        start = {
            "daily": max(day_start(now), int(row[7])),
            "weekly": max(week_start(now), int(row[9])),
        }
        self.start = start
        self.spent = {
            "daily": int(row[8]) if row[7] == start["daily"] else 0,
            "weekly": int(row[10]) if row[9] == start["weekly"] else 0,
        }

    def resets_at(self, period: str) -> int:
        """When the period's spend goes back to zero."""
        return self.start[period] + (DAY_MS if period == "daily" else WEEK_MS)

    def left(self, period: str) -> int | None:
        """What may still be staked in the period (None: no limit)."""
        limit = self.limit[period]
        return None if limit is None else max(0, limit - self.spent[period])

    def as_json(self) -> dict[str, Any]:
        """GET /api/limits."""
        out: dict[str, Any] = {}
        for period in PERIODS:
            pending = self.pending[period]
            out[period] = {
                "limit_pence": self.limit[period],
                "spent_pence": self.spent[period],
                "left_pence": self.left(period),
                "resets_at": iso(self.resets_at(period)),
                "pending": None
                if pending is None
                else {"limit_pence": pending[0], "effective_at": iso(pending[1])},
            }
        return out

    def refusal(self, price: int) -> ApiError | None:
        """403 limit_reached when a purchase of this price would exceed a limit, else None."""
        for period in PERIODS:
            left = self.left(period)
            if left is not None and price > left:
                word = "day" if period == "daily" else "week"
                return ApiError(
                    403,
                    "limit_reached",
                    f"This play would exceed your {period} spend limit; it resets at the "
                    f"start of the next {word} (UTC).",
                    {
                        "period": period,
                        "left_pence": left,
                        "resets_at": iso(self.resets_at(period)),
                    },
                )
        return None

    def unchosen(self) -> ApiError | None:
        """403 limits_required while a period has no limit in force (a removal whose time has
        come leaves none), else None."""
        missing = [period for period in PERIODS if self.limit[period] is None]
        if not missing:
            return None
        return ApiError(
            403,
            "limits_required",
            "Choose a daily and a weekly spend limit before you buy a play; "
            "free plays (TRY) need none.",
            {"missing": missing},
        )

    def values(self) -> dict[str, Any]:
        """The accounts columns of this state (due raises applied)."""
        out: dict[str, Any] = {}
        for period in PERIODS:
            pending = self.pending[period]
            out[f"{period}_limit_pence"] = self.limit[period]
            out[f"{period}_pending_pence"] = None if pending is None else pending[0]
            out[f"{period}_pending_at"] = None if pending is None else pending[1]
        return out

    def change(self, period: str, wanted: int | None) -> None:
        """Ask for a new limit: lower (or new) at once, raise (or removal) after the delay."""
        current = self.limit[period]
        if wanted is not None and (current is None or wanted <= current):
            self.limit[period] = wanted  # lowering: at once, and it cancels a pending raise
            self.pending[period] = None
            return
        if current is None:  # no limit asked, none in force
            self.pending[period] = None
            return
        pending = self.pending[period]
        if pending is not None and pending[0] == wanted:
            return  # the same raise asked again: its clock keeps running
        self.pending[period] = (wanted, self.now + RAISE_DELAY_MS)


def _opt(value: Any) -> int | None:
    return None if value is None else int(value)


def read(conn: Connection, account_pk: int, now: int, lock: bool = False) -> Limits:
    """The account's limit state (locking its row when asked, PostgreSQL)."""
    query = select(*COLUMNS).where(accounts.c.id == account_pk)
    if lock:
        query = query.with_for_update()
    return Limits(conn.execute(query).one(), now)


def get_limits(conn: Connection, account_pk: int, now: int) -> dict[str, Any]:
    """GET /api/limits."""
    return read(conn, account_pk, now).as_json()


def put_limits(
    conn: Connection, account_pk: int, now: int, wanted: dict[str, Any]
) -> dict[str, Any]:
    """PUT /api/limits: apply the periods given (a missing key leaves that limit as it is),
    each change asked kept with when it takes effect (the player's data)."""
    state = read(conn, account_pk, now, lock=True)
    asked = []
    for period in PERIODS:
        if f"{period}_pence" in wanted:
            pence = wanted[f"{period}_pence"]
            state.change(period, pence)
            pending = state.pending[period]
            effective = pending[1] if pending is not None and pending[0] == pence else now
            asked.append(
                {"account_id": account_pk, "period": period, "asked_pence": pence}
                | {"asked_at": now, "effective_at": effective}
            )
    conn.execute(update(accounts).where(accounts.c.id == account_pk).values(**state.values()))
    if asked:
        conn.execute(insert(limit_changes), asked)
    return state.as_json()
