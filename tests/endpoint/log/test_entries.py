"""The pools' records (web/endpoint/log/entries.py), appended in the transactions of the facts
they tell: a pool's commitment (its table summed from its catalogue) when its row is inserted;
its closing and its reveal's digest, the SHA-256 of the reveal document exactly as served,
when it is retired or found sold out; on SQLite each numbered as it is appended."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import insert, select, update

from engine.tlog import records
from tests.endpoint.conftest import buy, schema_at, sequencer_of, session
from tests.endpoint.test_operations import scrape
from web.endpoint.http.services import Services
from web.endpoint.log import entries
from web.endpoint.pools import reveal
from web.endpoint.store.database import Database
from web.endpoint.store.schema import log_entries, pools

GAME = "lab-riches"


def appended(services: Services) -> list[dict[str, Any]]:
    """Every record appended, in id order (sequenced or not)."""
    with services.db.begin() as conn:
        rows = conn.execute(select(log_entries.c.data).order_by(log_entries.c.id)).scalars()
        return [records.decode(bytes(data)) for data in rows]


def test_prize_table_sums_the_catalogue_per_prize() -> None:
    catalogue = [
        {"prize_pence": 500, "count": 2},
        {"prize_pence": 0, "count": 7},
        {"prize_pence": 500, "count": 3},
    ]
    assert entries.prize_table(catalogue) == [[0, 7], [500, 5]]


def test_a_committed_pool_s_record_is_its_commitment(make_app: Callable[..., FastAPI]) -> None:
    services: Services = make_app().state.services
    services.pools.ensure(GAME)
    services.pools.ensure(GAME, kind="try")
    logged = appended(services)
    assert [(r["type"], r["kind"]) for r in logged] == [
        ("commitment", "paid"),
        ("commitment", "try"),
    ]
    with services.db.begin() as conn:
        row = services.pools.current(conn, GAME)
    assert row is not None
    committed = services.pool_cache.get(row.pool_id)
    paid = logged[0]
    assert (paid["pool"], paid["root"], paid["size"]) == (row.pool_id, row.root, row.size)
    assert paid["table"] == sorted([p, c] for p, c in committed.tier_counts().items())


def test_a_retired_pool_s_closing_and_reveal_digest_are_logged(
    make_app: Callable[..., FastAPI],
) -> None:
    app = make_app()
    services: Services = app.state.services
    client = TestClient(app)
    token = session(client)["token"]
    assert buy(client, token).status_code == 201
    retired = reveal.retire(services.pools, GAME)
    closing, revealed = appended(services)[-2:]
    assert closing == records.closing(retired["pool_id"], "retired", 1, closing["time"])
    served = client.get(f"/api/pools/{GAME}/{retired['pool_id']}/reveal")
    assert served.status_code == 200
    assert revealed["digest"] == hashlib.sha256(served.content).hexdigest()
    assert revealed["pool"] == retired["pool_id"]
    assert reveal.retire(services.pools, GAME)["already_closed"]  # closed: not logged again
    assert [r["type"] for r in appended(services)].count("closing") == 1


def test_a_sold_out_pool_s_closing_is_logged_when_it_is_found_closed(
    make_app: Callable[..., FastAPI],
) -> None:
    app = make_app()
    services: Services = app.state.services
    client = TestClient(app)
    token = session(client)["token"]
    assert buy(client, token).status_code == 201
    old = client.get(f"/api/pools/{GAME}").json()
    with services.db.begin() as conn:  # skip to the pool's last entry
        conn.execute(
            update(pools)
            .where(pools.c.pool_id == old["pool_id"])
            .values(next_index=pools.c.size - 1)
        )
    assert buy(client, token).status_code == 201
    served = client.get(f"/api/pools/{GAME}/{old['pool_id']}/reveal")  # found sold out: closed
    assert served.status_code == 200
    closing, revealed = appended(services)[-2:]
    assert (closing["type"], closing["reason"], closing["sold"]) == ("closing", "sold_out", 2)
    assert revealed["digest"] == hashlib.sha256(served.content).hexdigest()
    client.get(f"/api/pools/{GAME}/{old['pool_id']}/reveal")  # asked again: logged once
    assert [r["type"] for r in appended(services)].count("reveal") == 1


def test_a_try_play_is_not_a_sale_and_is_not_logged(make_app: Callable[..., FastAPI]) -> None:
    app = make_app()
    services: Services = app.state.services
    client = TestClient(app)
    assert client.post("/api/try", json={"game": GAME}).status_code == 201
    assert [(r["type"], r["kind"]) for r in appended(services)] == [("commitment", "try")]


def test_the_records_waiting_for_the_sequencer_are_counted_and_reported(
    make_app: Callable[..., FastAPI],
) -> None:
    """`pending` counts the records not yet sequenced, and /api/metrics reports it as
    lottery_log_pending_records: the commitment and the sales, then none once sequenced."""
    app = make_app(log_interval_ms=3_600_000)  # (sequenced by hand)
    services: Services = app.state.services
    with TestClient(app) as client:
        token = session(client)["token"]
        for _ in range(2):
            buy(client, token)
        assert entries.pending(services.db) == 3  # the pool's commitment and two sales
        assert scrape(client)[("lottery_log_pending_records", ())] == 3
        sequencer_of(services).run()
        assert entries.pending(services.db) == 0
        assert scrape(client)[("lottery_log_pending_records", ())] == 0


def indices(services: Services) -> list[int | None]:
    """Every record's log index, in id order (None: not placed)."""
    with services.db.begin() as conn:
        query = select(log_entries.c.log_index).order_by(log_entries.c.id)
        return list(conn.execute(query).scalars())


