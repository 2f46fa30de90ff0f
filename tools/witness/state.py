"""A witness's state: for each log (by origin) the latest checkpoint it cosigned, and the
validly signed checkpoints it refused (a fork's evidence), in one SQLite file.

c2sp.org/tlog-witness asks that checking a submission's old size against the latest size and
storing the new checkpoint be one atomic step, or two submissions racing could roll the
stored size back. Here a step is one SQLite transaction begun IMMEDIATE (it holds the file's
write lock from its first read), and the store itself is a compare-and-swap on the size it
read, so even a second process on the same file cannot interleave. Each step opens its own
connection, so server threads never share one; every commit is synchronous=FULL, on disk
before the witness answers.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS latest (
    origin TEXT PRIMARY KEY,
    origin_hash TEXT NOT NULL UNIQUE,  -- SHA-256 of the origin, lowercase hex (GET's path)
    size INTEGER NOT NULL,
    root BLOB NOT NULL,
    checkpoint TEXT NOT NULL,  -- the note as served: the log's signatures and the cosignature
    cosigned_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS refused (
    id INTEGER PRIMARY KEY,
    origin TEXT NOT NULL,
    old INTEGER NOT NULL,
    size INTEGER NOT NULL,
    root BLOB NOT NULL,
    status INTEGER NOT NULL,
    reason TEXT NOT NULL,
    request TEXT NOT NULL,  -- the whole add-checkpoint body, the signed checkpoint verbatim
    received_at INTEGER NOT NULL
);
"""


class RolledBack(RuntimeError):
    """The stored size changed under a step (never expected: the step holds the lock)."""


@dataclass(frozen=True)
class Latest:
    """The latest checkpoint a witness cosigned for a log."""

    origin: str
    size: int
    root: bytes
    checkpoint: str
    cosigned_at: int


@dataclass(frozen=True)
class Refusal:
    """A validly signed checkpoint the witness refused, with why."""

    origin: str
    old: int
    size: int
    root: bytes
    status: int
    reason: str
    request: str
    received_at: int


def origin_hash(origin: str) -> str:
    """The origin's name in a witness's monitoring path: SHA-256, lowercase hex."""
    return hashlib.sha256(origin.encode()).hexdigest()


class Step:
    """One atomic step on one log's state: what it read, and the one write it may make."""

    def __init__(self, db: sqlite3.Connection, origin: str) -> None:
        self._db = db
        self.origin = origin
        row = db.execute(
            "SELECT origin, size, root, checkpoint, cosigned_at FROM latest WHERE origin = ?",
            (origin,),
        ).fetchone()
        self.latest = Latest(*row) if row else None

    def store(self, size: int, root: bytes, checkpoint: str, at: int) -> None:
        """Record a cosigned checkpoint, only if the stored size is still the one read."""
        was = self.latest.size if self.latest else None
        changed = self._db.execute(
            "INSERT INTO latest (origin, origin_hash, size, root, checkpoint, cosigned_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (origin) DO UPDATE SET size = excluded.size,"
            " root = excluded.root, checkpoint = excluded.checkpoint,"
            " cosigned_at = excluded.cosigned_at WHERE latest.size = ? AND excluded.size >= ?",
            (self.origin, origin_hash(self.origin), size, root, checkpoint, at, was, was),
        ).rowcount
        if changed != 1:
            raise RolledBack(f"{self.origin}'s stored size moved from {was} during a step")

    def refuse(self, refusal: Refusal) -> None:
        """Keep a refused checkpoint as evidence."""
        self._db.execute(
            "INSERT INTO refused (origin, old, size, root, status, reason, request, received_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                refusal.origin,
                refusal.old,
                refusal.size,
                refusal.root,
                refusal.status,
                refusal.reason,
                refusal.request,
                refusal.received_at,
            ),
        )


class State:
    """The witness's state file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        with closing(self._connect()) as db:
            db.execute("PRAGMA journal_mode = WAL")
            db.executescript(SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        db.execute("PRAGMA synchronous = FULL")
        return db

    @contextmanager
    def step(self, origin: str) -> Iterator[Step]:
        """An atomic step on a log's state: committed if the block ends, else rolled back."""
        with closing(self._connect()) as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield Step(db, origin)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def latest(self, origin: str) -> Latest | None:
        """The latest checkpoint cosigned for a log, if any."""
        with closing(self._connect()) as db:
            return Step(db, origin).latest

    def by_hash(self, hashed: str) -> Latest | None:
        """The latest checkpoint cosigned for the log whose origin has this hash, if any."""
        with closing(self._connect()) as db:
            row = db.execute(
                "SELECT origin, size, root, checkpoint, cosigned_at FROM latest"
                " WHERE origin_hash = ?",
                (hashed,),
            ).fetchone()
        return Latest(*row) if row else None

    def refusals(self) -> list[Refusal]:
        """Every refused checkpoint kept, oldest first."""
        with closing(self._connect()) as db:
            rows = db.execute(
                "SELECT origin, old, size, root, status, reason, request, received_at"
                " FROM refused ORDER BY id"
            ).fetchall()
        return [Refusal(*row) for row in rows]
