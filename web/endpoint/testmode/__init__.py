"""Test mode (LOTTERY_TEST_MODE=1): routes that choose a purchase's entry and move every clock,
for end-to-end tests only, plugged into the endpoint at start by web/endpoint/app.py alone (no
sale imports this package: tests/test_import_rules.py). It announces itself (a warning at
start, `test_mode` in /api/health) and keeps test and real plays in separate databases
(docs/endpoint.md, Test mode).

The first test-mode start on a database without paid plays marks it a test database (the
`meta` row TEST_DATABASE). From then on a test-mode endpoint may use it, and an endpoint not in
test mode refuses it (its plays were bought under a caller's chosen entries and moved clocks);
a test-mode endpoint refuses a database with paid plays that is not so marked (they are real).
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable

from sqlalchemy import Connection, func, insert, select

from engine.math.leaves import KEY_BYTES
from engine.math.pool import Pool
from engine.math.table import PrizeTable
from web.endpoint.clock import Clock
from web.endpoint.pools.pools import PoolRow, Pools
from web.endpoint.sales.seller import SaleParts, Seller
from web.endpoint.store.database import MIGRATION_LOCK, Database
from web.endpoint.store.schema import meta, plays
from web.endpoint.testmode.clock import read_clock_offset
from web.endpoint.testmode.seller import TestModeSeller

TEST_DATABASE = "test_database_since"  # meta row: when test mode first used this database
WARNING = (
    "TEST MODE IS ON (LOTTERY_TEST_MODE=1): any caller can choose the entry its next purchase "
    "takes and move every clock of this database. Never on a public endpoint."
)


def fixed_lay_out(seed: str) -> Callable[[PrizeTable, int], Pool]:
    """Test mode (LOTTERY_TEST_POOL_SEED): lay each game's pools out from the seed instead of
    `secrets`, so every entry of a fresh test database (its outcome and its scenario seed) is
    the same on every machine and run: a test that buys in a fixed order sees fixed books.
    Its key and its shuffle's bytes are SHAKE-256 streams of the seed, the game's id and how
    many of the game's pools this process laid out before (a game's pools, paid and free, each
    their own: the paid pool is laid out first, at start or at the first purchase)."""
    made: dict[str, int] = {}
    lock = threading.Lock()

    def lay_out(table: PrizeTable, size: int) -> Pool:
        with lock:
            count = made.get(table.game, 0)
            made[table.game] = count + 1
        base = f"lottery-test-pool/1|{seed}|{table.game}|{size}|{count}".encode()
        key = hashlib.shake_256(base + b"|key").digest(KEY_BYTES)
        drawn = 0

        def entropy(n: int) -> bytes:
            nonlocal drawn
            block = hashlib.shake_256(base + b"|shuffle|" + str(drawn).encode()).digest(n)
            drawn += 1
            return block

        return Pool.lay_out(table, size, key=key, entropy=entropy)

    return lay_out


class MixedDatabase(RuntimeError):
    """An endpoint refused to start: test mode and real plays would share one database."""


def guard(db: Database, test_mode: bool, now_ms: int) -> None:
    """Refuse (MixedDatabase, saying what to do) a database that would mix test and real
    plays; in test mode, mark the database a test database and log the warning."""
    with db.begin() as conn:
        db.advisory_lock(conn, MIGRATION_LOCK)
        marked = conn.execute(select(meta.c.value).where(meta.c.key == TEST_DATABASE)).scalar()
        if not test_mode:
            if marked is not None:
                raise MixedDatabase(
                    "this database was used in test mode (LOTTERY_TEST_MODE=1): its plays were "
                    "bought with chosen entries and moved clocks, so no real play may join them. "
                    "Point the endpoint at another database (DATABASE_URL or LOTTERY_VAR_DIR)."
                )
            return
        if marked is None:
            if conn.execute(select(plays.c.id).limit(1)).first() is not None:
                raise MixedDatabase(
                    "LOTTERY_TEST_MODE=1 refused: this database holds real (paid) plays, and test "
                    "mode lets any caller choose entries and move clocks. Run tests on a "
                    "database of their own (DATABASE_URL or LOTTERY_VAR_DIR)."
                )
            conn.execute(insert(meta).values(key=TEST_DATABASE, value=str(now_ms)))
    logging.getLogger("web.endpoint").warning("%s", WARNING)


def install(db: Database, clock: Clock, pools: Pools) -> None:
    """Test mode's changes to an open ledger: its clock moved on as far as this database's
    test clock says, and a pool's sold entries counted from its plays (taken out of order)."""
    clock.offset_ms = read_clock_offset(db)
    pools.sold = sold_by_plays


def sold_by_plays(conn: Connection, row: PoolRow) -> int:
    """How many entries of a pool are sold: its plays (test mode takes entries out of order)."""
    found = conn.execute(select(func.count()).select_from(plays).where(plays.c.pool_ref == row.id))
    return int(found.scalar_one())


def seller(seller: Seller, parts: SaleParts) -> Seller:
    """Test mode's seller wrapped around the database's own."""
    return TestModeSeller(seller, parts)
