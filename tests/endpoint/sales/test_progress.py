"""An unfinished play's progress and the player's finish (web/endpoint/sales/progress.py): each
game's choice range from its declared contract, on progress and finish. (The routes:
tests/endpoint/http/routes/test_plays.py and test_sales.py.)"""

from __future__ import annotations

import dataclasses

import pytest
from fastapi.testclient import TestClient

from engine import games
from engine.game import Action, Game
from tests.endpoint.conftest import buy, session
from web.endpoint.errors import ApiError
from web.endpoint.sales import progress


def test_a_games_choices_are_the_range_its_contract_declares(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The range comes from the game's Game.waits, so a game whose action offers more options,
    or a third game with choices, needs no edit in the endpoint."""
    game = games.get("power-puck-shot")
    wider = dataclasses.replace(game, waits={"shot": Action("shoot", choices=8)})
    monkeypatch.setattr(games, "BY_ID", {**games.BY_ID, game.id: wider})
    assert progress.merge_choices(game.id, [7], [7, 0, 6]) == [7, 0, 6]
    with pytest.raises(ApiError) as refused:
        progress.merge_choices(game.id, [], [8])
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
