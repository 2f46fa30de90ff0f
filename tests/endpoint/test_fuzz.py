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
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema_rs
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
# A valid request may still be refused for what it means, not its shape: a well-formed token
# whose signature fails, a test-mode game with no matching entry.
REFUSED_FOR_MEANING = ("token_invalid",)


def refused_for_shape(status: int, text: str) -> bool:
    """Whether an answer refuses a request for its shape (400 or 422): for a request the
    document calls valid (schemathesis' positive mode), the two disagree."""
    return status in (400, 422) and not any(f'"{code}"' in text for code in REFUSED_FOR_MEANING)


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
        limits_required=False,  # (routes/test_sales.py is about it)
    )
    app = create_app(config, lay_out=reuse(laid_pools))
    yield app
    app.state.services.db.dispose()


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
    running: dict[str, GenerationMode] = {}
    for operation, mode in itertools.product(operations, GenerationMode):
        running["mode"] = mode
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
            elif running["mode"] is GenerationMode.POSITIVE and refused_for_shape(
                status, response.text
            ):
                failures.append(f"valid, refused: {case.method} {case.formatted_path} "
                                f"{case.query} {case.body}: {response.text}")  # fmt: skip

        try:
            call()
        except Unsatisfiable:  # nothing to make invalid: an operation without parameters
            assert mode is GenerationMode.NEGATIVE, operation.label
    assert failures == []


def test_the_document_and_the_server_agree_on_what_schemathesis_found(
    fuzzed_app: FastAPI,
) -> None:
    """The six valid requests refused, each decided: an integer written 1.0 is taken (JSON
    Schema counts it one); a cursor or status the document does not allow is refused, and the
    document now says which; limit_reached's resets_at is the ISO string the server sends."""
    client = TestClient(fuzzed_app)
    auth = {"Authorization": f"Bearer {client.post('/api/session').json()['token']}"}
    document = client.get("/api/openapi.json").json()
    query = {p["name"]: p["schema"] for p in document["paths"]["/api/plays"]["get"]["parameters"]}
    for name, value, valid in [
        ("cursor", "keys", False),
        ("cursor", "", False),
        ("cursor", "007", False),
        ("cursor", "9999999999", True),  # past every play: the first page
        ("status", "", False),
        ("status", "finished", True),
    ]:
        assert jsonschema_rs.is_valid(query[name], value) is valid, (name, value)
        answer = client.get("/api/plays", params={name: value}, headers=auth)
        assert (answer.status_code == 200) is valid, (name, value, answer.text)
    play = client.post(
        "/api/plays", json={"game": "lab-riches"}, headers={**auth, "Idempotency-Key": "agree"}
    ).json()["play_number"]
    whole = [
        ("PUT", f"/api/plays/{play}/progress", {"event": 1.0, "choices": []}),
        ("POST", f"/api/plays/{play}/finish", {}),
        ("PUT", "/api/limits", {"daily_pence": 300.0, "weekly_pence": None}),
    ]
    for method, path, body in whole:
        answer = client.request(method, path, json=body, headers=auth)
        assert answer.status_code == 200, (path, answer.text)
    assert client.get("/api/limits", headers=auth).json()["daily"]["limit_pence"] == 300
    for bad in (True, "5", 5.5):  # a bool, a string or a fraction is still no integer
        answer = client.put("/api/limits", json={"daily_pence": bad}, headers=auth)
        assert answer.status_code == 422, bad
    key = {**auth, "Idempotency-Key": "over"}
    client.post("/api/plays", json={"game": "lab-riches"}, headers=key)  # the day's 300 spent
    refused = client.post(
        "/api/plays", json={"game": "lab-riches"}, headers={**auth, "Idempotency-Key": "x"}
    )
    assert refused.status_code == 403, refused.text
    error_schema = document["components"]["schemas"]["ApiError"]
    assert jsonschema_rs.is_valid(error_schema, refused.json()), refused.json()
    resets_at = refused.json()["error"]["resets_at"]
    assert datetime.fromisoformat(resets_at.replace("Z", "+00:00")) > datetime.now(UTC)
