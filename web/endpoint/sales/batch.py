"""Group commit for purchases: concurrent purchases of a game, one transaction.

Every sale takes the next entry of its game's pool, so every sale updates the pool's row, and
PostgreSQL holds that row's lock until the transaction's commit is on disk. Sold one at a
time, purchases of a game are serialized on that lock: its holding time (a round trip, the
signature, the commit's flush, and the wait for a CPU on a busy machine) caps the sales a
second whatever the number of processes or connections (docs/changelog.md).

The batcher gathers the purchases of a game that arrive while a batch is being sold and has
its seller sell them together (`Seller.sell_batch`, web/endpoint/sales/seller.py). A purchase the
batch cannot sell cleanly (balance short, a spend limit or the log-out of play refusing it,
Idempotency-Key already used, the pool spent, any database error, which rolls the whole batch
back) is answered None and its caller buys it on its own (`Checkout.once`), which gives the
exact answer.

On PostgreSQL (web/endpoint/sales/postgres_seller.py) a batch is one debit statement, one draw of as
many consecutive entries, one play and ledger row per purchase, one commit: the pool row is
locked once per batch. It is sold in one round trip when the process knows where the pool
stands: its plays are signed before the statement is sent, for the entries that follow the
process's own last draw (`DrawGuesses`, sales/postgres_seller.py), and the statement sells
them only if the pool is still there and every purchase is paid, or changes nothing
(`PostgresStatements.batch_sale`). A wrong guess (another process or a single sale drew meanwhile, a
purchase is refused) sells the batch the long way: one statement debits and draws, the plays
are signed, a second inserts them.

On SQLite (web/endpoint/sales/sqlite_seller.py) the batch is sold inline on the event loop: the
purchases it holds are those that reached the batcher in one turn of the loop, each with the
single sale's statements in a savepoint of its own, and one commit for them all.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from engine.game import Game
from web.endpoint.errors import database_unavailable
from web.endpoint.store.database import UNAVAILABLE

if TYPE_CHECKING:
    from web.endpoint.player.accounts import Account
    from web.endpoint.sales.seller import Seller

Run = Callable[..., Awaitable[Any]]  # runs a database call as the sales do (Database.run)

MAX_BATCH = 64

Waiting = list[tuple["Account", str, "asyncio.Future[dict[str, Any] | None]"]]


class SaleBatcher:
    """The purchases waiting to be sold, by event loop and game; one batch in flight per game."""

    def __init__(self, seller: Seller, run: Run, max_batch: int = MAX_BATCH) -> None:
        self.seller = seller
        self.run = run
        self.max_batch = max_batch
        # (loop, game) -> waiting purchases; present while a drain task runs for it
        self._waiting: dict[tuple[asyncio.AbstractEventLoop, str], Waiting] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def buy(self, account: Account, game: Game, key: str) -> dict[str, Any] | None:
        """The sale of one play in a batch, or None: then buy it on its own."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[dict[str, Any] | None] = loop.create_future()
        slot = (loop, game.id)
        waiting = self._waiting.get(slot)
        if waiting is None:
            waiting = self._waiting[slot] = []
            task = loop.create_task(self._drain(slot, game, waiting))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        waiting.append((account, key, future))
        return await future

    async def _drain(
        self, slot: tuple[asyncio.AbstractEventLoop, str], game: Game, waiting: Waiting
    ) -> None:
        batch: Waiting = []
        try:
            while waiting:
                batch = waiting[: self.max_batch]
                del waiting[: len(batch)]
                requests = [(account, key) for account, key, _ in batch]
                try:
                    results = await self.run(self.seller.sell_batch, game, requests)
                except UNAVAILABLE as error:
                    if self.seller.retries_lost:  # a lost connection: each on a new one
                        results = [None] * len(batch)
                    else:  # the file locked a whole busy timeout: not that long again each
                        refused = database_unavailable(error)
                        for _, _, future in batch:
                            if not future.done():
                                future.set_exception(refused)
                        continue
                except Exception:  # rolled back: each is bought on its own, for its own answer
                    logging.getLogger("web.endpoint").debug(
                        "batch of %s failed", game.id, exc_info=True
                    )
                    results = [None] * len(batch)
                for (_, _, future), result in zip(batch, results, strict=True):
                    if not future.done():
                        future.set_result(result)
        finally:
            del self._waiting[slot]
            for _, _, future in batch + waiting:  # cancelled: let the rest buy on their own
                if not future.done():
                    future.set_result(None)