def test_where_a_record_is_placed_sqlite_as_it_is_appended_postgresql_by_the_sequencer(
    make_app: Callable[..., FastAPI], database_url: str
) -> None:
    """`index_at_append`: SQLite's records (a pool's commitment, sales single and in a batch)
    are numbered 0, 1, 2... in the order of their transactions as they are appended, and the
    sequencer adds them to the tree leaving their rows as they were; PostgreSQL's have no
    index until the sequencer gives them the same numbers."""
    app = make_app(log_interval_ms=3_600_000)  # (sequenced by hand)
    services: Services = app.state.services
    with TestClient(app) as client:
        token = session(client)["token"]
        for _ in range(3):
            assert buy(client, token).status_code == 201
        sqlite = not database_url
        assert indices(services) == ([0, 1, 2, 3] if sqlite else [None] * 4)
        assert entries.pending(services.db) == 4
        sequencer_of(services).run()
        assert indices(services) == [0, 1, 2, 3]
        assert entries.pending(services.db) == 0
        assert buy(client, token).status_code == 201
        assert indices(services) == [0, 1, 2, 3] + ([4] if sqlite else [None])
        assert entries.pending(services.db) == 1


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_upgrade_numbers_sqlite_s_pending_records_in_id_order_after_the_last_placed(
    make_app: Callable[..., FastAPI], tmp_path: Path
) -> None:
    """A SQLite ledger of the version before (revision 0011), one record placed by the
    sequencer and three pending: the upgrade gives the three the next indices in id order,
    as the sequencer would have, and the log's next record takes the one after them."""
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    old = Database(url)
    schema_at(old, "0011")
    with old.begin() as conn:
        for index in (0, None, None, None):
            record = records.reveal("p", f"{index}", 0)
            values = {"data": records.encode(record), "created_at": 0, "log_index": index}
            conn.execute(insert(log_entries).values(values))
    old.dispose()
    app = make_app(database_url=url, log_interval_ms=3_600_000)  # migrated as it starts
    services: Services = app.state.services
    assert indices(services) == [0, 1, 2, 3]
    with services.db.begin() as conn:
        entries.append(conn, records.reveal("p", "next", 0), 0)
    assert indices(services) == [0, 1, 2, 3, 4]
