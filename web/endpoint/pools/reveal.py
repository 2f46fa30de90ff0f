"""Commit, then reveal: closing a pool and publishing everything that recounts it.

A pool's Merkle root is recorded before its first sale (the commitment). A pool is closed when
it stops selling: sold out (every entry drawn, and the endpoint commits the next pool), or
retired by an operator (`build.py retire-pool`), which closes it at once: its next index is set
to its size, so no endpoint process can draw from it again, and the unsold entries are never
sold. Closing is recorded in `pool_closings`; a pool superseded by a newer one of its game (and
kind) or with every entry drawn is recorded closed the first time anyone asks about it.

Once closed, `GET /api/pools/{game}/{pool_id}/reveal` gives the pool's secret key and the
outcome of every entry in order, so anyone can recompute every seed, salt, leaf and the root
(docs/math.md, "Commit, then reveal"; `build.py audit-pool`). While it sells it is refused
(409 pool_on_sale): the key would tell the seeds, and the entries the prizes, of plays not yet
sold. `GET /api/pools/{game}/{pool_id}` is the pool's public commitment (commitment.json, as
written before the first sale) with when it was committed and closed.

A pool's closing is told in the public log in the transaction that records it, with the digest
of its reveal document (web/endpoint/log/entries.py; docs/log.md, "Records"): the document is
built there, from the pool's files and what that transaction records, and written once it has
committed, so the bytes served are the bytes the log's digest names.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update

from engine import games
from engine.tlog import records
from web.endpoint.errors import ApiError
from web.endpoint.log import entries
from web.endpoint.pools import reveal_files
from web.endpoint.pools.pools import PoolKind, Pools, check_game, pool_lock
from web.endpoint.store.schema import plays as plays_table
from web.endpoint.store.schema import pool_closings, reservations
from web.endpoint.store.schema import pools as pools_table
from web.endpoint.times import iso

RETIRED = "retired"
SOLD_OUT = "sold_out"
POOL_ID = re.compile(r"[0-9a-f]{16}")


def pool_not_found() -> ApiError:
    """The answer for an unknown game or pool (the same answer for both)."""
    return ApiError(404, "pool_not_found", "No pool of this game has this id.")


def find(conn: Connection, game: str, pool_id: str) -> Any:
    """The pools row of a committed pool of a game, or None."""
    if game not in games.ids() or not POOL_ID.fullmatch(pool_id):
        return None
    return conn.execute(
        select(pools_table).where(pools_table.c.pool_id == pool_id, pools_table.c.game == game)
    ).first()


def closing(conn: Connection, row: Any) -> tuple[int, str] | None:
    """(closed_at ms, reason) of a pool recorded closed, or None."""
    found = conn.execute(
        select(pool_closings.c.closed_at, pool_closings.c.reason).where(
            pool_closings.c.pool_ref == row.id
        )
    ).first()
    return None if found is None else (int(found[0]), str(found[1]))


def _successor_created(conn: Connection, row: Any) -> int | None:
    """When the next pool of the same game and kind was committed (None: there is none)."""
    created = conn.execute(
        select(func.min(pools_table.c.created_at)).where(
            pools_table.c.game == row.game,
            pools_table.c.kind == row.kind,
            pools_table.c.id > row.id,
        )
    ).scalar()
    return None if created is None else int(created)


def close_if_done(pools: Pools, row: Any) -> tuple[int, str] | None:
    """The pool's closing, recording it if the pool has stopped selling without one recorded
    (superseded: closed when its successor was committed; every entry drawn: now)."""
    with pools.db.begin() as conn:
        done = closing(conn, row)
        if done is not None:
            return done
        current = conn.execute(
            select(pools_table.c.next_index).where(pools_table.c.id == row.id)
        ).scalar_one()
        if _successor_created(conn, row) is None and int(current) < row.size:
            return None  # on sale
    directory = pools.cache.path(row.pool_id)  # (its files, for the reveal's digest)
    with pools.db.begin() as conn:  # write: lock the row (like a draw) and look again
        conn.execute(
            update(pools_table)
            .where(pools_table.c.id == row.id)
            .values(next_index=pools_table.c.next_index)
        )
        done = closing(conn, row)
        if done is not None:
            return done
        at = _successor_created(conn, row)
        if at is None:
            at = pools.clock.now_ms()  # every entry drawn and no successor yet: closed now
        conn.execute(insert(pool_closings).values(pool_ref=row.id, closed_at=at, reason=SOLD_OUT))
        conn.execute(delete(reservations).where(reservations.c.pool_ref == row.id))
        reveal = log_closing(conn, pools, row, (at, SOLD_OUT), directory)
    write_once(*reveal)
    return at, SOLD_OUT


def log_closing(
    conn: Connection, pools: Pools, row: Any, done: tuple[int, str], directory: Path
) -> tuple[Path, bytes]:
    """Append a pool's closing and its reveal's digest to the public log, on the transaction
    that records the closing; the reveal file's path and bytes, to write once it commits."""
    sold = _sold(conn, row.id)
    recorded = recorded_of(row, done, sold)
    document = reveal_files.build(directory, recorded)
    now = pools.clock.now_ms()
    entries.append(conn, records.closing(row.pool_id, done[1], sold, done[0]), now)
    entries.append(conn, records.reveal(row.pool_id, entries.digest(document), now), now)
    return reveal_files.path_for(directory, recorded), document


