"""A game the edge registers (engine.games.register; the tests' Lucky Dice, tests/fixtures/) is
sold, shown and checked like the registry's own, with no shared file naming it: the endpoint
lays out its pool, sells it, finishes, recalls, replays and verifies its play; the lobby offers
it and its play runs natively to FINISH through the controls it declares."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from backends.endpoint_shell import EndpointShell
from engine import games
from engine.book import Book
from engine.game import Game
from engine.outcome import Composition
from engine.ui.scenes.verify import STEPS, run_steps
from engine.ui.scenes.verify_log import signature_items, signature_request
from tests.test_ui_native import run
from web.devserver import GAMES_VARIABLE, endpoint_app
from web.endpoint.app import create_app
from web.endpoint.settings import Settings


@pytest.fixture
def game(test_games: tuple[Game, ...]) -> Game:
    """The tests' third game, registered for the test."""
    return test_games[0]


@pytest.fixture
def client(game: Game, tmp_path: Path) -> Iterator[TestClient]:
    """The endpoint in test mode, built after the game was registered (as the edge does)."""
    settings = Settings(var_dir=tmp_path / "var", test_mode=True, limits_required=False)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def test_the_registry_holds_the_registered_game_once(game: Game) -> None:
    assert games.get(game.id) is game and game.on_sale
    assert games.register("tests.fixtures.lucky_dice") is game  # a second call adds nothing
    assert [g.id for g in games.GAMES].count(game.id) == 1
    assert game.home == "tests.fixtures.lucky_dice" and game.table.game == game.id


def test_the_endpoint_sells_finishes_recalls_and_verifies_its_play(
    game: Game, client: TestClient
) -> None:
    client.post("/api/session")
    assert game.id in [listed["id"] for listed in client.get("/api/games").json()["games"]]
    win = game.load_examples().WIN
    chosen = client.post("/api/test/next-entry", json={"game": game.id, "composition": win})
    assert chosen.status_code == 200, chosen.text
    before = client.get("/api/wallet").json()["balance_pence"]
    bought = client.post("/api/plays", json={"game": game.id}, headers={"Idempotency-Key": "d"})
    assert bought.status_code == 201, bought.text
    number = bought.json()["play_number"]
    early = client.get(f"/api/plays/{number}/recall")
    assert early.status_code == 409 and early.json()["error"]["code"] == "play_unfinished"
    finished = client.post(f"/api/plays/{number}/finish", json={"choices": []}).json()
    prize = sum(int(part["pence"]) for part in win)
    assert finished["prize_pence"] == prize > 0
    assert finished["balance_pence"] - before == prize - game.price_pence
    recalled = client.get(f"/api/plays/{number}/recall").json()
    assert (recalled["game"], recalled["prize_pence"]) == (game.id, prize)
    book = game.book(recalled["model"], Composition.from_json(recalled["composition"]),
                     bytes.fromhex(recalled["seed"]))  # fmt: skip
    assert game.load_validator().validate(json.loads(book.to_json())) == []  # the replay's book
    shell = EndpointShell(client)
    shell.perform({"op": "session"})
    deadline = time.monotonic() + 30  # the endpoint's sequencer signs a checkpoint each second
    while client.get(f"/api/plays/{number}").json()["log"] is None:
        assert time.monotonic() < deadline, "no checkpoint covered the sale"
        time.sleep(0.1)
    found = shell.perform({"op": "verify_play", "play_number": number})
    items = signature_items(
        found
    )  # the checkpoint's signatures, checked by the shell as VERIFY asks
    answer = shell.perform({"op": "check_signatures", **signature_request(items)})
    found["checked"] = dict(zip(items, answer["ok"], strict=True))
    steps = run_steps(found)
    assert [step.ok for step in steps] == [True] * len(STEPS), steps


def test_the_lobby_offers_it_and_its_play_runs_to_finish(game: Game, client: TestClient) -> None:
    shell = EndpointShell(client)
    shell.perform({"op": "session"})
    reserve: dict[str, Any] = {"game": game.id, "composition": game.load_examples().WIN}
    assert client.post("/api/test/next-entry", json=reserve).status_code == 200
    app, said = run(shell, [f"play:{game.id}", "play"], page="")  # from the lobby
    assert app.scene.name == "outcome", said
    assert "You rolled a 6." in said and "Total won £5.00" in said
    play = app.scene.flow.play  # type: ignore[attr-defined]
    assert isinstance(play.book, Book) and play.book.game == game.id


def test_the_dev_server_registers_the_games_it_is_told_of(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games, "GAMES", games.GAMES)  # (the registry restored after)
    monkeypatch.setattr(games, "BY_ID", dict(games.BY_ID))
    monkeypatch.setenv("LOTTERY_VAR_DIR", str(tmp_path / "var"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv(GAMES_VARIABLE, "tests.fixtures.lucky_dice")
    with TestClient(endpoint_app()) as client:
        listed = client.get("/api/games").json()["games"]
    assert [game["id"] for game in listed][-1] == "lucky-dice"
    assert games.get("lucky-dice").home == "tests.fixtures.lucky_dice"
