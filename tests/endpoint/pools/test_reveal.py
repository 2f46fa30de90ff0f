"""Commit, then reveal (pools/reveal.py): closing pools (retired, sold out) and what their
reveal says of it, `build.py audit-pool` and `build.py retire-pool` against a real endpoint.
(The routes of the commitment and the reveal: routes/test_pools.py; `build.py verify`:
test_verify.py.)

Real endpoint (uvicorn on a loopback port, or the in-process client), real database (SQLite and
PostgreSQL), real pools and signatures; the tools are run as they are run by hand (their main,
or build.py in a subprocess) and must fail on a tampered reveal, proof or signature.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from tests.endpoint.conftest import Clock, bearer, buy, serve, session
from tools.commands import audit_pool as cmd_audit_pool
from tools.commands import retire_pool as cmd_retire_pool
from web.endpoint import tokens
from web.endpoint.http.services import Services
from web.endpoint.pools import reveal
from web.endpoint.store.schema import pools
from web.endpoint.times import iso

ROOT = Path(__file__).resolve().parents[3]
GAME = "lab-riches"


def run_tool(main: Callable[[list[str]], int], argv: list[str], capsys: Any) -> tuple[int, Any]:
    """Run a tool's main with --json; (exit code, the JSON it printed)."""
    capsys.readouterr()
    code = main([*argv, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else None


def current(client: TestClient) -> dict[str, Any]:
    response = client.get(f"/api/pools/{GAME}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def swap_two_outcomes(data: dict[str, Any]) -> dict[str, Any]:
    """The reveal with two entries of different outcomes swapped: every count still holds."""
    codes: array[int] = array("H")
    codes.frombytes(base64.b64decode(data["entries"]))
    if sys.byteorder != "little":
        codes.byteswap()
    other = next(i for i in range(1, len(codes)) if codes[i] != codes[0])
    codes[0], codes[other] = codes[other], codes[0]
    if sys.byteorder != "little":
        codes.byteswap()
    return {**data, "entries": base64.b64encode(codes.tobytes()).decode("ascii")}


def test_a_retired_pool_sells_no_more_and_its_audit_fails_when_tampered(
    make_app: Callable[..., FastAPI], tmp_path: Path, capsys: Any
) -> None:
    app = make_app()
    services: Services = app.state.services
    client = TestClient(app)
    token = session(client)["token"]
    for _ in range(3):
        assert buy(client, token).status_code == 201
    first = current(client)
    pool_id = first["pool_id"]

    retired = reveal.retire(services.pools, GAME)
    assert retired["pool_id"] == pool_id and retired["reason"] == "retired"
    assert retired["sold"] == 3 and not retired["already_closed"]
    again = reveal.retire(services.pools, GAME)  # the same pool: nothing more to close
    assert again["already_closed"] and again["closed_at"] == retired["closed_at"]

    # the unsold entries are never sold: the next purchase is an entry of a new pool
    play = buy(client, token)
    assert play.status_code == 201, play.text
    detail = client.get(f"/api/plays/{play.json()['play_number']}", headers=bearer(token)).json()
    assert detail["pool"]["id"] != pool_id and detail["entry"]["index"] == 0
    assert current(client)["pool_id"] == detail["pool"]["id"]

    shown = client.get(f"/api/pools/{GAME}/{pool_id}/reveal")
    assert shown.status_code == 200, shown.text
    data = shown.json()
    assert data["sold"] == 3 and data["closed_reason"] == "retired"
    assert data["closed_at"] == retired["closed_at"]

    with serve(app) as url:
        args = ["--api", url, "--game", GAME, "--pool", pool_id]
        code, audit = run_tool(cmd_audit_pool.main, args, capsys)
        assert code == 0, audit
        assert audit["ok"] and audit["root"] == first["root"]
        checks = [c["check"] for c in audit["checks"]]
        assert checks == ["reveal", "model", "root", "commitment", "tiers", "compositions"]

        # two entries swapped: every count still matches, only the root gives it away
        swapped = tmp_path / "swapped.json"
        swapped.write_text(json.dumps(swap_two_outcomes(data)))
        code, audit = run_tool(cmd_audit_pool.main, [*args, "--reveal", str(swapped)], capsys)
        assert code == 1 and audit["failed"] == ["root", "commitment"]

        # one entry's outcome changed: the plain report names the root and the counts
        codes = bytearray(base64.b64decode(data["entries"]))  # 2-byte little-endian codes
        prizes = {item["code"]: item["prize_pence"] for item in data["catalogue"]}
        was = int.from_bytes(codes[0:2], "little")
        other = next(code for code, prize in prizes.items() if prize != prizes[was])
        codes[0:2] = other.to_bytes(2, "little")  # an outcome of another prize: a tier changes
        changed = tmp_path / "changed.json"
        changed.write_text(json.dumps({**data, "entries": base64.b64encode(codes).decode()}))
        capsys.readouterr()
        assert cmd_audit_pool.main([*args, "--reveal", str(changed)]) == 1
        report = capsys.readouterr().out
        assert "PASS  reveal" in report and "FAIL  root" in report and "FAIL  tiers" in report
        assert "the audit FAILED: root, commitment, tiers, compositions" in report


def test_a_sold_out_pool_is_closed_when_the_next_is_committed(
    make_app: Callable[..., FastAPI],
) -> None:
    app = make_app()
    services: Services = app.state.services
    client = TestClient(app)
    token = session(client)["token"]
    assert buy(client, token).status_code == 201
    old = current(client)
    with services.db.begin() as conn:  # skip to the pool's last entry (selling 2,000,000 is slow)
        conn.execute(
            update(pools)
            .where(pools.c.pool_id == old["pool_id"])
            .values(next_index=pools.c.size - 1)
        )
    last = buy(client, token).json()
    detail = client.get(f"/api/plays/{last['play_number']}").json()
    assert detail["pool"]["id"] == old["pool_id"] and detail["entry"]["index"] == old["size"] - 1
    assert client.get(f"/api/pools/{GAME}/{old['pool_id']}/reveal").status_code == 200  # sold out

    next_play = buy(client, token).json()  # the pool is spent: the next one is committed
    detail = client.get(f"/api/plays/{next_play['play_number']}").json()
    assert detail["pool"]["id"] != old["pool_id"]
    with services.db.begin() as conn:
        created = conn.execute(
            select(pools.c.created_at).where(pools.c.pool_id == detail["pool"]["id"])
        ).scalar_one()
    shown = client.get(f"/api/pools/{GAME}/{old['pool_id']}/reveal").json()
    assert shown["closed_reason"] == "sold_out" and shown["sold"] == 2
    assert shown["closed_at"] <= iso(created)  # type: ignore[operator]
    fresh = client.get(f"/api/pools/{GAME}/{detail['pool']['id']}/reveal")
    assert fresh.status_code == 409


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_retire_pool_command_closes_the_pool_and_commits_the_next(
    make_app: Callable[..., FastAPI], tmp_path: Path, pool_dir: Path, clock: Clock
) -> None:
    app = make_app()
    client = TestClient(app)
    token = session(client)["token"]
    assert buy(client, token).status_code == 201
    old = current(client)["pool_id"]
    env = {
        **os.environ,
        "LOTTERY_VAR_DIR": str(tmp_path / "var"),
        "LOTTERY_LIMITS_REQUIRED": "0",  # (tests/endpoint/http/routes/test_sales.py is about it)
        "LOTTERY_POOL_DIR": str(pool_dir),
        "PYTHONPATH": str(ROOT),
    }
    url = f"sqlite:///{tmp_path / 'var' / 'endpoint.sqlite3'}"
    command = [
        sys.executable,
        "build.py",
        "retire-pool",
        "--game",
        GAME,
        "--database-url",
        url,
        "--json",
    ]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout.strip().splitlines()[-1])
    assert printed["retired"]["pool_id"] == old and printed["retired"]["sold"] == 1
    new = printed["next"]["pool_id"]
    assert new != old
    clock.advance(2)  # another process's status answer may be POOL_STATUS_TTL (1 s) old
    assert current(client)["pool_id"] == new  # committed by the command, before any sale
    play = buy(client, token).json()
    assert client.get(f"/api/plays/{play['play_number']}").json()["pool"]["id"] == new
    # the command wrote the reveal's files: the endpoint serves them as they are
    written = sorted(path.name for path in (pool_dir / old).glob("reveal-*.json"))
    shown = client.get(f"/api/pools/{GAME}/{old}/reveal", headers={"Accept-Encoding": "identity"})
    assert shown.json()["closed_reason"] == "retired"
    assert shown.headers["etag"].strip('"') + ".json" in written
    unknown = subprocess.run(
        [*command[:4], "no-such-game", *command[5:]], cwd=ROOT, env=env, capture_output=True
    )
    assert unknown.returncode != 0


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_retire_pool_try_closes_the_pool_of_free_plays_and_not_the_paid_one(
    make_app: Callable[..., FastAPI],
    tmp_path: Path,
    pool_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: Any,
) -> None:
    app = make_app()
    client = TestClient(app)
    token = session(client)["token"]
    assert buy(client, token).status_code == 201
    paid = current(client)["pool_id"]

    def free_pool() -> str:
        given = client.post("/api/try", json={"game": GAME})
        assert given.status_code == 201, given.text
        return str(tokens.verify(app.state.services.ring, given.json()["token"])["pool"])

    old = free_pool()
    monkeypatch.setenv("LOTTERY_VAR_DIR", str(tmp_path / "var"))
    monkeypatch.setenv("LOTTERY_POOL_DIR", str(pool_dir))
    url = f"sqlite:///{tmp_path / 'var' / 'endpoint.sqlite3'}"
    argv = ["--game", GAME, "--try", "--close-only", "--database-url", url]
    code, printed = run_tool(cmd_retire_pool.main, argv, capsys)
    assert code == 0
    retired = printed["retired"]
    assert (retired["kind"], retired["pool_id"], retired["sold"]) == ("try", old, 1)
    assert retired["reason"] == "retired" and printed["next"] is None
    assert free_pool() != old  # the next free play: a new pool of free plays
    assert current(client)["pool_id"] == paid  # purchases sell on from the same pool
    shown = client.get(f"/api/pools/{GAME}/{old}/reveal").json()
    assert shown["closed_reason"] == "retired" and shown["sold"] == 1
