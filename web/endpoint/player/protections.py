"""The player's protections: take a break (24 hours, 1 week, 1 month, 6 weeks) and
self-exclusion (6 months, 1, 2, 5 years), per account, on every device and every endpoint
instance (docs/player.md, docs/endpoint.md, Breaks and self-exclusion).

Either stops paid play and TRY until an absolute time set by the endpoint's clock when the
player asks: `accounts.paused_until` (migration 0011). The purchase's debit statement itself
refuses an account whose `paused_until` is after its own `now` (`PG_OPEN`, `paused`), as it
refuses the log-out of play, so two devices buying in the same instant, a purchase admitted a
moment before, or another process cannot get past it; TRY reads it in its own transaction
(sales/try_mode.py). Nothing else closes: finishing, recall, My Games, REPLAY, VERIFY,
Account.

Neither can be shortened or lifted. A break asked while one runs must end later than it and
not repeat its length (a shorter one over a longer one, or the same asked twice, is refused);
an exclusion likewise. While self-excluded `paused_until` is FOREVER: when the
term (`excluded_until`) has passed, play comes back only after the player asks (`come_back`)
and RETURN_WAIT_MS more. Every request is kept (`protections` table) for the player's data.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import BigInteger, ColumnElement, Connection, bindparam, insert, select, update

from web.endpoint.errors import ApiError
from web.endpoint.player import limits
from web.endpoint.store.schema import accounts, protections
from web.endpoint.times import iso

DAY_MS = 86_400_000
RETURN_WAIT_MS = DAY_MS  # after an exclusion's term, play returns this long after the asking
FOREVER = 2**62  # paused_until while self-excluded and not asked back: no `now` reaches it


class Length(NamedTuple):
    """A length a player may choose: its words, and its days or calendar months."""

    words: str
    days: int = 0
    months: int = 0


BREAKS = {
    "24h": Length("24 hours", days=1),
    "1w": Length("1 week", days=7),
    "1m": Length("1 month", months=1),
    "6w": Length("6 weeks", days=42),
}
EXCLUSIONS = {
    "6m": Length("6 months", months=6),
    "1y": Length("1 year", months=12),
    "2y": Length("2 years", months=24),
    "5y": Length("5 years", months=60),
}


def ends_at(start_ms: int, length: Length) -> int:
    """When a break or exclusion of this length asked at `start_ms` ends: its days later, or
    its calendar months later in UTC (the last day of a shorter month when the day is not in
    it), at the same time of day."""
    if not length.months:
        return start_ms + length.days * DAY_MS
    at = datetime.fromtimestamp(start_ms / 1000, UTC)
    month = at.month - 1 + length.months
    year, month = at.year + month // 12, month % 12 + 1
    day = min(at.day, _days_in(year, month))
    moved = at.replace(year=year, month=month, day=day)
    return start_ms + round((moved - at).total_seconds() * 1000)


def _days_in(year: int, month: int) -> int:
    following = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
    return (following - datetime(year, month, 1, tzinfo=UTC)).days


# The debit's condition: PostgreSQL text (psycopg %(now)s, the debit's own) for a single sale's
# accounts row and a batch's (`a`), and the same as a SQLAlchemy clause (Statements.debit).
PG_OPEN = "paused_until <= %(now)s"
PG_BATCH_OPEN = "a.paused_until <= %(now)s"


def paused(account_paused_until: ColumnElement[Any]) -> ColumnElement[bool]:
    """True when the account is on a break or self-excluded at the parameter `now`."""
    return account_paused_until > bindparam("now", type_=BigInteger)


COLUMNS = (accounts.c.paused_until, accounts.c.excluded_until, accounts.c.closed_at)


class State(NamedTuple):
    """An account's protections as read: until when play is stopped (0: it is not; FOREVER:
    excluded, not asked back), the exclusion's term (None: never excluded), when it closed."""

    paused_until: int
    excluded_until: int | None
    closed_at: int | None = None

    def stopped(self, now: int) -> bool:
        """True while paid play and TRY are refused."""
        return self.paused_until > now

    def excluded(self, now: int) -> bool:
        """True while self-excluded: in the term, or after it until play has come back."""
        return (
            self.excluded_until is not None
            and self.stopped(now)
            and (self.paused_until == FOREVER or self.excluded_until > now)
        )

    def as_json(self, now: int, running: str | None = None) -> dict[str, Any]:
        """GET /api/protections (and each change's answer)."""
        excluded = self.excluded(now)
        waiting = excluded and self.paused_until == FOREVER and self.excluded_until is not None
        return {
            "on_break": self.stopped(now) and not excluded and self.closed_at is None,
            "break_length": running if self.stopped(now) and not excluded else None,
            "excluded": excluded,
            "excluded_until": iso(self.excluded_until) if excluded else None,
            "can_ask_back": waiting and int(self.excluded_until or 0) <= now,
            "play_resumes_at": None
            if not self.stopped(now) or self.paused_until == FOREVER
            else iso(self.paused_until),
            "closed": self.closed_at is not None,
            "breaks": {k: v.words for k, v in BREAKS.items()},
            "exclusions": {k: v.words for k, v in EXCLUSIONS.items()},
            "now": iso(now),
        }


