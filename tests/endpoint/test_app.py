"""The routes, end to end in process, on SQLite and PostgreSQL."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from starlette.routing import Route

from engine import games
from engine.math.pool import Pool, PoolEntry, verify_proof
from engine.math.table import PrizeTable, Tier
from engine.outcome import Composition
from tests.endpoint.conftest import OPERATOR, Clock, bearer, buy, session
from web.endpoint import pool_store
from web.endpoint.schema import plays, pools, reservations, transactions

OTHER = "power-puck-shot"  # the second game, on sale beside Lab Riches


def test_session_creates_a_guest_with_the_demo_balance(client: TestClient) -> None:
    response = client.post("/api/session")
    assert response.status_code == 201
    body = response.json()
    assert body["balance_pence"] == 5_000
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    assert client.get("/api/wallet").json()["balance_pence"] == 5_000  # by cookie
    fresh = TestClient(client.app)
    assert fresh.get("/api/wallet", headers=bearer(body["token"])).json()["balance_pence"] == 5_000


def test_demo_balance_is_configurable(make_app: Callable[..., FastAPI]) -> None:
    client = TestClient(make_app(demo_balance_pence=1_234))
    assert session(client)["balance_pence"] == 1_234
    assert client.get("/api/wallet").json()["balance_pence"] == 1_234


def test_missing_forged_and_expired_credentials_are_401(client: TestClient, clock: Clock) -> None:
    token = session(client)["token"]
    bare = TestClient(client.app)
    assert bare.get("/api/wallet").status_code == 401
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    for credential in (forged, "nonsense", token + "x"):
        response = bare.get("/api/wallet", headers=bearer(credential))
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "unauthenticated"
    clock.advance(31 * 24 * 3600)
    assert bare.get("/api/wallet", headers=bearer(token)).status_code == 401


def test_games_lists_every_registered_game_and_whether_it_is_on_sale(client: TestClient) -> None:
    listed = client.get("/api/games").json()["games"]
    assert [g["id"] for g in listed] == list(games.ids())
    for game in listed:
        spec = games.get(game["id"])
        assert game == {**spec.table.as_json(), "on_sale": spec.on_sale}
        assert game["name"] == spec.name and game["price_pence"] == spec.price_pence
        assert {"odds_one_in", "rtp_percent", "top_prize_pence", "tiers"} <= set(game)
    on_sale = {game["id"]: game["on_sale"] for game in listed}
    assert on_sale == {"lab-riches": True, OTHER: True}


def test_the_catalogue_says_when_a_game_is_not_on_sale(
    make_app: Callable[..., FastAPI], withdrawn: str
) -> None:
    listed = TestClient(make_app()).get("/api/games").json()["games"]
    on_sale = {game["id"]: game["on_sale"] for game in listed}
    assert on_sale == {"lab-riches": True, withdrawn: False}


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
    with app.state.services.ledger.db.begin() as conn:
        assert conn.execute(select(func.count()).select_from(plays)).scalar_one() == 0
        kinds = conn.execute(select(transactions.c.kind)).scalars().all()
        assert kinds == ["grant"]
        assert conn.execute(select(pools.c.game)).scalars().all() == []
        assert conn.execute(select(func.count()).select_from(reservations)).scalar_one() == 0
    assert NOT_ON_SALE not in app.state.services.ledger.pool_cache._spares


def test_warming_lays_out_pools_only_for_games_on_sale(make_app: Callable[..., FastAPI]) -> None:
    app = make_app()
    app.state.services.ledger.warm()
    with app.state.services.ledger.db.begin() as conn:
        warmed = conn.execute(select(pools.c.kind, pools.c.game).order_by(pools.c.id)).all()
    on_sale = [game.id for game in games.on_sale()]
    assert on_sale == ["lab-riches", OTHER]
    # the paid pools first, then each game's pool of free plays (TRY mode)
    assert [tuple(row) for row in warmed] == [("paid", g) for g in on_sale] + [
        ("try", g) for g in on_sale
    ]


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
    with app.state.services.ledger.db.begin() as conn:
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
    files = app.state.services.ledger.pool_cache
    lay_out = files._lay_out
    spec = games.get(OTHER)
    no_wins = (Tier(0, 100, ((Composition(), 1),)),)
    tiny = PrizeTable(
        spec.id, spec.name, spec.table.model, spec.price_pence, 100, no_wins, spec.top_prize_pence
    )

    def tiny_for_the_other(table: PrizeTable, size: int) -> Pool:
        return pool_store.lay_out(tiny, 100) if table.game == spec.id else lay_out(table, size)

    files._lay_out = tiny_for_the_other
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


def test_bad_input_gets_a_clear_error(client: TestClient) -> None:
    token = session(client)["token"]
    headers = {**bearer(token), "Idempotency-Key": "k"}
    as_json = {**headers, "Content-Type": "application/json"}
    cases = [
        (client.post("/api/plays", json={"game": "bingo"}, headers=headers), 404, "game_not_found"),
        (client.post("/api/plays", content=b"{not json", headers=headers), 400, "malformed_json"),
        (client.post("/api/plays", content=b"{no", headers=as_json), 400, "malformed_json"),
        (client.post("/api/plays", json=["lab-riches"], headers=headers), 400, "malformed_json"),
        (client.post("/api/plays", json={}, headers=headers), 422, "invalid_request"),
        (client.post("/api/plays", json={"game": "x" * 20_000}, headers=headers), 413, None),
        (client.get("/api/pools/bingo"), 404, "game_not_found"),
        (client.get("/api/plays/12345"), 404, "play_not_found"),
        (client.get("/api/plays/abc"), 404, "play_not_found"),
        (client.post("/api/plays/999/finish"), 404, "play_not_found"),
        (client.get("/api/plays?cursor=zz"), 400, "invalid_cursor"),
        (client.get("/api/nowhere"), 404, "not_found"),
    ]
    for response, status, code in cases:
        assert response.status_code == status, response.text
        assert set(response.json()["error"]) == {"code", "message"}
        if code:
            assert response.json()["error"]["code"] == code
    assert client.get("/api/wallet").json()["balance_pence"] == 5_000


def test_someone_elses_play_is_indistinguishable_from_none(client: TestClient) -> None:
    mine = buy(client, session(client)["token"]).json()["play_number"]
    thief = TestClient(client.app)
    thief.post("/api/session")
    for response in (
        thief.get(f"/api/plays/{mine}"),
        thief.post(f"/api/plays/{mine}/finish"),
    ):
        assert response.status_code == 404
        assert response.json() == thief.get(f"/api/plays/{mine + 1}").json()
    assert client.get(f"/api/plays/{mine}").json()["status"] == "purchased"


def test_my_games_newest_first_with_a_cursor(client: TestClient) -> None:
    token = session(client)["token"]
    numbers = [buy(client, token).json()["play_number"] for _ in range(5)]
    client.post(f"/api/plays/{numbers[0]}/finish")
    page = client.get("/api/plays?limit=3").json()
    assert [p["play_number"] for p in page["plays"]] == numbers[::-1][:3]
    rest = client.get(f"/api/plays?limit=3&cursor={page['next_cursor']}").json()
    assert [p["play_number"] for p in rest["plays"]] == numbers[::-1][3:]
    assert rest["next_cursor"] is None
    unfinished = client.get("/api/plays?status=unfinished").json()["plays"]
    assert [p["play_number"] for p in unfinished] == numbers[1:][::-1]
    first = page["plays"][0]
    assert set(first) == {
        "play_number",
        "game",
        "status",
        "finished_by",
        "price_pence",
        "prize_pence",
        "purchased_at",
        "finished_at",
    }
    assert first["finished_by"] is None and first["price_pence"] == 300


def test_an_unfinished_play_past_its_time_is_paid(client: TestClient, clock: Clock) -> None:
    token = session(client)["token"]
    numbers = [buy(client, token).json()["play_number"] for _ in range(6)]
    prizes = [client.get(f"/api/plays/{n}").json()["prize_pence"] for n in numbers]
    clock.advance(24 * 3600 - 5)
    assert len(client.get("/api/plays?status=unfinished").json()["plays"]) == 6
    clock.advance(10)
    assert client.get("/api/plays?status=unfinished").json()["plays"] == []
    assert client.get("/api/wallet").json()["balance_pence"] == 5_000 - 6 * 300 + sum(prizes)
    detail = client.get(f"/api/plays/{numbers[0]}").json()
    assert detail["status"] == "finished" and detail["finished_by"] == "auto"
    assert client.post(f"/api/plays/{numbers[0]}/finish").json()["balance_pence"] == (
        5_000 - 6 * 300 + sum(prizes)
    )


def test_the_sweep_pays_other_accounts_too(make_app: Callable[..., FastAPI], clock: Clock) -> None:
    app = make_app(play_timeout_seconds=60, sweep_interval_seconds=1)
    sleeper, other = TestClient(app), TestClient(app)
    number = buy(sleeper, session(sleeper)["token"]).json()["play_number"]
    prize = sleeper.get(f"/api/plays/{number}").json()["prize_pence"]
    session(other)
    clock.advance(61)
    other.get("/api/wallet")  # any caller's request runs the periodic sweep
    with app.state.services.ledger.db.begin() as conn:
        rows = conn.execute(transactions.select()).all()
    assert sum(r.amount_pence for r in rows if r.kind == "prize") == prize
    assert sleeper.get("/api/wallet").json()["balance_pence"] == 4_700 + prize


def test_rate_limit_is_per_account(make_app: Callable[..., FastAPI]) -> None:
    app = make_app(rate_per_second=0.001, rate_burst=3)
    client, other = TestClient(app), TestClient(app)
    session(client)
    statuses = [client.get("/api/wallet").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    other.post("/api/session")
    assert other.get("/api/wallet").status_code == 200


def test_openapi_is_published_and_every_route_is_under_api(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    assert all(path.startswith("/api/") for path in spec["paths"])
    assert "/api/plays/{play_number}/finish" in spec["paths"]
    assert all(route.path.startswith("/api") for route in client.app.routes)  # type: ignore[attr-defined]
    assert client.get("/api/openapi.json").json() == spec  # built once, the same each time


def test_purchase_and_finish_are_one_route_each_and_documented(client: TestClient) -> None:
    served = Counter(
        (route.path, method)
        for route in client.app.routes  # type: ignore[attr-defined]
        if isinstance(route, Route)
        for method in route.methods or ()
    )
    assert served[("/api/plays", "POST")] == 1
    assert served[("/api/plays/{play_number}/finish", "POST")] == 1
    spec = client.get("/api/openapi.json").json()
    operations = [
        (path, method, operation)
        for path, item in spec["paths"].items()
        for method, operation in item.items()
    ]
    ids = [operation["operationId"] for _, _, operation in operations]
    assert len(ids) == len(set(ids))
    purchase = spec["paths"]["/api/plays"]["post"]
    finish = spec["paths"]["/api/plays/{play_number}/finish"]["post"]
    assert [(p, m) for p, m, op in operations if op in (purchase, finish)] == [
        ("/api/plays", "post"),
        ("/api/plays/{play_number}/finish", "post"),
    ]
    assert "get" in spec["paths"]["/api/plays"]  # My Games is still there beside it
    assert set(purchase["responses"]) >= {"201", "400", "401", "402", "404", "409", "422", "503"}
    assert set(finish["responses"]) >= {"200", "401", "404"}
    body = purchase["requestBody"]["content"]["application/json"]["schema"]
    assert body["required"] == ["game"] and body["properties"]["game"]["type"] == "string"
    header = purchase["parameters"][0]
    assert (header["name"], header["in"], header["required"]) == ("Idempotency-Key", "header", True)
    schemas = spec["components"]["schemas"]
    created = purchase["responses"]["201"]["content"]["application/json"]["schema"]
    created = schemas[created["$ref"].rpartition("/")[2]]
    assert set(created["properties"]) == {"play_number", "token", "balance_pence", "play_time"}
    done = finish["responses"]["200"]["content"]["application/json"]["schema"]
    done = schemas[done["$ref"].rpartition("/")[2]]
    assert set(done["properties"]) == {"play_number", "prize_pence", "balance_pence", "status"}
    error = spec["components"]["schemas"]["ApiError"]
    assert error["properties"]["error"]["required"] == ["code", "message"]
    for operation in (purchase, finish):
        for status, response in operation["responses"].items():
            if status >= "400":
                ref = response["content"]["application/json"]["schema"]["$ref"]
                assert ref == "#/components/schemas/ApiError"


def test_cors_allows_only_configured_origins(make_app: Callable[..., FastAPI]) -> None:
    client = TestClient(make_app(cors_origins=("https://games.example",)))
    ask = {
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization",
    }
    ok = client.options("/api/plays", headers={"Origin": "https://games.example", **ask})
    assert ok.headers["access-control-allow-origin"] == "https://games.example"
    bad = client.options("/api/plays", headers={"Origin": "https://evil.example", **ask})
    assert "access-control-allow-origin" not in bad.headers


def test_a_credential_for_another_database_is_refused(
    make_app: Callable[..., FastAPI], tmp_path: Path
) -> None:
    first = TestClient(make_app())
    token = session(first)["token"]
    # same var/ (same session secret), a fresh database: account 1 there is someone else
    other = TestClient(make_app(database_url=f"sqlite:///{tmp_path / 'other.sqlite3'}"))
    session(other)
    assert other.get("/api/wallet", headers=bearer(token)).status_code == 401
    assert first.get("/api/wallet", headers=bearer(token)).status_code == 200


def test_overdue_plays_are_paid_on_a_timer_without_any_request(
    make_app: Callable[..., FastAPI], clock: Clock
) -> None:
    app = make_app(play_timeout_seconds=60, sweep_interval_seconds=0.05)
    with TestClient(app) as sleeper:  # the context runs the app's lifespan (its sweeper)
        number = buy(sleeper, session(sleeper)["token"]).json()["play_number"]
        prize = sleeper.get(f"/api/plays/{number}").json()["prize_pence"]
        clock.advance(61)
        deadline = time.monotonic() + 10
        status = "purchased"
        while status != "finished" and time.monotonic() < deadline:
            time.sleep(0.05)
            with app.state.services.ledger.db.begin() as conn:
                row = conn.execute(plays.select().where(plays.c.play_number == number)).one()
            status = row.status
        assert (row.status, row.finished_by) == ("finished", "auto")
        with app.state.services.ledger.db.begin() as conn:
            rows = conn.execute(transactions.select()).all()
        assert sum(r.amount_pence for r in rows if r.kind == "prize") == prize


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
