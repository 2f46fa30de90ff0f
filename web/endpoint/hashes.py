"""The hash of each play's book, made just before its sale or recorded just after, off the
purchase's path.

A play's recall (GET /api/plays/{n}/recall) rebuilds the book from the ledger's entry and
refuses it when its SHA-256 differs from the one recorded for the play: an engine change can
never make a past play show something else. Building a book costs CPU (well under a
millisecond, docs/endpoint.md), which in the purchase's own transaction held the pool's lock
and halved the sales a second; so no sale builds a book. Each endpoint process's hasher
(`keep_hashing`, started with the app) has them built in a process of its own at a lower
priority (`hashing_process`), batch after batch, and looks again every HASH_INTERVAL seconds
once nothing is due:

- first ahead of the sales (`hash_ahead`, `Ahead`): the books of the next entries of each pool
  the process sells (at most AHEAD ahead), from the pool's own files, so a sale writes its
  play's hash with the play's row;
- then behind them (`hash_behind`): the plays sold with no hash (the hasher had not reached
  their entry: the process's first sales of a pool, a burst faster than it, another process's
  sales), whose hashes it records.

Either way the book is the one this engine builds for the entry the play was sold, and the
process that hashes it is the one that sells: its hashes are as good as its sales. Hashing
ahead spares the database reading every play back and rewriting its row (the reading and
recording were most of the hasher's cost, docs/endpoint.md). A process that stops hashes
what is still waiting first (`hash_before_stopping`). Several processes may hash the same plays:
the UPDATE keeps the first (`WHERE book_hash IS NULL`), and every process builds the same
bytes. A play whose hash a process that ended without stopping (killed) never recorded gets it
at its recall.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import hashlib
import json
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from itertools import takewhile
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import orjson
from sqlalchemy import Connection, select, update

from engine import games
from engine.book import Book
from engine.math.pool import Pool
from engine.outcome import Composition
from web.endpoint import pool_store
from web.endpoint.schema import plays, pools

if TYPE_CHECKING:  # (not imported at run time: the hashing process imports this module)
    from web.endpoint.ledger import Ledger

HASH_INTERVAL = 0.25  # seconds between two looks for unhashed plays
HASH_BATCH = 256
AHEAD = 4096  # entries of each pool on sale hashed before they are sold
STOP_HASHING_SECONDS = 30.0  # at most this long hashing what is left when the endpoint stops
RESTART_WAIT = 5.0  # seconds before hashing again after the hashing process died

T = TypeVar("T")


def book_hash(game: str, model: str, composition: Composition, seed: bytes) -> str:
    """SHA-256 hex of the canonical bytes (engine/book.py) of the book the engine builds for
    an entry: what a play's recall is checked against."""
    built = games.get(game).book(model, composition, seed)
    return hashlib.sha256(canonical_bytes(built)).hexdigest()


