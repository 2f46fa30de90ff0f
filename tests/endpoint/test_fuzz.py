"""The whole API fuzzed from its own OpenAPI document (schemathesis): no input gets a 5xx, and
every status an operation answers is one its document lists.

Every operation is called with inputs generated from the document, valid ones and invalid ones
(schemathesis' positive and negative modes), as a guest with a session
and a play bought (so the routes behind authentication are reached too), on SQLite. Bounded:
EXAMPLES inputs an operation, no deadline, no example database, so the test command's time
stays predictable.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from engine import games
from engine.math.pool import Pool
from tests.endpoint.conftest import reuse
from web.endpoint.app import create_app
from web.endpoint.settings import Settings

EXAMPLES = 40


@pytest.fixture(scope="module")
def fuzzed_app(
    tmp_path_factory: pytest.TempPathFactory, pool_dir: Path, laid_pools: dict[str, list[Pool]]
) -> Iterator[FastAPI]:
    """One endpoint for the whole fuzz (SQLite, test mode off)."""
    var = tmp_path_factory.mktemp("fuzz")
    config = Settings(
        var_dir=var,
        database_url=f"sqlite:///{var}/fuzz.db",
        pool_dir=pool_dir,
        rate_per_second=100_000.0,
        rate_burst=100_000,
    )
    app = create_app(config, lay_out=reuse(laid_pools))
    yield app
    app.state.ledger.db.dispose()


def test_no_input_gets_a_server_error(fuzzed_app: FastAPI) -> None:
    client = TestClient(fuzzed_app)
    token = client.post("/api/session").json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for game in games.on_sale():  # commits each game's pool: the health check is then ok
        bought = client.post(
            "/api/plays", json={"game": game.id}, headers={**auth, "Idempotency-Key": game.id}
        )
        assert bought.status_code == 201
    api = schemathesis.openapi.from_asgi("/api/openapi.json", fuzzed_app)
    operations = [result.ok() for result in api.get_all_operations()]  # type: ignore[union-attr]
    assert len(operations) >= 10
    failures: list[str] = []
    expected: dict[str, set[str]] = {}  # operation -> the statuses its document lists
    for operation, mode in itertools.product(operations, GenerationMode):
        documented = set(operation.definition.raw["responses"])
        expected[operation.label] = documented

        @given(case=operation.as_strategy(mode))
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
                  database=None)  # fmt: skip
        def call(case: Any) -> None:
            response = case.call(headers={**auth, **(case.headers or {})})
            status = response.status_code
            if status >= 500 or str(status) not in expected[case.operation.label]:
                failures.append(f"{case.method} {case.formatted_path}: {status} {response.text}")

        try:
            call()
        except Unsatisfiable:  # nothing to make invalid: an operation without parameters
            assert mode is GenerationMode.NEGATIVE, operation.label
    assert failures == []
