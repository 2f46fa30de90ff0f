"""Pools kept in the database, sealed (web/endpoint/pools/vault.py): a reader of the database
learns no future prize, an instance with an empty pool directory sells, recalls and reveals
the pools another committed, another key refuses to start, a pool directory moves in."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import delete, select

from tests.endpoint.conftest import buy, session
from web.endpoint.http.services import Services
from web.endpoint.pools import files
from web.endpoint.pools.vault import PoolKeyMismatch, Seal, move_in
from web.endpoint.store.schema import metadata, pool_data, pools

GAME = "lab-riches"
KEY_A = "a1" * 32
KEY_B = "b2" * 32
ROOT = Path(__file__).resolve().parents[3]


def operator_command(
    argv: list[str], tmp_path: Path, database_url: str, pool_key: str = KEY_A
) -> subprocess.CompletedProcess[str]:
    """`build.py <argv>` run as an operator runs it, with the test apps' environment."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": database_url,
        "LOTTERY_VAR_DIR": str(tmp_path / "var"),
        "LOTTERY_POOL_KEY": pool_key,
    }
    command = [sys.executable, "-m", "tools", *argv]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def every_row(services: Services) -> bytes:
    """Everything the database holds, every table's every row, as one byte string."""
    out = bytearray()
    with services.db.begin() as conn:
        for table in metadata.sorted_tables:
            for row in conn.execute(select(table)).all():
                for value in row:
                    out += value if isinstance(value, bytes) else str(value).encode()
                    out += b"|"
    return bytes(out)


