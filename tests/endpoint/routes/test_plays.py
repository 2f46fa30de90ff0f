"""web/endpoint/routes/plays.py: a player's plays, end to end in process, on SQLite and
PostgreSQL."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.endpoint.conftest import buy, session


def test_someone_elses_play_is_indistinguishable_from_none(client: TestClient) -> None:
    mine = buy(client, session(client)["token"]).json()["play_number"]
    thief = TestClient(client.app)
    thief.post("/api/session")
    for response in (
        thief.get(f"/api/plays/{mine}"),
        thief.post(f"/api/plays/{mine}/finish"),
    ):
        assert response.status_code == 404
        assert response.json() == thief.get(f"/api/plays/{mine + 1}").json()
    assert client.get(f"/api/plays/{mine}").json()["status"] == "purchased"


def test_my_games_newest_first_with_a_cursor(client: TestClient) -> None:
    token = session(client)["token"]
    numbers = [buy(client, token).json()["play_number"] for _ in range(5)]
    client.post(f"/api/plays/{numbers[0]}/finish")
    page = client.get("/api/plays?limit=3").json()
    assert [p["play_number"] for p in page["plays"]] == numbers[::-1][:3]
    rest = client.get(f"/api/plays?limit=3&cursor={page['next_cursor']}").json()
    assert [p["play_number"] for p in rest["plays"]] == numbers[::-1][3:]
    assert rest["next_cursor"] is None
    unfinished = client.get("/api/plays?status=unfinished").json()["plays"]
    assert [p["play_number"] for p in unfinished] == numbers[1:][::-1]
    first = page["plays"][0]
    assert set(first) == {
        "play_number",
        "game",
        "status",
        "finished_by",
        "price_pence",
        "prize_pence",
        "purchased_at",
        "finished_at",
    }
    assert first["finished_by"] is None and first["price_pence"] == 300
