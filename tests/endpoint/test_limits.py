"""Spend limits across processes (web/endpoint/limits.py and the debit in statements.py): two
endpoints on one database whose clocks disagree on the day never let a player past a limit.

Real databases (SQLite, and PostgreSQL from DATABASE_URL); each app its own ledger and clock.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from engine import games
from tests.endpoint.conftest import Clock, bearer, buy, session


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


def refused(response: object) -> dict[str, object]:
    """The error of a 403 limits_required answer."""
    assert getattr(response, "status_code", None) == 403, getattr(response, "text", response)
    error: dict[str, object] = response.json()["error"]  # type: ignore[attr-defined]
    assert error["code"] == "limits_required"
    return error


def test_a_new_account_buys_no_paid_play_until_it_has_chosen_both_limits(
    make_app: Callable[..., FastAPI],
) -> None:
    """LOTTERY_LIMITS_REQUIRED: refused with its own code, naming the periods still missing,
    nothing charged; one limit is not enough; both, and the purchase goes through."""
    client = TestClient(make_app(limits_required=True))
    token = session(client)["token"]
    assert refused(buy(client, token))["missing"] == ["daily", "weekly"]
    assert client.get("/api/wallet", headers=bearer(token)).json()["balance_pence"] == 5_000
    assert client.put("/api/limits", json={"daily_pence": 2_000}, headers=bearer(token)).is_success
    assert refused(buy(client, token))["missing"] == ["weekly"]
    assert client.put("/api/limits", json={"weekly_pence": 123}, headers=bearer(token)).is_success
    over = buy(client, token)  # both chosen: now the limits themselves are what refuse
    assert over.status_code == 403 and over.json()["error"]["code"] == "limit_reached"
    fresh = session(client)["token"]
    client.put("/api/limits", json={"daily_pence": 500, "weekly_pence": 700}, headers=bearer(fresh))
    assert buy(client, fresh).status_code == 201
    price = games.get("lab-riches").price_pence
    assert client.get("/api/wallet", headers=bearer(fresh)).json()["balance_pence"] == 5_000 - price


def test_try_stays_open_and_the_setting_off_sells_as_before(
    make_app: Callable[..., FastAPI],
) -> None:
    """A free play needs no limit; with LOTTERY_LIMITS_REQUIRED=0 a fresh account buys."""
    required = TestClient(make_app(limits_required=True))
    token = session(required)["token"]
    refused(buy(required, token))
    assert required.post("/api/try", json={"game": "lab-riches"}).status_code == 201
    optional = TestClient(make_app(limits_required=False))
    assert buy(optional, session(optional)["token"]).status_code == 201


def test_a_removal_coming_into_force_closes_paid_play_again(
    make_app: Callable[..., FastAPI], clock: Clock
) -> None:
    """Removing a limit waits 24 hours like any raise; then the account has none in force
    and must choose one again before its next paid play (as an account from before the
    setting, with no limits, must before its first)."""
    client = TestClient(make_app(limits_required=True))
    token = session(client)["token"]
    both = {"daily_pence": 1_000, "weekly_pence": 5_000}
    client.put("/api/limits", json=both, headers=bearer(token))
    assert buy(client, token).status_code == 201
    client.put("/api/limits", json={"daily_pence": None}, headers=bearer(token))
    assert buy(client, token).status_code == 201  # the removal is pending: still in force
    clock.advance(24 * 3600 + 1)
    assert refused(buy(client, token))["missing"] == ["daily"]


def test_a_retry_of_a_purchase_made_is_answered_with_that_play(
    make_app: Callable[..., FastAPI], clock: Clock
) -> None:
    """The Idempotency-Key of a purchase made before the limits went out of force still
    answers that purchase, not limits_required."""
    client = TestClient(make_app(limits_required=True))
    token = session(client)["token"]
    client.put(
        "/api/limits", json={"daily_pence": 1_000, "weekly_pence": 1_000}, headers=bearer(token)
    )
    first = buy(client, token, key="once")
    client.put("/api/limits", json={"daily_pence": None}, headers=bearer(token))
    clock.advance(24 * 3600 + 1)
    again = buy(client, token, key="once")
    assert again.status_code == 201  # (its balance now the one after the play was settled)
    assert [again.json()[k] for k in ("play_number", "token")] == [
        first.json()[k] for k in ("play_number", "token")
    ]


def test_the_api_document_describes_limits_required(make_app: Callable[..., FastAPI]) -> None:
    document = TestClient(make_app()).get("/api/openapi.json").json()
    answer = document["paths"]["/api/plays"]["post"]["responses"]["403"]["description"]
    assert "limits_required" in answer and "missing" in answer
    error = document["components"]["schemas"]["ApiError"]["properties"]["error"]
    assert error["properties"]["missing"]["items"]["enum"] == ["daily", "weekly"]
