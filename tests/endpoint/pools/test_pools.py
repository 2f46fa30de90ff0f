"""The games' pools (web/endpoint/pools/pools.py): a spent pool followed by a new one committed
first, the next laid out ahead, and each game's pool locks pinned."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from types import ModuleType

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from engine import games
from engine.games import load_table
from tests.endpoint.conftest import buy, session
from web.endpoint.pools.pools import PoolKind, pool_lock
from web.endpoint.store.database import MIGRATION_LOCK
from web.endpoint.store.schema import plays, pools
from web.endpoint.testmode.clock import CLOCK_LOCK


def test_a_spent_pool_is_followed_by_a_new_one_committed_first(
    make_app: Callable[..., FastAPI],
) -> None:
    app = make_app()
    client = TestClient(app)
    token = session(client)["token"]
    first = buy(client, token).json()
    size = load_table("lab-riches").base_pool_size
    with app.state.services.db.begin() as conn:  # sell the rest of the pool in one stroke
        conn.execute(update(pools).values(next_index=size))
    second = buy(client, token)
    assert second.status_code == 201, second.text
    with app.state.services.db.begin() as conn:
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
    with app.state.services.db.begin() as conn:
        conn.execute(update(pools).values(next_index=size - size // 50))
    buy(client, token)  # this sale leaves 1/50 of the pool: the spare is laid out meanwhile
    spares = app.state.services.pool_cache._spares
    deadline = time.time() + 120
    while "lab-riches" not in spares:
        assert time.time() < deadline, "no spare pool was laid out"
        time.sleep(0.1)
    spare = spares["lab-riches"].pool_id
    with app.state.services.db.begin() as conn:
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
