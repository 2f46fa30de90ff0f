"""Purchases sold in batches (web/endpoint/sales/batch.py) and a kill -9 under load.

Real databases, no mocks: the batch test drives the checkout's batcher with concurrent
purchases, including the same Idempotency-Key twice and an account whose balance covers only
some of its purchases; the kill test kills an endpoint process mid-load (SIGKILL) and checks
that what was committed is whole.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from engine.game import Game
from tests.endpoint.conftest import buy, in_own_loop, session
from web.endpoint.errors import ApiError
from web.endpoint.http.services import Services
from web.endpoint.sales.checkout import Checkout
from web.endpoint.store.schema import accounts, plays, pools, transactions

ROOT = Path(__file__).resolve().parents[3]
PRICE = 300


def free_port() -> int:
    """An unused loopback port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def check_books(services: Services) -> dict[int, int]:
    """Every ledger invariant over the whole database; returns plays bought per account."""
    with services.db.begin() as conn:
        entries = conn.execute(select(plays.c.pool_ref, plays.c.pool_index)).all()
        pool = conn.execute(select(pools)).one()
        balances = dict(conn.execute(select(accounts.c.id, accounts.c.balance_pence)).all())
        total = func.sum(transactions.c.amount_pence)
        sums = dict(
            conn.execute(
                select(transactions.c.account_id, total).group_by(transactions.c.account_id)
            ).all()
        )
        bought: dict[int, int] = dict(
            conn.execute(  # type: ignore[arg-type]
                select(plays.c.account_id, func.count()).group_by(plays.c.account_id)
            ).all()
        )
        charged = conn.execute(
            select(func.count()).where(transactions.c.kind == "purchase")
        ).scalar_one()
    assert len(set(entries)) == len(entries)  # no entry sold twice
    assert {i for _, i in entries} == set(range(len(entries)))  # none skipped
    assert pool.next_index == len(entries) == charged  # one debit per play
    assert balances == sums and min(balances.values()) >= 0
    return {int(k): int(v) for k, v in bought.items()}


def test_concurrent_purchases_sold_in_batches_keep_every_invariant(
    make_app: Callable[..., FastAPI],
) -> None:
    app = make_app()
    services: Services = app.state.services
    checkout: Checkout = app.state.services.checkout
    assert checkout.batcher is not None
    services.pools.ensure("lab-riches")
    rich = services.accounts.create(100 * PRICE)
    poor = services.accounts.create(3 * PRICE + 100)  # covers 3 of its 8 purchases
    sizes: list[int] = []
    sell_batch = checkout.seller.sell_batch

    def recorded(game: Game, requests: list[Any]) -> Any:  # the real one, its sizes noted
        sizes.append(len(requests))
        return sell_batch(game, requests)

    checkout.seller.sell_batch = recorded  # type: ignore[method-assign]

    async def attempt(account: Any, key: str) -> dict[str, Any] | ApiError:
        try:
            return await checkout.buy(account, "lab-riches", key)
        except ApiError as error:
            return error

    async def load() -> list[dict[str, Any] | ApiError]:
        calls = [attempt(rich, f"r{n}") for n in range(40)]
        calls += [attempt(rich, "twice"), attempt(rich, "twice")]  # one key, twice at once
        calls += [attempt(poor, f"p{n}") for n in range(8)]
        return await asyncio.gather(*calls)

    answers = in_own_loop(load)
    assert max(sizes) > 1, sizes  # the batcher did gather purchases
    rich_answers, twice, poor_answers = answers[:40], answers[40:42], answers[42:]
    bought_ok = [a for a in rich_answers + twice if isinstance(a, dict)]
    assert len(bought_ok) == 42
    first, again = bought_ok[40:]  # the same key: the same play and token, charged once
    assert (first["play_number"], first["token"]) == (again["play_number"], again["token"])
    sold = [a for a in poor_answers if isinstance(a, dict)]
    refused = [a for a in poor_answers if isinstance(a, ApiError)]
    assert len(sold) == 3 and [e.status for e in refused] == [402] * 5
    # each sale answers the balance its own debit left, as if sold one at a time; of the two
    # answers for one key, the retry's balance is the current one (docs/api.md), read after the
    # sale's debit and so no higher: the sale's own is the higher of the two
    sale_of_twice = max(first["balance_pence"], again["balance_pence"])
    balances = sorted([a["balance_pence"] for a in bought_ok[:40]] + [sale_of_twice])
    assert balances == [100 * PRICE - k * PRICE for k in range(41, 0, -1)]
    numbers = [a["play_number"] for a in bought_ok[:41] + sold]
    assert len(set(numbers)) == len(numbers) == 44
    bought = check_books(services)
    assert bought == {rich.pk: 41, poor.pk: 3}
    assert services.accounts.balance(rich) == 100 * PRICE - 41 * PRICE
    assert services.accounts.balance(poor) == 100


