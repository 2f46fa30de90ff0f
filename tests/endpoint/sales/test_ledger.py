"""The ledger under load: parallel purchases on one pool, exact balances, pool turnover."""

from __future__ import annotations

import dataclasses
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from types import ModuleType

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from engine import games
from engine.games import load_table
from tests.endpoint.conftest import buy, serve, session
from web.endpoint.pools.pools import PoolKind, pool_lock
from web.endpoint.store.database import MIGRATION_LOCK
from web.endpoint.store.schema import accounts, plays, pools, transactions
from web.endpoint.testmode.clock import CLOCK_LOCK

PRICE = 300


def player(base: str, buys: int, token: str | None = None) -> tuple[str, list[int]]:
    """One client: a session (unless given), then `buys` purchases; returns token and statuses."""
    with httpx.Client(base_url=base, timeout=30) as http:
        if token is None:
            token = http.post("/api/session").json()["token"]
        statuses = []
        for _ in range(buys):
            headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": secrets.token_hex(8)}
            response = http.post("/api/plays", json={"game": "lab-riches"}, headers=headers)
            statuses.append(response.status_code)
        return token, statuses


def test_200_parallel_purchases_on_one_pool(make_app: Callable[..., FastAPI]) -> None:
    # Two apps on one database stand for two endpoint processes.
    first, second = make_app(), make_app()
    TestClient(first).post("/api/session")  # lay out and commit the pool once
    warm = TestClient(first)
    buy(warm, session(warm)["token"])
    with ExitStack() as stack:
        urls = [stack.enter_context(serve(first)), stack.enter_context(serve(second))]
        with ThreadPoolExecutor(max_workers=20) as workers:
            runs = list(workers.map(lambda n: player(urls[n % 2], 10), range(20)))
            shared = TestClient(first).post("/api/session").json()["token"]
            # one account, balance for 16 plays, 4 clients trying 6 each at once
            racing = list(workers.map(lambda n: player(urls[n % 2], 6, shared)[1], range(4)))
    assert all(statuses == [201] * 10 for _, statuses in runs)
    raced = [s for statuses in racing for s in statuses]
    assert raced.count(201) == 16 and raced.count(402) == 8
    with first.state.services.ledger.db.begin() as conn:
        entries = conn.execute(select(plays.c.pool_ref, plays.c.pool_index)).all()
        assert len(entries) == 1 + 200 + 16
        assert len(set(entries)) == len(entries)
        pool = conn.execute(select(pools)).one()
        assert pool.next_index == len(entries)
        assert {i for _, i in entries} == set(range(len(entries)))
        balances = dict(conn.execute(select(accounts.c.id, accounts.c.balance_pence)).all())
        sums = dict(
            conn.execute(
                select(transactions.c.account_id, func.sum(transactions.c.amount_pence)).group_by(
                    transactions.c.account_id
                )
            ).all()
        )
        bought = dict(
            conn.execute(
                select(plays.c.account_id, func.count()).group_by(plays.c.account_id)
            ).all()
        )
    assert balances == sums
    for account, balance in balances.items():
        assert balance == 5_000 - PRICE * bought.get(account, 0)


def test_a_spent_pool_is_followed_by_a_new_one_committed_first(
    make_app: Callable[..., FastAPI],
) -> None:
    app = make_app()
    client = TestClient(app)
    token = session(client)["token"]
    first = buy(client, token).json()
    size = load_table("lab-riches").base_pool_size
    with app.state.services.ledger.db.begin() as conn:  # sell the rest of the pool in one stroke
        conn.execute(update(pools).values(next_index=size))
    second = buy(client, token)
    assert second.status_code == 201, second.text
    with app.state.services.ledger.db.begin() as conn:
        rows = conn.execute(select(pools).order_by(pools.c.id)).all()
        sale = conn.execute(
            select(plays.c.purchased_at).where(plays.c.play_number == second.json()["play_number"])
        ).scalar_one()
    assert len(rows) == 2 and rows[0].pool_id != rows[1].pool_id
    assert rows[1].created_at <= sale and rows[1].next_index == 1
    detail = client.get(f"/api/plays/{second.json()['play_number']}").json()
    assert detail["pool"]["id"] == rows[1].pool_id and detail["entry"]["index"] == 0
    assert client.get("/api/pools/lab-riches").json()["pool_id"] == rows[1].pool_id
    assert client.get(f"/api/plays/{first['play_number']}").json()["pool"]["id"] == rows[0].pool_id


def test_the_next_pool_is_laid_out_ahead_and_used_when_one_is_spent(
    make_app: Callable[..., FastAPI],
) -> None:
    app = make_app()
    client = TestClient(app)
    token = session(client)["token"]
    buy(client, token)
    size = load_table("lab-riches").base_pool_size
    with app.state.services.ledger.db.begin() as conn:
        conn.execute(update(pools).values(next_index=size - size // 50))
    buy(client, token)  # this sale leaves 1/50 of the pool: the spare is laid out meanwhile
    spares = app.state.services.ledger.pool_cache._spares
    deadline = time.time() + 120
    while "lab-riches" not in spares:
        assert time.time() < deadline, "no spare pool was laid out"
        time.sleep(0.1)
    spare = spares["lab-riches"].pool_id
    with app.state.services.ledger.db.begin() as conn:
        conn.execute(update(pools).values(next_index=size))
    buy(client, token)
    assert client.get("/api/pools/lab-riches").json()["pool_id"] == spare


def test_a_games_pool_locks_stay_put_when_games_are_inserted_or_reordered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Old and new processes of a rolling deploy must take the same lock for a game's pools,
    so the number is the game's own: inserting a game, or reordering the registry, moves none."""
    before = {(game, kind): pool_lock(game, kind) for game in games.ids() for kind in PoolKind}
    rules = ModuleType("rules")
    rules.GAME_ID = "a-new-game"  # type: ignore[attr-defined]
    added = dataclasses.replace(games.GAMES[0], rules=rules)
    reordered = (added, *reversed(games.GAMES))
    monkeypatch.setattr(games, "GAMES", reordered)
    monkeypatch.setattr(games, "BY_ID", {game.id: game for game in reordered})
    after = {(game, kind): pool_lock(game, kind) for game, kind in before}
    assert after == before
    everyone = [pool_lock(game, kind) for game in games.ids() for kind in PoolKind]
    assert len(set(everyone)) == len(everyone)  # no two games, or kinds, share one
    assert not {MIGRATION_LOCK, CLOCK_LOCK} & set(everyone)
    assert all(-(2**63) <= lock < 2**63 for lock in everyone)  # PostgreSQL's bigint


def test_pool_lock_numbers_are_pinned() -> None:
    """Changing how the number is made would split a rolling deploy just as an index did."""
    assert [pool_lock("lab-riches"), pool_lock("lab-riches", "try")] == [
        657_644_465_200_106_458,
        435_224_402_093_475_806,
    ]
