"""Endpoint fixtures: pools laid out once per session, an app per test on SQLite or PostgreSQL.

PostgreSQL comes from DATABASE_URL; without it those tests skip, unless CI=true, then they fail.
Each PostgreSQL test gets its own schema, dropped afterwards.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import psycopg
import pytest
import uvicorn
from alembic import command
from alembic.config import Config
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url

from engine import games
from engine.math.pool import Pool
from engine.math.table import PrizeTable
from tests.endpoint.relay import Relay
from web.endpoint.app import create_app
from web.endpoint.http.services import Services
from web.endpoint.log.sequencer import Sequencer, witnesses_of
from web.endpoint.pools import files
from web.endpoint.settings import Settings
from web.endpoint.store.database import MIGRATIONS, Database

BACKENDS = ("sqlite", pytest.param("postgresql", marks=pytest.mark.postgres))
METRICS_TOKEN = "the-operator-s-metrics-token"
OPERATOR = {"Authorization": f"Bearer {METRICS_TOKEN}"}  # the headers GET /api/metrics needs


class Clock:
    """A clock the tests move forward by hand."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(scope="session")
def laid_pools() -> dict[str, list[Pool]]:
    """One real pool per game on sale, laid out once for the whole session (more on demand)."""
    tables = [game.table for game in games.on_sale()]
    return {table.game: [files.lay_out(table, table.base_pool_size)] for table in tables}


@pytest.fixture(scope="session")
def pool_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pool directory shared by every test app of the session."""
    return tmp_path_factory.mktemp("pools")


def reuse(pools: dict[str, list[Pool]]) -> Callable[[PrizeTable, int], Pool]:
    """A lay-out function handing out the session's pools in order (a new one when used up)."""
    used: dict[str, int] = {}

    def lay_out(table: PrizeTable, size: int) -> Pool:
        n = used.get(table.game, 0)
        used[table.game] = n + 1
        laid = pools.setdefault(table.game, [])
        while len(laid) <= n:
            laid.append(files.lay_out(table, size))
        return laid[n]

    return lay_out


def postgres_url() -> str:
    """DATABASE_URL if it names PostgreSQL; skip (or fail on CI) otherwise."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://", "postgresql+psycopg://")):
        return url
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("CI=true but DATABASE_URL does not name a PostgreSQL database")
    pytest.skip("DATABASE_URL does not name a PostgreSQL database")


@pytest.fixture(params=BACKENDS, ids=("sqlite", "postgresql"))
def database_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh database: a SQLite file, or a new schema in the PostgreSQL of DATABASE_URL."""
    if request.param == "sqlite":
        yield ""
        return
    url = postgres_url()
    plain = "postgresql://" + url.split("://", 1)[1]
    schema = "endpoint_test_" + secrets.token_hex(4)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in plain else "?"
    try:
        yield f"{plain}{sep}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(plain, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def relayed(database_url: str) -> Iterator[tuple[Relay, str]]:
    """A relay to this test's PostgreSQL and the database URL through it."""
    url = make_url(database_url)
    relay = Relay(url.host or "127.0.0.1", url.port or 5432)
    try:
        through = url.set(host="127.0.0.1", port=relay.port)
        yield relay, through.render_as_string(hide_password=False)
    finally:
        relay.close()


@pytest.fixture
def clock() -> Clock:
    """The app's clock."""
    return Clock()