def test_a_database_reader_finds_no_pool_key_and_no_future_entry(
    make_app: Callable[..., FastAPI],
) -> None:
    app = make_app(pool_key=KEY_A)
    client = TestClient(app)
    assert buy(client, session(client)["token"]).status_code == 201
    services: Services = app.state.services
    with services.db.begin() as conn:
        (pool_id,) = conn.execute(select(pools.c.pool_id)).one()
        stored = conn.execute(select(pool_data)).one()
    pool = services.pool_cache.get(pool_id)
    dump = every_row(services)
    entries = files.codes_bytes(pool.codes)
    unsold = entries[2:]  # (the first entry is sold: its outcome is the buyer's)
    for secret in (pool.key, pool.key.hex().encode(), base64.b64encode(pool.key)):
        assert secret not in dump
    for start in range(0, len(unsold) - 32, len(unsold) // 50):  # no 16 future entries
        assert unsold[start : start + 32] not in dump
    # what is stored opens to the pool, with the operator's key only
    assert json.loads(stored.commitment) == files.commitment(pool)
    sealed = bytes(stored.sealed)
    assert Seal(bytes.fromhex(KEY_A)).open(pool_id, sealed) == pool.key + entries
    with pytest.raises(PoolKeyMismatch):
        Seal(bytes.fromhex(KEY_B)).open(pool_id, sealed)
    with pytest.raises(PoolKeyMismatch):  # bound to its pool id
        Seal(bytes.fromhex(KEY_A)).open("another-pool", sealed)


def test_an_instance_given_another_pool_key_refuses_to_start(
    make_app: Callable[..., FastAPI], tmp_path: Path, database_url: str
) -> None:
    url = database_url or f"sqlite:///{tmp_path / 'var' / 'endpoint.sqlite3'}"
    make_app(pool_key=KEY_A)
    other = {"var_dir": tmp_path / "other-host", "database_url": url}
    with pytest.raises(PoolKeyMismatch, match="the same LOTTERY_POOL_KEY"):
        make_app(pool_key=KEY_B, **other)
    with pytest.raises(PoolKeyMismatch, match="the same LOTTERY_POOL_KEY"):  # its own dev key
        make_app(**other)
    make_app(pool_key=KEY_A, **other)  # the same key: it starts


def test_an_instance_with_an_empty_pool_directory_sells_recalls_and_reveals(
    make_app: Callable[..., FastAPI], tmp_path: Path
) -> None:
    """Another host: its own empty pool directory, the same database and keys. Before pools
    lived in the database it answered 503 (then pool_files_missing) for the pool the first had
    committed."""
    first = TestClient(make_app(pool_key=KEY_A))
    token = session(first)["token"]
    bought = buy(first, token)
    assert bought.status_code == 201
    number = bought.json()["play_number"]
    empty = tmp_path / "host-b-pools"
    second = TestClient(make_app(pool_key=KEY_A, pool_dir=empty))
    auth = {"Authorization": f"Bearer {token}"}
    shown = second.get(f"/api/plays/{number}", headers=auth)
    assert shown.status_code == 200, shown.text
    assert shown.json()["entry"] == first.get(f"/api/plays/{number}", headers=auth).json()["entry"]
    finished = second.post(f"/api/plays/{number}/finish", json={"choices": []}, headers=auth)
    assert finished.status_code == 200, finished.text
    recalled = second.get(f"/api/plays/{number}/recall", headers=auth)
    assert recalled.status_code == 200, recalled.text
    assert buy(second, token).json()["play_number"] != number  # it sells from the same pool
    pool_id = shown.json()["pool"]["id"]
    committed = second.get(f"/api/pools/{GAME}/{pool_id}")
    assert committed.status_code == 200 and committed.json()["root"] == shown.json()["pool"]["root"]
    assert (empty / pool_id / "commitment.json").is_file()  # its cache


def test_a_sale_finds_its_pool_opened_and_never_opens_the_sealed_data_itself(
    make_app: Callable[..., FastAPI], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pool another instance committed is read and decrypted (about 4 MB) once, outside any
    sale: inside it (on PostgreSQL, holding the pool row's lock) every other buyer of the game
    would wait. Before, the first sale from it opened it in its own transaction."""
    first = TestClient(make_app(pool_key=KEY_A))
    token = session(first)["token"]
    assert buy(first, token).status_code == 201
    app = make_app(pool_key=KEY_A, pool_dir=tmp_path / "host-b-pools")  # nothing cached
    second = TestClient(app)
    services = app.state.services
    seller, vault = services.checkout.seller, services.pool_cache.vault
    events: list[str] = []

    def spy(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        def spied(*args: Any) -> Any:
            events.append(f"{name} begins")
            try:
                return call(*args)
            finally:
                events.append(f"{name} ends")

        return spied

    monkeypatch.setattr(seller, "sell", spy("sale", seller.sell))
    monkeypatch.setattr(seller, "sell_batch", spy("sale", seller.sell_batch))
    monkeypatch.setattr(vault, "get", spy("open", vault.get))
    for _ in range(3):
        assert buy(second, token).status_code == 201
    assert events.count("open begins") == 1, events  # opened once, kept in memory
    opened = events.index("open begins")
    assert events[:opened].count("sale begins") == events[:opened].count("sale ends"), events


def test_a_pool_directory_moves_into_the_database(
    make_app: Callable[..., FastAPI], pool_dir: Path, tmp_path: Path, database_url: str
) -> None:
    """A database from before pools lived in it: its committed pools only in the directory."""
    app = make_app(pool_key=KEY_A)
    client = TestClient(app)
    token = session(client)["token"]
    bought = buy(client, token)
    assert bought.status_code == 201
    services: Services = app.state.services
    with services.db.begin() as conn:
        conn.execute(delete(pool_data))  # as before migration 0009
        (pool_id,) = conn.execute(select(pools.c.pool_id)).one()
    second = TestClient(make_app(pool_key=KEY_A, pool_dir=tmp_path / "empty"))
    auth = {"Authorization": f"Bearer {token}"}
    missing = second.get(f"/api/plays/{bought.json()['play_number']}", headers=auth)
    assert missing.status_code == 503, missing.text
    assert missing.json()["error"]["code"] == "pool_unreadable"
    with pytest.raises(FileNotFoundError, match=pool_id):
        move_in(services.pool_cache.vault, tmp_path / "nowhere")
    done = operator_command(["migrate-pools", "--pool-dir", str(pool_dir)], tmp_path, database_url)
    assert done.returncode == 0, done.stderr
    assert f"moved in {pool_id}" in done.stdout and "1 pool(s) moved" in done.stdout
    assert move_in(services.pool_cache.vault, pool_dir) == []  # again: nothing to do
    again = second.get(f"/api/plays/{bought.json()['play_number']}", headers=auth)
    assert again.status_code == 200, again.text
    assert buy(second, token).status_code == 201


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("given", ["", "a1" * 31, "zz" * 32, "a1" * 33])
def test_a_pool_key_that_is_not_64_hex_digits_refuses_to_start(
    make_app: Callable[..., FastAPI], tmp_path: Path, given: str
) -> None:
    key_file = tmp_path / "pool-key"
    key_file.write_text(given + "\n")
    with pytest.raises(ValueError, match=f"{key_file}: the pool-encryption key must be 64 hex"):
        make_app(pool_key_file=key_file)
    if given:
        with pytest.raises(ValueError, match="LOTTERY_POOL_KEY: the pool-encryption key"):
            make_app(pool_key=given)
    key_file.write_text(KEY_A + "\n")
    make_app(pool_key_file=key_file)  # 64 hex digits, a newline after them: taken
