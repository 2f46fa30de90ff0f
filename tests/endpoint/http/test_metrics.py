"""The operators' routes (web/endpoint/http/metrics.py): /api/metrics for the operator's token only,
and both it and the public /api/health computed at most once a LOTTERY_STATUS_CACHE_SECONDS."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import event

from tests.endpoint.conftest import METRICS_TOKEN, OPERATOR, buy, session
from web.endpoint.settings import Settings


@contextmanager
def statements(app: FastAPI) -> Iterator[list[str]]:
    """The SQL statements the app's database runs within the block."""
    ran: list[str] = []
    engine = app.state.services.db.engine

    def seen(_conn: Any, _cursor: Any, sql: str, *_args: Any) -> None:
        ran.append(sql)

    event.listen(engine, "before_cursor_execute", seen)
    try:
        yield ran
    finally:
        event.remove(engine, "before_cursor_execute", seen)


def test_metrics_are_for_the_operator_s_token_only(make_app: Callable[..., FastAPI]) -> None:
    """Without LOTTERY_METRICS_TOKEN the metrics are not served (404, as if there were no such
    route); with it, only to a request bearing it (401 otherwise). /api/health stays public."""
    unset = TestClient(make_app(metrics_token=""))
    hidden = unset.get("/api/metrics")
    assert hidden.status_code == 404 and hidden.json()["error"]["code"] == "not_found"
    assert unset.get("/api/metrics", headers=OPERATOR).status_code == 404
    assert unset.get("/api/health").status_code in (200, 503)  # public: no credential asked

    client = TestClient(make_app())
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": METRICS_TOKEN},
                    {"Authorization": f"Basic {METRICS_TOKEN}"}):  # fmt: skip
        refused = client.get("/api/metrics", headers=headers)
        assert refused.status_code == 401, headers
        assert refused.json()["error"]["code"] == "unauthenticated"
    shown = client.get("/api/metrics", headers=OPERATOR)
    assert shown.status_code == 200 and "lottery_up 1.0" in shown.text
    assert client.get("/api/health").status_code in (200, 503)
    assert "/api/metrics" not in client.get("/api/openapi.json").json()["paths"]
    configured = Settings.from_env({"LOTTERY_METRICS_TOKEN": "t0ken"})
    assert configured.metrics_token == "t0ken" and configured.status_cache_seconds == 1.0


def test_health_and_metrics_are_computed_at_most_once_a_period(
    make_app: Callable[..., FastAPI],
) -> None:
    """A flood of /api/health and /api/metrics requests reaches the database once a period
    (LOTTERY_STATUS_CACHE_SECONDS), not once a request; the answers are at most that old."""
    app = make_app(status_cache_seconds=60.0)
    client = TestClient(app)
    assert buy(client, session(client)["token"]).status_code == 201
    with statements(app) as first:
        health = client.get("/api/health")
        metrics = client.get("/api/metrics", headers=OPERATOR)
    assert first, "health and metrics read the database"
    with statements(app) as flood:
        for _ in range(50):
            assert client.get("/api/health").json() == health.json()
            assert client.get("/api/metrics", headers=OPERATOR).text == metrics.text
    assert flood == []

    fresh = make_app(status_cache_seconds=0.2)
    client = TestClient(fresh)
    token = session(client)["token"]
    sold = 'lottery_purchases_total{game="lab-riches"}'
    assert sold not in client.get("/api/metrics", headers=OPERATOR).text
    assert buy(client, token).status_code == 201
    time.sleep(0.3)  # longer than the period: the next answer is computed afresh
    assert f"{sold} 1.0" in client.get("/api/metrics", headers=OPERATOR).text
