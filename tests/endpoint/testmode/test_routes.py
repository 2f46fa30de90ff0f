"""web/endpoint/testmode/routes.py: test mode's routes, end to end in process, on SQLite and
PostgreSQL: the ledger's clock moved on and a purchase steered to a chosen entry, and neither
route there outside test mode."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI
from fastapi.testclient import TestClient

from engine.games import load_table
from tests.endpoint.conftest import bearer, buy, session


def test_the_test_clock_exists_only_in_test_mode(client: TestClient) -> None:
    token = session(client)["token"]
    answer = client.post("/api/test/clock", json={"advance_ms": 1}, headers=bearer(token))
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"


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
