"""The endpoint's own public log audited as an auditor would (tools/commands/audit_log.run, the
code behind `build.py audit-log`, fetching through HTTP): single sales, batches, a pool retired
and revealed and its successor's sales pass every check; the prizes remaining it counts are the
endpoint's; a mirror taken then extended after more sales stays consistent. An insider who moves
a pool past entries in the database (to hold them back) leaves a gap the audit names."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import cast

import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import update

from engine import games
from tests.endpoint.conftest import buy, sequencer_of, session
from tools.audit.log import Mirror, Source
from tools.commands.audit_log import run
from web.endpoint.http.services import Services
from web.endpoint.pools import reveal
from web.endpoint.store.schema import pools

GAME = games.get("lab-riches")


def audited(client: TestClient, mirror: Path) -> dict:  # type: ignore[type-arg]
    # (the test client answers with the app itself and speaks httpx.Client's API)
    source = Source("http://testserver", client=cast(httpx.Client, client))
    return run(source, None, Mirror(mirror))


def test_the_endpoint_s_log_passes_every_check(
    make_app: Callable[..., FastAPI], tmp_path: Path
) -> None:
    app = make_app(log_interval_ms=3_600_000)  # (sequenced by hand)
    services: Services = app.state.services
    with TestClient(app) as client:
        token = session(client)["token"]
        for _ in range(3):
            assert buy(client, token, GAME.id).status_code == 201
        buyer = services.accounts.create(40 * GAME.price_pence)
        sold = services.checkout.seller.sell_batch(GAME, [(buyer, f"k{k}") for k in range(2)])
        assert None not in sold
        old = reveal.retire(services.pools, GAME.id)
        assert client.get(f"/api/pools/{GAME.id}/{old['pool_id']}/reveal").status_code == 200
        for _ in range(2):  # from the next pool
            assert buy(client, token, GAME.id).status_code == 201
        sequencer_of(services).run()
        report = audited(client, tmp_path / "mirror")
        assert report["problems"] == [], report["problems"]
        current = client.get(f"/api/pools/{GAME.id}").json()["pool_id"]
        assert old["pool_id"] not in report["remaining"]  # closed: nothing remains to sell
        counted = report["remaining"][current]
        assert counted["sold"] == 2
        served = client.get(f"/api/pools/{GAME.id}/remaining").json()
        assert served["pool"] == current
        assert sorted((t["prize_pence"], t["remaining"]) for t in served["tiers"]) == [
            (t["prize_pence"], t["remaining"]) for t in counted["tiers"]
        ]
        # more sales, a later checkpoint: the mirror's is a prefix of it
        more = services.checkout.seller.sell_batch(GAME, [(buyer, f"m{k}") for k in range(5)])
        assert None not in more
        sequencer_of(services).run()
        again = audited(client, tmp_path / "mirror")
        assert again["problems"] == [], again["problems"]
        assert again["remaining"][current]["sold"] == 7


def test_entries_skipped_in_the_database_are_a_gap_the_audit_names(
    make_app: Callable[..., FastAPI], tmp_path: Path
) -> None:
    app = make_app(log_interval_ms=3_600_000)
    services: Services = app.state.services
    with TestClient(app) as client:
        token = session(client)["token"]
        assert buy(client, token, GAME.id).status_code == 201
        pool = client.get(f"/api/pools/{GAME.id}").json()["pool_id"]
        with services.db.begin() as conn:  # an insider moves the pool past entries 1 to 9
            conn.execute(update(pools).where(pools.c.pool_id == pool).values(next_index=10))
        assert buy(client, token, GAME.id).status_code == 201
        sequencer_of(services).run()
        problems = [p["problem"] for p in audited(client, tmp_path / "mirror")["problems"]]
        assert any("out of order, the next index in order is 1" in p for p in problems), problems
