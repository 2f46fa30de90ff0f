"""The database engine (SQLite with WAL and foreign keys, or PostgreSQL) and its migrations."""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from select import POLLIN, poll
from typing import Any

import anyio
import psycopg
import sqlalchemy.exc
from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, create_engine, event, insert, select
from sqlalchemy.engine import Engine, make_url

from web.endpoint.store.schema import meta

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
# The WAL is copied back this often. Each checkpoint ends with an fdatasync, and while it runs
# the serving connection's writes to the WAL wait for the filesystem's journal: every purchase
# in flight stalls together. Often, each checkpoint has few pages to flush and the stalls are
# short (the measurements: docs/changelog.md, "WAL checkpoints every 0.1 s").
CHECKPOINT_SECONDS = 0.1
# How long a SQLite statement waits for another process's lock before failing, and how often
# a transaction's BEGIN looks again for the write lock (`write_lock`)
BUSY_SECONDS = 10
LOCK_POLL_SECONDS = 0.0002
MIGRATION_LOCK = 74_280_001  # PostgreSQL advisory lock id: one migrator at a time

# The errors of a database that cannot be reached or used just now: its server restarted or
# ended the session (pg_terminate_backend, a failover), the network failed, it is out of
# connections, or (SQLite) another process holds the file's lock past the busy timeout. The
# statement's outcome is unknown; a purchase is retried (its Idempotency-Key makes that safe),
# so is work safe to do twice (`Database.again`), and the rest answered 503
# database_unavailable (web/endpoint/http/routes/sales.py, handlers.py).
UNAVAILABLE = (psycopg.OperationalError, sqlalchemy.exc.OperationalError, sqlite3.OperationalError)
# Work whose PostgreSQL connection was lost is tried again this often, each time on a new pool
# (a purchase in web/endpoint/sales/checkout.py, work safe to repeat in `Database.again`).
LOST_RETRIES = 2
# the execution option marking `Database.read`'s SQLite transactions: deferred, no write lock
READING = "lottery_reading"


