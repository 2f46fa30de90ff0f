"""A database out of reach (PostgreSQL behind a TCP relay the test cuts): every route answers
503 database_unavailable in the API's error shape, not a 500, and a purchase tried again with
its Idempotency-Key once the database is back is bought once."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.endpoint.conftest import OPERATOR, Clock, bearer, buy, session
from tests.endpoint.relay import Relay
from web.endpoint.player.sessions import CHECK_MS


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)  # a server to cut off
def test_a_database_out_of_reach_is_a_503_and_the_purchase_is_bought_once_when_it_is_back(
    make_app: Callable[..., FastAPI], relayed: tuple[Relay, str]
) -> None:
    relay, url = relayed
    app = make_app(database_url=url)
    client = TestClient(app)
    token = session(client)["token"]
    first = buy(client, token)
    assert first.status_code == 201
    number = first.json()["play_number"]
    balance = client.get("/api/wallet", headers=bearer(token)).json()["balance_pence"]
    relay.cut()
    for answer in (
        buy(client, token, key="while-cut"),
        client.get("/api/plays", headers=bearer(token)),
        client.get("/api/wallet", headers=bearer(token)),
        client.post(f"/api/plays/{number}/finish", headers=bearer(token)),
        client.post("/api/session"),
    ):
        assert answer.status_code == 503, (answer.request.url, answer.text)
        error = answer.json()["error"]
        assert error["code"] == "database_unavailable"
        assert "never charged twice" in error["message"]
    health = client.get("/api/health")  # for the load balancer: this endpoint cannot serve
    assert health.status_code == 503 and "database: failing" in health.json()["error"]["message"]
    relay.mend()
    bought = buy(client, token, key="while-cut")  # the player's retry, the same key
    assert bought.status_code == 201
    again = buy(client, token, key="while-cut")
    assert again.json()["play_number"] == bought.json()["play_number"]
    assert len(client.get("/api/plays", headers=bearer(token)).json()["plays"]) == 2
    after = client.get("/api/wallet", headers=bearer(token)).json()["balance_pence"]
    assert after == balance - 300  # charged once, for the play bought once
    finished = client.post(f"/api/plays/{number}/finish", headers=bearer(token))
    assert finished.status_code == 200
    metrics = client.get("/api/metrics", headers=OPERATOR).text
    assert 'lottery_errors_total{code="database_unavailable",status="503"} 5.0' in metrics


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)  # a server to restart
def test_a_restarted_database_costs_no_request_an_error(
    make_app: Callable[..., FastAPI], relayed: tuple[Relay, str], clock: Clock
) -> None:
    """A restart (or a failover, or pg_terminate_backend) ends every pooled connection while
    the endpoint is idle; the server is back at once. The next requests find their connections
    dead: each is served on a new one, and no player sees a 503. Before, the session check of
    the first request after the restart was answered 503 database_unavailable (a CI run of
    test_batch.py's sessions test, where buyers saw it mid-purchase)."""
    relay, url = relayed
    app = make_app(database_url=url, limits_required=True)  # the operator's defaults
    client = TestClient(app)
    token = session(client)["token"]
    limits = {"daily_pence": 10_000, "weekly_pence": 50_000}
    assert client.put("/api/limits", json=limits, headers=bearer(token)).is_success
    assert buy(client, token).status_code == 201
    for _ in range(3):  # a restart, again and again
        relay.cut()
        relay.mend()
        clock.advance(CHECK_MS / 1000 + 1)  # past the session check's cache: read its row again
        for answer in (
            client.get("/api/wallet", headers=bearer(token)),
            client.get("/api/plays", headers=bearer(token)),
            buy(client, token),
        ):
            assert answer.status_code < 300, (answer.request.url, answer.text)


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)  # a server to stop
def test_a_database_that_takes_connections_and_never_answers_is_a_503_within_seconds(
    make_app: Callable[..., FastAPI], relayed: tuple[Relay, str]
) -> None:
    """A server that accepts connections but never answers (stopped with SIGSTOP, swamped, a
    network dropping its packets): each new connection gives up after the connect timeout
    (LOTTERY_DB_CONNECT_TIMEOUT_SECONDS, here libpq's least, 2 s), so the purchase gets its 503
    in seconds, where psycopg's own default would have waited 130 s a connection."""
    relay, url = relayed
    app = make_app(database_url=url, db_connect_timeout_seconds=2)
    client = TestClient(app)
    token = session(client)["token"]
    assert buy(client, token).status_code == 201
    relay.hang()
    started = time.monotonic()
    answer = buy(client, token, key="while-hung")
    waited = time.monotonic() - started
    assert answer.status_code == 503, answer.text
    assert answer.json()["error"]["code"] == "database_unavailable"
    # the batch's connection and the purchase's three tries, 2 s each; 130 s each without
    assert waited < 30, f"{waited:.1f} s"
    relay.mend()
    assert buy(client, token, key="while-hung").status_code == 201


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_the_connect_timeout_is_the_url_s_when_it_has_one(database_url: str) -> None:
    from web.endpoint.settings import Settings
    from web.endpoint.store.database import Database

    url = Settings(database_url=database_url).db_url
    given = f"{url}{'&' if '?' in url else '?'}connect_timeout=11"
    for db, seconds in ((Database(url, connect_timeout=7), 7), (Database(given), 11)):
        with db.begin() as conn:
            dsn = conn.connection.driver_connection.info.dsn  # type: ignore[union-attr]
        db.dispose()
        assert f"connect_timeout={seconds}" in dsn.split(), dsn


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # SQLite's file lock
def test_a_sqlite_file_locked_by_another_process_is_a_503_after_one_busy_timeout(
    make_app: Callable[..., FastAPI], database_url: str
) -> None:
    """Another process holds SQLite's file locked (a backup tool, a stuck writer): a purchase
    waits one busy timeout (10 s), not one for its batch and more for each retry, then gets
    503 database_unavailable; the file free again, the same key buys it."""
    app = make_app()
    client = TestClient(app)
    token = session(client)["token"]
    assert buy(client, token).status_code == 201
    path = app.state.services.db.url.split("///", 1)[1]
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        started = time.monotonic()
        answer = buy(client, token, key="while-locked")
        waited = time.monotonic() - started
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert answer.status_code == 503, answer.text
    assert answer.json()["error"]["code"] == "database_unavailable"
    assert waited < 15, waited  # one busy timeout
    assert buy(client, token, key="while-locked").status_code == 201
    assert len(client.get("/api/plays", headers=bearer(token)).json()["plays"]) == 2
