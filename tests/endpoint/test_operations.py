"""Operators' tools: GET /api/health for load balancers, Prometheus metrics at /api/metrics."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import select

from engine import games
from tests.endpoint.conftest import (
    OPERATOR,
    bearer,
    buy,
    named_children,
    postgres_url,
    session,
    started_child,
)
from web.endpoint.sales import hashes
from web.endpoint.sales.hashing_process import hash_of_row
from web.endpoint.store.schema import plays


def scrape(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of /metrics by (name, labels)."""
    response = client.get("/api/metrics", headers=OPERATOR)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def test_health_reports_each_check_and_fails_until_a_pool_is_on_sale(
    make_app: Callable[..., FastAPI],
) -> None:
    client = TestClient(make_app())
    missing = client.get("/api/health")
    assert missing.status_code == 503
    assert missing.json()["error"]["code"] == "unhealthy"
    token = session(client)["token"]
    for game in games.on_sale():  # each game on sale needs its pool before the endpoint is ok
        message = client.get("/api/health").json()["error"]["message"]
        assert f"pool:{game.id}: no pool committed yet" in message
        assert buy(client, token, game=game.id).status_code == 201  # commits its first pool
    ok = client.get("/api/health")
    assert ok.status_code == 200
    pools = {f"pool:{game.id}": "ok" for game in games.on_sale()}
    checks = {"database": "ok", **pools, "signing_key": "ok"}
    assert ok.json() == {"status": "ok", "checks": checks, "test_mode": False}


def test_health_fails_when_the_database_loses_its_tables(
    make_app: Callable[..., FastAPI], database_url: str
) -> None:
    app = make_app()
    client = TestClient(app)
    assert buy(client, session(client)["token"]).status_code == 201
    db = app.state.services.db
    if db.is_sqlite:  # the file deleted under the running endpoint
        db.engine.dispose()
        Path(str(db.engine.url.database)).unlink()
    else:  # the schema dropped
        with psycopg.connect(postgres_url(), autocommit=True) as conn:
            schema = database_url.rsplit("%3D", 1)[1]
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
            conn.execute(f"CREATE SCHEMA {schema}")  # for the fixture's own clean-up
        db.engine.dispose()
    down = client.get("/api/health")
    assert down.status_code == 503
    assert "database: failing" in down.json()["error"]["message"]


def test_metrics_count_sales_finishes_errors_latency_and_entries_left(
    make_app: Callable[..., FastAPI],
) -> None:
    # The app's lifespan is not started, so no hasher runs (with it, one hashes the play, or
    # makes its hash ahead of the sale, whenever its process is quick enough: the count was 0
    # in one CI run): the play waits for its hash.
    client = TestClient(make_app())
    token = session(client)["token"]
    bought = buy(client, token).json()
    client.post(f"/api/plays/{bought['play_number']}/finish", headers=bearer(token))
    client.get("/api/plays/424242", headers=bearer(token))  # 404 play_not_found
    samples = scrape(client)
    assert samples[("lottery_purchases_total", (("game", "lab-riches"),))] == 1
    assert samples[("lottery_finishes_total", ())] == 1
    assert samples[("lottery_errors_total", (("code", "play_not_found"), ("status", "404")))] == 1
    sale = ("lottery_request_seconds_count", (("method", "POST"), ("route", "/api/plays")))
    assert samples[sale] == 1
    detail = (("method", "GET"), ("route", "/api/plays/{play_number}"))
    assert samples[("lottery_request_seconds_count", detail)] == 1
    left = samples[("lottery_pool_entries_left", (("game", "lab-riches"),))]
    size = client.get("/api/pools/lab-riches").json()["size"]
    assert left == size - 1
    unhashed = ("lottery_plays_unhashed", (("game", "lab-riches"),))
    assert samples[unhashed] == 1
    assert samples[("lottery_plays_unhashed", (("game", "power-puck-shot"),))] == 0
    hashes.fill_all(client.app.state.services.db)  # type: ignore[attr-defined]
    assert scrape(client)[unhashed] == 0


def test_the_hasher_goes_on_when_its_process_is_killed(
    make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A running endpoint whose hashing process is killed (the out-of-memory killer) starts
    another and hashes the plays sold since; /api/metrics counts the restart."""
    monkeypatch.setattr(hashes, "HASH_INTERVAL", 0.05)
    monkeypatch.setattr(hashes, "RESTART_WAIT", 0.05)
    before = set(multiprocessing.active_children())
    app = make_app()
    with TestClient(app) as client:
        deadline = time.monotonic() + 30
        child = started_child("book-hashing")
        os.kill(child, signal.SIGKILL)
        token = session(client)["token"]
        for _ in range(3):
            assert buy(client, token).status_code == 201
        while hashes.unhashed(app.state.services.db) or not named_children("book-hashing", {child}):
            assert time.monotonic() < deadline, "the plays were not hashed"
            time.sleep(0.05)
        assert child not in {process.pid for process in multiprocessing.active_children()}
        assert scrape(client)[("lottery_hashing_restarts_total", ())] == 1
    assert set(multiprocessing.active_children()) == before
    with app.state.services.db.begin() as conn:
        rows = conn.execute(select(plays.c.game, plays.c.model, plays.c.composition,
                                   plays.c.seed, plays.c.book_hash)).all()  # fmt: skip
    assert len(rows) == 3 and all(row.book_hash == hash_of_row(*row[:4]) for row in rows)


def test_a_stopping_endpoint_hashes_what_is_waiting_and_ends_its_hashing_process(
    make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the lifespan's end the plays still unhashed are hashed by this engine, the one that
    sold them (a new one, after a deployment, would hash them otherwise), and the hashing
    process is waited for (a stop once left it running, and Python reported its queue's
    semaphores leaked at every stop)."""
    monkeypatch.setattr(hashes, "HASH_INTERVAL", 3600.0)  # the hasher does not run meanwhile
    before = set(multiprocessing.active_children())
    app = make_app()
    with TestClient(app) as client:
        token = session(client)["token"]
        for _ in range(3):
            assert buy(client, token).status_code == 201
        assert len(hashes.unhashed(app.state.services.db)) == 3
    assert hashes.unhashed(app.state.services.db) == []
    columns = (plays.c.game, plays.c.model, plays.c.composition, plays.c.seed, plays.c.book_hash)
    with app.state.services.db.begin() as conn:
        rows = conn.execute(select(*columns)).all()
    assert len(rows) == 3
    assert all(row.book_hash == hash_of_row(*row[:4]) for row in rows)
    assert set(multiprocessing.active_children()) == before
