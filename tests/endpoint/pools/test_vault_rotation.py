"""Changing the pool-encryption key (web/endpoint/pools/vault.py `rotate`, `build.py
rotate-pool-key`): every pool re-sealed in one transaction; an instance with the new key sells,
recalls and reveals the pools sealed before, one with the old key refuses to start, and a wrong
old key changes nothing."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.endpoint.conftest import bearer, buy, session
from tests.endpoint.pools.test_vault import GAME, KEY_A, KEY_B, every_row, operator_command
from web.endpoint.http.services import Services
from web.endpoint.pools import reveal
from web.endpoint.pools.vault import PoolKeyMismatch, PoolVault, Seal, rotate

KEY_C = "c3" * 32  # a key the pools were never sealed with


def rotate_command(
    tmp_path: Path, database_url: str, old_key: str, new_key: str
) -> subprocess.CompletedProcess[str]:
    """`build.py rotate-pool-key` run with the old key configured, the new one in a file."""
    new_file = tmp_path / "new-pool-key"
    new_file.write_text(new_key + "\n")
    argv = ["rotate-pool-key", "--new-key-file", str(new_file)]
    return operator_command(argv, tmp_path, database_url, old_key)


def test_after_a_rotation_the_new_key_sells_recalls_and_reveals_and_the_old_refuses(
    make_app: Callable[..., FastAPI], tmp_path: Path, database_url: str
) -> None:
    first = make_app(pool_key=KEY_A)
    client = TestClient(first)
    token = session(client)["token"]
    played = buy(client, token).json()["play_number"]
    finished = client.post(
        f"/api/plays/{played}/finish", json={"choices": []}, headers=bearer(token)
    )
    assert finished.status_code == 200, finished.text
    closed = reveal.retire(first.state.services.pools, GAME)["pool_id"]  # (revealed below)
    assert buy(client, token).status_code == 201  # a second pool, still selling
    stale = TestClient(make_app(pool_key=KEY_A, pool_dir=tmp_path / "stale-pools"))  # not stopped
    done = rotate_command(tmp_path, database_url, KEY_A, KEY_B)
    assert done.returncode == 0, done.stderr
    assert "2 pool(s) and the key check re-sealed" in done.stdout
    other = {"pool_dir": tmp_path / "host-b-pools"}  # nothing cached
    with pytest.raises(PoolKeyMismatch, match="the same LOTTERY_POOL_KEY"):
        make_app(pool_key=KEY_A, **other)
    unread = stale.get(f"/api/plays/{played}", headers=bearer(token))  # its pools: the new key's
    assert unread.status_code == 503 and unread.json()["error"]["code"] == "pool_unreadable"
    second = TestClient(make_app(pool_key=KEY_B, **other))
    assert buy(second, token).status_code == 201
    recalled = second.get(f"/api/plays/{played}/recall", headers=bearer(token))
    assert recalled.status_code == 200, recalled.text
    revealed = second.get(f"/api/pools/{GAME}/{closed}/reveal")
    assert revealed.status_code == 200, revealed.text
    assert revealed.json()["pool_id"] == closed


def test_a_wrong_old_key_changes_nothing(
    make_app: Callable[..., FastAPI], tmp_path: Path, database_url: str
) -> None:
    app = make_app(pool_key=KEY_A)
    client = TestClient(app)
    assert buy(client, session(client)["token"]).status_code == 201
    services: Services = app.state.services
    before = every_row(services)
    done = rotate_command(tmp_path, database_url, KEY_C, KEY_B)  # refused as it opens the vault
    assert done.returncode == 1 and "pool-encryption key is not the one" in done.stderr
    with pytest.raises(PoolKeyMismatch):  # past the key check: the first row refuses it
        rotate(PoolVault(services.db, Seal(bytes.fromhex(KEY_C))), Seal(bytes.fromhex(KEY_B)))
    assert every_row(services) == before
    make_app(pool_key=KEY_A)  # the old key still opens them
