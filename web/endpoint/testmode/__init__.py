"""Test mode (LOTTERY_TEST_MODE=1): routes that choose a purchase's entry and move every clock,
for end-to-end tests only. It announces itself (a warning at start, `test_mode` in
/api/health) and keeps test and real plays in separate databases (docs/endpoint.md, Test mode).

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
from typing import TYPE_CHECKING

from sqlalchemy import Connection, insert, select

from engine.game import Game
from engine.math.leaves import KEY_BYTES
from engine.math.pool import Pool
from engine.math.table import PrizeTable
from web.endpoint.sales.sale import Answer
from web.endpoint.sales.seller import Requests, SaleParts, Seller
from web.endpoint.sales.sqlite_seller import StatementSale
from web.endpoint.sales.statements import PoolRow
from web.endpoint.store.database import MIGRATION_LOCK, Database
from web.endpoint.store.schema import meta, plays, reservations

if TYPE_CHECKING:
    from web.endpoint.sales.ledger import Account

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


class TestModeSeller:
    """Test mode's seller, wrapping the database's own: each purchase on its own (no batches),
    in one transaction of statements (`StatementSale`, on either database) whose draw takes
    the entry the account reserved (POST /api/test/next-entry), else the pool's next entry
    that is neither sold nor reserved. Lost connections are treated as the wrapped seller
    treats them."""

    __test__ = False  # (not a test class, for pytest)
    batches = False

    def __init__(self, seller: Seller, parts: SaleParts) -> None:
        self.seller = seller
        self.retries_lost = seller.retries_lost
        self.parts = parts
        self.sale = StatementSale(parts)

    def sell(self, account: Account, game: Game, key: str | None) -> Answer:
        """A purchase in a transaction of its own, its entry the reserved one if any."""
        with self.parts.db.begin() as conn:
            return self.sale(conn, account, game, key, self.draw)

    def sell_batch(self, game: Game, requests: Requests) -> list[Answer | None]:
        """No batches in test mode: each is bought on its own."""
        return [None] * len(requests)

    def draw(self, conn: Connection, account: Account, pool: PoolRow) -> int:
        """Take the reserved entry, or the next one not taken out of order."""
        held = self.parts.sql.reserved.value(conn, account=account.pk, game=pool.game, pool=pool.id)
        if held is not None:
            conn.execute(
                reservations.delete().where(
                    reservations.c.account_id == account.pk, reservations.c.game == pool.game
                )
            )
            return int(held)
        while True:
            index = self.sale.next_entry(conn, account, pool)
            if not entry_taken(conn, pool.id, index):
                return index


def entry_taken(conn: Connection, pool_ref: int, index: int) -> bool:
    """True when a pool entry is sold or reserved (test mode sells entries out of order;
    otherwise the unique (pool, index) constraint is the guard)."""
    sold = conn.execute(
        select(plays.c.id).where(plays.c.pool_ref == pool_ref, plays.c.pool_index == index)
    ).first()
    held = conn.execute(
        select(reservations.c.account_id).where(
            reservations.c.pool_ref == pool_ref, reservations.c.pool_index == index
        )
    ).first()
    return sold is not None or held is not None
