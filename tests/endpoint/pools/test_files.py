"""Pool files and secrets (web/endpoint/pools/files.py): save, load, tampering, fresh keys."""

from __future__ import annotations

import json
import multiprocessing
import os
import secrets
import signal
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from engine import games
from engine.math.pool import Pool, verify_proof
from tests.endpoint.conftest import bearer, buy, session
from tests.test_pool import small_table
from web.endpoint.app import create_app
from web.endpoint.pools import files
from web.endpoint.pools.cache import PoolCache
from web.endpoint.pools.vault import PoolVault, open_vault
from web.endpoint.settings import Settings
from web.endpoint.store.database import Database


def test_lay_out_uses_a_fresh_secret_key_and_order_each_time() -> None:
    table = small_table()
    first, second = files.lay_out(table, 1_000), files.lay_out(table, 1_000)
    assert len(first.key) == len(second.key) == 32 and first.key != second.key
    assert list(first.codes) != list(second.codes)
    assert first.outcome_counts() == second.outcome_counts()
    key = secrets.token_bytes(32)
    given = files.lay_out(table, 1_000, key=key)
    assert given.key == key


def test_save_and_load_keep_the_commitment(tmp_path: Path) -> None:
    pool = files.lay_out(small_table(), 1_000)
    files.save(pool, tmp_path)
    assert (tmp_path / "pool.key").stat().st_mode & 0o077 == 0
    commitment = json.loads((tmp_path / "commitment.json").read_text())
    assert commitment == files.commitment(pool) and "key" not in commitment
    loaded = files.load(tmp_path, verify=True)
    assert isinstance(loaded, Pool)
    assert loaded.root == pool.root
    assert loaded.size == pool.size
    assert [loaded.entry(i) for i in range(0, 1_000, 97)] == [
        pool.entry(i) for i in range(0, 1_000, 97)
    ]
    assert verify_proof(pool.root.hex(), loaded.entry(999), loaded.proof(999))


def test_load_refuses_tampered_files(tmp_path: Path) -> None:
    pool = files.lay_out(small_table(), 1_000)
    files.save(pool, tmp_path)
    entries = bytearray((tmp_path / "entries.bin").read_bytes())
    first = next(i for i in range(0, len(entries), 2) if entries[i] != entries[i + 2])
    entries[first], entries[first + 2] = entries[first + 2], entries[first]
    (tmp_path / "entries.bin").write_bytes(bytes(entries))
    files.load(tmp_path)  # the chunk roots still match the commitment ...
    with pytest.raises(ValueError, match="does not match its committed root"):
        files.load(tmp_path, verify=True)  # ... but the entries do not
    chunks = bytearray((tmp_path / "chunks.bin").read_bytes())
    chunks[0] ^= 1
    (tmp_path / "chunks.bin").write_bytes(bytes(chunks))
    with pytest.raises(ValueError, match="do not give the committed root"):
        files.load(tmp_path)


def test_every_pool_file_is_owner_only_whatever_the_umask(tmp_path: Path) -> None:
    target = tmp_path / "pool"
    target.mkdir(mode=0o755)
    target.chmod(0o755)
    (target / "entries.bin").write_bytes(b"old")
    (target / "entries.bin").chmod(0o644)  # an older file with a looser mode is tightened too
    previous = os.umask(0o022)
    try:
        files.save(files.lay_out(small_table(), 200), target)
    finally:
        os.umask(previous)
    assert target.stat().st_mode & 0o777 == 0o700
    for name in ("pool.key", "entries.bin", "chunks.bin", "commitment.json"):
        assert (target / name).stat().st_mode & 0o777 == 0o600, name


def vault_in(directory: Path) -> PoolVault:
    """The pool vault of a fresh SQLite ledger in `directory`."""
    directory.mkdir(exist_ok=True, mode=0o700)
    db = Database(f"sqlite:///{directory / 'ledger.sqlite3'}")
    db.migrate()
    return open_vault(db, directory, "", None)


@pytest.mark.parametrize("mode", [0o755, 0o750, 0o701])
def test_the_endpoint_refuses_a_pool_directory_others_can_read(tmp_path: Path, mode: int) -> None:
    shared = tmp_path / "pools"
    shared.mkdir()
    shared.chmod(mode)
    with pytest.raises(PermissionError, match="chmod 700"):
        PoolCache(shared, vault_in(tmp_path / "var"))
    settings = Settings(var_dir=tmp_path / "var", pool_dir=shared)
    with pytest.raises(PermissionError, match="other users could read"):
        create_app(settings)
    shared.chmod(0o700)
    PoolCache(shared, vault_in(tmp_path / "var"))  # owner-only: accepted


def test_a_pool_is_laid_out_in_a_process_of_its_own(tmp_path: Path) -> None:
    """The serving process spends next to no CPU of its own on a new pool (the next one is laid
    out while the current one sells): laid out in one of its threads, the 2.5 s of CPU a Lab
    Riches pool takes held the interpreter's lock and halved the sales meanwhile."""
    cache = PoolCache(tmp_path / "pools", vault_in(tmp_path / "var"))
    table = games.load_table("lab-riches")
    before = time.process_time()  # this process's CPU, every thread of it, no child's
    pool = cache.lay_out("lab-riches")
    own = time.process_time() - before
    assert own < 0.5, f"{own:.2f} s of the serving process's own CPU"
    assert pool.size == table.base_pool_size and pool.game == "lab-riches"
    saved = tmp_path / "pools" / pool.pool_id
    assert files.commitment(pool) == json.loads((saved / "commitment.json").read_text())
    assert saved.stat().st_mode & 0o777 == 0o700
    assert cache.get(pool.pool_id) is pool
    assert [p.name for p in (tmp_path / "pools").iterdir()] == [pool.pool_id]  # no partial left


def test_a_lay_out_whose_process_is_killed_is_a_503_and_the_purchase_goes_through_after(
    tmp_path: Path,
) -> None:
    """The lay-out process killed (the out-of-memory killer, say): the purchase that needed the
    pool gets 503 pool_unavailable in the API's shape and is not charged; tried again with its
    Idempotency-Key, a new process lays the pool out and it is bought."""
    pools = tmp_path / "pools"
    app = create_app(Settings(var_dir=tmp_path / "var", pool_dir=pools, limits_required=False))
    client = TestClient(app)
    token = session(client)["token"]
    before = {child.pid for child in multiprocessing.active_children()}
    killed: list[int] = []

    def kill_the_lay_out() -> None:
        deadline = time.monotonic() + 60
        while not killed and time.monotonic() < deadline:
            for child in multiprocessing.active_children():
                if child.pid not in before and child.pid is not None:
                    os.kill(child.pid, signal.SIGKILL)
                    killed.append(child.pid)
                    return
            time.sleep(0.005)

    watcher = threading.Thread(target=kill_the_lay_out)
    watcher.start()
    refused = buy(client, token, key="first")
    watcher.join()
    assert killed, "no lay-out process was seen"
    assert refused.status_code == 503, refused.text
    assert refused.json()["error"]["code"] == "pool_unavailable"
    assert client.get("/api/wallet", headers=bearer(token)).json()["balance_pence"] == 5_000
    bought = buy(client, token, key="first")
    assert bought.status_code == 201, bought.text
    assert client.get("/api/wallet", headers=bearer(token)).json()["balance_pence"] == 4_700
    app.state.services.db.dispose()
