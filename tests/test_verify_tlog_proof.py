"""`build.py verify --tlog-proof` (tools/commands/verify.py, tools/audit/verify_tlog_proof.py):
a play's proof of logging checked offline with the policy an auditor trusts, and fetched from a
site (tests/log_site.py) over real HTTP. An honest proof passes every step; an altered record
or inclusion proof, a checkpoint the policy's log did not sign or too few witnesses cosigned, a
play's proof missing or of a sale in no log each fail at their step."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from engine.math.pool import Pool
from engine.tlog import records
from engine.tlog.proof import TlogProof
from tests.log_site import Operator, commitment, new_key, reveal_document, sale, served
from tests.log_site import small_pool as make_pool
from tools.commands import verify


@pytest.fixture(scope="module")
def pools() -> tuple[Pool, Pool]:
    return make_pool(), make_pool()


@pytest.fixture
def site(tmp_path: Path, pools: tuple[Pool, Pool]) -> tuple[Operator, Path]:
    """A log of pool a: its commitment and plays 1-5 (indices 0-4), published, cosigned by
    both witnesses, and a policy (quorum: both) saved where an auditor keeps it."""
    op = Operator(tmp_path / "site")
    op.append(commitment(pools[0]))
    for i in range(5):
        op.append(sale(pools[0], 1 + i, i))
    op.publish()
    policy = tmp_path / "policy"
    policy.write_text(op.policy("all"), encoding="utf-8")
    return op, policy


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = verify.main([*argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def save(tmp_path: Path, name: str, text: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return str(path)


def detail(pool: Pool, play: int, index: int) -> dict[str, Any]:
    """The parts of GET /api/plays/{N} the log steps read."""
    return {"play_number": play, "pool": {"id": pool.pool_id}, "entry": pool.entry(index).to_json()}


def verdict(report: dict[str, Any]) -> list[tuple[str, bool]]:
    return [(s["name"], s["ok"]) for s in report["steps"]]


def test_an_honest_proof_passes_every_step(
    tmp_path: Path,
    site: tuple[Operator, Path],
    pools: tuple[Pool, Pool],
    capsys: pytest.CaptureFixture[str],
) -> None:
    op, policy = site
    a = pools[0]
    checkpoint = (op.site / "log/checkpoint").read_text()
    proof = save(tmp_path, "play-3.tlog-proof", op.proof(3, checkpoint))
    play = save(tmp_path, "play-3.json", json.dumps(detail(a, 3, 2)))
    reveal = save(tmp_path, "reveal.json", reveal_document(a, 5))
    argv = ["--tlog-proof", proof, "--policy", str(policy), "--play", "3"]
    code, report = run(capsys, *argv, "--proof", play, "--reveal", reveal)
    assert code == 0, report
    names = ["proof", "record", "log", "witnesses", "inclusion", "play", "pool"]
    assert verdict(report) == [(name, True) for name in names]
    assert "entry 3 of the log's 6" in report["steps"][4]["detail"]
    assert verify.main(argv) == 0
    out = capsys.readouterr().out
    assert "5. inclusion  PASS" in out and "play 3's proof of logging: every step passes" in out


def altered(text: str, what: str) -> str:
    proof = TlogProof.parse(text)
    if what == "record":
        record = records.decode(proof.extra or b"")
        record["prize_pence"] += 100_000  # a bigger prize than was sold
        return TlogProof(
            proof.index, proof.hashes, proof.checkpoint, records.encode(record)
        ).format()
    if what == "hash":
        first = bytes([proof.hashes[0][0] ^ 1]) + proof.hashes[0][1:]
        return TlogProof(
            proof.index, (first, *proof.hashes[1:]), proof.checkpoint, proof.extra
        ).format()
    return TlogProof(proof.index + 1, proof.hashes, proof.checkpoint, proof.extra).format()


@pytest.mark.parametrize("what", ["record", "hash", "index"])
def test_an_altered_record_or_inclusion_proof_fails(
    tmp_path: Path, site: tuple[Operator, Path], capsys: pytest.CaptureFixture[str], what: str
) -> None:
    op, policy = site
    text = altered(op.proof(3, (op.site / "log/checkpoint").read_text()), what)
    code, report = run(capsys, "--tlog-proof", save(tmp_path, "p", text), "--policy", str(policy))
    assert code == 1 and report["failed"] == "inclusion"
    assert report["steps"][-1]["detail"].startswith("the record is not in the log")


def test_a_proof_of_another_play_or_of_no_sale_fails_at_the_record(
    tmp_path: Path, site: tuple[Operator, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    op, policy = site
    checkpoint = (op.site / "log/checkpoint").read_text()
    proof = save(tmp_path, "p", op.proof(3, checkpoint))
    code, report = run(capsys, "--tlog-proof", proof, "--policy", str(policy), "--play", "4")
    assert code == 1 and report["steps"][-1]["detail"] == "the record is of play 3, not play 4"
    commitment_proof = save(tmp_path, "c", op.proof(0, checkpoint))
    code, report = run(capsys, "--tlog-proof", commitment_proof, "--policy", str(policy))
    assert report["failed"] == "record" and "a commitment, not a sale" in str(report)


def test_a_checkpoint_not_signed_by_the_policys_log_or_too_little_cosigned_fails(
    tmp_path: Path, site: tuple[Operator, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    op, policy = site
    impostor = op.checkpoint(op.entries, log_private=new_key("impostor", 1)[0])
    proof = save(tmp_path, "p", op.proof(3, impostor))
    code, report = run(capsys, "--tlog-proof", proof, "--policy", str(policy))
    assert report["failed"] == "log" and "signature does not verify" in str(report)
    lonely = op.checkpoint(op.entries, cosigners=[0])
    proof = save(tmp_path, "p", op.proof(3, lonely))
    code, report = run(capsys, "--tlog-proof", proof, "--policy", str(policy))
    assert code == 1 and report["failed"] == "witnesses"
    assert report["steps"][-1]["detail"] == (
        "cosigned by witness0.example: too few for the policy's quorum (witnesses)"
    )


def test_a_sale_recorded_in_no_log_fails(
    tmp_path: Path,
    site: tuple[Operator, Path],
    pools: tuple[Pool, Pool],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Play 7 was sold (entry 6) but never logged: the site has no proof of it; a proof made
    up for it does not lead to the witnessed root; a tree of the operator's own holding it
    has no witness's cosignature."""
    op, policy = site
    a = pools[0]
    checkpoint = (op.site / "log/checkpoint").read_text()
    op.write("api/plays/3/proof", op.proof(3, checkpoint).encode())
    with served(op.site) as url:
        flags = ["--policy", str(policy), "--api", url]
        assert run(capsys, "--play", "3", *flags)[0] == 0  # fetched from GET /api/plays/3/proof
        code, report = run(capsys, "--play", "7", *flags)
        assert code == 1 and report["failed"] == "proof"
        assert "404, the site has no proof that this play was logged" in str(report)
        url_proof = f"{url}/api/plays/3/proof"
        assert run(capsys, "--tlog-proof", url_proof, "--policy", str(policy))[0] == 0
    forged = TlogProof.parse(op.proof(3, checkpoint))
    record = records.encode(sale(a, 7, 6))
    made_up = TlogProof(forged.index, forged.hashes, checkpoint, record).format()
    code, report = run(
        capsys, "--tlog-proof", save(tmp_path, "p", made_up), "--policy", str(policy)
    )
    assert code == 1 and report["failed"] == "inclusion"
    secret = [*op.entries, record]  # a split view: a tree only this player is shown
    unwitnessed = op.checkpoint(secret, cosigners=[])
    proof = save(tmp_path, "p", op.proof(6, unwitnessed, secret))
    code, report = run(capsys, "--tlog-proof", proof, "--policy", str(policy), "--play", "7")
    assert code == 1 and report["failed"] == "witnesses"