class Database:
    """One engine, and `begin()` for a transaction; SQLite writers are serialized in-process."""

    def __init__(
        self, url: str, pool_size: int = 8, connect_timeout: int = 5, checkpoints: bool = True
    ) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self._lock = threading.Lock() if self.is_sqlite else None
        self._stop = threading.Event()
        # Threads doing PostgreSQL work at once: more only queue on locks and the GIL.
        self.limiter = anyio.CapacityLimiter(pool_size)
        if self.is_sqlite:
            path = url.split("///", 1)[1] if "///" in url else ""
            if path and path != ":memory:":
                private_sqlite(Path(path))
            self.engine = create_engine(url, pool_size=pool_size, max_overflow=8)
            _sqlite_pragmas(self.engine)
            if path and path != ":memory:" and checkpoints:
                self._checkpointer = threading.Thread(
                    target=self._checkpoint, args=(path,), name="wal-checkpoint", daemon=True
                )
                self._checkpointer.start()
        else:
            # A server that takes the connection but never answers (stopped, overloaded, a
            # network dropping packets) fails a new connection after connect_timeout seconds
            # (psycopg's own default is 130), so the caller gets its 503 and tries again. The
            # URL's own connect_timeout, when it has one, is the operator's and is kept.
            limit = (
                {}
                if "connect_timeout" in make_url(url).query
                else {"connect_timeout": connect_timeout}
            )
            self.engine = create_engine(
                url, pool_size=pool_size, max_overflow=8, pool_recycle=1800, connect_args=limit
            )
            event.listen(self.engine, "checkout", _drop_hung_up)

    def recover(self) -> None:
        """After a lost connection: a new pool (the old one's idle connections closed, those in
        use closed when they come back), so that what tries again opens a new connection. A
        restarted server ended every session: any other pooled connection would fail in turn.
        (Done at most once a second, a purchase tried again on another lost connection got a
        503 in about one run in twenty of tests/endpoint/sales/test_batch.py's sessions test.)"""
        self.engine.dispose()

    @contextmanager
    def begin(self) -> Iterator[Connection]:
        """A connection in a transaction, committed on success and rolled back on error."""
        if self._lock is None:
            with self.engine.begin() as conn:
                yield conn
            return
        with self._lock, self.engine.begin() as conn:
            yield conn

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection for reads only. PostgreSQL's is in autocommit: each statement one round
        trip, no BEGIN and no COMMIT (each sees the database as of its start, as each
        statement of a READ COMMITTED transaction does). SQLite's is a deferred transaction
        (one snapshot for all its statements) that takes no lock: in WAL mode it waits for no
        writer, another process's included (the sequencing process's steps), and holds none
        up. The once-a-second checks of a session and of a purchase's admission read with it."""
        if self._lock is not None:
            with self.engine.connect() as conn:
                conn.execution_options(**{READING: True})
                with conn.begin():
                    yield conn
            return
        with self.engine.connect() as conn:
            # psycopg's own switch, not SQLAlchemy's isolation level: that one, reset when the
            # connection goes back to the pool, made every later BEGIN name READ COMMITTED
            raw = conn.connection.driver_connection
            assert raw is not None
            raw.autocommit = True
            try:
                yield conn
            finally:
                if raw.closed or raw.broken:  # lost: not handed out again
                    conn.invalidate()
                else:
                    raw.autocommit = False

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run database work from the event loop: inline for SQLite (short, serialized), in a
        thread for PostgreSQL (at most pool_size threads at once)."""
        if self.is_sqlite:
            return fn(*args)
        return await anyio.to_thread.run_sync(fn, *args, limiter=self.limiter)

    def again(self, fn: Callable[..., Any], *args: Any) -> Any:
        """fn(*args), for work safe to do twice (a read, or a write that a second time changes
        nothing more): a PostgreSQL connection found lost while in use (a failover's new server
        resets it, pg_terminate_backend ended it mid-request) is replaced with the whole pool
        (`recover`) and the work tried again, up to LOST_RETRIES times. One lost before it was
        used (a restart: the server said so and hung up) is replaced at checkout
        (`_drop_hung_up`). SQLite's held lock is not a lost link: raised at once."""
        lost = 0
        while True:
            try:
                return fn(*args)
            except UNAVAILABLE:
                lost += 1
                if self.is_sqlite or lost > LOST_RETRIES:
                    raise
                self.recover()

    async def run_again(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`run` of `again`: work safe to do twice, from the event loop."""
        return await self.run(self.again, fn, *args)

    def advisory_lock(self, conn: Connection, key: int) -> None:
        """Hold a PostgreSQL transaction-scoped advisory lock (SQLite: already serialized)."""
        if not self.is_sqlite:
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({int(key)})")

    def migrate(self) -> None:
        """Bring the schema to the newest revision (safe with several processes starting)."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.begin() as conn:
            self.advisory_lock(conn, MIGRATION_LOCK)
            config.attributes["connection"] = conn
            command.upgrade(config, "head")

    def instance_id(self) -> str:
        """This database's random id, made on first use: credentials of another database fail."""
        with self.begin() as conn:
            self.advisory_lock(conn, MIGRATION_LOCK)
            found = conn.execute(select(meta.c.value).where(meta.c.key == "instance")).scalar()
            if found is None:
                found = secrets.token_hex(16)
                conn.execute(insert(meta).values(key="instance", value=found))
        return str(found)

    def dispose(self) -> None:
        """Close every pooled connection."""
        self._stop.set()
        self.engine.dispose()

    def _checkpoint(self, path: str) -> None:
        # Serving connections never checkpoint (wal_autocheckpoint=0): a commit that did would
        # stall the event loop on fsync. This thread copies the WAL back instead, every
        # CHECKPOINT_SECONDS.
        conn = sqlite3.connect(path, check_same_thread=False)
        try:
            while not self._stop.wait(CHECKPOINT_SECONDS):
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error:
            pass  # the database went away (tests); nothing left to checkpoint
        finally:
            conn.close()


def private_sqlite(path: Path) -> None:
    """Make a SQLite ledger owner-only: it holds every token and account. Its directory is
    made 0700 when this creates it, the file 0600 before SQLite opens it (SQLite gives the -wal
    and -shm files it creates the database file's mode), and files left by an older version
    (0644 under the usual umask) are made 0600 too."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")):
        if name.exists() and name.stat().st_mode & 0o077:
            name.chmod(0o600)


def private_dir(path: Path) -> None:
    """Make the endpoint's own state directory (var/) owner-only, creating it if need be."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    if path.stat().st_mode & 0o077:
        path.chmod(0o700)


def _drop_hung_up(dbapi_connection: Any, record: Any, proxy: Any) -> None:
    """A pooled PostgreSQL connection checked out with something to read has heard from its
    server unasked: ended (a restart, pg_terminate_backend: a FATAL message, then the close),
    or at least no longer idle as left. The pool replaces it before any statement is sent on
    it (`DisconnectionError`), so that nothing, safe to do twice or not, fails on it. One
    poll of its socket, no round trip (a pre-ping's SELECT 1 would cost every transaction
    one)."""
    del record, proxy
    if dbapi_connection.closed or dbapi_connection.broken:
        raise sqlalchemy.exc.DisconnectionError("the connection is closed")
    heard = poll()  # (not select.select: a busy process's descriptors pass 1024)
    heard.register(dbapi_connection.pgconn.socket, POLLIN)
    if heard.poll(0):  # data, a hang-up or an error
        raise sqlalchemy.exc.DisconnectionError("the server ended the connection")


def _sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_SECONDS * 1000}")
        cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn: Connection) -> None:
        raw = conn.connection.driver_connection
        if conn.get_execution_options().get(READING, False):
            raw.execute("BEGIN")  # type: ignore[union-attr]  # (a reader's snapshot, no lock)
        else:
            write_lock(raw)


def write_lock(raw: Any) -> None:
    """BEGIN IMMEDIATE: the write lock taken up front, so that another process's writer makes
    this one wait rather than fail midway. The wait is polled every LOCK_POLL_SECONDS, up to
    BUSY_SECONDS: SQLite's own busy handler sleeps 1, 2, 5, 10... ms between its tries, so a
    sale that met the sequencing process's write of 3 ms waited 8 (docs/log.md, "What a
    purchase costs"). Only the BEGIN waits: in WAL mode a transaction holding the write lock
    meets no other lock, and the connection's own busy_timeout stays for anything else."""
    raw.execute("PRAGMA busy_timeout=0")
    try:
        deadline = time.monotonic() + BUSY_SECONDS
        while True:
            try:
                raw.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                if error.sqlite_errorcode != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                    raise
            time.sleep(LOCK_POLL_SECONDS)
    finally:
        raw.execute(f"PRAGMA busy_timeout={BUSY_SECONDS * 1000}")
