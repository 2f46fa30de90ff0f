"""The hash of each play's book, made just before its sale or recorded just after, off the
purchase's path.

A play's recall (GET /api/plays/{n}/recall) rebuilds the book from the ledger's entry and
refuses it when its SHA-256 differs from the one recorded for the play: an engine change can
never make a past play show something else. Building a book costs CPU (well under a
millisecond, docs/changelog.md), which in the purchase's own transaction held the pool's lock
and halved the sales a second; so no sale builds a book. Each endpoint process's hasher
(`keep_hashing`, started with the app) has them built in a process of its own at a lower
priority (web/endpoint/sales/hashing_process.py), batch after batch, and looks again every
HASH_INTERVAL seconds once nothing is due:

- first ahead of the sales (`hash_ahead`, web/endpoint/sales/presale_hashes.py): the books of the
  next entries of each pool the process sells (at most PRESALE_LIMIT ahead), from the pool's
  own files, so a sale writes its play's hash with the play's row;
- then behind them (`hash_behind`): the plays sold with no hash (the hasher had not reached
  their entry: the process's first sales of a pool, a burst faster than it, another process's
  sales), whose hashes it records.

Either way the book is the one this engine builds for the entry the play was sold, and the
process that hashes it is the one that sells: its hashes are as good as its sales. Hashing
ahead spares the database reading every play back and rewriting its row (the reading and
recording were most of the hasher's cost, docs/changelog.md). A process that stops hashes
what is still waiting first (`hash_before_stopping`). Several processes may hash the same plays:
the UPDATE keeps the first (`WHERE book_hash IS NULL`), and every process builds the same
bytes. A play whose hash a process that ended without stopping (killed) never recorded gets it
at its recall.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

import anyio
from sqlalchemy import Connection, select, update

from web.endpoint.pools.pools import PoolRow
from web.endpoint.sales.hashing_process import HashingProcess, Row, digests, entry_hashes
from web.endpoint.sales.presale_hashes import HASH_BATCH, PresaleHashes
from web.endpoint.store.database import Database
from web.endpoint.store.schema import plays, pools

HASH_INTERVAL = 0.25  # seconds between two looks for unhashed plays
STOP_HASHING_SECONDS = 30.0  # at most this long hashing what is left when the endpoint stops
RESTART_WAIT = 5.0  # seconds before hashing again after the hashing process died


@dataclass(frozen=True)
class Sources:
    """What the hasher works from: the database, the pools this process sells (`selling`), the
    hashes it makes ahead for their sales, and where each pool's files are."""

    db: Database
    selling: Callable[[], list[PoolRow]]
    presale: PresaleHashes
    pool_path: Callable[[str], Path]


def next_indexes(db: Database, refs: list[int]) -> list[tuple[int, int]]:
    """(pool ref, next entry) of these pools, as the database has them now."""
    with db.begin() as conn:
        query = select(pools.c.id, pools.c.next_index).where(pools.c.id.in_(refs))
        return [(int(ref), int(at)) for ref, at in conn.execute(query).all()]


async def hash_ahead(sources: Sources, worker: HashingProcess) -> int:
    """Hash a batch of the next entries of each pool this process sells (`PresaleHashes` says
    which); returns how many were hashed. A pool whose files cannot be read is left to hashing
    behind (which reads the plays' rows), with one warning."""
    presale = sources.presale
    selling = {pool.id: pool for pool in sources.selling() if pool.id not in presale.unread}
    presale.forget(set(selling))
    if not selling:
        return 0
    done = 0
    for ref, next_index in await sources.db.run(next_indexes, sources.db, list(selling)):
        pool = selling[ref]
        directory = str(sources.pool_path(pool.pool_id))
        presale.look(ref, next_index)
        start, end = presale.wanted(ref, pool.size)
        if start < end:
            try:
                found = await worker.run(entry_hashes, directory, start, end)
            except (OSError, ValueError) as error:  # missing or damaged pool files
                presale.unread.add(ref)
                logging.getLogger("web.endpoint").warning(
                    "not hashing ahead in pool %s (its plays are hashed after their sale): %s",
                    pool.pool_id,
                    error,
                )
                continue
            presale.add(ref, start, found)
            done += end - start
    return done


def record(conn: Connection, play_number: int, digest: str) -> None:
    """Record a play's book hash unless one is recorded already."""
    conn.execute(
        update(plays)
        .where(plays.c.play_number == play_number, plays.c.book_hash.is_(None))
        .values(book_hash=digest)
    )


