"""The book hash of each play (web/endpoint/sales/hashes.py and its hashing process): made ahead of
the sale or recorded just after it, checked at a recall, a hashing process that dies started
again, a pool whose files cannot be read hashed behind, the process warmed as the app starts.

Real databases (SQLite, and PostgreSQL from DATABASE_URL), real processes."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import signal
import time
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from engine import games
from engine.outcome import Composition
from tests.endpoint.conftest import OPERATOR, buy, in_own_loop, session, started_child
from web.endpoint.sales import hashes, hashing_process
from web.endpoint.sales.hashing_process import HashingProcess, hash_of_row
from web.endpoint.sales.presale_hashes import HASH_BATCH
from web.endpoint.store.schema import plays

PPS = "power-puck-shot"


def test_the_app_hashes_each_sold_play_s_book_and_a_missed_one_at_its_recall(app: FastAPI) -> None:
    with TestClient(app) as client:  # the lifespan runs: its hasher too
        token = session(client)["token"]
        number = buy(client, token).json()["play_number"]
        deadline = time.monotonic() + 30
        while client.get(f"/api/plays/{number}").json()["book_hash"] is None:
            assert time.monotonic() < deadline, "the hasher never recorded the book's hash"
            time.sleep(0.05)
    client = TestClient(app)  # no lifespan now: nothing hashes behind the test's back
    token = session(client)["token"]
    missed = buy(client, token, game=PPS).json()["play_number"]  # a pool not hashed ahead
    client.post(f"/api/plays/{missed}/finish", json={"choices": []})
    assert client.get(f"/api/plays/{missed}").json()["book_hash"] is None
    recalled = client.get(f"/api/plays/{missed}/recall")
    assert recalled.status_code == 200
    assert client.get(f"/api/plays/{missed}").json()["book_hash"] == recalled.json()["book_hash"]


def sources(app: FastAPI) -> hashes.Sources:
    """What the app's hasher works from (app.py)."""
    services, checkout = app.state.services, app.state.services.checkout
    return hashes.Sources(
        services.db, services.pools.selling.rows, checkout.presale, services.pool_cache.path
    )


def test_a_sale_writes_the_book_hash_its_entry_was_given_ahead(app: FastAPI) -> None:
    """The hasher hashes the next entries of each pool the process sells before they are
    sold: their plays are written with their hashes (nothing to read back and record), the
    hashes the recall checks. An entry not reached yet is sold unhashed and hashed after."""
    client = TestClient(app)  # no lifespan: the test takes the hasher's steps itself
    token = session(client)["token"]
    services = app.state.services
    first = buy(client, token).json()["play_number"]  # the pool's first: nothing hashed ahead
    worker = HashingProcess()  # (ends with the thread that starts it: one loop)

    async def twice() -> list[int]:
        return [await hashes.hash_ahead(sources(app), worker) for _ in range(2)]

    try:  # the next HASH_BATCH entries hashed, then none: no sale since
        assert in_own_loop(twice) == [HASH_BATCH, 0]
    finally:
        worker.shutdown()
    ahead = [buy(client, token).json()["play_number"] for _ in range(3)]
    columns = (plays.c.game, plays.c.model, plays.c.composition, plays.c.seed)
    with services.db.begin() as conn:
        rows = conn.execute(
            select(plays.c.play_number, plays.c.book_hash, *columns).order_by(plays.c.id)
        ).all()
    assert [row.play_number for row in rows] == [first, *ahead]
    assert rows[0].book_hash is None and [r[0] for r in hashes.unhashed(services.db)] == [first]
    for row in rows[1:]:
        assert row.book_hash == hash_of_row(*row[2:])
    client.post(f"/api/plays/{ahead[0]}/finish", json={"choices": []})
    recalled = client.get(f"/api/plays/{ahead[0]}/recall")
    assert recalled.status_code == 200 and recalled.json()["book_hash"] == rows[1].book_hash


