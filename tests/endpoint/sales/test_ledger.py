"""The ledger under load: parallel purchases on one pool, exact balances (the pools turning
over: tests/endpoint/pools/test_pools.py)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tests.endpoint.conftest import buy, serve, session
from web.endpoint.store.schema import accounts, plays, pools, transactions

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
    with first.state.services.db.begin() as conn:
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