def refusal(state: State, now: int) -> ApiError | None:
    """403 break_taken or self_excluded (or account_closed) while play is stopped, saying until
    when (`until`: ISO 8601 UTC, the page writes it in the player's time), else None."""
    if not state.stopped(now):
        return None
    kept = "Nothing was charged; an unfinished play can still be finished."
    if state.closed_at is not None:
        return ApiError(403, "account_closed", "This account is closed: it buys no plays.")
    if state.excluded(now):
        if state.paused_until == FOREVER and int(state.excluded_until or 0) <= now:
            until = None
            said = (
                "Your self-exclusion has ended, but play comes back only after you ask for it "
                "(Account) and wait 24 hours."
            )
        elif state.paused_until == FOREVER:
            until = iso(state.excluded_until)
            said = f"You have excluded yourself from play until {until} (UTC)."
        else:  # asked back: the wait
            until = iso(state.paused_until)
            said = f"Your self-exclusion has ended; play comes back at {until} (UTC)."
        return ApiError(403, "self_excluded", f"{said} {kept}", {"until": until})
    until = iso(state.paused_until) if state.paused_until != FOREVER else None
    return ApiError(
        403, "break_taken", f"You are taking a break from play until {until or 'further notice'}"
        f" (UTC). {kept}",
        {"until": until},
    )  # fmt: skip


def of_admission(row: Any) -> State:
    """The protections of a purchase's admission row (`Statements.admission`: the limits'
    columns, then these)."""
    start = len(limits.COLUMNS)
    paused_until, excluded_until, closed_at = row[start : start + len(COLUMNS)]
    return State(int(paused_until), _opt(excluded_until), _opt(closed_at))


def read(conn: Connection, account_pk: int, lock: bool = False) -> State:
    """The account's protections (its row locked when asked: a change)."""
    query = select(*COLUMNS).where(accounts.c.id == account_pk)
    row = conn.execute(query.with_for_update() if lock else query).one()
    return State(int(row[0]), _opt(row[1]), _opt(row[2]))


def _opt(value: Any) -> int | None:
    return None if value is None else int(value)


def _running(conn: Connection, account_pk: int, kind: str = "break") -> str | None:
    """The length of the account's last break (or exclusion) asked: the running one's, when
    one runs."""
    p = protections.c
    return conn.execute(
        select(p.length)
        .where(p.account_id == account_pk, p.kind == kind)
        .order_by(p.id.desc())
        .limit(1)
    ).scalar()


def status(conn: Connection, account_pk: int, now: int) -> dict[str, Any]:
    """GET /api/protections."""
    return read(conn, account_pk).as_json(now, _running(conn, account_pk))


def _record(
    conn: Connection, account_pk: int, kind: str, length: str | None, now: int, end: int
) -> None:
    conn.execute(
        insert(protections).values(
            account_id=account_pk, kind=kind, length=length, asked_at=now, ends_at=end
        )
    )


def _set(conn: Connection, account_pk: int, **values: Any) -> None:
    conn.execute(update(accounts).where(accounts.c.id == account_pk).values(**values))


