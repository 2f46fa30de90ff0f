"""The app as assembled (web/endpoint/app.py): what no one route module owns (bad input, the
sweep, the rate limit, OpenAPI, CORS, warming), end to end in process, on SQLite and
PostgreSQL. Each route module's own tests: tests/endpoint/routes/."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.routing import Route

from engine import games
from tests.endpoint.conftest import Clock, bearer, buy, session
from web.endpoint.store.schema import plays, pools, transactions

OTHER = "power-puck-shot"  # the second game, on sale beside Lab Riches


def test_warming_lays_out_pools_only_for_games_on_sale(make_app: Callable[..., FastAPI]) -> None:
    app = make_app()
    app.state.services.pools.warm()
    with app.state.services.db.begin() as conn:
        warmed = conn.execute(select(pools.c.kind, pools.c.game).order_by(pools.c.id)).all()
    on_sale = [game.id for game in games.on_sale()]
    assert on_sale == ["lab-riches", OTHER]
    # the paid pools first, then each game's pool of free plays (TRY mode)
    assert [tuple(row) for row in warmed] == [("paid", g) for g in on_sale] + [
        ("try", g) for g in on_sale
    ]


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
    with app.state.services.db.begin() as conn:
        rows = conn.execute(transactions.select()).all()
    assert sum(r.amount_pence for r in rows if r.kind == "prize") == prize
    assert sleeper.get("/api/wallet").json()["balance_pence"] == 4_700 + prize


def test_rate_limit_is_per_account(make_app: Callable[..., FastAPI]) -> None:
    app = make_app(rate_per_second=0.001, rate_burst=3)
    client, other = TestClient(app), TestClient(app)
    session(client)
    answers = [client.get("/api/wallet") for _ in range(4)]
    assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
    assert int(answers[-1].headers["retry-after"]) >= 999  # a request every 1,000 s (RFC 9110)
    other.post("/api/session")
    assert other.get("/api/wallet").status_code == 200


def test_openapi_is_published_and_every_route_is_under_api(client: TestClient) -> None:
    """Every route under /api, but the public log's files under /log (docs/log.md)."""
    spec = client.get("/api/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    assert all(path.startswith(("/api/", "/log/")) for path in spec["paths"])
    assert {"/log/checkpoint", "/log/tile/{path}", "/log/policy"} <= set(spec["paths"])
    assert "/api/plays/{play_number}/finish" in spec["paths"]
    assert all(route.path.startswith(("/api", "/log/")) for route in client.app.routes)  # type: ignore[attr-defined]
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
            with app.state.services.db.begin() as conn:
                row = conn.execute(plays.select().where(plays.c.play_number == number)).one()
            status = row.status
        assert (row.status, row.finished_by) == ("finished", "auto")
        with app.state.services.db.begin() as conn:
            rows = conn.execute(transactions.select()).all()
        assert sum(r.amount_pence for r in rows if r.kind == "prize") == prize
