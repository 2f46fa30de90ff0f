"""The database (web/endpoint/store/database.py): a SQLite ledger only its owner can read, reads
that cost PostgreSQL one round trip each and wait for no SQLite writer, and pooled connections
the server ended replaced before they are used."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.endpoint.conftest import buy, session
from web.endpoint.settings import Settings
from web.endpoint.store import database
from web.endpoint.store.database import Database


def mode(path: Path) -> int:
    """A file's permission bits."""
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def usual_umask() -> Iterator[None]:
    """The umask most systems give (022): new files readable by every local user."""
    old = os.umask(0o022)
    yield
    os.umask(old)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.usefixtures("usual_umask")
def test_the_sqlite_ledger_is_owner_only(make_app: Callable[..., FastAPI], tmp_path: Path) -> None:
    """var/ 0700, the ledger and its -wal and -shm 0600, like the pool files; and a ledger an
    older version left readable (0755/0644) is made owner-only when the endpoint starts."""
    var = tmp_path / "var"
    app = make_app()
    client = TestClient(app)
    assert buy(client, session(client)["token"]).status_code == 201
    ledger = var / "endpoint.sqlite3"
    files = [ledger, Path(f"{ledger}-wal"), Path(f"{ledger}-shm")]
    assert mode(var) == 0o700
    assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}
    var.chmod(0o755)  # as an older version left them (the first app still has them open)
    for f in files:
        f.chmod(0o644)
    again = make_app()
    assert TestClient(again).get("/api/games").status_code == 200
    assert mode(var) == 0o700
    assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_reads_on_postgresql_are_statements_of_their_own_and_leave_transactions_as_they_were(
    database_url: str,
) -> None:
    """Database.read: each statement its own transaction (no BEGIN, no COMMIT: one round trip),
    and the connection, back in the pool, begins transactions as before (two statements of
    one see the same transaction start)."""
    db = Database(Settings(database_url=database_url).db_url, pool_size=1)
    try:
        for _ in range(2):  # the pool's one connection, read with and used again
            with db.read() as conn:
                first, second = (conn.exec_driver_sql(STARTED).scalar() for _ in range(2))
            assert first != second
            with db.begin() as conn:
                first, second = (conn.exec_driver_sql(STARTED).scalar() for _ in range(2))
            assert first == second
    finally:
        db.dispose()


STARTED = "SELECT transaction_timestamp()"


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_a_pooled_connection_its_server_ended_is_replaced_before_it_is_used(
    database_url: str,
) -> None:
    """The server ends a connection idle in the pool (pg_terminate_backend, as a restart ends
    them all: a FATAL message, then the close): the next transaction runs on a new one, not on
    it (before: OperationalError, "terminating connection due to administrator command")."""
    db = Database(Settings(database_url=database_url).db_url, pool_size=1)
    admin = "postgresql://" + database_url.split("://", 1)[1].split("?")[0]
    try:
        with db.begin() as conn:
            pid = conn.exec_driver_sql(PID).scalar()
        with psycopg.connect(admin, autocommit=True) as other:
            assert other.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone() == (True,)
            deadline = time.monotonic() + 10  # its goodbye sent before it leaves the list
            while other.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone():
                assert time.monotonic() < deadline, "the backend did not end"
                time.sleep(0.01)
        with db.begin() as conn:
            assert conn.exec_driver_sql(PID).scalar() != pid
    finally:
        db.dispose()


PID = "SELECT pg_backend_pid()"


def test_reads_on_sqlite_wait_for_no_writer_and_see_one_snapshot(tmp_path: Path) -> None:
    """Database.read on SQLite: a deferred transaction, taking no lock. While another process's
    connection holds the write lock (the sequencing process's step), a read neither waits for
    it (with a busy timeout of 10 s, a read that took the lock would fail this by its length)
    nor sees what that connection writes until it commits; and a read's statements all see
    the database of its first."""
    path = tmp_path / "ledger.sqlite3"
    db = Database(f"sqlite:///{path}")
    other = sqlite3.connect(path, isolation_level=None)
    try:
        with db.begin() as conn:
            conn.exec_driver_sql("CREATE TABLE t (n INTEGER)")
            conn.exec_driver_sql("INSERT INTO t VALUES (1)")
        other.execute("BEGIN IMMEDIATE")
        other.execute("INSERT INTO t VALUES (2)")
        start = time.monotonic()
        with db.read() as conn:
            assert conn.connection.driver_connection.in_transaction  # type: ignore[union-attr]
            assert conn.exec_driver_sql("SELECT sum(n) FROM t").scalar() == 1
            other.execute("COMMIT")
            assert conn.exec_driver_sql("SELECT sum(n) FROM t").scalar() == 1
        assert time.monotonic() - start < 1
        with db.read() as conn:
            assert conn.exec_driver_sql("SELECT sum(n) FROM t").scalar() == 3
        with db.begin() as conn:  # (and a write after them takes the lock as ever)
            conn.exec_driver_sql("INSERT INTO t VALUES (4)")
    finally:
        other.close()
        db.dispose()


def test_a_sqlite_write_waits_for_another_process_s_lock_and_then_takes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A transaction's BEGIN meeting another connection's write lock waits for it (polled,
    `write_lock`) and takes it once it is let go; held past BUSY_SECONDS, it fails as SQLite
    fails (database is locked: the 503 database_unavailable). Either way the connection's own
    busy timeout is as it was, for its other statements."""
    monkeypatch.setattr(database, "BUSY_SECONDS", 1)
    path = tmp_path / "ledger.sqlite3"
    db = Database(f"sqlite:///{path}")
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        with db.begin() as conn:
            conn.exec_driver_sql("CREATE TABLE t (n INTEGER)")
        other.execute("BEGIN IMMEDIATE")
        threading.Timer(0.3, other.execute, ("COMMIT",)).start()
        start = time.monotonic()
        with db.begin() as conn:
            waited = time.monotonic() - start
            conn.exec_driver_sql("INSERT INTO t VALUES (1)")
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 1000
        assert waited >= 0.25
        other.execute("BEGIN IMMEDIATE")
        start = time.monotonic()
        with pytest.raises(sqlite3.OperationalError, match="locked"), db.begin():
            pass
        assert 1 <= time.monotonic() - start < 5
        other.execute("ROLLBACK")
        with db.begin() as conn:
            assert conn.exec_driver_sql("SELECT sum(n) FROM t").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 1000
    finally:
        other.close()
        db.dispose()
