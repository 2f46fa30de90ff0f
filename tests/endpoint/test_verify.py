"""`build.py verify` (tools/commands/verify.py) against a real endpoint: it passes for a real play
and names the step a tampered proof or token fails, it says what kind of play and pool it
checked, and a free TRY play's proof is refused as a paid play's.

The attack of issue 30: take free plays until one wins, retire the pool of free plays with the
real retire-pool command, rebuild the entry's Merkle proof from the public reveal and offer it
as a play detail. Real endpoint (uvicorn on a loopback port), real database (SQLite and
PostgreSQL), real pools and signatures.
"""

from __future__ import annotations

import base64
import json
import sys
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import update

from engine.math.leaves import chunk_root, leaf_tails
from engine.math.pool import CHUNK, Pool
from engine.outcome import Composition
from tests.endpoint.conftest import bearer, buy, serve, session
from tests.endpoint.pools.test_reveal import run_tool
from tools.commands import retire_pool as cmd_retire_pool
from tools.commands import verify as cmd_verify
from web.endpoint.pools import reveal
from web.endpoint.store.schema import pools

GAME = "lab-riches"
PAID_KIND = ("paid", "paid")


def claims(token: str) -> dict[str, Any]:
    """A token's payload as signed (its signature is the verifier's business)."""
    body = token.split(".")[1]
    parsed: dict[str, Any] = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    return parsed


def free_win(client: TestClient) -> tuple[int, str, dict[str, Any]]:
    """Free plays until one wins: (its play number, its token, the token's claims)."""
    for _ in range(200):
        given = client.post("/api/try", json={"game": GAME})
        assert given.status_code == 201, given.text
        payload = claims(given.json()["token"])
        if payload["prize_pence"] > 0:
            return int(given.json()["play_number"]), given.json()["token"], payload
    raise AssertionError("200 free plays and no win")


