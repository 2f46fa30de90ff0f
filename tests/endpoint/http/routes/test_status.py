"""web/endpoint/http/routes/status.py: the game catalogue, end to end in process, on SQLite and
PostgreSQL (health and metrics: tests/endpoint/test_operations.py)."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI
from fastapi.testclient import TestClient

from engine import games

OTHER = "power-puck-shot"  # the second game, on sale beside Lab Riches


def test_games_lists_every_registered_game_and_whether_it_is_on_sale(client: TestClient) -> None:
    listed = client.get("/api/games").json()["games"]
    assert [g["id"] for g in listed] == list(games.ids())
    for game in listed:
        spec = games.get(game["id"])
        assert game == {**spec.table.as_json(), "on_sale": spec.on_sale}
        assert game["name"] == spec.name and game["price_pence"] == spec.price_pence
        assert {"odds_one_in", "rtp_percent", "top_prize_pence", "tiers"} <= set(game)
    on_sale = {game["id"]: game["on_sale"] for game in listed}
    assert on_sale == {"lab-riches": True, OTHER: True}


def test_the_catalogue_says_when_a_game_is_not_on_sale(
    make_app: Callable[..., FastAPI], withdrawn: str
) -> None:
    listed = TestClient(make_app()).get("/api/games").json()["games"]
    on_sale = {game["id"]: game["on_sale"] for game in listed}
    assert on_sale == {"lab-riches": True, withdrawn: False}
