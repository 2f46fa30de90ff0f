"""After purchase (web/endpoint/plays.py): each game's choice range from its declared contract,
on progress and finish; the settle command (`build.py settle`) crediting each overdue play
once, two settlers at once. (The routes: tests/endpoint/routes/test_plays.py; test mode's
steering of a purchase: tests/endpoint/routes/test_testing.py.)"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from engine import games
from engine.game import Action, Game
from tests.endpoint.conftest import buy, session
from web.endpoint import plays
from web.endpoint.errors import ApiError
from web.endpoint.schema import transactions

DAY = 24 * 3600


def test_a_games_choices_are_the_range_its_contract_declares(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The range comes from the game's Game.waits, so a game whose action offers more options,
    or a third game with choices, needs no edit in the endpoint."""
    game = games.get("power-puck-shot")
    wider = dataclasses.replace(game, waits={"shot": Action("shoot", choices=8)})
    monkeypatch.setattr(games, "BY_ID", {**games.BY_ID, game.id: wider})
    assert plays.merge_choices(game.id, [7], [7, 0, 6]) == [7, 0, 6]
    with pytest.raises(ApiError) as refused:
        plays.merge_choices(game.id, [], [8])
    assert refused.value.code == "invalid_choices" and "0..7" in refused.value.message


@pytest.mark.parametrize("game", games.on_sale(), ids=lambda game: game.id)
def test_the_endpoint_takes_each_games_whole_choice_range_and_refuses_one_past_it(
    client: TestClient, game: Game
) -> None:
    token = session(client)["token"]
    number = buy(client, token, game=game.id).json()["play_number"]
    every = list(range(game.choice_values))  # each value the game's choices take, in order
    past = [*every, game.choice_values]
    progress, finish = f"/api/plays/{number}/progress", f"/api/plays/{number}/finish"
    for refused in (
        client.put(progress, json={"event": 1, "choices": past}),
        client.post(finish, json={"choices": past}),
    ):
        assert refused.status_code == 422, refused.text
        # past the largest range of any game the request's schema refuses it, else the game
        assert refused.json()["error"]["code"] in {"invalid_choices", "invalid_request"}
    saved = client.put(progress, json={"event": 1, "choices": every})
    assert saved.status_code == 200 and saved.json()["choices"] == every, saved.text
    done = client.post(finish, json={"choices": every})
    assert done.status_code == 200 and done.json()["status"] == "finished", done.text
    assert client.get(f"/api/plays/{number}/recall").json()["choices"] == every


ROOT = Path(__file__).resolve().parents[2]


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
