"""After purchase (plays.py): each game's choice range from its declared contract, on progress
and finish; test mode steering an account's next purchase to a chosen entry of the pool."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from engine import games
from engine.game import Action, Game
from engine.games import load_table
from tests.endpoint.conftest import buy, session
from web.endpoint import plays
from web.endpoint.errors import ApiError


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


def test_next_entry_is_refused_outside_test_mode(client: TestClient) -> None:
    session(client)
    response = client.post("/api/test/next-entry", json={"game": "lab-riches", "prize_pence": 0})
    assert response.status_code == 404


def test_next_entry_steers_one_purchase_to_a_matching_unsold_entry(
    make_app: Callable[..., FastAPI],
) -> None:
    client = TestClient(make_app(test_mode=True))
    token = session(client)["token"]
    tiers = [t for t in load_table("lab-riches").tiers if t.count > 0 and t.prize_pence <= 5_000]
    top = max(tiers, key=lambda t: t.prize_pence)
    composition = top.compositions[0][0].to_json()
    steer = client.post(
        "/api/test/next-entry", json={"game": "lab-riches", "composition": composition}
    )
    assert steer.status_code == 200, steer.text
    index = steer.json()["index"]
    play = buy(client, token).json()
    detail = client.get(f"/api/plays/{play['play_number']}").json()
    assert detail["entry"]["index"] == index
    assert detail["composition"] == composition and detail["prize_pence"] == top.prize_pence
    # the steered entry is sold once: the next purchase draws in order, skipping nothing sold
    after = client.get(f"/api/plays/{buy(client, token).json()['play_number']}").json()
    assert after["entry"]["index"] != index
    pool = client.get("/api/pools/lab-riches").json()
    assert pool["sold"] == 2
    bad = client.post("/api/test/next-entry", json={"game": "lab-riches", "prize_pence": 1})
    assert bad.status_code == 404 and bad.json()["error"]["code"] == "no_matching_entry"
