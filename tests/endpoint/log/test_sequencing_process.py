"""The sequencing process (web/endpoint/log/sequencing_process.py): started with the app,
sequencing what every sale appended, ended with the app, started again when it dies."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.endpoint.conftest import OPERATOR, bearer, buy, named_children, session, started_child
from web.endpoint.http.services import Services
from web.endpoint.log import entries

FAST = {"log_interval_ms": 50}
SEQUENCER = "log-sequencer"  # the name it gives itself


def logged(client: TestClient, token: str, number: int) -> None:
    """Wait until the play's proof is served (a checkpoint covers its sale)."""
    deadline = time.monotonic() + 30
    while client.get(f"/api/plays/{number}", headers=bearer(token)).json()["log"] is None:
        assert time.monotonic() < deadline, f"play {number} was never sequenced"
        time.sleep(0.02)


def test_the_process_starts_and_ends_with_the_app_and_sequences_every_sale(
    make_app: Callable[..., FastAPI],
) -> None:
    app = make_app(**FAST)
    services: Services = app.state.services
    before = set(named_children(SEQUENCER))
    with TestClient(app) as client:
        started_child(SEQUENCER, before)  # with the app, before any sale
        token = session(client)["token"]
        numbers = [buy(client, token).json()["play_number"] for _ in range(3)]
        for number in numbers:
            logged(client, token, number)
        assert len(set(named_children(SEQUENCER)) - before) == 1
        assert entries.pending(services.db) == 0
    assert set(named_children(SEQUENCER)) == before  # ended with the app


def test_a_sequencing_process_that_dies_is_started_again(
    make_app: Callable[..., FastAPI], caplog: pytest.LogCaptureFixture
) -> None:
    """The kernel may kill it (out of memory): another is started (said in the log, counted in
    the metrics) and the sales go on being sequenced."""
    app = make_app(**FAST)
    before = set(named_children(SEQUENCER))
    with TestClient(app) as client:
        token = session(client)["token"]
        logged(client, token, buy(client, token).json()["play_number"])
        child = started_child(SEQUENCER, before)
        os.kill(child, signal.SIGKILL)
        logged(client, token, buy(client, token).json()["play_number"])
        assert started_child(SEQUENCER, before | {child}) != child
        metrics = client.get("/api/metrics", headers=OPERATOR).text
        assert "lottery_log_sequencer_restarts_total 1.0" in metrics
    said = [r.getMessage() for r in caplog.records if "sequencing process died" in r.getMessage()]
    assert said == ["the log's sequencing process died; starting another (restart 1)"]
