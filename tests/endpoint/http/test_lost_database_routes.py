"""Every route's first request after PostgreSQL lost the endpoint's pooled connections, with
the session check still cached (so the route's own work is the first to meet a dead one).

A restart ends each connection with a word from the server and a close, which the endpoint
sees before it uses one (web/endpoint/store/database.py, `_drop_hung_up`): every route answers as it
would have. A failover leaves them looking alive until used (the new server resets them):
work safe to do twice is tried again on a new connection (`Database.again`) and answers as it
would have (a sign-in code's use too: it and its session's row are one transaction); the work
not safe to do twice (a new account, a free play) still answers 503, as its first try may have
committed (docs/endpoint.md, A lost database)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text

from engine import games
from tests.endpoint.conftest import OPERATOR, bearer, buy, session
from tests.endpoint.relay import Relay
from web.endpoint.pools import reveal

GAME = "lab-riches"
# The routes whose work is not safe to do twice: a 503 after a failover.
ONCE = {"POST /api/session", "POST /api/try", "POST /api/protections/break"}


def a_restart(relay: Relay) -> None:
    relay.cut()
    relay.mend()


def a_failover(relay: Relay) -> None:
    relay.fail_over()


def requests(client: TestClient, app: FastAPI) -> list[tuple[str, Callable[[], Any], int]]:
    """Each route's request (named), made ready: its account, plays, code and closed pool."""
    token = session(client)["token"]
    mine = bearer(token)
    first, second = buy(client, token).json(), buy(client, token).json()
    n1, n2 = first["play_number"], second["play_number"]
    assert client.post(f"/api/plays/{n1}/finish", headers=mine).status_code == 200
    code = client.post("/api/account/code", headers=mine).json()["code"]
    services = app.state.services
    closed = reveal.retire(services.pools, GAME)["pool_id"]
    for game in games.on_sale():  # a pool with entries left, for the health check
        services.pools.ensure(game.id)
    others = [bearer(session(TestClient(app))["token"]) for _ in range(2)]
    for headers in others:  # their session checks cached too
        assert client.get("/api/play-time", headers=headers).status_code == 200

    def call(method: str, path: str, **options: Any) -> Callable[[], Any]:
        return lambda: client.request(method, path, **{"headers": mine, **options})

    return [
        ("GET /api/wallet", call("GET", "/api/wallet"), 200),
        ("GET /api/limits", call("GET", "/api/limits"), 200),
        ("PUT /api/limits", call("PUT", "/api/limits", json={"daily_pence": 5_000}), 200),
        ("GET /api/play-time", call("GET", "/api/play-time"), 200),
        ("POST /api/play-time/reality-check", call("POST", "/api/play-time/reality-check"), 200),
        ("GET /api/plays", call("GET", "/api/plays"), 200),
        ("GET /api/plays/{n}", call("GET", f"/api/plays/{n1}"), 200),
        (
            "POST /api/tokens/verify",
            call("POST", "/api/tokens/verify", json={"token": first["token"]}),
            200,
        ),
        ("PUT progress", call("PUT", f"/api/plays/{n2}/progress", json={"event": 1}), 200),
        ("POST finish", call("POST", f"/api/plays/{n1}/finish"), 200),
        ("GET recall", call("GET", f"/api/plays/{n1}/recall"), 200),
        (  # another device: its cookie would make the later requests' session check uncached
            "POST /api/session (code)",
            lambda: TestClient(app).post("/api/session", json={"code": code}),
            201,
        ),
        ("POST /api/account/code", call("POST", "/api/account/code"), 201),
        ("POST /api/session", call("POST", "/api/session", headers={}), 201),
        ("POST /api/try", call("POST", "/api/try", json={"game": GAME}, headers={}), 201),
        ("GET /api/pools/{game}", call("GET", f"/api/pools/{GAME}"), 200),
        ("GET commitment", call("GET", f"/api/pools/{GAME}/{closed}"), 200),
        ("GET reveal", call("GET", f"/api/pools/{GAME}/{closed}/reveal"), 200),
        ("GET /api/health", call("GET", "/api/health"), 200),
        ("GET /api/metrics", call("GET", "/api/metrics", headers=OPERATOR), 200),
        ("POST /api/plays", lambda: buy(client, token), 201),
        ("GET /api/account/data", call("GET", "/api/account/data"), 200),
        (  # (after the purchase: the break stops the account's paid play)
            "POST /api/protections/break",
            call("POST", "/api/protections/break", json={"length": "24h"}),
            200,
        ),
        ("GET /api/protections", call("GET", "/api/protections"), 200),
        ("POST logout", call("POST", "/api/session/logout", headers=others[0]), 200),
        ("POST logout-all", call("POST", "/api/session/logout-all", headers=others[1]), 200),
    ]


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)  # a server to lose
@pytest.mark.parametrize("lose", [a_restart, a_failover], ids=["restart", "failover"])
def test_the_first_request_of_each_route_after_its_connection_was_lost(
    make_app: Callable[..., FastAPI],
    relayed: tuple[Relay, str],
    lose: Callable[[Relay], None],
) -> None:
    relay, url = relayed
    app = make_app(database_url=url)
    client = TestClient(app)
    wrong = []
    for name, request, status in requests(client, app):
        with app.state.services.db.begin() as conn:  # a pooled connection, alive
            conn.execute(text("SELECT 1"))
        lose(relay)  # every pooled connection dead; the server back at once
        answer = request()
        expected = 503 if lose is a_failover and name in ONCE else status
        if answer.status_code != expected:
            wrong.append(f"{name}: {answer.status_code} {answer.text[:120]}")
        elif expected == 503:
            assert answer.json()["error"]["code"] == "database_unavailable"
    assert not wrong, "\n".join(wrong)