@contextmanager
def endpoint_process(
    tmp_path: Path, pool_dir: Path, database_url: str, **settings: str
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """An endpoint in a uvicorn process of its own, on this test's database, keys and pools
    (the test's app made the pool first), and any other LOTTERY_* `settings`; the process and
    its base URL. Ended (killed if need be) at the block's end."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "LOTTERY_VAR_DIR": str(tmp_path / "var"),  # the same session secret and keys
        "LOTTERY_LIMITS_REQUIRED": "0",  # (tests/endpoint/http/routes/test_sales.py is about it)
        "LOTTERY_POOL_DIR": str(pool_dir),
        "DATABASE_URL": database_url,
        "LOTTERY_WARM_POOLS": "0",
        "LOTTERY_RATE_PER_SECOND": "10000",
        "LOTTERY_RATE_BURST": "10000",
        "LOTTERY_DEMO_BALANCE_PENCE": str(1000 * PRICE),
        # Killed, the endpoint cannot release its hashing process's queues: its multiprocessing
        # resource tracker removes their 5 semaphores and says so ("leaked semaphore objects"),
        # as it should for a process killed on purpose; not said here.
        "PYTHONWARNINGS": "ignore:resource_tracker:UserWarning",
        **settings,
    }
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "web.endpoint.app:create_app",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 30
        while True:
            try:
                httpx.get(f"{base}/api/games", timeout=1)
                break
            except httpx.HTTPError:
                assert time.time() < deadline and server.poll() is None, "no endpoint"
                time.sleep(0.1)
        yield server, base
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)


class Buyers:
    """`count` players, each its own session and connection, buying back to back until
    `stop` (or until the server is gone); `statuses`: every answer's status."""

    def __init__(self, base: str, count: int = 16) -> None:
        self.base = base
        self.statuses: list[int] = []
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._play) for _ in range(count)]
        for thread in self._threads:
            thread.start()

    def _play(self) -> None:
        with httpx.Client(base_url=self.base, timeout=5) as http:
            try:
                credential = http.post("/api/session").json()["token"]
                bearer = {"Authorization": f"Bearer {credential}"}
                while not self._stop.is_set():
                    headers = {**bearer, "Idempotency-Key": secrets.token_hex(8)}
                    answer = http.post("/api/plays", json={"game": "lab-riches"}, headers=headers)
                    self.statuses.append(answer.status_code)
            except httpx.HTTPError:
                return  # the server died under us

    def wait_for(self, answers: int) -> None:
        """Until this many answers have come."""
        deadline = time.time() + 60
        while len(self.statuses) < answers:
            assert time.time() < deadline, "no purchases went through"
            time.sleep(0.01)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=10)


def test_kill_9_mid_load_leaves_whole_sales_only(
    make_app: Callable[..., FastAPI], database_url: str, tmp_path: Path, pool_dir: Path
) -> None:
    app = make_app()
    client = TestClient(app)
    token = session(client)["token"]
    assert buy(client, token).status_code == 201  # the pool is committed and its files saved
    with endpoint_process(tmp_path, pool_dir, database_url) as (server, base):
        buyers = Buyers(base)
        buyers.wait_for(100)
        server.send_signal(signal.SIGKILL)  # mid-load: sales are in flight
        server.wait(timeout=10)
        buyers.stop()
    assert set(buyers.statuses) == {201}
    bought = check_books(app.state.services)
    assert sum(bought.values()) >= 1 + buyers.statuses.count(201)  # every 201 was committed
    assert buy(client, token).status_code == 201  # and the pool sells on


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)  # its sessions
def test_purchases_go_on_when_postgresql_ends_the_endpoint_s_sessions(
    make_app: Callable[..., FastAPI], database_url: str, tmp_path: Path, pool_dir: Path
) -> None:
    """A restarted PostgreSQL (or a failover, or an operator's pg_terminate_backend) ends every
    session of the endpoint while purchases are in flight: each is bought again on a new
    connection (its Idempotency-Key makes that safe), and no player sees an error. Before,
    some got a 500 and lost their keep-alive connection with it."""
    app = make_app()
    client = TestClient(app)
    token = session(client)["token"]
    assert buy(client, token).status_code == 201
    name = "lost_" + secrets.token_hex(4)
    admin = "postgresql://" + database_url.split("://", 1)[1].split("?")[0]
    ended = []
    with endpoint_process(tmp_path, pool_dir, f"{database_url}&application_name={name}") as (
        server,
        base,
    ):
        buyers = Buyers(base)
        for round_number in range(3):
            buyers.wait_for(200 * (round_number + 1))
            with psycopg.connect(admin, autocommit=True) as conn:
                found = conn.execute(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    " WHERE application_name = %s",
                    (name,),
                ).fetchone()
            ended.append(found[0] if found else 0)
        buyers.wait_for(len(buyers.statuses) + 200)  # and it sells on
        buyers.stop()
        assert server.poll() is None
    assert all(ended), ended  # each round ended some of its sessions
    assert set(buyers.statuses) == {201}
    bought = check_books(app.state.services)
    assert sum(bought.values()) == 1 + buyers.statuses.count(201)  # each sold once