def unhashed(db: Database, batch: int = HASH_BATCH) -> list[Row]:
    """Up to `batch` plays that have no book hash yet, oldest first."""
    query = (
        select(plays.c.play_number, plays.c.game, plays.c.model, plays.c.composition, plays.c.seed)
        .where(plays.c.book_hash.is_(None))
        .order_by(plays.c.id)
        .limit(batch)
    )
    with db.begin() as conn:
        return [tuple(row) for row in conn.execute(query).all()]  # type: ignore[misc]


RECORD_SQLITE = "UPDATE plays SET book_hash = ? WHERE play_number = ? AND book_hash IS NULL"
# PostgreSQL: the whole batch in one statement (one round trip, one plan), not one UPDATE a play
RECORD_PG = (
    "UPDATE plays SET book_hash = found.digest"
    " FROM unnest(%(numbers)s::bigint[], %(digests)s::text[]) AS found(number, digest)"
    " WHERE plays.play_number = found.number AND plays.book_hash IS NULL"
)


def record_all(db: Database, found: list[tuple[int, str]]) -> None:
    """Record the hashes found, in one transaction and one statement (a hash already recorded
    stays)."""
    if not found:
        return
    with db.begin() as conn:
        cursor = conn.connection.cursor()
        try:
            if db.is_sqlite:
                cursor.executemany(RECORD_SQLITE, [(digest, number) for number, digest in found])
            else:
                numbers = [number for number, _ in found]
                cursor.execute(RECORD_PG, {"numbers": numbers, "digests": [d for _, d in found]})
        finally:
            cursor.close()


def fill(db: Database, batch: int = HASH_BATCH) -> int:
    """Hash the books of up to `batch` plays that have no hash yet, here; returns how many."""
    rows = unhashed(db, batch)
    if rows:
        record_all(db, digests(rows))
    return len(rows)


def fill_all(db: Database) -> int:
    """Hash every play that has none (batch after batch), here; returns how many."""
    total = 0
    while True:
        done = fill(db)
        total += done
        if done < HASH_BATCH:
            return total


async def hash_behind(db: Database, worker: HashingProcess) -> int:
    """Hash a batch of the plays that have no hash (their books built in the hashing process,
    their hashes recorded); returns how many."""
    # (database work as the sales do it: inline on SQLite, where a thread would only wait on
    # the same lock the event loop takes; in a thread on PostgreSQL)
    rows = await db.run(unhashed, db)
    if rows:
        found = await worker.run(digests, rows)
        await db.run(record_all, db, found)
    return len(rows)


async def hash_waiting(db: Database, worker: HashingProcess) -> int:
    """Hash, batch after batch, every play that has no hash; returns how many."""
    done = 0
    while (behind := await hash_behind(db, worker)) == HASH_BATCH:
        done += behind
    return done + behind


async def hash_before_stopping(db: Database, worker: HashingProcess) -> None:
    """At a stop, the plays still unhashed hashed by this engine, the one that sold them (within
    STOP_HASHING_SECONDS): after a deployment a new engine would hash them otherwise, and a
    change to their books would go unseen."""
    log = logging.getLogger("web.endpoint")
    try:
        with anyio.fail_after(STOP_HASHING_SECONDS):
            while True:
                try:
                    await hash_waiting(db, worker)
                    break
                except BrokenProcessPool:  # started again: go on with the new one
                    await anyio.sleep(0.1)  # (and a dead one never spins without yielding)
    except TimeoutError:
        log.warning("stopped with plays still unhashed after %ss", STOP_HASHING_SECONDS)
    except Exception:
        log.exception("hashing books before stopping failed")


async def keep_hashing(sources: Sources, worker: HashingProcess) -> None:
    """The app's hasher: batch after batch, the next entries of the pools on sale hashed
    ahead, and when none are due, the unhashed plays' books built and their hashes recorded
    (ahead first: a hash made ahead costs the database nothing more); every HASH_INTERVAL
    when both are done, and RESTART_WAIT after its process died (started again). Runs until
    cancelled."""
    while True:
        await anyio.sleep(HASH_INTERVAL)
        try:
            while (
                await hash_ahead(sources, worker)
                or await hash_behind(sources.db, worker) == HASH_BATCH
            ):
                pass
        except BrokenProcessPool:  # said and started again (HashingProcess.run)
            await anyio.sleep(RESTART_WAIT)
        except Exception:
            logging.getLogger("web.endpoint").exception("hashing books failed")
