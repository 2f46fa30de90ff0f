"""Test mode (web/endpoint/testmode/, settings.py): one explicit value, a loud warning, shown
in /api/health, and never on a database with real plays (nor real plays on a test database).

Real databases (SQLite, and PostgreSQL from DATABASE_URL), and the real command line.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from engine import games
from tests.endpoint.conftest import buy, session
from web.endpoint.settings import Settings
from web.endpoint.testmode import MixedDatabase

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(("raw", "on"), [("1", True), ("0", False), ("", False), (None, False)])
def test_test_mode_is_1_and_off_is_unset_empty_or_0(raw: str | None, on: bool) -> None:
    env = {} if raw is None else {"LOTTERY_TEST_MODE": raw}
    assert Settings.from_env(env).test_mode is on


@pytest.mark.parametrize("raw", ["true", "TRUE", "yes", "on", "On", "2", " 1", "off", "false"])
def test_any_other_test_mode_value_refuses_to_start(raw: str) -> None:
    with pytest.raises(ValueError, match="LOTTERY_TEST_MODE must be 1"):
        Settings.from_env({"LOTTERY_TEST_MODE": raw})


def test_test_mode_warns_at_start_and_shows_in_health(
    make_app: Callable[..., FastAPI], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="web.endpoint"):
        app = make_app(test_mode=True)
    assert any("TEST MODE IS ON" in r.getMessage() for r in caplog.records)
    client = TestClient(app)
    unready = client.get("/api/health")  # no pool committed yet: 503, and says so too
    assert unready.status_code == 503 and unready.json()["error"]["test_mode"] is True
    token = session(client)["token"]
    for game in games.on_sale():
        assert buy(client, token, game=game.id).status_code == 201
    answer = client.get("/api/health")
    assert answer.status_code == 200 and answer.json()["test_mode"] is True


def test_health_says_test_mode_is_off(make_app: Callable[..., FastAPI]) -> None:
    answer = TestClient(make_app()).get("/api/health")
    assert answer.json()["error"]["test_mode"] is False


def test_test_mode_refuses_a_database_with_real_plays(make_app: Callable[..., FastAPI]) -> None:
    client = TestClient(make_app())
    assert buy(client, session(client)["token"]).status_code == 201
    with pytest.raises(MixedDatabase, match="holds real"):
        make_app(test_mode=True)


def test_a_test_database_stays_one(make_app: Callable[..., FastAPI]) -> None:
    """Test mode marks the database; plays bought then are test plays, so test mode may start
    on it again, and an endpoint out of test mode refuses it."""
    client = TestClient(make_app(test_mode=True))
    assert buy(client, session(client)["token"]).status_code == 201
    again = TestClient(make_app(test_mode=True))
    assert buy(again, session(again)["token"]).status_code == 201
    with pytest.raises(MixedDatabase, match="used in test mode"):
        make_app()


def test_the_endpoint_command_refuses_a_wrong_test_mode_value(tmp_path: Path) -> None:
    env = {**os.environ, "LOTTERY_VAR_DIR": str(tmp_path), "LOTTERY_TEST_MODE": "true"}
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "build.py", "endpoint", "--port", "1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "LOTTERY_TEST_MODE must be 1" in done.stderr


def test_a_test_pool_seed_lays_the_same_pools_out_everywhere() -> None:
    """LOTTERY_TEST_POOL_SEED: the same seed lays out the same pool (entries, seeds: its root),
    another seed another, and a game's pools differ from another game's."""
    from tests.test_pool import small_table
    from web.endpoint.testmode import fixed_lay_out

    table = small_table()
    one, two = fixed_lay_out("layout"), fixed_lay_out("layout")
    first, again = one(table, 200), two(table, 200)
    assert (first.root, first.pool_id) == (again.root, again.pool_id)
    assert [first.entry(k) for k in range(200)] == [again.entry(k) for k in range(200)]
    assert fixed_lay_out("other")(table, 200).root != first.root
    # The game's next pool (its free plays', a spare) is another, the same everywhere too.
    second = one(table, 200)
    assert second.pool_id != first.pool_id and second.root == two(table, 200).root


def test_a_test_pool_seed_is_refused_out_of_test_mode() -> None:
    with pytest.raises(ValueError, match="LOTTERY_TEST_POOL_SEED"):
        Settings.from_env({"LOTTERY_TEST_POOL_SEED": "layout"})
    assert (
        Settings.from_env(
            {"LOTTERY_TEST_POOL_SEED": "layout", "LOTTERY_TEST_MODE": "1"}
        ).test_pool_seed
        == "layout"
    )
