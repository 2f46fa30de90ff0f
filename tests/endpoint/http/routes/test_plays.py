"""web/endpoint/http/routes/plays.py: a player's plays, end to end in process, on SQLite and
PostgreSQL: listing and detail, progress kept for another device, choices, an overdue play
settled, and a recall checked against the book hash recorded at purchase."""

from __future__ import annotations

import json

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import update

from engine import games
from tests.endpoint.conftest import Clock, bearer, buy, session
from tests.endpoint.sales.test_hashes import engine_book_hash
from web.endpoint.sales import hashes
from web.endpoint.store.schema import plays

DAY = 24 * 3600


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


PPS = "power-puck-shot"


def test_progress_resumes_on_another_device(app: FastAPI) -> None:
    phone, laptop, stranger = TestClient(app), TestClient(app), TestClient(app)
    token = session(phone)["token"]
    session(stranger)
    number = buy(phone, token, game=PPS).json()["play_number"]
    url = f"/api/plays/{number}/progress"
    saved = phone.put(url, json={"event": 3, "choices": [1]})
    assert saved.status_code == 200
    assert saved.json() == {"play_number": number, "event": 3, "choices": [1]}
    assert phone.put(url, json={"event": 2, "choices": []}).json()["event"] == 3  # not back
    conflict = phone.put(url, json={"event": 4, "choices": [2]})
    assert conflict.status_code == 409 and conflict.json()["error"]["code"] == "choices_conflict"
    assert phone.put(url, json={"event": 5, "choices": [1, 4]}).json()["choices"] == [1, 4]
    for bad in ({"event": 1, "choices": [6]}, {"event": 10_001}, {"event": 1, "choices": [0] * 65}):
        assert phone.put(url, json=bad).status_code == 422
    assert stranger.put(url, json={"event": 1}).status_code == 404
    resumed = laptop.get(f"/api/plays/{number}", headers=bearer(token)).json()
    assert resumed["progress"] == {"event": 5, "choices": [1, 4]}
    final = laptop.post(
        f"/api/plays/{number}/finish", json={"choices": [1, 4, 0]}, headers=bearer(token)
    )
    assert final.status_code == 200 and final.json()["status"] == "finished"
    repeat = laptop.post(
        f"/api/plays/{number}/finish", json={"choices": [1, 4, 0]}, headers=bearer(token)
    )
    assert repeat.json() == final.json()
    changed = laptop.post(
        f"/api/plays/{number}/finish", json={"choices": [1, 4, 0, 2]}, headers=bearer(token)
    )
    assert changed.status_code == 409
    after = phone.put(url, json={"event": 9, "choices": [1, 4, 0]})
    assert after.status_code == 409 and after.json()["error"]["code"] == "play_finished"
    assert phone.get(f"/api/plays/{number}").json()["progress"]["choices"] == [1, 4, 0]


def test_lab_riches_takes_no_choices(client: TestClient) -> None:
    token = session(client)["token"]
    number = buy(client, token).json()["play_number"]
    refused = client.put(f"/api/plays/{number}/progress", json={"event": 1, "choices": [0]})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "invalid_choices"
    assert client.put(f"/api/plays/{number}/progress", json={"event": 7}).json()["event"] == 7
    bad = client.post(
        f"/api/plays/{number}/finish", content=b"{", headers={"content-type": "application/json"}
    )
    assert bad.status_code == 400


def test_progress_of_an_overdue_play_settles_it(client: TestClient, clock: Clock) -> None:
    token = session(client)["token"]
    number = buy(client, token).json()["play_number"]
    clock.advance(DAY + 1)
    late = client.put(f"/api/plays/{number}/progress", json={"event": 1})
    assert late.status_code == 409 and late.json()["error"]["code"] == "play_finished"
    assert client.get(f"/api/plays/{number}").json()["finished_by"] == "auto"


