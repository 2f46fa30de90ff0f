"""web/endpoint/http/routes/player.py: the player's own settings and free plays, end to end in
process, on SQLite and PostgreSQL: spend limits (GET and PUT /api/limits: a raise waits a day,
a lowering is at once, refused before charging, held under concurrent purchases) and TRY mode's
free plays (POST /api/try). (limits.py's own periods and two clocks: player/test_limits.py;
the limits a new account must choose before a paid play, LOTTERY_LIMITS_REQUIRED, refuse the
purchase: tests/endpoint/http/routes/test_sales.py.)"""

from __future__ import annotations

import os
import threading
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from engine.payload import Payload
from tests.endpoint.conftest import Clock, bearer, buy, serve, session
from web.endpoint import tokens
from web.endpoint.player import limits
from web.endpoint.store.schema import accounts, plays, pools, transactions, try_plays
from web.endpoint.times import iso

PPS = "power-puck-shot"

DAY = 24 * 3600


def put_limits(client: TestClient, token: str, **body: Any) -> httpx.Response:
    return client.put("/api/limits", json=body, headers=bearer(token))  # type: ignore[return-value]


def purchase_sum(app: FastAPI, public_id: str, since_ms: int) -> int:
    """The stakes (purchase transactions) of an account since a time, from the ledger."""
    with app.state.services.db.begin() as conn:
        pk = conn.execute(select(accounts.c.id).where(accounts.c.public_id == public_id)).scalar()
        total = conn.execute(
            select(func.coalesce(func.sum(-transactions.c.amount_pence), 0)).where(
                transactions.c.account_id == pk,
                transactions.c.kind == "purchase",
                transactions.c.created_at >= since_ms,
            )
        ).scalar_one()
    return int(total)


def test_no_limits_at_first(client: TestClient, clock: Clock) -> None:
    token = session(client)["token"]
    got = client.get("/api/limits", headers=bearer(token)).json()
    now = int(clock() * 1000)
    assert got["daily"] == {
        "limit_pence": None,
        "spent_pence": 0,
        "left_pence": None,
        "resets_at": iso(limits.day_start(now) + limits.DAY_MS),
        "pending": None,
    }
    assert got["weekly"]["resets_at"] == iso(limits.week_start(now) + limits.WEEK_MS)
    assert TestClient(client.app).get("/api/limits").status_code == 401


def test_a_daily_limit_refuses_before_charging(app: FastAPI, client: TestClient) -> None:
    me = session(client)
    token = me["token"]
    assert put_limits(client, token, daily_pence=700).json()["daily"]["limit_pence"] == 700
    assert buy(client, token).status_code == 201
    assert buy(client, token).status_code == 201
    refused = buy(client, token)
    assert refused.status_code == 403
    error = refused.json()["error"]
    assert error["code"] == "limit_reached" and error["period"] == "daily"
    assert error["left_pence"] == 100
    state = client.get("/api/limits", headers=bearer(token)).json()
    assert error["resets_at"] == state["daily"]["resets_at"]
    assert state["daily"]["spent_pence"] == 600 == state["weekly"]["spent_pence"]
    assert state["daily"]["left_pence"] == 100 and state["weekly"]["left_pence"] is None
    assert client.get("/api/wallet", headers=bearer(token)).json()["balance_pence"] == 4_400
    with app.state.services.db.begin() as conn:
        assert conn.execute(select(func.count()).select_from(plays)).scalar_one() == 2
    assert purchase_sum(app, me["account"], ms(state["daily"]["resets_at"]) - limits.DAY_MS) == 600


def test_an_idempotent_retry_at_the_limit_returns_the_same_play(client: TestClient) -> None:
    token = session(client)["token"]
    put_limits(client, token, weekly_pence=300)
    first = buy(client, token, key="once")
    assert first.status_code == 201
    again = buy(client, token, key="once")
    assert again.status_code == 201 and again.json()["play_number"] == first.json()["play_number"]
    refused = buy(client, token)
    assert refused.status_code == 403 and refused.json()["error"]["period"] == "weekly"


def test_raising_waits_a_day_and_lowering_is_at_once(client: TestClient, clock: Clock) -> None:
    clock.now = datetime(2026, 5, 12, 10, tzinfo=UTC).timestamp()  # a Tuesday: one ISO week
    token = session(client)["token"]
    put_limits(client, token, daily_pence=300, weekly_pence=900)
    raised = put_limits(client, token, daily_pence=900).json()
    now = int(clock() * 1000)
    assert raised["daily"]["limit_pence"] == 300
    assert raised["daily"]["pending"] == {"limit_pence": 900, "effective_at": iso(now + DAY * 1000)}
    assert raised["weekly"]["limit_pence"] == 900  # omitted: unchanged
    assert buy(client, token).status_code == 201
    assert buy(client, token).status_code == 403  # the raise is not in force yet
    # a lowering cancels the pending raise and is in force at once
    lowered = put_limits(client, token, daily_pence=200).json()["daily"]
    assert lowered["limit_pence"] == 200 and lowered["pending"] is None
    removed = put_limits(client, token, daily_pence=None).json()["daily"]
    assert removed["limit_pence"] == 200 and removed["pending"]["limit_pence"] is None
    clock.advance(DAY - 10)
    assert buy(client, token).status_code == 403
    clock.advance(20)  # the removal is in force (and a new UTC day may have begun)
    state = client.get("/api/limits", headers=bearer(token)).json()
    assert state["daily"]["limit_pence"] is None and state["daily"]["pending"] is None
    assert buy(client, token).status_code == 201  # weekly 900 still holds: 600 spent
    assert buy(client, token).status_code == 201
    weekly = buy(client, token)
    assert weekly.status_code == 403 and weekly.json()["error"]["period"] == "weekly"
    assert weekly.json()["error"]["left_pence"] == 0


