"""The services the routes are given: built once per app, passed to every route module, and the
one caller dependency (web/endpoint/http/services.py)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from tests.endpoint.conftest import Clock, bearer, session
from web.endpoint.http.services import Services

ENDPOINT = Path(__file__).resolve().parents[3] / "web" / "endpoint"


def test_no_module_of_the_endpoint_reads_the_app_state() -> None:
    """Routes take their services as arguments; only create_app writes them, once, for tests."""
    reads = []
    for path in sorted(ENDPOINT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "state":
                if not isinstance(node.ctx, ast.Load) or path.name == "app.py":
                    continue
                reads.append(f"{path.relative_to(ENDPOINT)}:{node.lineno}")
    assert reads == []


def test_every_route_of_an_account_depends_on_the_one_caller(
    make_app: Callable[..., FastAPI],
) -> None:
    app = make_app(test_mode=True)
    services: Services = app.state.services
    callers = {}
    for route in app.routes:
        if isinstance(route, APIRoute):
            for dependency in route.dependant.dependencies:
                callers[route.path + " " + ",".join(sorted(route.methods or ()))] = dependency.call
    assert len(callers) >= 12  # wallet, limits, My Games, progress, recall, log-outs, ...
    assert all(call == services.caller for call in callers.values()), callers


def test_the_caller_limits_each_account_and_sweeps_once_an_interval(
    make_app: Callable[..., FastAPI], clock: Clock
) -> None:
    app = make_app(rate_per_second=0.001, rate_burst=2, sweep_interval_seconds=60)
    client = TestClient(app)
    token = session(client)["token"]
    services: Services = app.state.services
    started = services.sweep.last
    assert client.get("/api/wallet", headers=bearer(token)).status_code == 200
    assert services.sweep.last == started  # within the interval: no sweep
    clock.advance(61)
    assert client.get("/api/wallet", headers=bearer(token)).status_code == 200
    assert services.sweep.last == started + 61  # a caller's request swept
    limited = client.get("/api/wallet", headers=bearer(token))
    assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"
    basic = client.get("/api/wallet", headers={"Authorization": "Basic x"})
    assert basic.status_code == 401 and basic.json()["error"]["code"] == "unauthenticated"
