"""web/endpoint/http/routes/pools.py: a game's pools in public, end to end in process, on SQLite and
PostgreSQL: the current pool, a committed pool's commitment, and its reveal, refused while the
pool sells and served (immutable, the same bytes again) once it is closed. (Closing pools and the
tools that audit and retire them: tests/endpoint/pools/test_reveal.py; the reveal's files, encodings
and limits: tests/endpoint/pools/test_reveal_files.py.)"""

from __future__ import annotations

import base64
from collections.abc import Callable

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.endpoint.conftest import bearer, buy, sequencer_of, session
from web.endpoint.pools import reveal

GAME = "lab-riches"


def test_a_pool_s_commitment_is_public_and_its_reveal_only_once_it_is_closed(
    make_app: Callable[..., FastAPI],
) -> None:
    app = make_app()
    client = TestClient(app)
    token = session(client)["token"]
    for _ in range(3):
        assert buy(client, token).status_code == 201
    status = client.get(f"/api/pools/{GAME}")
    assert status.status_code == 200, status.text
    first = status.json()
    pool_id = first["pool_id"]

    committed = client.get(f"/api/pools/{GAME}/{pool_id}")
    assert committed.status_code == 200, committed.text
    commitment = committed.json()
    assert commitment["root"] == first["root"] and commitment["size"] == first["size"]
    assert commitment["closed_at"] is None and commitment["closed_reason"] is None
    assert sum(item["count"] for item in commitment["catalogue"]) == first["size"]

    on_sale = client.get(f"/api/pools/{GAME}/{pool_id}/reveal")
    assert on_sale.status_code == 409 and on_sale.json()["error"]["code"] == "pool_on_sale"
    for path in (
        f"/api/pools/{GAME}/{'0' * 16}/reveal",
        f"/api/pools/no-such-game/{pool_id}/reveal",
        f"/api/pools/power-puck-shot/{pool_id}/reveal",  # the id of another game's pool
        f"/api/pools/{GAME}/{pool_id.upper()}",
        f"/api/pools/{GAME}/..%2F..%2Fx/reveal",
    ):
        missing = client.get(path)
        assert missing.status_code == 404, path
        assert missing.json()["error"]["code"] in ("pool_not_found", "not_found"), path

    retired = reveal.retire(app.state.services.pools, GAME)
    shown = client.get(f"/api/pools/{GAME}/{pool_id}/reveal")
    assert shown.status_code == 200, shown.text
    assert "immutable" in shown.headers["cache-control"]
    data = shown.json()
    assert data["game"] == GAME and data["pool_id"] == pool_id and data["root"] == first["root"]
    assert len(bytes.fromhex(data["key"])) == 32
    assert len(base64.b64decode(data["entries"])) == 2 * data["size"]
    assert client.get(f"/api/pools/{GAME}/{pool_id}/reveal").content == shown.content  # cached
    closed = client.get(f"/api/pools/{GAME}/{pool_id}").json()
    assert closed["closed_at"] == retired["closed_at"] and closed["closed_reason"] == "retired"


def test_prizes_remaining_are_the_table_minus_the_sequenced_sales(
    make_app: Callable[..., FastAPI],
) -> None:
    app = make_app(log_interval_ms=3_600_000)  # (sequenced by hand)
    services = app.state.services
    client = TestClient(app)
    token = session(client)["token"]
    prizes = [buy(client, token).json() for _ in range(5)]
    before = client.get(f"/api/pools/{GAME}/remaining").json()
    assert before == {"game": GAME, "pool": client.get(f"/api/pools/{GAME}").json()["pool_id"],
                      "log_size": 0, "tiers": []}  # fmt: skip
    sequencer_of(services).run()
    after = client.get(f"/api/pools/{GAME}/remaining").json()
    assert after["log_size"] == 6
    commitment = client.get(f"/api/pools/{GAME}/{after['pool']}").json()
    table: dict[int, int] = {}
    for item in commitment["catalogue"]:
        table[item["prize_pence"]] = table.get(item["prize_pence"], 0) + item["count"]
    won: dict[int, int] = {}
    for bought in prizes:
        prize = client.get(f"/api/plays/{bought['play_number']}", headers=bearer(token)).json()[
            "prize_pence"
        ]
        won[prize] = won.get(prize, 0) + 1
    assert [t["prize_pence"] for t in after["tiers"]] == sorted(table, reverse=True)
    for tier in after["tiers"]:
        prize = tier["prize_pence"]
        assert (tier["count"], tier["sold"]) == (table[prize], won.get(prize, 0))
        assert tier["remaining"] == table[prize] - won.get(prize, 0)
    assert client.get("/api/pools/no-such-game/remaining").status_code == 404
