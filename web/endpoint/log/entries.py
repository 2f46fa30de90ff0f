"""The log's pending records: each appended to `log_entries` in the database transaction of the
fact it tells (a sale: web/endpoint/sales/; a pool committed, closed or revealed:
web/endpoint/pools/), so that a crash loses neither the fact nor its record; the sequencer
(web/endpoint/log/sequencer.py) gives them their place in the log later.

A sale's record is built with its plays row (web/endpoint/sales/sale.py) and inserted by each
seller's own statement; the records here are the pools'.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Connection, func, insert, select

from engine.tlog import records
from web.endpoint.store.database import Database
from web.endpoint.store.schema import log_entries


def append(conn: Connection, record: dict[str, Any], now: int) -> None:
    """Append a record (one of engine.tlog.records') on the caller's transaction."""
    conn.execute(insert(log_entries).values(data=records.encode(record), created_at=now))


def pending(db: Database) -> int:
    """How many records are appended and not yet sequenced (counted on their partial index):
    the sequencer's backlog, which /api/metrics reports (`lottery_log_pending_records`)."""
    with db.read() as conn:
        query = (
            select(func.count()).select_from(log_entries).where(log_entries.c.log_index.is_(None))
        )
        return int(conn.execute(query).scalar_one())


def prize_table(catalogue: Iterable[Mapping[str, Any]]) -> list[list[int]]:
    """A commitment's table, [[prize_pence, count], ...] prize ascending, summed over the
    outcomes of its catalogue (commitment.json's)."""
    counts: dict[int, int] = {}
    for item in catalogue:
        prize = int(item["prize_pence"])
        counts[prize] = counts.get(prize, 0) + int(item["count"])
    return [[prize, count] for prize, count in sorted(counts.items())]


def commitment(committed: Mapping[str, Any], kind: str) -> dict[str, Any]:
    """The commitment record of a pool from its commitment.json (web/endpoint/pools/files.py)."""
    return records.commitment(
        committed["game"],
        committed["pool_id"],
        kind,
        committed["model"],
        int(committed["size"]),
        committed["root"],
        prize_table(committed["catalogue"]),
    )


def digest(document: bytes) -> str:
    """A reveal record's digest: SHA-256 hex of the reveal document's bytes, as served."""
    return hashlib.sha256(document).hexdigest()