def test_a_hashing_process_that_dies_is_started_again(
    app: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    """The kernel may kill the hashing process (out of memory): the batch it was building
    fails, another process is started (said in the log, counted in the metrics), and the
    next batch is hashed. A dead process left in place would fail every batch after it, and
    the plays sold from then on would be hashed only at their recall."""
    client = TestClient(app)
    token = session(client)["token"]
    services = app.state.services
    number = buy(client, token).json()["play_number"]  # nothing hashed ahead: unhashed
    before = set(multiprocessing.active_children())
    worker = HashingProcess(on_restart=app.state.services.metrics.hashing_restarts.inc)

    async def steps() -> list[Any]:
        assert await worker.run(len, "ready") == 5  # the process runs
        (child,) = set(multiprocessing.active_children()) - before
        os.kill(child.pid or 0, signal.SIGKILL)
        child.join(timeout=10)
        with pytest.raises(BrokenProcessPool):
            await hashes.hash_behind(services.db, worker)
        return [await hashes.hash_behind(services.db, worker), hashes.unhashed(services.db)]

    try:
        assert in_own_loop(steps) == [1, []]
    finally:
        worker.shutdown()
    assert worker.restarts == 1
    assert set(multiprocessing.active_children()) == before  # the new one ended too
    said = [r.getMessage() for r in caplog.records if "hashing process died" in r.getMessage()]
    assert said == ["the hashing process died; starting another (restart 1)"]
    assert "lottery_hashing_restarts_total 1.0" in client.get("/api/metrics", headers=OPERATOR).text
    detail = client.get(f"/api/plays/{number}").json()
    expected = engine_book_hash(
        "lab-riches", detail["model"], detail["composition"], detail["entry"]["seed"]
    )
    assert detail["book_hash"] == expected


def test_a_pool_whose_files_cannot_be_read_is_hashed_behind(
    app: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    """Hashing ahead reads the pool's files (this process's cache of the database's pool);
    when they cannot be read (damaged: a missing cache is written again from the pool) it says
    so once and leaves the pool's plays to hashing behind, which reads their rows."""
    client = TestClient(app)
    token = session(client)["token"]
    services = app.state.services
    number = buy(client, token).json()["play_number"]
    (pool,) = services.pools.selling.rows()
    entries = services.pool_cache.path(pool.pool_id) / "entries.bin"
    whole = entries.read_bytes()
    entries.write_bytes(whole[:-2])  # an entry short of its commitment
    worker = HashingProcess()  # (ends with the thread that starts it: one loop)

    async def steps() -> list[int]:
        ahead = [await hashes.hash_ahead(sources(app), worker) for _ in range(2)]
        return [*ahead, await hashes.hash_behind(services.db, worker)]

    try:
        assert in_own_loop(steps) == [0, 0, 1]
    finally:
        worker.shutdown()
        entries.write_bytes(whole)
    warnings = [r.getMessage() for r in caplog.records if "not hashing ahead" in r.getMessage()]
    assert len(warnings) == 1 and pool.pool_id in warnings[0], warnings
    detail = client.get(f"/api/plays/{number}").json()
    expected = engine_book_hash(
        "lab-riches", detail["model"], detail["composition"], detail["entry"]["seed"]
    )
    assert detail["book_hash"] == expected


def test_the_hashing_process_is_warmed_as_the_app_starts(app: FastAPI) -> None:
    """The lifespan starts the hashing process with one book of each game on sale built
    (`hashing_process.warm`), so the first sales find it running, not starting."""
    with TestClient(app):
        started_child("book-hashing")
    hashing_process.warm()  # what it runs, here: raises if a game's book cannot be built


def engine_book_hash(game: str, model: str, composition: Any, seed: str) -> str:
    book = games.get(game).book(model, Composition.from_json(composition), bytes.fromhex(seed))
    return hashlib.sha256(book.to_json().encode()).hexdigest()
