"""http/routes/sales.py: a purchase and its finish, end to end in process, on SQLite and
PostgreSQL, through the app's routes and its fast path; a paid play's token, and the limits a new
account must choose before a paid play (LOTTERY_LIMITS_REQUIRED)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from engine import games
from engine.math.pool import Pool, PoolEntry, verify_proof
from engine.math.table import PrizeTable, Tier
from engine.outcome import Composition
from engine.payload import Payload
from tests.endpoint.conftest import OPERATOR, Clock, bearer, buy, session
from web.endpoint import tokens
from web.endpoint.pools import files
from web.endpoint.store.schema import plays, pools, reservations, transactions

OTHER = "power-puck-shot"  # the second game, on sale beside Lab Riches


def test_a_game_not_on_sale_is_not_sold_and_has_no_pool(
    make_app: Callable[..., FastAPI], withdrawn: str
) -> None:
    NOT_ON_SALE = withdrawn
    app = make_app(test_mode=True)
    client = TestClient(app)
    token = session(client)["token"]
    refusals = [
        buy(client, token, game=NOT_ON_SALE),
        buy(client, token, game=NOT_ON_SALE),
        client.get(f"/api/pools/{NOT_ON_SALE}"),
        client.post("/api/test/next-entry", json={"game": NOT_ON_SALE, "prize_pence": 0}),
    ]
    for response in refusals:
        assert response.status_code == 409, response.text
        error = response.json()["error"]
        assert error["code"] == "game_not_on_sale"
        assert "£500K Power Puck Shot" in error["message"] and "not on sale" in error["message"]
    assert client.get("/api/wallet").json()["balance_pence"] == 5_000
    assert client.get("/api/plays").json()["plays"] == []
    with app.state.services.db.begin() as conn:
        assert conn.execute(select(func.count()).select_from(plays)).scalar_one() == 0
        kinds = conn.execute(select(transactions.c.kind)).scalars().all()
        assert kinds == ["grant"]
        assert conn.execute(select(pools.c.game)).scalars().all() == []
        assert conn.execute(select(func.count()).select_from(reservations)).scalar_one() == 0
    assert NOT_ON_SALE not in app.state.services.pool_cache._spares


def test_purchase_records_a_committed_entry_and_finish_pays_it(client: TestClient) -> None:
    me = session(client)
    bought = buy(client, me["token"])
    assert bought.status_code == 201, bought.text
    play = bought.json()
    assert play["balance_pence"] == 5_000 - 300
    detail = client.get(f"/api/plays/{play['play_number']}").json()
    assert detail["status"] == "purchased" and detail["token"] == play["token"]
    entry = PoolEntry.from_json(detail["entry"])
    assert entry.prize_pence == detail["prize_pence"]
    assert verify_proof(detail["pool"]["root"], entry, detail["proof"])
    pool = client.get("/api/pools/lab-riches").json()
    assert pool["root"] == detail["pool"]["root"] and pool["sold"] == 1
    assert pool["size"] == games.load_table("lab-riches").base_pool_size
    done = client.post(f"/api/plays/{play['play_number']}/finish")
    assert done.status_code == 200
    assert done.json() == {
        "play_number": play["play_number"],
        "prize_pence": entry.prize_pence,
        "balance_pence": 4_700 + entry.prize_pence,
        "status": "finished",
    }


def test_finish_twice_credits_once(client: TestClient, app: FastAPI) -> None:
    token = session(client)["token"]
    numbers = [buy(client, token).json()["play_number"] for _ in range(8)]
    first = [client.post(f"/api/plays/{n}/finish").json() for n in numbers]
    again = [client.post(f"/api/plays/{n}/finish").json() for n in numbers]
    won = sum(f["prize_pence"] for f in first)
    balance = 5_000 - 8 * 300 + won
    assert [a["prize_pence"] for a in again] == [f["prize_pence"] for f in first]
    assert all(a["balance_pence"] == balance for a in again)
    assert client.get("/api/wallet").json()["balance_pence"] == balance
    with app.state.services.db.begin() as conn:
        kinds = [r.kind for r in conn.execute(transactions.select()).all()]
    assert kinds.count("prize") == sum(1 for f in first if f["prize_pence"] > 0)


def test_idempotency_key_returns_the_same_play_and_charges_once(client: TestClient) -> None:
    token = session(client)["token"]
    first = buy(client, token, key="retry-me")
    second = buy(client, token, key="retry-me")
    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert client.get("/api/wallet").json()["balance_pence"] == 4_700
    other = buy(client, token, game=OTHER, key="retry-me")
    assert other.status_code == 409
    assert other.json()["error"]["code"] == "idempotency_conflict"
    headers = bearer(token)
    assert (
        client.post("/api/plays", json={"game": "lab-riches"}, headers=headers).status_code == 400
    )


def test_an_idempotency_key_that_bought_another_game_is_409(
    make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The other game sells from a tiny pool of no-wins.
    app = make_app()
    pool_files = app.state.services.pool_cache
    lay_out = pool_files._lay_out
    spec = games.get(OTHER)
    no_wins = (Tier(0, 100, ((Composition(), 1),)),)
    tiny = PrizeTable(
        spec.id, spec.name, spec.table.model, spec.price_pence, 100, no_wins, spec.top_prize_pence
    )

    def tiny_for_the_other(table: PrizeTable, size: int) -> Pool:
        return files.lay_out(tiny, 100) if table.game == spec.id else lay_out(table, size)

    pool_files._lay_out = tiny_for_the_other
    client = TestClient(app)
    token = session(client)["token"]
    assert buy(client, token, key="used").status_code == 201
    other = buy(client, token, game=spec.id, key="used")
    assert other.status_code == 409, other.text
    assert other.json()["error"]["code"] == "idempotency_conflict"
    assert client.get("/api/wallet").json()["balance_pence"] == 4_700
    assert buy(client, token, game=spec.id).status_code == 201  # that pool does sell
    assert client.get("/api/wallet").json()["balance_pence"] == 4_700 - spec.price_pence


def test_insufficient_funds_is_402_and_changes_nothing(make_app: Callable[..., FastAPI]) -> None:
    client = TestClient(make_app(demo_balance_pence=400))
    token = session(client)["token"]
    bought = buy(client, token, key="only")
    assert bought.status_code == 201
    assert buy(client, token, key="only").json() == bought.json()  # a retry is not short of funds
    refused = buy(client, token)
    assert refused.status_code == 402
    assert refused.json()["error"]["code"] == "insufficient_funds"
    assert client.get("/api/wallet").json()["balance_pence"] == 100
    assert len(client.get("/api/plays").json()["plays"]) == 1


def test_purchases_answered_ahead_of_the_middleware_keep_its_answers(
    make_app: Callable[..., FastAPI],
) -> None:
    """sales.PurchaseFastPath answers POST /api/plays before the middleware stack: the same answers,
    the body limit, the error shape and metrics; with CORS configured, a request carrying an
    Origin goes through the whole stack and gets its CORS headers."""
    app = make_app(cors_origins=("https://games.example",), max_body_bytes=100)
    client = TestClient(app)
    token = session(client)["token"]
    plain = buy(client, token, key="plain")
    assert plain.status_code == 201 and plain.headers["content-type"] == "application/json"
    assert "access-control-allow-origin" not in plain.headers
    # the bytes json.dumps writes compactly (the fast path writes them with orjson)
    assert plain.content == json.dumps(plain.json(), separators=(",", ":")).encode()
    again = buy(client, token, key="plain")  # the same key: the same play, charged once
    assert again.json()["play_number"] == plain.json()["play_number"]
    assert again.json()["balance_pence"] == plain.json()["balance_pence"]
    mine = {"Origin": "https://games.example", "Idempotency-Key": "cross", **bearer(token)}
    cross = client.post("/api/plays", json={"game": "lab-riches"}, headers=mine)
    assert cross.status_code == 201
    assert cross.headers["access-control-allow-origin"] == "https://games.example"
    key = {"Idempotency-Key": "bad", **bearer(token)}
    too_big = client.post("/api/plays", content=b"{" * 200, headers=key)
    assert too_big.status_code == 413 and too_big.json()["error"]["code"] == "body_too_large"
    malformed = client.post("/api/plays", content=b"{", headers=key)
    assert malformed.status_code == 400
    assert malformed.json()["error"]["code"] == "malformed_json"
    stranger = TestClient(app).post("/api/plays", json={"game": "lab-riches"})  # no session
    assert stranger.status_code == 401 and stranger.json()["error"]["code"] == "unauthenticated"
    metrics = client.get("/api/metrics", headers=OPERATOR).text
    assert 'lottery_errors_total{code="malformed_json",status="400"} 1.0' in metrics
    assert 'lottery_request_seconds_count{method="POST",route="/api/plays"} 6.0' in metrics
    assert 'lottery_purchases_total{game="lab-riches"} 3.0' in metrics


def test_paid_tokens_carry_no_mode(client: TestClient, app: FastAPI) -> None:
    token = session(client)["token"]
    bought = buy(client, token).json()
    payload = tokens.verify(app.state.services.ring, bought["token"])
    assert "mode" not in payload and Payload.from_json(payload).mode is None
    assert Payload.from_json(payload).to_json() == payload


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