def rebuild(revealed: dict[str, Any]) -> Pool:
    """The whole pool recomputed from its public reveal (its root checked against the reveal's)."""
    codes: array[int] = array("H")
    codes.frombytes(base64.b64decode(revealed["entries"]))
    if sys.byteorder != "little":
        codes.byteswap()
    catalogue = tuple(
        (int(item["prize_pence"]), Composition.from_json(item["composition"]))
        for item in revealed["catalogue"]
    )
    key, tails = bytes.fromhex(revealed["key"]), leaf_tails(catalogue)
    roots = tuple(
        chunk_root(key, chunk, codes[chunk * CHUNK : (chunk + 1) * CHUNK], tails)
        for chunk in range(-(-len(codes) // CHUNK))
    )
    pool = Pool(revealed["game"], revealed["model"], key, catalogue, codes, roots)
    assert pool.root.hex() == revealed["root"]
    return pool


def forged_detail(number: int, token: str, payload: dict[str, Any], pool: Pool) -> dict[str, Any]:
    """A play detail (the object of GET /api/plays/{N}) made for a free play from its pool."""
    entry = pool.entry(int(payload["index"])).to_json()
    return {
        "play_number": number,
        "game": GAME,
        "model": pool.model,
        "status": "finished",
        "prize_pence": entry["prize_pence"],
        "composition": entry["composition"],
        "token": token,
        "pool": {"id": pool.pool_id, "root": pool.root.hex(), "size": pool.size},
        "entry": entry,
        "proof": pool.proof(int(payload["index"])),
    }


def offline_args(tmp_path: Path, number: int, saved: dict[str, Any]) -> list[str]:
    """The verifier's arguments to check saved answers ({option: answer}) with no endpoint."""
    argv = ["--play", str(number)]
    for name, answer in saved.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(answer))
        argv += [f"--{name}", str(tmp_path / f"{name}.json")]
    return argv


def kinds(verdict: dict[str, Any]) -> tuple[str | None, str | None]:
    """(the kind of play, the kind of pool) the verifier says it checked."""
    return verdict.get("play_kind"), verdict.get("pool_kind")


def test_a_free_try_win_is_refused_as_a_paid_play_online_and_offline(
    make_app: Callable[..., FastAPI],
    database_url: str,
    tmp_path: Path,
    pool_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: Any,
) -> None:
    app = make_app()
    client = TestClient(app)
    number, token, payload = free_win(client)
    assert payload["mode"] == "try"
    try_pool = str(payload["pool"])
    # the operator's command, as run by hand: the app's database and pool directory
    for name, value in (("VAR_DIR", tmp_path / "var"), ("POOL_DIR", pool_dir)):
        monkeypatch.setenv(f"LOTTERY_{name}", str(value))
    database = database_url or f"sqlite:///{tmp_path / 'var' / 'endpoint.sqlite3'}"
    retire = ["--game", GAME, "--try", "--close-only", "--database-url", database]
    assert run_tool(cmd_retire_pool.main, retire, capsys)[1]["retired"]["pool_id"] == try_pool

    revealed = client.get(f"/api/pools/{GAME}/{try_pool}/reveal").json()
    detail = forged_detail(number, token, payload, rebuild(revealed))
    (tmp_path / "proof.json").write_text(json.dumps(detail))
    with serve(app) as api:
        assert client.get(f"/api/plays/{number}").status_code in (401, 404)
        owner = session(client)["token"]
        assert client.get(f"/api/plays/{number}", headers=bearer(owner)).status_code == 404
        online = ["--play", str(number), "--proof", str(tmp_path / "proof.json"), "--api", api]
        code, verdict = run_tool(cmd_verify.main, online, capsys)
        assert code == 1, verdict  # before the fix: 0, every step passed
        assert verdict["failed"] == "payload" and not verdict["ok"]
        assert kinds(verdict) == ("try", "try")
        failed = {s["name"]: s["detail"] for s in verdict["steps"] if not s["ok"]}
        assert "free TRY play" in failed["payload"]
        assert "pool of free TRY plays" in failed["published"]
        capsys.readouterr()
        assert cmd_verify.main(online) == 1
        assert "FAILED at payload" in capsys.readouterr().out
        saved = {
            "keys": client.get("/api/keys").json(),
            "commitment": client.get(f"/api/pools/{GAME}/{try_pool}").json(),
            "reveal": revealed,
        }
    assert saved["commitment"]["kind"] == revealed["kind"] == "try"  # each says what it is
    offline = offline_args(tmp_path, number, {"proof": detail, **saved})
    code, verdict = run_tool(cmd_verify.main, offline, capsys)
    assert code == 1 and verdict["failed"] == "payload", verdict
    assert kinds(verdict) == ("try", "try")
    # the same commitment, claiming to be a paid pool's: the signed mode still refuses it
    (tmp_path / "paid.json").write_text(json.dumps({**saved["commitment"], "kind": "paid"}))
    code, verdict = run_tool(
        cmd_verify.main, [*offline, "--commitment", str(tmp_path / "paid.json")], capsys
    )
    assert code == 1 and verdict["failed"] == "payload", verdict


def test_a_paid_play_says_its_kinds_and_is_refused_against_a_try_pool(
    make_app: Callable[..., FastAPI], tmp_path: Path, capsys: Any
) -> None:
    app = make_app()
    client = TestClient(app)
    token = session(client)["token"]
    bought = buy(client, token)
    assert bought.status_code == 201, bought.text
    number = bought.json()["play_number"]
    play = client.get(f"/api/plays/{number}", headers=bearer(token)).json()
    pool_id = play["pool"]["id"]
    assert client.get(f"/api/pools/{GAME}/{pool_id}").json()["kind"] == "paid"
    with serve(app) as api:
        base = ["--play", str(number), "--api", api, "--session-token", token]
        code, verdict = run_tool(cmd_verify.main, base, capsys)
        assert code == 0, verdict
        assert kinds(verdict) == PAID_KIND
        assert "paid play" in verdict["steps"][1]["detail"]
        assert "pool of paid plays" in verdict["steps"][4]["detail"]
        saved = {
            "proof": play,
            "keys": client.get("/api/keys").json(),
            "commitment": client.get(f"/api/pools/{GAME}/{pool_id}").json(),
        }
        # the endpoint serving the paid play's pool as a pool of free plays: refused
        with app.state.services.db.begin() as conn:
            conn.execute(update(pools).where(pools.c.pool_id == pool_id).values(kind="try"))
        code, verdict = run_tool(cmd_verify.main, base, capsys)
        assert code == 1 and verdict["failed"] == "published", verdict
        assert kinds(verdict) == ("paid", "try")
    offline = offline_args(tmp_path, number, saved)
    code, verdict = run_tool(cmd_verify.main, offline, capsys)
    assert code == 0 and kinds(verdict) == PAID_KIND, verdict
    for changed in ({"kind": "try"}, {"kind": None}):
        other = tmp_path / "other.json"
        other.write_text(json.dumps({**saved["commitment"], **changed}))
        code, verdict = run_tool(cmd_verify.main, [*offline, "--commitment", str(other)], capsys)
        assert code == 1 and verdict["failed"] == "published", (changed, verdict)


def test_verify_passes_for_a_real_play_and_names_the_tampered_step(
    make_app: Callable[..., FastAPI], tmp_path: Path, capsys: Any
) -> None:
    app = make_app()
    client = TestClient(app)
    token = session(client)["token"]
    number = buy(client, token).json()["play_number"]
    play = client.get(f"/api/plays/{number}", headers=bearer(token)).json()

    def tampered(name: str, change: Callable[[dict[str, Any]], None]) -> list[str]:
        copy = json.loads(json.dumps(play))
        change(copy)
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(copy))
        return ["--play", str(number), "--api", url, "--proof", str(path)]

    def flip_sibling(p: dict[str, Any]) -> None:
        sibling = bytearray(bytes.fromhex(p["proof"][3]))
        sibling[0] ^= 1
        p["proof"][3] = sibling.hex()

    def flip_signature(p: dict[str, Any]) -> None:
        head, body, sig = p["token"].split(".")
        middle = len(sig) // 2
        swapped = "B" if sig[middle] == "A" else "A"
        p["token"] = f"{head}.{body}.{sig[:middle]}{swapped}{sig[middle + 1 :]}"

    def change_seed(p: dict[str, Any]) -> None:
        p["entry"]["seed"] = "0" * 32

    with serve(app) as url:
        base = ["--play", str(number), "--api", url]
        code, verdict = run_tool(cmd_verify.main, [*base, "--session-token", token], capsys)
        assert code == 0, verdict
        assert [s["name"] for s in verdict["steps"]] == [
            "signature",
            "payload",
            "leaf",
            "merkle",
            "published",
        ]
        assert all(s["ok"] for s in verdict["steps"])

        code, verdict = run_tool(cmd_verify.main, tampered("path", flip_sibling), capsys)
        assert code == 1 and verdict["failed"] == "merkle"
        assert [s["name"] for s in verdict["steps"] if not s["ok"]] == ["merkle"]

        code, verdict = run_tool(cmd_verify.main, tampered("sig", flip_signature), capsys)
        assert code == 1 and verdict["failed"] == "signature"
        assert [s["name"] for s in verdict["steps"] if not s["ok"]] == ["signature"]

        code, verdict = run_tool(cmd_verify.main, tampered("seed", change_seed), capsys)
        assert code == 1 and verdict["failed"] == "payload"

        # without the player's credential the play cannot be fetched
        assert run_tool(cmd_verify.main, base, capsys)[0] == 1

        # once the pool is retired and revealed, step 3 also derives the seed and salt
        reveal.retire(app.state.services.pools, GAME)
        code, verdict = run_tool(cmd_verify.main, [*base, "--session-token", token], capsys)
        assert code == 0, verdict
        assert "derive from the revealed key" in verdict["steps"][2]["detail"]
        capsys.readouterr()
        assert cmd_verify.main([*base, "--session-token", token]) == 0
        assert "every step passes" in capsys.readouterr().out

        # offline: the answers saved, no endpoint (the reveal too, now the pool is closed)
        pool_id = play["pool"]["id"]
        saved = {
            "proof": play,
            "keys": client.get("/api/keys").json(),
            "commitment": client.get(f"/api/pools/{GAME}/{pool_id}").json(),
            "reveal": client.get(f"/api/pools/{GAME}/{pool_id}/reveal").json(),
        }
    offline = ["--play", str(number)]
    for name, answer in saved.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(answer))
        offline += [f"--{name}", str(tmp_path / f"{name}.json")]
    code, verdict = run_tool(cmd_verify.main, offline, capsys)
    assert code == 0, verdict
    assert "derive from the revealed key" in verdict["steps"][2]["detail"]
    assert "saved commitment" in verdict["steps"][4]["detail"]
    (tmp_path / "other.json").write_text(json.dumps({**saved["commitment"], "root": "0" * 64}))
    code, verdict = run_tool(
        cmd_verify.main, [*offline, "--commitment", str(tmp_path / "other.json")], capsys
    )
    assert code == 1 and verdict["failed"] == "published"
    with pytest.raises(SystemExit):  # offline, the keys and the commitment are needed too
        cmd_verify.main(["--play", str(number), "--proof", str(tmp_path / "proof.json")])