@pytest.mark.parametrize("game", ["lab-riches", PPS])
def test_recall_checks_the_book_recorded_at_purchase(app: FastAPI, game: str) -> None:
    client, stranger = TestClient(app), TestClient(app)
    token = session(client)["token"]
    session(stranger)
    number = buy(client, token, game=game).json()["play_number"]
    assert client.get(f"/api/plays/{number}").json()["book_hash"] is None  # no hasher yet
    assert hashes.fill_all(app.state.services.db) >= 1  # the hasher's round, as the app runs it
    detail = client.get(f"/api/plays/{number}").json()
    expected = engine_book_hash(
        game, detail["model"], detail["composition"], detail["entry"]["seed"]
    )
    assert detail["book_hash"] == expected
    assert hashes.fill(app.state.services.db) == 0  # nothing left to hash
    early = client.get(f"/api/plays/{number}/recall")
    assert early.status_code == 409 and early.json()["error"]["code"] == "play_unfinished"
    choices = [3] if game == PPS else []
    client.post(f"/api/plays/{number}/finish", json={"choices": choices})
    recalled = client.get(f"/api/plays/{number}/recall")
    assert recalled.status_code == 200
    body = recalled.json()
    assert set(body) == {
        "play_number", "game", "model", "status", "finished_by", "prize_pence", "price_pence",
        "composition", "seed", "token", "choices", "book_hash", "purchased_at", "finished_at",
    }  # fmt: skip
    assert body["book_hash"] == expected and body["choices"] == choices
    assert body["finished_by"] == "player" and body["seed"] == detail["entry"]["seed"]
    assert body["price_pence"] == games.get(game).price_pence
    now = client.get(f"/api/plays/{number}").json()  # times in ISO 8601, as in play detail
    assert (body["purchased_at"], body["finished_at"]) == (now["purchased_at"], now["finished_at"])
    assert body["finished_at"] >= body["purchased_at"] == detail["purchased_at"]
    assert stranger.get(f"/api/plays/{number}/recall").status_code == 404
    with app.state.services.db.begin() as conn:  # tamper with the ledger's entry
        seed = body["seed"]
        forged = ("0" if seed[0] != "0" else "1") + seed[1:]
        conn.execute(update(plays).where(plays.c.play_number == number).values(seed=forged))
    tampered = client.get(f"/api/plays/{number}/recall")
    assert tampered.status_code == 409 and tampered.json()["error"]["code"] == "book_mismatch"
    top = games.get(game).table.as_json()["tiers"][-1]["compositions"][0]["parts"]
    forged_composition = [] if body["composition"] == top else top  # another real outcome
    with app.state.services.db.begin() as conn:
        conn.execute(
            update(plays)
            .where(plays.c.play_number == number)
            .values(seed=seed, composition=json.dumps(forged_composition))
        )
    assert client.get(f"/api/plays/{number}/recall").json()["error"]["code"] == "book_mismatch"


def test_recall_of_an_auto_settled_play(client: TestClient, clock: Clock) -> None:
    token = session(client)["token"]
    number = buy(client, token).json()["play_number"]
    clock.advance(DAY + 1)
    recalled = client.get(f"/api/plays/{number}/recall")
    assert recalled.status_code == 200 and recalled.json()["finished_by"] == "auto"


def test_a_finish_and_a_session_take_an_empty_object_as_before(client: TestClient) -> None:
    """Shells and API clients from before choices and sign-in codes send {}: still fine."""
    made = client.post("/api/session", json={})
    assert made.status_code == 201 and made.json()["balance_pence"] == 5_000
    token = made.json()["token"]
    number = buy(client, token).json()["play_number"]
    done = client.post(f"/api/plays/{number}/finish", json={}, headers=bearer(token))
    assert done.status_code == 200 and done.json()["status"] == "finished"
    for bad in ({"choices": "x"}, {"other": 1}):
        refused = client.post(f"/api/plays/{number}/finish", json=bad, headers=bearer(token))
        assert refused.status_code == 422
