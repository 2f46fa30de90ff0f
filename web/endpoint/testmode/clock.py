"""Test mode's moved clock: how far the ledger's clock has been moved on, kept in the meta table
so every process of the database sees it (POST /api/test/clock)."""

from __future__ import annotations

from sqlalchemy import insert, select, update

from web.endpoint.clock import Clock
from web.endpoint.store.database import Database
from web.endpoint.store.schema import meta

CLOCK_KEY = "test_clock_offset_ms"  # meta row of test mode's moved clock
CLOCK_LOCK = 74_280_002  # PostgreSQL advisory lock id: one mover of the test clock at a time


def read_clock_offset(db: Database) -> int:
    """How far the ledger's clock has been moved on (meta table), in ms."""
    with db.begin() as conn:
        found = conn.execute(select(meta.c.value).where(meta.c.key == CLOCK_KEY)).scalar()
    return int(found or 0)


def advance_clock(db: Database, clock: Clock, advance_ms: int) -> int:
    """Move the ledger's clock on, for every process of this database (meta table); returns
    the total offset."""
    with db.begin() as conn:
        db.advisory_lock(conn, CLOCK_LOCK)
        found = conn.execute(select(meta.c.value).where(meta.c.key == CLOCK_KEY)).scalar()
        offset = int(found or 0) + advance_ms
        if found is None:
            conn.execute(insert(meta).values(key=CLOCK_KEY, value=str(offset)))
        else:
            conn.execute(update(meta).where(meta.c.key == CLOCK_KEY).values(value=str(offset)))
    clock.offset_ms = offset
    return offset
