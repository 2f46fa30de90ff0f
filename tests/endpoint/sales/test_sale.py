"""A sale's record and answer (web/endpoint/sales/sale.py), built once for every seller."""

from __future__ import annotations

import json

from fastapi import FastAPI

from web.endpoint import tokens
from web.endpoint.sales.presale_hashes import PresaleHashes
from web.endpoint.sales.sale import PLAY_NUMBER_BASE, Records, answer_of


def test_a_record_is_the_entry_sold_signed_with_the_hash_made_ahead(app: FastAPI) -> None:
    services = app.state.services
    services.pools.ensure("lab-riches")
    with services.db.begin() as conn:
        pool = services.pools.current(conn, "lab-riches")
    account = services.accounts.create(1000)
    presale = PresaleHashes()
    presale.add(pool.id, 7, ["ab" * 32])
    records = Records(services.ring, services.pool_cache, presale)
    record = records.record(account, pool, 7, "key-1", 1_700_000_000_123)
    entry = services.pool_cache.get(pool.pool_id).entry(7)
    assert record["play_number"] == pool.id * PLAY_NUMBER_BASE + 8
    assert (record["account_id"], record["pool_ref"], record["pool_index"]) == (
        account.pk,
        pool.id,
        7,
    )
    assert record["prize_pence"] == entry.prize_pence and record["seed"] == entry.seed.hex()
    assert json.loads(record["composition"]) == entry.composition.to_json()
    assert record["book_hash"] == "ab" * 32  # handed out once:
    assert records.record(account, pool, 7, "key-2", 0)["book_hash"] is None
    assert records.record(account, pool, 8, None, 0)["book_hash"] is None  # none made: after
    payload = tokens.verify(services.ring, record["token"])
    assert payload["account"] == account.public_id and payload["index"] == 7
    assert payload["play_number"] == record["play_number"] and payload["iat"] == 1_700_000_000
    assert answer_of(record, 700) == {
        "play_number": record["play_number"],
        "token": record["token"],
        "balance_pence": 700,
    }
