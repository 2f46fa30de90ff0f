"""Spend limits (web/endpoint/player/limits.py and the debit in sales/statements.py): their
periods (the UTC day, the ISO week), the debit's three forms agreeing, and two endpoints on one
database whose clocks disagree on the day never let a player past a limit. (Limits set through
the API: tests/endpoint/http/routes/test_player.py.)

Real databases (SQLite, and PostgreSQL from DATABASE_URL); each app its own ledger and clock.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.endpoint.conftest import Clock, bearer, buy, session
from web.endpoint.http.services import Services
from web.endpoint.player import limits
from web.endpoint.player.playtime import Rules
from web.endpoint.store.schema import accounts


def at(day: int, hour: int, minute: int) -> Clock:
    """A clock standing at a UTC time of May 2026."""
    clock = Clock()
    clock.now = datetime(2026, 5, day, hour, minute, tzinfo=UTC).timestamp()
    return clock


@pytest.mark.parametrize("period", ["daily", "weekly"])
def test_two_clocks_either_side_of_midnight_never_pass_a_limit(
    make_app: Callable[..., FastAPI], period: str
) -> None:
    """One process at 00:01, the other at 23:58 the evening before (a Sunday, so the ISO week
    differs too), purchases alternated: a limit of two plays sells two, not ten."""
    early = make_app(app_clock=at(11, 0, 1))  # Monday 00:01
    late = make_app(app_clock=at(10, 23, 58))  # Sunday 23:58
    ahead, behind = TestClient(early), TestClient(late)
    token = session(behind)["token"]  # issued behind, so valid ahead too
    assert ahead.put("/api/limits", json={f"{period}_pence": 600}, headers=bearer(token)).is_success
    sold = [buy(ahead if n % 2 == 0 else behind, token, key=f"k{n}").status_code for n in range(10)]
    assert sold == [201, 201] + [403] * 8
    for seen_by in (ahead, behind):  # both processes see the spend of the later day
        state = seen_by.get("/api/limits", headers=bearer(token)).json()[period]
        assert state["spent_pence"] == 600 and state["left_pence"] == 0
        assert state["resets_at"] in ("2026-05-12T00:00:00.000Z", "2026-05-18T00:00:00.000Z")
    assert ahead.get("/api/wallet", headers=bearer(token)).json()["balance_pence"] == 4_400


def test_a_purchase_before_midnight_counts_on_its_own_day(
    make_app: Callable[..., FastAPI],
) -> None:
    """The process behind buys first: that play is the evening's; the next day still has its
    whole limit, and the lagging process's later purchases count on that next day."""
    early = make_app(app_clock=at(13, 0, 1))
    late = make_app(app_clock=at(12, 23, 58))
    ahead, behind = TestClient(early), TestClient(late)
    token = session(behind)["token"]  # issued behind, so valid ahead too
    ahead.put("/api/limits", json={"daily_pence": 600}, headers=bearer(token))
    sold = [buy(c, token).status_code for c in (behind, ahead, behind, ahead, behind)]
    assert sold == [201, 201, 201, 403, 403]
    state = behind.get("/api/limits", headers=bearer(token)).json()["daily"]
    assert state["spent_pence"] == 600 and state["resets_at"] == "2026-05-14T00:00:00.000Z"


def test_periods_are_the_utc_day_and_the_iso_week() -> None:
    moment = int(datetime(2026, 5, 14, 15, 30, tzinfo=UTC).timestamp() * 1000)  # a Thursday
    assert limits.day_start(moment) == int(datetime(2026, 5, 14, tzinfo=UTC).timestamp() * 1000)
    monday = int(datetime(2026, 5, 11, tzinfo=UTC).timestamp() * 1000)
    assert limits.week_start(moment) == monday
    assert limits.week_start(monday) == monday and limits.week_start(monday - 1) == monday - (
        7 * limits.DAY_MS
    )


def test_the_debit_refuses_a_purchase_exactly_when_the_balance_or_a_limit_says_so(
    make_app: Callable[..., FastAPI],
) -> None:
    """The debit's balance and limit tests in their three forms: SQLAlchemy's (Statements.debit,
    both databases), PostgreSQL's text (limits.PG_WITHIN, in the sale statements) and Python's
    (`Limits.refusal`, the admission's and the refusal's answer), on rows either side of each
    boundary: the balance, a limit in force, a raise due or not yet, a stored day or week that
    is past, current or later than this process's."""
    services: Services = make_app().state.services
    account = services.accounts.create(0)
    price, now = 100, int(datetime(2026, 5, 13, 12, tzinfo=UTC).timestamp() * 1000)
    period = limits.period_params(now)
    days = {"past": period["day"] - limits.DAY_MS, "now": period["day"], "later": now + 1}
    weeks = {"past": period["week"] - limits.WEEK_MS, "now": period["week"], "later": now + 1}
    params = {"account": account.pk, "price": price, **period}
    params |= Rules(0, 0, 1, 0).params  # no log-out: the limits alone
    cases: list[tuple[dict[str, int | None], bool, bool]] = []
    with services.db.begin() as conn:
        cursor = conn.connection.cursor()
        for balance in (price - 1, price):
            for limit in (None, 249, 250):
                for pending, pending_at in ((None, None), (500, now), (500, now + 1)):
                    for day in days.values():
                        for week in weeks.values():
                            row = {
                                "balance_pence": balance,
                                "daily_limit_pence": limit,
                                "daily_pending_pence": pending,
                                "daily_pending_at": pending_at,
                                "weekly_limit_pence": limit and limit + 50,
                                "spend_day": day,
                                "spend_day_pence": 150,
                                "spend_week": week,
                                "spend_week_pence": 200,
                            }
                            conn.execute(
                                accounts.update().where(accounts.c.id == account.pk).values(row)
                            )
                            nested = conn.begin_nested()
                            debited = services.checkout.sql.debit.value(conn, **params) is not None
                            nested.rollback()
                            if not services.db.is_sqlite:  # PostgreSQL: the sale statements' text
                                cursor.execute(
                                    f"SELECT balance_pence >= %(price)s AND {limits.PG_WITHIN}"
                                    " FROM accounts WHERE id = %(account)s",
                                    params,
                                )
                                assert cursor.fetchone() == (debited,), row
                            state = services.checkout.sql.admission.row(conn, account=account.pk)
                            seen = limits.Limits(state[: len(limits.COLUMNS)], now)
                            allowed = balance >= price and seen.refusal(price) is None
                            cases.append((row, allowed, debited))
    assert [case for case in cases if case[1] is not case[2]] == []  # refused exactly then
    assert 0 < sum(case[1] for case in cases) < len(cases)