def test_the_day_resets_the_daily_spend(client: TestClient, clock: Clock) -> None:
    token = session(client)["token"]
    put_limits(client, token, daily_pence=300)
    assert buy(client, token).status_code == 201
    refused = buy(client, token).json()["error"]
    assert refused["left_pence"] == 0
    clock.advance(ms(refused["resets_at"]) / 1000 - clock() + 0.001)
    assert client.get("/api/limits", headers=bearer(token)).json()["daily"]["spent_pence"] == 0
    assert buy(client, token).status_code == 201


@pytest.mark.parametrize("body", [{"daily_pence": -1}, {"daily_pence": "5"}, {"x": 1}])
def test_limits_of_the_wrong_shape_are_422(client: TestClient, body: dict[str, Any]) -> None:
    token = session(client)["token"]
    answer = put_limits(client, token, **body)
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "invalid_request"


def test_limits_hold_under_concurrent_purchases(app: FastAPI) -> None:
    """32 purchases at once (PostgreSQL: the batched and pipelined paths) never overshoot."""
    with serve(app) as base, httpx.Client(base_url=base, timeout=30) as http:
        token = http.post("/api/session").json()["token"]
        other = http.post("/api/session").json()["token"]
        http.put("/api/limits", json={"daily_pence": 1_500}, headers=bearer(token))
        statuses: list[int] = []

        def one(who: str) -> None:
            headers = {**bearer(who), "Idempotency-Key": os.urandom(8).hex()}
            with httpx.Client(base_url=base, timeout=30) as c:
                answer = c.post("/api/plays", json={"game": "lab-riches"}, headers=headers)
            if who == token:
                statuses.append(answer.status_code)
            else:
                assert answer.status_code == 201

        threads = [threading.Thread(target=one, args=(token,)) for _ in range(24)]
        threads += [threading.Thread(target=one, args=(other,)) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(statuses) == [201] * 5 + [403] * 19
        state = http.get("/api/limits", headers=bearer(token)).json()["daily"]
        assert state["spent_pence"] == 1_500 and state["left_pence"] == 0
        assert http.get("/api/wallet", headers=bearer(token)).json()["balance_pence"] == 3_500


def test_a_try_play_is_free_and_no_play_of_the_ledger(app: FastAPI) -> None:
    client = TestClient(app)
    me = session(client)
    tried = client.post("/api/try", json={"game": PPS})
    assert tried.status_code == 201
    body = tried.json()
    assert set(body) == {"token", "play_number"}
    payload = tokens.verify(app.state.services.ring, body["token"])
    read = Payload.from_json(payload)
    assert read.mode == "try" and read.account == me["account"] and read.game == PPS
    assert payload["play_number"] == body["play_number"]
    assert client.get("/api/wallet").json()["balance_pence"] == 5_000
    assert client.get("/api/plays").json()["plays"] == []
    number = body["play_number"]
    assert client.post(f"/api/plays/{number}/finish").status_code == 404
    assert client.get(f"/api/plays/{number}/recall").status_code == 404
    assert client.put(f"/api/plays/{number}/progress", json={"event": 1}).status_code == 404
    anonymous = TestClient(app).post("/api/try", json={"game": "lab-riches"})
    assert anonymous.status_code == 201
    anon = Payload.from_json(tokens.verify(app.state.services.ring, anonymous.json()["token"]))
    assert anon.mode == "try" and anon.account == "anonymous"
    with app.state.services.db.begin() as conn:
        kinds = dict(conn.execute(select(pools.c.id, pools.c.kind)).all())
        assert conn.execute(select(func.count()).select_from(plays)).scalar_one() == 0
        kinds_of_tx = conn.execute(select(transactions.c.kind)).scalars().all()
        tried_rows = conn.execute(select(try_plays.c.play_number, try_plays.c.pool_ref)).all()
    assert kinds_of_tx == ["grant"]
    assert {n for n, _ in tried_rows} == {number, anonymous.json()["play_number"]}
    assert all(kinds[ref] == "try" for _, ref in tried_rows)
    # a purchase afterwards draws from the paid pool, not the try pool
    assert buy(client, me["token"], game=PPS).status_code == 201
    with app.state.services.db.begin() as conn:
        ref = conn.execute(select(plays.c.pool_ref)).scalar_one()
        assert conn.execute(select(pools.c.kind).where(pools.c.id == ref)).scalar_one() == "paid"
    assert client.post("/api/try", json={"game": "nope"}).status_code == 404
    assert client.post("/api/try", json={"game": PPS, "x": 1}).status_code == 422
    forged = client.post("/api/try", json={"game": PPS}, headers={"Authorization": "Bearer x"})
    assert forged.status_code == 401


def ms(text: str) -> int:
    """An ISO 8601 time of an answer as epoch milliseconds."""
    return round(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)
