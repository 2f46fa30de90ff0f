"""The player's side (web/endpoint/routes/player.py and routes/plays.py, limits.py): spend
limits, settlement and the settle command, the test clock, progress and choices, recall,
sign-in codes and TRY mode.

Real databases (SQLite, and PostgreSQL from DATABASE_URL), real signatures, real subprocesses.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from engine import games
from engine.outcome import Composition
from engine.payload import Payload
from tests.endpoint.conftest import OPERATOR, Clock, bearer, buy, in_own_loop, serve, session
from web.endpoint import hashes, hashing_process, limits, tokens
from web.endpoint.hashing_process import HashingProcess, hash_of_row
from web.endpoint.presale_hashes import HASH_BATCH
from web.endpoint.schema import accounts, plays, pools, transactions, try_plays
from web.endpoint.times import iso

ROOT = Path(__file__).resolve().parents[2]
DAY = 24 * 3600
PPS = "power-puck-shot"


def put_limits(client: TestClient, token: str, **body: Any) -> httpx.Response:
    return client.put("/api/limits", json=body, headers=bearer(token))  # type: ignore[return-value]


def purchase_sum(app: FastAPI, public_id: str, since_ms: int) -> int:
    """The stakes (purchase transactions) of an account since a time, from the ledger."""
    with app.state.services.ledger.db.begin() as conn:
        pk = conn.execute(select(accounts.c.id).where(accounts.c.public_id == public_id)).scalar()
        total = conn.execute(
            select(func.coalesce(func.sum(-transactions.c.amount_pence), 0)).where(
                transactions.c.account_id == pk,
                transactions.c.kind == "purchase",
                transactions.c.created_at >= since_ms,
            )
        ).scalar_one()
    return int(total)


# -- spend limits ----------------------------------------------------------------------------


def ms(text: str) -> int:
    """An ISO 8601 time of an answer as epoch milliseconds."""
    return round(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


def test_periods_are_the_utc_day_and_the_iso_week() -> None:
    moment = int(datetime(2026, 5, 14, 15, 30, tzinfo=UTC).timestamp() * 1000)  # a Thursday
    assert limits.day_start(moment) == int(datetime(2026, 5, 14, tzinfo=UTC).timestamp() * 1000)
    monday = int(datetime(2026, 5, 11, tzinfo=UTC).timestamp() * 1000)
    assert limits.week_start(moment) == monday
    assert limits.week_start(monday) == monday and limits.week_start(monday - 1) == monday - (
        7 * limits.DAY_MS
    )


def test_no_limits_at_first(client: TestClient, clock: Clock) -> None:
    token = session(client)["token"]
    got = client.get("/api/limits", headers=bearer(token)).json()
    now = int(clock() * 1000)
    assert got["daily"] == {
        "limit_pence": None,
        "spent_pence": 0,
        "left_pence": None,
        "resets_at": iso(limits.day_start(now) + limits.DAY_MS),
        "pending": None,
    }
    assert got["weekly"]["resets_at"] == iso(limits.week_start(now) + limits.WEEK_MS)
    assert TestClient(client.app).get("/api/limits").status_code == 401


def test_a_daily_limit_refuses_before_charging(app: FastAPI, client: TestClient) -> None:
    me = session(client)
    token = me["token"]
    assert put_limits(client, token, daily_pence=700).json()["daily"]["limit_pence"] == 700
    assert buy(client, token).status_code == 201
    assert buy(client, token).status_code == 201
    refused = buy(client, token)
    assert refused.status_code == 403
    error = refused.json()["error"]
    assert error["code"] == "limit_reached" and error["period"] == "daily"
    assert error["left_pence"] == 100
    state = client.get("/api/limits", headers=bearer(token)).json()
    assert error["resets_at"] == state["daily"]["resets_at"]
    assert state["daily"]["spent_pence"] == 600 == state["weekly"]["spent_pence"]
    assert state["daily"]["left_pence"] == 100 and state["weekly"]["left_pence"] is None
    assert client.get("/api/wallet", headers=bearer(token)).json()["balance_pence"] == 4_400
    with app.state.services.ledger.db.begin() as conn:
        assert conn.execute(select(func.count()).select_from(plays)).scalar_one() == 2
    assert purchase_sum(app, me["account"], ms(state["daily"]["resets_at"]) - limits.DAY_MS) == 600


def test_an_idempotent_retry_at_the_limit_returns_the_same_play(client: TestClient) -> None:
    token = session(client)["token"]
    put_limits(client, token, weekly_pence=300)
    first = buy(client, token, key="once")
    assert first.status_code == 201
    again = buy(client, token, key="once")
    assert again.status_code == 201 and again.json()["play_number"] == first.json()["play_number"]
    refused = buy(client, token)
    assert refused.status_code == 403 and refused.json()["error"]["period"] == "weekly"


def test_raising_waits_a_day_and_lowering_is_at_once(client: TestClient, clock: Clock) -> None:
    clock.now = datetime(2026, 5, 12, 10, tzinfo=UTC).timestamp()  # a Tuesday: one ISO week
    token = session(client)["token"]
    put_limits(client, token, daily_pence=300, weekly_pence=900)
    raised = put_limits(client, token, daily_pence=900).json()
    now = int(clock() * 1000)
    assert raised["daily"]["limit_pence"] == 300
    assert raised["daily"]["pending"] == {"limit_pence": 900, "effective_at": iso(now + DAY * 1000)}
    assert raised["weekly"]["limit_pence"] == 900  # omitted: unchanged
    assert buy(client, token).status_code == 201
    assert buy(client, token).status_code == 403  # the raise is not in force yet
    # a lowering cancels the pending raise and is in force at once
    lowered = put_limits(client, token, daily_pence=200).json()["daily"]
    assert lowered["limit_pence"] == 200 and lowered["pending"] is None
    removed = put_limits(client, token, daily_pence=None).json()["daily"]
    assert removed["limit_pence"] == 200 and removed["pending"]["limit_pence"] is None
    clock.advance(DAY - 10)
    assert buy(client, token).status_code == 403
    clock.advance(20)  # the removal is in force (and a new UTC day may have begun)
    state = client.get("/api/limits", headers=bearer(token)).json()
    assert state["daily"]["limit_pence"] is None and state["daily"]["pending"] is None
    assert buy(client, token).status_code == 201  # weekly 900 still holds: 600 spent
    assert buy(client, token).status_code == 201
    weekly = buy(client, token)
    assert weekly.status_code == 403 and weekly.json()["error"]["period"] == "weekly"
    assert weekly.json()["error"]["left_pence"] == 0


def test_the_day_resets_the_daily_spend(client: TestClient, clock: Clock) -> None:
    token = session(client)["token"]
    put_limits(client, token, daily_pence=300)
    assert buy(client, token).status_code == 201
    refused = buy(client, token).json()["error"]
    assert refused["left_pence"] == 0
    clock.advance(ms(refused["resets_at"]) / 1000 - clock() + 0.001)
    assert client.get("/api/limits", headers=bearer(token)).json()["daily"]["spent_pence"] == 0
    assert buy(client, token).status_code == 201


@pytest.mark.parametrize("body", [{"daily_pence": -1}, {"daily_pence": "5"}, {"x": 1}])
def test_limits_of_the_wrong_shape_are_422(client: TestClient, body: dict[str, Any]) -> None:
    token = session(client)["token"]
    answer = put_limits(client, token, **body)
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "invalid_request"


def test_limits_hold_under_concurrent_purchases(app: FastAPI) -> None:
    """32 purchases at once (PostgreSQL: the batched and pipelined paths) never overshoot."""
    with serve(app) as base, httpx.Client(base_url=base, timeout=30) as http:
        token = http.post("/api/session").json()["token"]
        other = http.post("/api/session").json()["token"]
        http.put("/api/limits", json={"daily_pence": 1_500}, headers=bearer(token))
        statuses: list[int] = []

        def one(who: str) -> None:
            headers = {**bearer(who), "Idempotency-Key": os.urandom(8).hex()}
            with httpx.Client(base_url=base, timeout=30) as c:
                answer = c.post("/api/plays", json={"game": "lab-riches"}, headers=headers)
            if who == token:
                statuses.append(answer.status_code)
            else:
                assert answer.status_code == 201

        threads = [threading.Thread(target=one, args=(token,)) for _ in range(24)]
        threads += [threading.Thread(target=one, args=(other,)) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(statuses) == [201] * 5 + [403] * 19
        state = http.get("/api/limits", headers=bearer(token)).json()["daily"]
        assert state["spent_pence"] == 1_500 and state["left_pence"] == 0
        assert http.get("/api/wallet", headers=bearer(token)).json()["balance_pence"] == 3_500


# -- settlement, the settle command, the test clock ------------------------------------------


def settle_command(url: str, env: dict[str, str]) -> subprocess.Popen[str]:
    command = [sys.executable, "build.py", "settle", "--database-url", url, "--json"]
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def test_settle_command_credits_each_overdue_play_once(
    make_app: Callable[..., FastAPI], tmp_path: Path
) -> None:
    app = make_app(test_mode=True)
    client = TestClient(app)
    token = session(client)["token"]
    numbers = [buy(client, token).json()["play_number"] for _ in range(4)]
    prizes = {n: client.get(f"/api/plays/{n}").json()["prize_pence"] for n in numbers}
    client.post(f"/api/plays/{numbers[0]}/finish")
    env = {**os.environ, "LOTTERY_TEST_MODE": "1", "PYTHONPATH": str(ROOT)}
    url = app.state.services.ledger.db.url
    early = settle_command(url, env)
    out, err = early.communicate(timeout=120)
    assert early.returncode == 0, err
    assert json.loads(out.strip().splitlines()[-1])["settled"] == 0  # nothing overdue yet
    moved = client.post("/api/test/clock", json={"advance_ms": DAY * 1000 + 60_000})
    assert moved.status_code == 200 and moved.json()["offset_ms"] == DAY * 1000 + 60_000
    runs = [settle_command(url, env) for _ in range(2)]  # two settlers at once
    counts = []
    for run in runs:
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
        counts.append(json.loads(out.strip().splitlines()[-1])["settled"])
    assert sum(counts) == 3
    with app.state.services.ledger.db.begin() as conn:
        credited = conn.execute(
            select(transactions.c.play_number, func.count())
            .where(transactions.c.kind == "prize")
            .group_by(transactions.c.play_number)
        ).all()
    assert {n: c for n, c in credited} == {n: 1 for n in numbers if prizes[n] > 0}
    listed = client.get("/api/plays").json()["plays"]
    by = {p["play_number"]: p["finished_by"] for p in listed}
    assert by == {numbers[0]: "player", **{n: "auto" for n in numbers[1:]}}
    assert all(p["status"] == "finished" and p["price_pence"] == 300 for p in listed)
    balance = client.get("/api/wallet").json()["balance_pence"]
    assert balance == 5_000 - 4 * 300 + sum(prizes.values())
    again = settle_command(url, env)
    out, _ = again.communicate(timeout=120)
    assert json.loads(out.strip().splitlines()[-1])["settled"] == 0


def test_the_test_clock_exists_only_in_test_mode(client: TestClient) -> None:
    token = session(client)["token"]
    answer = client.post("/api/test/clock", json={"advance_ms": 1}, headers=bearer(token))
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"


# -- progress and choices --------------------------------------------------------------------


def test_progress_resumes_on_another_device(app: FastAPI) -> None:
    phone, laptop, stranger = TestClient(app), TestClient(app), TestClient(app)
    token = session(phone)["token"]
    session(stranger)
    number = buy(phone, token, game=PPS).json()["play_number"]
    url = f"/api/plays/{number}/progress"
    saved = phone.put(url, json={"event": 3, "choices": [1]})
    assert saved.status_code == 200
    assert saved.json() == {"play_number": number, "event": 3, "choices": [1]}
    assert phone.put(url, json={"event": 2, "choices": []}).json()["event"] == 3  # not back
    conflict = phone.put(url, json={"event": 4, "choices": [2]})
    assert conflict.status_code == 409 and conflict.json()["error"]["code"] == "choices_conflict"
    assert phone.put(url, json={"event": 5, "choices": [1, 4]}).json()["choices"] == [1, 4]
    for bad in ({"event": 1, "choices": [6]}, {"event": 10_001}, {"event": 1, "choices": [0] * 65}):
        assert phone.put(url, json=bad).status_code == 422
    assert stranger.put(url, json={"event": 1}).status_code == 404
    resumed = laptop.get(f"/api/plays/{number}", headers=bearer(token)).json()
    assert resumed["progress"] == {"event": 5, "choices": [1, 4]}
    final = laptop.post(
        f"/api/plays/{number}/finish", json={"choices": [1, 4, 0]}, headers=bearer(token)
    )
    assert final.status_code == 200 and final.json()["status"] == "finished"
    repeat = laptop.post(
        f"/api/plays/{number}/finish", json={"choices": [1, 4, 0]}, headers=bearer(token)
    )
    assert repeat.json() == final.json()
    changed = laptop.post(
        f"/api/plays/{number}/finish", json={"choices": [1, 4, 0, 2]}, headers=bearer(token)
    )
    assert changed.status_code == 409
    after = phone.put(url, json={"event": 9, "choices": [1, 4, 0]})
    assert after.status_code == 409 and after.json()["error"]["code"] == "play_finished"
    assert phone.get(f"/api/plays/{number}").json()["progress"]["choices"] == [1, 4, 0]


def test_lab_riches_takes_no_choices(client: TestClient) -> None:
    token = session(client)["token"]
    number = buy(client, token).json()["play_number"]
    refused = client.put(f"/api/plays/{number}/progress", json={"event": 1, "choices": [0]})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "invalid_choices"
    assert client.put(f"/api/plays/{number}/progress", json={"event": 7}).json()["event"] == 7
    bad = client.post(
        f"/api/plays/{number}/finish", content=b"{", headers={"content-type": "application/json"}
    )
    assert bad.status_code == 400


def test_progress_of_an_overdue_play_settles_it(client: TestClient, clock: Clock) -> None:
    token = session(client)["token"]
    number = buy(client, token).json()["play_number"]
    clock.advance(DAY + 1)
    late = client.put(f"/api/plays/{number}/progress", json={"event": 1})
    assert late.status_code == 409 and late.json()["error"]["code"] == "play_finished"
    assert client.get(f"/api/plays/{number}").json()["finished_by"] == "auto"


# -- the book hash and recall ----------------------------------------------------------------


def engine_book_hash(game: str, model: str, composition: Any, seed: str) -> str:
    book = games.get(game).book(model, Composition.from_json(composition), bytes.fromhex(seed))
    return hashlib.sha256(book.to_json().encode()).hexdigest()


@pytest.mark.parametrize("game", ["lab-riches", PPS])
def test_recall_checks_the_book_recorded_at_purchase(app: FastAPI, game: str) -> None:
    client, stranger = TestClient(app), TestClient(app)
    token = session(client)["token"]
    session(stranger)
    number = buy(client, token, game=game).json()["play_number"]
    assert client.get(f"/api/plays/{number}").json()["book_hash"] is None  # no hasher yet
    assert (
        hashes.fill_all(app.state.services.ledger.db) >= 1
    )  # the hasher's round, as the app runs it
    detail = client.get(f"/api/plays/{number}").json()
    expected = engine_book_hash(
        game, detail["model"], detail["composition"], detail["entry"]["seed"]
    )
    assert detail["book_hash"] == expected
    assert hashes.fill(app.state.services.ledger.db) == 0  # nothing left to hash
    early = client.get(f"/api/plays/{number}/recall")
    assert early.status_code == 409 and early.json()["error"]["code"] == "play_unfinished"
    choices = [3] if game == PPS else []
    client.post(f"/api/plays/{number}/finish", json={"choices": choices})
    recalled = client.get(f"/api/plays/{number}/recall")
    assert recalled.status_code == 200
    body = recalled.json()
    assert set(body) == {
        "play_number", "game", "model", "status", "finished_by", "prize_pence", "price_pence",
        "composition", "seed", "token", "choices", "book_hash", "purchased_at", "finished_at",
    }  # fmt: skip
    assert body["book_hash"] == expected and body["choices"] == choices
    assert body["finished_by"] == "player" and body["seed"] == detail["entry"]["seed"]
    assert body["price_pence"] == games.get(game).price_pence
    now = client.get(f"/api/plays/{number}").json()  # times in ISO 8601, as in play detail
    assert (body["purchased_at"], body["finished_at"]) == (now["purchased_at"], now["finished_at"])
    assert body["finished_at"] >= body["purchased_at"] == detail["purchased_at"]
    assert stranger.get(f"/api/plays/{number}/recall").status_code == 404
    with app.state.services.ledger.db.begin() as conn:  # tamper with the ledger's entry
        seed = body["seed"]
        forged = ("0" if seed[0] != "0" else "1") + seed[1:]
        conn.execute(update(plays).where(plays.c.play_number == number).values(seed=forged))
    tampered = client.get(f"/api/plays/{number}/recall")
    assert tampered.status_code == 409 and tampered.json()["error"]["code"] == "book_mismatch"
    top = games.get(game).table.as_json()["tiers"][-1]["compositions"][0]["parts"]
    forged_composition = [] if body["composition"] == top else top  # another real outcome
    with app.state.services.ledger.db.begin() as conn:
        conn.execute(
            update(plays)
            .where(plays.c.play_number == number)
            .values(seed=seed, composition=json.dumps(forged_composition))
        )
    assert client.get(f"/api/plays/{number}/recall").json()["error"]["code"] == "book_mismatch"


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
    ledger, checkout = app.state.services.ledger, app.state.services.checkout
    return hashes.Sources(ledger.db, ledger.selling.rows, checkout.presale, ledger.pool_cache.path)


def test_a_sale_writes_the_book_hash_its_entry_was_given_ahead(app: FastAPI) -> None:
    """The hasher hashes the next entries of each pool the process sells before they are
    sold: their plays are written with their hashes (nothing to read back and record), the
    hashes the recall checks. An entry not reached yet is sold unhashed and hashed after."""
    client = TestClient(app)  # no lifespan: the test takes the hasher's steps itself
    token = session(client)["token"]
    ledger = app.state.services.ledger
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
    with ledger.db.begin() as conn:
        rows = conn.execute(
            select(plays.c.play_number, plays.c.book_hash, *columns).order_by(plays.c.id)
        ).all()
    assert [row.play_number for row in rows] == [first, *ahead]
    assert rows[0].book_hash is None and [r[0] for r in hashes.unhashed(ledger.db)] == [first]
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
    ledger = app.state.services.ledger
    number = buy(client, token).json()["play_number"]  # nothing hashed ahead: unhashed
    before = set(multiprocessing.active_children())
    worker = HashingProcess(on_restart=app.state.services.metrics.hashing_restarts.inc)

    async def steps() -> list[Any]:
        assert await worker.run(len, "ready") == 5  # the process runs
        (child,) = set(multiprocessing.active_children()) - before
        os.kill(child.pid or 0, signal.SIGKILL)
        child.join(timeout=10)
        with pytest.raises(BrokenProcessPool):
            await hashes.hash_behind(ledger.db, worker)
        return [await hashes.hash_behind(ledger.db, worker), hashes.unhashed(ledger.db)]

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
    ledger = app.state.services.ledger
    number = buy(client, token).json()["play_number"]
    (pool,) = ledger.selling.rows()
    entries = ledger.pool_cache.path(pool.pool_id) / "entries.bin"
    whole = entries.read_bytes()
    entries.write_bytes(whole[:-2])  # an entry short of its commitment
    worker = HashingProcess()  # (ends with the thread that starts it: one loop)

    async def steps() -> list[int]:
        ahead = [await hashes.hash_ahead(sources(app), worker) for _ in range(2)]
        return [*ahead, await hashes.hash_behind(ledger.db, worker)]

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
    before = set(multiprocessing.active_children())
    with TestClient(app):
        deadline = time.monotonic() + 30
        while not set(multiprocessing.active_children()) - before:
            assert time.monotonic() < deadline, "no hashing process was started"
            time.sleep(0.05)
    hashing_process.warm()  # what it runs, here: raises if a game's book cannot be built


def test_recall_of_an_auto_settled_play(client: TestClient, clock: Clock) -> None:
    token = session(client)["token"]
    number = buy(client, token).json()["play_number"]
    clock.advance(DAY + 1)
    recalled = client.get(f"/api/plays/{number}/recall")
    assert recalled.status_code == 200 and recalled.json()["finished_by"] == "auto"


# -- one-time sign-in codes ------------------------------------------------------------------


def test_a_code_signs_the_account_in_once(app: FastAPI, clock: Clock) -> None:
    phone, laptop = TestClient(app), TestClient(app)
    me = session(phone)
    buy(phone, me["token"])
    made = phone.post("/api/account/code")
    assert made.status_code == 201
    code = made.json()["code"]
    assert len(code) == 9 and code[4] == "-"
    assert all(c in "ABCDEFGHJKLMNPQRSTUVWXYZ23456789" for c in code.replace("-", ""))
    assert made.json()["expires_at"] == iso(int(clock() * 1000) + 600_000)
    signed = laptop.post("/api/session", json={"code": code.lower()})
    assert signed.status_code == 201
    assert signed.json()["account"] == me["account"] and signed.json()["balance_pence"] == 4_700
    assert laptop.get("/api/wallet").json()["balance_pence"] == 4_700  # the cookie works
    assert [p["play_number"] for p in laptop.get("/api/plays").json()["plays"]]
    used = TestClient(app).post("/api/session", json={"code": code})
    assert used.status_code == 401 and used.json()["error"]["code"] == "invalid_code"
    with app.state.services.ledger.db.begin() as conn:
        stored = conn.execute(select(func.count()).select_from(accounts)).scalar_one()
        assert stored == 1
    late = phone.post("/api/account/code").json()["code"]
    clock.advance(601)
    assert TestClient(app).post("/api/session", json={"code": late}).status_code == 401
    for junk in ("", "AAAA-AAAA", "x" * 32):
        assert TestClient(app).post("/api/session", json={"code": junk}).status_code == 401
    assert TestClient(app).post("/api/session", json={"cod": "x"}).status_code == 422
    fresh = TestClient(app).post("/api/session")
    assert fresh.status_code == 201 and fresh.json()["account"] != me["account"]
    assert TestClient(app).post("/api/account/code").status_code == 401


def test_code_attempts_are_rate_limited(make_app: Callable[..., FastAPI]) -> None:
    app = make_app(rate_per_second=0.001, rate_burst=3)
    client = TestClient(app)
    answers = [
        client.post("/api/session", json={"code": "AAAA-AAAA"}).status_code for _ in range(4)
    ]
    assert answers == [401, 401, 401, 429]


# -- TRY mode --------------------------------------------------------------------------------


def test_a_try_play_is_free_and_no_play_of_the_ledger(app: FastAPI) -> None:
    client = TestClient(app)
    me = session(client)
    tried = client.post("/api/try", json={"game": PPS})
    assert tried.status_code == 201
    body = tried.json()
    assert set(body) == {"token", "play_number"}
    payload = tokens.verify(app.state.services.ledger.ring, body["token"])
    read = Payload.from_json(payload)
    assert read.mode == "try" and read.account == me["account"] and read.game == PPS
    assert payload["play_number"] == body["play_number"]
    assert client.get("/api/wallet").json()["balance_pence"] == 5_000
    assert client.get("/api/plays").json()["plays"] == []
    number = body["play_number"]
    assert client.post(f"/api/plays/{number}/finish").status_code == 404
    assert client.get(f"/api/plays/{number}/recall").status_code == 404
    assert client.put(f"/api/plays/{number}/progress", json={"event": 1}).status_code == 404
    anonymous = TestClient(app).post("/api/try", json={"game": "lab-riches"})
    assert anonymous.status_code == 201
    anon = Payload.from_json(
        tokens.verify(app.state.services.ledger.ring, anonymous.json()["token"])
    )
    assert anon.mode == "try" and anon.account == "anonymous"
    with app.state.services.ledger.db.begin() as conn:
        kinds = dict(conn.execute(select(pools.c.id, pools.c.kind)).all())
        assert conn.execute(select(func.count()).select_from(plays)).scalar_one() == 0
        kinds_of_tx = conn.execute(select(transactions.c.kind)).scalars().all()
        tried_rows = conn.execute(select(try_plays.c.play_number, try_plays.c.pool_ref)).all()
    assert kinds_of_tx == ["grant"]
    assert {n for n, _ in tried_rows} == {number, anonymous.json()["play_number"]}
    assert all(kinds[ref] == "try" for _, ref in tried_rows)
    # a purchase afterwards draws from the paid pool, not the try pool
    assert buy(client, me["token"], game=PPS).status_code == 201
    with app.state.services.ledger.db.begin() as conn:
        ref = conn.execute(select(plays.c.pool_ref)).scalar_one()
        assert conn.execute(select(pools.c.kind).where(pools.c.id == ref)).scalar_one() == "paid"
    assert client.post("/api/try", json={"game": "nope"}).status_code == 404
    assert client.post("/api/try", json={"game": PPS, "x": 1}).status_code == 422
    forged = client.post("/api/try", json={"game": PPS}, headers={"Authorization": "Bearer x"})
    assert forged.status_code == 401


def test_paid_tokens_carry_no_mode(client: TestClient, app: FastAPI) -> None:
    token = session(client)["token"]
    bought = buy(client, token).json()
    payload = tokens.verify(app.state.services.ledger.ring, bought["token"])
    assert "mode" not in payload and Payload.from_json(payload).mode is None
    assert Payload.from_json(payload).to_json() == payload


def test_a_finish_and_a_session_take_an_empty_object_as_before(client: TestClient) -> None:
    """Shells and API clients from before choices and sign-in codes send {}: still fine."""
    made = client.post("/api/session", json={})
    assert made.status_code == 201 and made.json()["balance_pence"] == 5_000
    token = made.json()["token"]
    number = buy(client, token).json()["play_number"]
    done = client.post(f"/api/plays/{number}/finish", json={}, headers=bearer(token))
    assert done.status_code == 200 and done.json()["status"] == "finished"
    for bad in ({"choices": "x"}, {"other": 1}):
        refused = client.post(f"/api/plays/{number}/finish", json=bad, headers=bearer(token))
        assert refused.status_code == 422
