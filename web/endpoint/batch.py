"""Group commit for purchases: concurrent purchases of a game, one transaction.

Every sale takes the next entry of its game's pool, so every sale updates the pool's row, and
PostgreSQL holds that row's lock until the transaction's commit is on disk. Sold one at a
time, purchases of a game are serialized on that lock: its holding time (a round trip, the
signature, the commit's flush, and the wait for a CPU on a busy machine) caps the sales a
second whatever the number of processes or connections (docs/endpoint-benchmarks.md).

The batcher gathers the purchases of a game that arrive while a batch is being sold and sells
them together (`Ledger.sell_batch`): one debit statement, one draw of as many consecutive
entries, one play and ledger row per purchase, one commit; the pool row is locked once per
batch. A purchase the batch cannot sell cleanly (balance short, Idempotency-Key already used,
the pool spent, any database error, which rolls the whole batch back) is answered None and
its caller buys it on its own (`Ledger.try_purchase`), which gives the exact answer.

On PostgreSQL a batch is sold in one round trip when the process knows where the pool stands:
its plays are signed before the statement is sent, for the entries that follow the process's
own last draw (`NextEntries`), and the statement sells them only if the pool is still there and
every purchase is paid, or changes nothing (`Statements.batch_sale`). The pool row is then
locked for the statement and its commit only, not for the signatures and a second round trip.
A wrong guess (another process or a single sale drew meanwhile, a purchase is refused) sells
the batch the long way: one statement debits and draws, the plays are signed, a second inserts
them.

On SQLite the batch is sold inline on the event loop (`Ledger._sell_batch_local`): the
purchases it holds are those that reached the batcher in one turn of the loop, each with the
single sale's statements in a savepoint of its own, and one commit for them all.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import TYPE_CHECKING, Any

from web.endpoint.database import UNAVAILABLE
from web.endpoint.errors import database_unavailable

if TYPE_CHECKING:
    from web.endpoint.ledger import Account, Ledger

MAX_BATCH = 64
GUESS_BACKOFF = 8  # batches of a pool sold the long way after a wrong guess

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
                except UNAVAILABLE as error:
                    if not self.ledger.db.is_sqlite:  # a lost connection: each on a new one
                        results = [None] * len(batch)
                    else:  # the file locked a whole busy timeout: not that long again each
                        refused = database_unavailable(error)
                        for _, _, future in batch:
                            if not future.done():
                                future.set_exception(refused)
                        continue
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


class NextEntries:
    """Where this process expects each pool's next entry to be: the index after its own last
    draw. A batch signed ahead claims the entries it guesses. After a wrong guess the pool's
    next GUESS_BACKOFF batches are sold the long way (which tells the truth again), so
    processes that share a pool, each drawing between the other's batches, do not keep signing
    for nothing."""

    def __init__(self) -> None:
        self._next: dict[int, int] = {}
        self._backoff: dict[int, int] = {}
        self._lock = threading.Lock()

    def claim(self, pool: int, count: int) -> int | None:
        """The first of `count` entries to sign ahead, claimed; None: sell the long way."""
        with self._lock:
            if self._backoff.get(pool, 0) > 0:
                self._backoff[pool] -= 1
                return None
            first = self._next.get(pool)
            if first is not None:
                self._next[pool] = first + count
            return first

    def drawn(self, pool: int, next_index: int) -> None:
        """A draw of this process left the pool's next entry at `next_index`."""
        with self._lock:
            self._next[pool] = next_index

    def missed(self, pool: int) -> None:
        """A guess was wrong (or another draw made it unknown): forget it, back off."""
        with self._lock:
            self._next.pop(pool, None)
            self._backoff[pool] = GUESS_BACKOFF