def write_once(path: Path, document: bytes) -> None:
    """Write a reveal file unless it is written (another process's is the same bytes)."""
    if not reveal_files.written(path):
        reveal_files.write(path, document)


def retire(pools: Pools, game: str, kind: str = PoolKind.PAID) -> dict[str, Any]:
    """Close the game's current pool (of paid plays, or of kind "try": its free plays) at once:
    no entry of it is sold (or given) after this returns.

    Its next index becomes its size (every process's next draw from it finds it spent and
    moves to a new pool), test mode's reservations of it go, and the closing is recorded, in
    one transaction holding the game's pool lock and the pool row's lock (a sale in flight
    commits first). The next pool is laid out by the caller (`Pools.ensure`) or at the
    next sale. Raises LookupError when the game has no pool yet."""
    check_game(game)
    with pools.db.begin() as conn:
        row = pools.current(conn, game, kind)
    directory = None if row is None else pools.cache.path(row.pool_id)  # (for its reveal)
    reveal = None
    with pools.db.begin() as conn:
        pools.db.advisory_lock(conn, pool_lock(game, kind))
        row = pools.current(conn, game, kind)
        if row is None:
            what = "pool of free plays" if kind == PoolKind.TRY else "pool"
            raise LookupError(f"{game} has no {what} to retire")
        if directory is None or directory.name != row.pool_id:  # (a pool committed meanwhile)
            directory = pools.cache.path(row.pool_id)
        conn.execute(
            update(pools_table)
            .where(pools_table.c.id == row.id)
            .values(next_index=pools_table.c.size)
        )
        before = done = closing(conn, row)
        if done is None:
            done = (pools.clock.now_ms(), RETIRED)
            conn.execute(
                insert(pool_closings).values(pool_ref=row.id, closed_at=done[0], reason=done[1])
            )
            reveal = log_closing(conn, pools, row, done, directory)
        conn.execute(delete(reservations).where(reservations.c.pool_ref == row.id))
        sold = _sold(conn, row.id)
    if reveal is not None:
        write_once(*reveal)
    # This process forgets it at once; others find the pool spent at their next draw, and
    # their GET /api/pools/{game} answers are at most POOL_STATUS_TTL old. (A try pool is
    # read afresh at each free play.)
    if kind == PoolKind.PAID:
        pools.forget(game)
    return {
        "game": game,
        "kind": kind,
        "pool_id": row.pool_id,
        "size": row.size,
        "sold": sold,
        "closed_at": iso(done[0]),
        "reason": done[1],
        "already_closed": before is not None,
    }


def _sold(conn: Connection, pool_ref: int) -> int:
    """Plays recorded from a pool (paid plays, or the try plays of a try pool)."""
    total = 0
    tables = [plays_table]
    try_plays = pools_table.metadata.tables.get("try_plays")
    if try_plays is not None:
        tables.append(try_plays)
    for table in tables:
        total += conn.execute(
            select(func.count()).select_from(table).where(table.c.pool_ref == pool_ref)
        ).scalar_one()
    return int(total)