def canonical_bytes(built: Book) -> bytes:
    """`built.to_json().encode()`, written by orjson: the same bytes (docs/books.md, "the
    bytes": sorted keys, no whitespace, integers, ASCII strings written as they are) in about
    a sixth of the time, which was a quarter of a book hash's cost after building the book.
    A book outside that form (an integer beyond 64 bits, a string that is not ASCII, which
    `ensure_ascii` escapes and orjson does not) is written by to_json itself."""
    try:
        written = orjson.dumps(built.as_dict(), option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return built.to_json().encode()
    return written if written.isascii() else built.to_json().encode()


def hash_of_row(game: str, model: str, composition_json: str, seed_hex: str) -> str:
    """The book hash of a plays row's entry (its composition as stored, JSON)."""
    composition = Composition.from_json(json.loads(composition_json))
    return book_hash(game, model, composition, bytes.fromhex(seed_hex))


class Ahead:
    """The book hashes of the entries each pool will sell next, made before they are sold;
    `take` hands a sale its entry's hash (the batch's thread), the hasher adds them (the
    event loop). Where it hashes follows the pace of the sales, measured by the entries sold
    between two looks (a look each batch the hasher builds): it starts that many entries past
    the pool's next (those are sold while it builds), and reaches four looks' worth further,
    at least HASH_BATCH and at most AHEAD."""

    def __init__(self) -> None:
        self._digests: dict[int, dict[int, str]] = {}  # pool ref -> entry index -> hash
        self._end: dict[int, int] = {}  # pool ref -> the end of the entries asked for
        self._seen: dict[int, tuple[int, int, int]] = {}  # pool ref -> (next, lead, reach)
        self.unread: set[int] = set()  # pools whose files the hashing process could not read
        self._lock = threading.Lock()

    def take(self, pool_ref: int, index: int) -> str | None:
        """The hash of this entry's book, made ahead, or None (then it is made after the
        sale); each is handed out once."""
        with self._lock:
            found = self._digests.get(pool_ref)
            return found.pop(index, None) if found is not None else None

    def look(self, pool_ref: int, next_index: int) -> None:
        """A pool's next entry now: the hashes of those passed are forgotten, and where to
        hash follows the entries sold since the last look."""
        with self._lock:
            found = self._digests.setdefault(pool_ref, {})
            for index in list(takewhile(lambda i: i < next_index, found)):  # (ascending)
                del found[index]
            last = self._seen.get(pool_ref, (next_index, 0, 0))[0]
            sold = next_index - last
            reach = min(AHEAD, max(HASH_BATCH, 4 * sold))
            self._seen[pool_ref] = (next_index, min(sold, AHEAD), reach)

    def wanted(self, pool_ref: int, size: int) -> tuple[int, int]:
        """The entries of a pool of `size` to hash next, [start, end): at most HASH_BATCH,
        past those sold while they are built and within reach (as of the last look); start ==
        end when none are."""
        with self._lock:
            next_index, lead, reach = self._seen[pool_ref]
            start = max(next_index + lead, self._end.get(pool_ref, 0))
            end = min(size, next_index + lead + reach, start + HASH_BATCH)
            return start, max(start, end)

    def add(self, pool_ref: int, start: int, found: list[str]) -> None:
        """The hashes of entries start, start + 1, ... of a pool."""
        with self._lock:
            digests = self._digests.setdefault(pool_ref, {})
            for offset, digest in enumerate(found):
                digests[start + offset] = digest
            self._end[pool_ref] = max(self._end.get(pool_ref, 0), start + len(found))

    def forget(self, keep: set[int]) -> None:
        """Drop the pools not in `keep` (retired or spent)."""
        with self._lock:
            for pool_ref in set(self._digests) - keep:
                del self._digests[pool_ref]
                self._end.pop(pool_ref, None)
                self._seen.pop(pool_ref, None)


def warm() -> None:
    """Import the book builders and build one book of each game on sale, in the hashing
    process as the app starts: otherwise its first batch pays for its start while the sales
    pass the entries it hashes ahead."""
    for game in games.on_sale():
        composition = next(iter(game.table.tiers[0].composition_counts(1)))[0]
        game.book(game.table.model, composition, bytes(16))


_LOADED: dict[str, Pool] = {}  # the hashing process's pools, by directory


def entry_hashes(directory: str, start: int, end: int) -> list[str]:
    """The book hashes of a saved pool's entries [start, end) (pure CPU once its files are
    read: the app runs it in its hashing process, which keeps the pools it has read)."""
    pool = _LOADED.get(directory)
    if pool is None:
        if len(_LOADED) >= 8:
            _LOADED.clear()
        pool = _LOADED[directory] = pool_store.load(Path(directory))
    entries = (pool.entry(index) for index in range(start, end))
    return [book_hash(pool.game, pool.model, e.composition, e.seed) for e in entries]


def next_indexes(ledger: Ledger, refs: list[int]) -> list[tuple[int, int]]:
    """(pool ref, next entry) of these pools, as the database has them now."""
    with ledger.db.begin() as conn:
        query = select(pools.c.id, pools.c.next_index).where(pools.c.id.in_(refs))
        return [(int(ref), int(at)) for ref, at in conn.execute(query).all()]


async def hash_ahead(ledger: Ledger, worker: HashingProcess) -> int:
    """Hash a batch of the next entries of each pool this process sells (`Ahead` says which);
    returns how many were hashed. A pool whose files cannot be read is left to hashing behind
    (which reads the plays' rows), with one warning."""
    selling = {pool.id: pool for pool in ledger.selling() if pool.id not in ledger.ahead.unread}
    ledger.ahead.forget(set(selling))
    if not selling:
        return 0
    done = 0
    for ref, next_index in await ledger.db.run(next_indexes, ledger, list(selling)):
        pool = selling[ref]
        directory = str(ledger.pool_files.path(pool.pool_id))
        ledger.ahead.look(ref, next_index)
        start, end = ledger.ahead.wanted(ref, pool.size)
        if start < end:
            try:
                found = await worker.run(entry_hashes, directory, start, end)
            except (OSError, ValueError) as error:  # missing or damaged pool files
                ledger.ahead.unread.add(ref)
                logging.getLogger("web.endpoint").warning(
                    "not hashing ahead in pool %s (its plays are hashed after their sale): %s",
                    pool.pool_id,
                    error,
                )
                continue
            ledger.ahead.add(ref, start, found)
            done += end - start
    return done


def record(conn: Connection, play_number: int, digest: str) -> None:
    """Record a play's book hash unless one is recorded already."""
    conn.execute(
        update(plays)
        .where(plays.c.play_number == play_number, plays.c.book_hash.is_(None))
        .values(book_hash=digest)
    )


Row = tuple[int, str, str, str, str]  # play number, game, model, composition JSON, seed hex


def unhashed(ledger: Ledger, batch: int = HASH_BATCH) -> list[Row]:
    """Up to `batch` plays that have no book hash yet, oldest first."""
    query = (
        select(plays.c.play_number, plays.c.game, plays.c.model, plays.c.composition, plays.c.seed)
        .where(plays.c.book_hash.is_(None))
        .order_by(plays.c.id)
        .limit(batch)
    )
    with ledger.db.begin() as conn:
        return [tuple(row) for row in conn.execute(query).all()]  # type: ignore[misc]


def digests(rows: list[Row]) -> list[tuple[int, str]]:
    """The book hash of each row (pure CPU: the app runs it in its hashing process)."""
    return [
        (number, hash_of_row(game, model, comp, seed)) for number, game, model, comp, seed in rows
    ]


RECORD_SQLITE = "UPDATE plays SET book_hash = ? WHERE play_number = ? AND book_hash IS NULL"
# PostgreSQL: the whole batch in one statement (one round trip, one plan), not one UPDATE a play
RECORD_PG = (
    "UPDATE plays SET book_hash = found.digest"
    " FROM unnest(%(numbers)s::bigint[], %(digests)s::text[]) AS found(number, digest)"
    " WHERE plays.play_number = found.number AND plays.book_hash IS NULL"
)


def record_all(ledger: Ledger, found: list[tuple[int, str]]) -> None:
    """Record the hashes found, in one transaction and one statement (a hash already recorded
    stays)."""
    if not found:
        return
    with ledger.db.begin() as conn:
        cursor = conn.connection.cursor()
        try:
            if ledger.db.is_sqlite:
                cursor.executemany(RECORD_SQLITE, [(digest, number) for number, digest in found])
            else:
                numbers = [number for number, _ in found]
                cursor.execute(RECORD_PG, {"numbers": numbers, "digests": [d for _, d in found]})
        finally:
            cursor.close()


def fill(ledger: Ledger, batch: int = HASH_BATCH) -> int:
    """Hash the books of up to `batch` plays that have no hash yet, here; returns how many."""
    rows = unhashed(ledger, batch)
    if rows:
        record_all(ledger, digests(rows))
    return len(rows)


def fill_all(ledger: Ledger) -> int:
    """Hash every play that has none (batch after batch), here; returns how many."""
    total = 0
    while True:
        done = fill(ledger)
        total += done
        if done < HASH_BATCH:
            return total


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _lower_priority() -> None:
    """The hashing process yields the CPU to the processes that serve, and (on Linux) ends
    with the endpoint process that started it, however that one ends."""
    try:  # Linux: run only when a CPU would otherwise idle (SCHED_IDLE)
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (OSError, AttributeError):
        with contextlib.suppress(OSError, AttributeError):
            os.nice(10)
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() == 1:  # the endpoint ended before the line above took effect
            os._exit(0)


def hashing_process() -> ProcessPoolExecutor:
    """One worker process that builds books for hashing, at a lower priority. A thread would
    hold the interpreter's lock for the whole batch and stall the event loop (purchases' p99
    went from 50 to 300 ms); a process of its own leaves the serving process alone."""
    return ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=_lower_priority
    )


