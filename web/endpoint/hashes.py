"""The hash of each play's book, recorded just after its sale, off the purchase's path.

A play's recall (GET /api/plays/{n}/recall) rebuilds the book from the ledger's entry and
refuses it when its SHA-256 differs from the one recorded for the play: an engine change can
never make a past play show something else. Building a book costs CPU (well under a
millisecond, docs/endpoint.md), which in the purchase's own transaction held the pool's lock
and halved the sales a second; so a sale records no hash, and each endpoint process's hasher
(started with the app, every HASH_INTERVAL seconds) builds the books of the plays that have
none and records their hashes, a batch at a time; the books are built in a process of its own at a
lower priority (`hashing_process`). A process that stops hashes what is still waiting first
(`hash_before_stopping`). Several processes may hash the same plays:
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
from concurrent.futures import ProcessPoolExecutor

import anyio
from sqlalchemy import Connection, select, update

from engine import games
from engine.outcome import Composition
from web.endpoint.ledger import Ledger
from web.endpoint.schema import plays

HASH_INTERVAL = 0.25  # seconds between two looks for unhashed plays
HASH_BATCH = 256
STOP_HASHING_SECONDS = 30.0  # at most this long hashing what is left when the endpoint stops


def book_hash(game: str, model: str, composition: Composition, seed: bytes) -> str:
    """SHA-256 hex of the canonical bytes (engine/book.py) of the book the engine builds for
    an entry: what a play's recall is checked against."""
    built = games.get(game).book(model, composition, seed)
    return hashlib.sha256(built.to_json().encode()).hexdigest()


def hash_of_row(game: str, model: str, composition_json: str, seed_hex: str) -> str:
    """The book hash of a plays row's entry (its composition as stored, JSON)."""
    composition = Composition.from_json(json.loads(composition_json))
    return book_hash(game, model, composition, bytes.fromhex(seed_hex))


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


async def hash_waiting(ledger: Ledger, worker: ProcessPoolExecutor) -> int:
    """Hash, batch after batch, the plays that have no hash (their books built in the hashing
    process); returns how many."""
    loop = asyncio.get_running_loop()
    done = 0
    # (database work as the sales do it: inline on SQLite, where a thread would only wait on
    # the same lock the event loop takes; in a thread on PostgreSQL)
    while rows := await ledger.db.run(unhashed, ledger):
        found = await loop.run_in_executor(worker, digests, rows)
        await ledger.db.run(record_all, ledger, found)
        done += len(rows)
        if len(rows) < HASH_BATCH:
            break
    return done


async def hash_before_stopping(ledger: Ledger, worker: ProcessPoolExecutor) -> None:
    """At a stop, the plays still unhashed hashed by this engine, the one that sold them (within
    STOP_HASHING_SECONDS): after a deployment a new engine would hash them otherwise, and a
    change to their books would go unseen."""
    log = logging.getLogger("web.endpoint")
    try:
        with anyio.fail_after(STOP_HASHING_SECONDS):
            await hash_waiting(ledger, worker)
    except TimeoutError:
        log.warning("stopped with plays still unhashed after %ss", STOP_HASHING_SECONDS)
    except Exception:
        log.exception("hashing books before stopping failed")


async def keep_hashing(ledger: Ledger, worker: ProcessPoolExecutor) -> None:
    """The app's hasher: every HASH_INTERVAL, the unhashed plays' books built in the hashing
    process and their hashes recorded. Runs until cancelled."""
    while True:
        await anyio.sleep(HASH_INTERVAL)
        try:
            await hash_waiting(ledger, worker)
        except Exception:
            logging.getLogger("web.endpoint").exception("hashing books failed")
