"""Test mode's seller, wrapped around the database's own at start (web/endpoint/app.py): a
purchase takes the entry its account reserved (web/endpoint/testmode/reservations.py)."""

from __future__ import annotations

from sqlalchemy import Connection, select

from engine.game import Game
from web.endpoint.player.accounts import Account
from web.endpoint.pools.pools import PoolRow
from web.endpoint.sales.sale import Answer
from web.endpoint.sales.seller import Requests, SaleParts, Seller
from web.endpoint.sales.sqlite_seller import StatementSale
from web.endpoint.store.schema import plays, reservations


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
