"""Settlement (web/endpoint/sales/settlement.py): the settle command (`build.py settle`) crediting
each overdue play once, two settlers at once, beside a play its player finished."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tests.endpoint.conftest import buy, session
from web.endpoint.store.schema import transactions

DAY = 24 * 3600
ROOT = Path(__file__).resolve().parents[3]


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
    url = app.state.services.db.url
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
    with app.state.services.db.begin() as conn:
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
