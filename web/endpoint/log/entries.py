"""The log's pending records: each appended to `log_entries` in the database transaction of the
fact it tells (a sale: web/endpoint/sales/; a pool committed, closed or revealed:
web/endpoint/pools/), so that a crash loses neither the fact nor its record; the sequencer
(web/endpoint/log/sequencer.py) adds them to the tree later.

Where a record's place in the log is set (`index_at_append`): on PostgreSQL by the sequencer,
in the order it sees the records committed (transactions of several instances commit in no
order their ids tell); on SQLite as the record is appended, the next index after the last
appended, since SQLite's one write lock orders every transaction, so the order of appending is
the order of committing. There the sequencer only computes the tree and never writes the
record's row again (its rows were most of what a step wrote while every sale waited for the
lock: docs/log.md, "What a purchase costs").

A sale's record is built with its plays row (web/endpoint/sales/sale.py) and inserted by each
seller's own statement; the records here are the pools'.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import ColumnElement, Connection, func, insert, select

from engine.tlog import records
from web.endpoint.store.database import Database
from web.endpoint.store.schema import log_entries, log_head


def append(conn: Connection, record: dict[str, Any], now: int) -> None:
    """Append a record (one of engine.tlog.records') on the caller's transaction."""
    conn.execute(
        insert(log_entries).values(
            data=records.encode(record),
            created_at=now,
            log_index=index_at_append(conn.dialect.name),
        )
    )


def index_at_append(dialect: str) -> ColumnElement[Any] | None:
    """The log index a record is given as it is appended, in a database of this dialect's: on
    SQLite the next after the last appended (its transaction holds the one write lock: no
    other can append meanwhile), an expression of the INSERT; on PostgreSQL none (NULL), the
    sequencer placing it."""
    if dialect != "sqlite":
        return None
    last = select(func.max(log_entries.c.log_index)).scalar_subquery()
    return func.coalesce(last + 1, 0)


def pending(db: Database) -> int:
    """How many records are appended and not yet in the tree: the sequencer's backlog, which
    /api/metrics reports (`lottery_log_pending_records`). Those without an index (PostgreSQL's,
    on their partial index) and those with one at or past the head's size (SQLite's)."""
    size = select(log_head.c.size).where(log_head.c.id == 1).scalar_subquery()
    index = log_entries.c.log_index
    query = select(func.count()).select_from(log_entries).where(index.is_(None) | (index >= size))
    with db.read() as conn:
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