def test_the_record_must_be_the_plays_entry_and_the_revealed_pools(
    tmp_path: Path,
    site: tuple[Operator, Path],
    pools: tuple[Pool, Pool],
    capsys: pytest.CaptureFixture[str],
) -> None:
    op, policy = site
    a, b = pools
    proof = save(tmp_path, "p", op.proof(3, (op.site / "log/checkpoint").read_text()))
    argv = ["--tlog-proof", proof, "--policy", str(policy)]
    other = save(tmp_path, "d", json.dumps(detail(a, 3, 7)))  # another entry of the pool
    code, report = run(capsys, *argv, "--proof", other)
    assert code == 1 and report["failed"] == "play"
    wrong = report["steps"][-1]["detail"]
    assert wrong.startswith("the logged sale and the play's entry differ in: index")
    assert wrong.endswith("leaf")
    revealed = json.loads(reveal_document(a, 5))
    codes = bytearray(base64.b64decode(revealed["entries"]))
    code = int.from_bytes(codes[4:6], "little")  # entry 2's: another outcome there, one key
    codes[4:6] = ((code + 1) % len(revealed["catalogue"])).to_bytes(2, "little")
    changed = reveal_document(a, 5, entries=base64.b64encode(bytes(codes)).decode())
    code, report = run(capsys, *argv, "--reveal", save(tmp_path, "r", changed))
    assert code == 1 and report["failed"] == "pool"
    code, report = run(capsys, *argv, "--reveal", save(tmp_path, "r", reveal_document(b, 5)))
    assert report["failed"] == "pool" and "the reveal is of pool" in str(report)
