"""Pool files and secrets (web/endpoint/pool_store.py): save, load, tampering, fresh keys."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import pytest

from engine.math.pool import Pool, verify_proof
from tests.test_pool import small_table
from web.endpoint import pool_store


def test_lay_out_uses_a_fresh_secret_key_and_order_each_time() -> None:
    table = small_table()
    first, second = pool_store.lay_out(table, 1_000), pool_store.lay_out(table, 1_000)
    assert len(first.key) == len(second.key) == 32 and first.key != second.key
    assert list(first.codes) != list(second.codes)
    assert first.outcome_counts() == second.outcome_counts()
    key = secrets.token_bytes(32)
    given = pool_store.lay_out(table, 1_000, key=key)
    assert given.key == key


def test_save_and_load_keep_the_commitment(tmp_path: Path) -> None:
    pool = pool_store.lay_out(small_table(), 1_000)
    pool_store.save(pool, tmp_path)
    assert (tmp_path / "pool.key").stat().st_mode & 0o077 == 0
    commitment = json.loads((tmp_path / "commitment.json").read_text())
    assert commitment == pool_store.commitment(pool) and "key" not in commitment
    loaded = pool_store.load(tmp_path, verify=True)
    assert isinstance(loaded, Pool)
    assert loaded.root == pool.root
    assert loaded.size == pool.size
    assert [loaded.entry(i) for i in range(0, 1_000, 97)] == [
        pool.entry(i) for i in range(0, 1_000, 97)
    ]
    assert verify_proof(pool.root.hex(), loaded.entry(999), loaded.proof(999))


def test_load_refuses_tampered_files(tmp_path: Path) -> None:
    pool = pool_store.lay_out(small_table(), 1_000)
    pool_store.save(pool, tmp_path)
    entries = bytearray((tmp_path / "entries.bin").read_bytes())
    first = next(i for i in range(0, len(entries), 2) if entries[i] != entries[i + 2])
    entries[first], entries[first + 2] = entries[first + 2], entries[first]
    (tmp_path / "entries.bin").write_bytes(bytes(entries))
    pool_store.load(tmp_path)  # the chunk roots still match the commitment ...
    with pytest.raises(ValueError, match="does not match its committed root"):
        pool_store.load(tmp_path, verify=True)  # ... but the entries do not
    chunks = bytearray((tmp_path / "chunks.bin").read_bytes())
    chunks[0] ^= 1
    (tmp_path / "chunks.bin").write_bytes(bytes(chunks))
    with pytest.raises(ValueError, match="do not give the committed root"):
        pool_store.load(tmp_path)