def take_break(conn: Connection, account_pk: int, now: int, length: str) -> dict[str, Any]:
    """POST /api/protections/break: paid play and TRY stop until the break's end, at once;
    422 for an unknown length, 409 (nothing changed) for one that would not lengthen the
    break or exclusion in force, or repeats the running break's length."""
    chosen = BREAKS.get(length)
    if chosen is None:
        raise ApiError(
            422, "unknown_length", f"A break is one of {', '.join(BREAKS)}.",
            {"lengths": list(BREAKS)},
        )  # fmt: skip
    state = read(conn, account_pk, lock=True)
    if state.paused_until == FOREVER:
        raise ApiError(
            409, "self_excluded", "You are self-excluded: a break would not add to it.",
            {"until": iso(state.excluded_until)},
        )  # fmt: skip
    end = ends_at(now, chosen)
    running = _running(conn, account_pk) if state.stopped(now) else None
    if state.stopped(now) and (end <= state.paused_until or running == length):
        until = iso(state.paused_until)
        raise ApiError(
            409, "break_running",
            f"You are already on a break until {until} (UTC); it cannot be shortened or "
            "asked again, only lengthened by a longer one.",
            {"until": until},
        )  # fmt: skip
    _set(conn, account_pk, paused_until=end)
    _record(conn, account_pk, "break", length, now, end)
    return state._replace(paused_until=end).as_json(now, length)


def self_exclude(
    conn: Connection, account_pk: int, now: int, length: str, understood: bool
) -> dict[str, Any]:
    """POST /api/protections/exclusion: no paid play and no TRY for the term, and after it until
    the player asks back and waits (`come_back`); only after the plain-words screen (its
    `understood`). 422 for an unknown length or without it; 409 (nothing changed) for one that
    would not end after the exclusion in force, or repeats its length."""
    chosen = EXCLUSIONS.get(length)
    if chosen is None:
        raise ApiError(
            422, "unknown_length", f"A self-exclusion is one of {', '.join(EXCLUSIONS)}.",
            {"lengths": list(EXCLUSIONS)},
        )  # fmt: skip
    if not understood:
        raise ApiError(
            422, "not_understood",
            "Read what self-exclusion means and confirm it (understood: true) first.",
        )  # fmt: skip
    state = read(conn, account_pk, lock=True)
    end = ends_at(now, chosen)
    running = _running(conn, account_pk, "exclusion") if state.excluded(now) else None
    if state.excluded(now) and (end <= int(state.excluded_until or 0) or running == length):
        until = iso(state.excluded_until)
        raise ApiError(
            409, "exclusion_running",
            f"You are self-excluded until {until} (UTC); it cannot be shortened or lifted.",
            {"until": until},
        )  # fmt: skip
    _set(conn, account_pk, paused_until=FOREVER, excluded_until=end)
    _record(conn, account_pk, "exclusion", length, now, end)
    return State(FOREVER, end, state.closed_at).as_json(now)


def come_back(conn: Connection, account_pk: int, now: int) -> dict[str, Any]:
    """POST /api/protections/return: after an exclusion's term, the player asks for play back:
    it returns RETURN_WAIT_MS later. 409 (nothing changed) before the term's end ("an exclusion
    asked to end early"), when not excluded, or when already asked."""
    state = read(conn, account_pk, lock=True)
    if state.closed_at is not None or not state.excluded(now):
        raise ApiError(409, "not_excluded", "This account is not self-excluded.")
    if state.paused_until != FOREVER:
        resumes = iso(state.paused_until)
        raise ApiError(
            409, "return_asked", f"You have asked already: play comes back at {resumes} (UTC).",
            {"until": resumes},
        )  # fmt: skip
    if int(state.excluded_until or 0) > now:
        until = iso(state.excluded_until)
        raise ApiError(
            409, "exclusion_running",
            f"You are self-excluded until {until} (UTC); it cannot be shortened or lifted.",
            {"until": until},
        )  # fmt: skip
    end = now + RETURN_WAIT_MS  # the exclusion now ends with the wait (its term: `history`)
    _set(conn, account_pk, paused_until=end, excluded_until=end)
    _record(conn, account_pk, "return", None, now, end)
    return State(end, end, state.closed_at).as_json(now)


def history(conn: Connection, account_pk: int) -> list[dict[str, Any]]:
    """Every break, exclusion and return the account asked for, oldest first (its data)."""
    p = protections.c
    rows = conn.execute(
        select(p.kind, p.length, p.asked_at, p.ends_at)
        .where(p.account_id == account_pk)
        .order_by(p.id)
    ).all()
    return [
        {"kind": r.kind, "length": r.length, "asked_at": iso(r.asked_at), "ends_at": iso(r.ends_at)}
        for r in rows
    ]
