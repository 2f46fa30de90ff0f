"""The routes, end to end in process, on SQLite and PostgreSQL."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.endpoint.conftest import bearer, buy, session


def test_session_creates_a_guest_with_the_demo_balance(client: TestClient) -> None:
    body = session(client)
    assert body["balance_pence"] == 5_000
    assert client.get("/api/wallet").json() == {"balance_pence": 5_000}
    fresh = TestClient(client.app)
    assert fresh.get("/api/wallet", headers=bearer(body["token"])).json()["balance_pence"] == 5_000


def test_purchase_then_finish(client: TestClient) -> None:
    me = session(client)
    bought = buy(client, me["token"])
    assert bought.status_code == 201, bought.text
    play = bought.json()
    assert play["balance_pence"] == 4_700
    detail = client.get(f"/api/plays/{play['play_number']}").json()
    assert detail["status"] == "purchased"
    done = client.post(f"/api/plays/{play['play_number']}/finish").json()
    assert done["balance_pence"] == 4_700 + detail["prize_pence"]
