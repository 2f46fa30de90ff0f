"""Group commit for purchases: concurrent purchases of a game, one transaction.

Every sale takes the next entry of its game's pool, so every sale updates the pool's row, and
PostgreSQL holds that row's lock until the transaction's commit is on disk. Sold one at a
time, purchases of a game are serialized on that lock: its holding time (a round trip, the
signature, the commit's flush, and the wait for a CPU on a busy machine) caps the sales a
second whatever the number of processes or connections (docs/endpoint.md, Benchmark).

The batcher gathers the purchases of a game that arrive while a batch is being sold and sells
them together (`Ledger.sell_batch`): one debit statement, one draw of as many consecutive
entries, one play and ledger row per purchase, one commit; the pool row is locked once per
batch. A purchase the batch cannot sell cleanly (balance short, Idempotency-Key already used,
the pool spent, any database error, which rolls the whole batch back) is answered None and
its caller buys it on its own (`Ledger.try_purchase`), which gives the exact answer.

On SQLite the batch is sold inline on the event loop (`Ledger._sell_batch_local`): the
purchases it holds are those that reached the batcher in one turn of the loop, each with the
single sale's statements in a savepoint of its own, and one commit for them all.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from web.endpoint.ledger import Account, Ledger

MAX_BATCH = 64

Waiting = list[tuple["Account", str, "asyncio.Future[dict[str, Any] | None]"]]


class SaleBatcher:
    """The purchases waiting to be sold, by event loop and game; one batch in flight per game."""

    def __init__(self, ledger: Ledger, max_batch: int = MAX_BATCH) -> None:
        self.ledger = ledger
        self.max_batch = max_batch
        # (loop, game) -> waiting purchases; present while a drain task runs for it
        self._waiting: dict[tuple[asyncio.AbstractEventLoop, str], Waiting] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def buy(self, account: Account, game: str, key: str) -> dict[str, Any] | None:
        """The sale of one play in a batch, or None: then buy it on its own."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[dict[str, Any] | None] = loop.create_future()
        slot = (loop, game)
        waiting = self._waiting.get(slot)
        if waiting is None:
            waiting = self._waiting[slot] = []
            task = loop.create_task(self._drain(slot, waiting))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        waiting.append((account, key, future))
        return await future

    async def _drain(self, slot: tuple[asyncio.AbstractEventLoop, str], waiting: Waiting) -> None:
        game = slot[1]
        batch: Waiting = []
        try:
            while waiting:
                batch = waiting[: self.max_batch]
                del waiting[: len(batch)]
                requests = [(account, key) for account, key, _ in batch]
                try:
                    results = await self.ledger.db.run(self.ledger.sell_batch, game, requests)
                except Exception:  # rolled back: each is bought on its own, for its own answer
                    logging.getLogger("web.endpoint").debug(
                        "batch of %s failed", game, exc_info=True
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