class HashingProcess:
    """The hashing process (`hashing_process`, warmed with `warm`), started again when it dies
    (the kernel's out-of-memory killer, a crash): a dead one would fail every batch after it,
    and the plays sold from then on would be hashed only at their recall, perhaps by a later
    engine. The batch it was building fails (BrokenProcessPool) and is done again; the
    restart is logged and counted (`on_restart`, the metrics' counter)."""

    def __init__(self, on_restart: Callable[[], None] = lambda: None) -> None:
        self.restarts = 0
        self._on_restart = on_restart
        self._executor = self._start()

    @staticmethod
    def _start() -> ProcessPoolExecutor:
        executor = hashing_process()
        executor.submit(warm)  # (started now, not by the first sales)
        return executor

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(*args) in the hashing process."""
        executor = self._executor
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, fn, *args)
        except BrokenProcessPool:
            if executor is self._executor:  # (not started again already by another caller)
                self.restarts += 1
                self._on_restart()
                logging.getLogger("web.endpoint").warning(
                    "the hashing process died; starting another (restart %d)", self.restarts
                )
                executor.shutdown(wait=False, cancel_futures=True)
                self._executor = self._start()
            raise

    def shutdown(self) -> None:
        """End the hashing process, waiting for it."""
        self._executor.shutdown(wait=True, cancel_futures=True)


async def hash_behind(ledger: Ledger, worker: HashingProcess) -> int:
    """Hash a batch of the plays that have no hash (their books built in the hashing process,
    their hashes recorded); returns how many."""
    # (database work as the sales do it: inline on SQLite, where a thread would only wait on
    # the same lock the event loop takes; in a thread on PostgreSQL)
    rows = await ledger.db.run(unhashed, ledger)
    if rows:
        found = await worker.run(digests, rows)
        await ledger.db.run(record_all, ledger, found)
    return len(rows)


async def hash_waiting(ledger: Ledger, worker: HashingProcess) -> int:
    """Hash, batch after batch, every play that has no hash; returns how many."""
    done = 0
    while (behind := await hash_behind(ledger, worker)) == HASH_BATCH:
        done += behind
    return done + behind


async def hash_before_stopping(ledger: Ledger, worker: HashingProcess) -> None:
    """At a stop, the plays still unhashed hashed by this engine, the one that sold them (within
    STOP_HASHING_SECONDS): after a deployment a new engine would hash them otherwise, and a
    change to their books would go unseen."""
    log = logging.getLogger("web.endpoint")
    try:
        with anyio.fail_after(STOP_HASHING_SECONDS):
            while True:
                try:
                    await hash_waiting(ledger, worker)
                    break
                except BrokenProcessPool:  # started again: go on with the new one
                    await anyio.sleep(0.1)  # (and a dead one never spins without yielding)
    except TimeoutError:
        log.warning("stopped with plays still unhashed after %ss", STOP_HASHING_SECONDS)
    except Exception:
        log.exception("hashing books before stopping failed")


async def keep_hashing(ledger: Ledger, worker: HashingProcess) -> None:
    """The app's hasher: batch after batch, the next entries of the pools on sale hashed
    ahead, and when none are due, the unhashed plays' books built and their hashes recorded
    (ahead first: a hash made ahead costs the database nothing more); every HASH_INTERVAL
    when both are done, and RESTART_WAIT after its process died (started again). Runs until
    cancelled."""
    while True:
        await anyio.sleep(HASH_INTERVAL)
        try:
            while (
                await hash_ahead(ledger, worker) or await hash_behind(ledger, worker) == HASH_BATCH
            ):
                pass
        except BrokenProcessPool:  # said and started again (HashingProcess.run)
            await anyio.sleep(RESTART_WAIT)
        except Exception:
            logging.getLogger("web.endpoint").exception("hashing books failed")