class Reveals:
    """What the two public routes of a committed pool answer (web/endpoint/http/routes/pools.py),
    with their caches."""

    def __init__(self, pools: Pools) -> None:
        self.pools = pools
        self._revealed: dict[str, tuple[str, Path]] = {}  # pool id: (game, reveal file)
        self._writing: dict[str, threading.Lock] = {}
        self._commitments: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def _row(self, game: str, pool_id: str) -> Any:
        with self.pools.db.begin() as conn:
            row = find(conn, game, pool_id)
        if row is None:
            raise pool_not_found()
        return row

    def commitment(self, game: str, pool_id: str) -> dict[str, Any]:
        """commitment.json of a committed pool, with created_at and closed_at (null while it
        sells) and closed_reason."""
        row = self._row(game, pool_id)
        committed = self._commitments.get(pool_id)
        if committed is None:
            path = self.pools.cache.path(pool_id) / "commitment.json"
            committed = json.loads(path.read_text(encoding="utf-8"))  # FileNotFoundError: 503
            self._commitments[pool_id] = committed
        done = close_if_done(self.pools, row)
        return {
            **committed,
            "kind": row.kind,  # paid, or try: a pool of free plays (PoolKind.TRY mode)
            "created_at": iso(row.created_at),
            "closed_at": iso(done[0]) if done else None,
            "closed_reason": done[1] if done else None,
        }

    def known(self, game: str, pool_id: str) -> Path | None:
        """A pool's reveal file when this process has served it already (no database work:
        a flood of reveals stays off the database)."""
        found = self._revealed.get(pool_id)
        return found[1] if found is not None and found[0] == game else None

    def reveal(self, game: str, pool_id: str) -> Path:
        """A closed pool's reveal file (`reveal_file`), written the first time it is asked
        for (unless `build.py retire-pool` wrote it); 409 while the pool sells."""
        row = self._row(game, pool_id)
        with self._lock:
            writing = self._writing.setdefault(pool_id, threading.Lock())
        with writing:  # (one build per process; another process's is harmless)
            path = reveal_file(self.pools, row)
        self._revealed[pool_id] = (game, path)
        return path


def reveal_file(pools: Pools, row: Any) -> Path:
    """A closed pool's reveal file (web/endpoint/pools/reveal_files.py), written if it is not yet;
    409 while the pool sells.

    Its name holds a digest of what the database adds to the pool's files (when it was
    committed and closed, why, how many sold): the same file for every process of a
    deployment, never another database's reveal of the same pool's files."""
    done = close_if_done(pools, row)
    if done is None:
        raise ApiError(
            409,
            "pool_on_sale",
            "This pool is still on sale; it is revealed once it is sold out or retired.",
        )
    with pools.db.begin() as conn:
        sold = _sold(conn, row.id)
    recorded = recorded_of(row, done, sold)
    directory = pools.cache.path(row.pool_id)
    path = reveal_files.path_for(directory, recorded)
    if not reveal_files.written(path):
        reveal_files.write(path, reveal_files.build(directory, recorded))
    return path


def recorded_of(row: Any, done: tuple[int, str], sold: int) -> dict[str, Any]:
    """What the database records of a closed pool, as its reveal document begins."""
    return {
        "game": row.game,
        "pool_id": row.pool_id,
        "kind": row.kind,
        "model": row.model,
        "size": row.size,
        "root": row.root,  # as recorded before the first sale
        "created_at": iso(row.created_at),
        "closed_at": iso(done[0]),
        "closed_reason": done[1],
        "sold": sold,
    }


def write_reveal(pools: Pools, game: str, pool_id: str) -> Path:
    """Write a closed pool's reveal file now (`build.py retire-pool`), so that no request
    waits for it; 409 while the pool sells, LookupError for an unknown pool."""
    with pools.db.begin() as conn:
        row = find(conn, game, pool_id)
    if row is None:
        raise LookupError(f"{game} has no pool {pool_id}")
    return reveal_file(pools, row)