@pytest.fixture
def make_app(
    tmp_path: Path,
    database_url: str,
    pool_dir: Path,
    laid_pools: dict[str, list[Pool]],
    clock: Clock,
) -> Iterator[Callable[..., FastAPI]]:
    """Build apps on this test's database; keyword arguments override Settings fields, and
    `app_clock` gives an app a clock of its own (another process, another host's clock)."""
    lay_out = reuse(laid_pools)
    apps: list[FastAPI] = []

    def build(app_clock: Clock | None = None, **overrides: Any) -> FastAPI:
        fields: dict[str, Any] = {
            "var_dir": tmp_path / "var",
            "database_url": database_url,
            "pool_dir": pool_dir,
            "rate_per_second": 10_000.0,
            "rate_burst": 10_000,
            "metrics_token": METRICS_TOKEN,
            "status_cache_seconds": 0.0,  # (each answer fresh; test_metrics.py caches)
            # off unless a test is about it (routes/test_sales.py turns it on): the tests that buy
            # on a fresh account are about something else
            "limits_required": False,
        }
        fields.update(overrides)
        app = create_app(Settings(**fields), clock=app_clock or clock, lay_out=lay_out)
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.state.services.db.dispose()


def named_children(name: str, before: Iterable[int] = ()) -> list[int]:
    """The pids of this process's children that named themselves `name` (prctl, as `ps -o
    comm` shows: "book-hashing", "log-sequencer"), but those in `before`."""
    found, old = [], set(before)
    for child in multiprocessing.active_children():
        if child.pid is None or child.pid in old:
            continue
        try:
            comm = Path(f"/proc/{child.pid}/comm").read_text().strip()
        except OSError:
            continue
        if comm == name:
            found.append(child.pid)
    return found


def started_child(name: str, before: Iterable[int] = ()) -> int:
    """The one child named `name` started since `before` (it names itself as it starts)."""
    deadline = time.monotonic() + 30
    while not (new := named_children(name, before)):
        assert time.monotonic() < deadline, f"no {name} process started"
        time.sleep(0.02)
    (pid,) = new
    return pid


def schema_at(db: Database, revision: str, move: Callable[..., None] = command.upgrade) -> None:
    """Move a database's schema to `revision` (alembic's upgrade, or `move`: its downgrade), as
    `Database.migrate` moves it to the newest: an older version's database, for the tests of a
    migration."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with db.begin() as conn:
        config.attributes["connection"] = conn
        move(config, revision)


def sequencer_of(services: Services) -> Sequencer:
    """A sequencer of this app's log, for the tests that sequence by hand (the app's own runs
    in its sequencing process: web/endpoint/log/sequencing_process.py)."""
    cosign = witnesses_of(services.log.policy)
    return Sequencer(services.db, services.log.signer, services.clock.now_ms, cosign)


@pytest.fixture
def app(make_app: Callable[..., FastAPI]) -> FastAPI:
    """The endpoint with default settings on this test's database."""
    return make_app()


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """An in-process HTTP client of the app."""
    with TestClient(app) as test_client:
        yield test_client


def session(client: TestClient) -> dict[str, Any]:
    """Start a guest session; the client keeps its cookie, the body has the bearer token."""
    response = client.post("/api/session")
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def bearer(token: str) -> dict[str, str]:
    """The Authorization header of a session token."""
    return {"Authorization": f"Bearer {token}"}


def buy(client: TestClient, token: str, game: str = "lab-riches", key: str = "") -> httpx2.Response:
    """POST a purchase with a fresh (or the given) Idempotency-Key."""
    headers = {**bearer(token), "Idempotency-Key": key or secrets.token_hex(8)}
    return client.post("/api/plays", json={"game": game}, headers=headers)


@contextmanager
def serve(app: Any, port: int = 0, **options: Any) -> Iterator[str]:
    """Serve an app with a real uvicorn on a loopback port (a free one unless given); yields
    its base URL."""
    if not port:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **options)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 10
    while not server.started:
        assert time.time() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def in_own_loop(make: Callable[[], Any]) -> Any:
    """Run a coroutine to its end in a thread of its own, with its own event loop: the suite's
    browser tests leave Playwright's loop running in the main thread, where asyncio.run fails."""
    done: dict[str, Any] = {}

    def run() -> None:
        try:
            done["value"] = asyncio.run(make())
        except BaseException as error:  # re-raised in the test's thread
            done["error"] = error

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if "error" in done:
        raise done["error"]
    return done["value"]
