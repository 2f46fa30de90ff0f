"""tools/witness/witness.py: add-checkpoint's checks in the spec's order and what the witness
keeps and serves, run in-process on a real state file with a fixed clock (the same answers
over HTTP: tests/test_witness_server.py)."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.tlog.note import (
    Checkpoint,
    NoteError,
    Signature,
    open_checkpoint,
    parse_note,
    parse_signatures,
)
from engine.tlog.proof import consistency_body
from engine.tlog.tree import EMPTY_ROOT
from tests.witness_log import TestLog, verify
from tools.witness.keys import Cosigner
from tools.witness.state import State, origin_hash
from tools.witness.witness import SIZE, Witness, read_checkpoint

NOW = 1_800_000_000


@pytest.fixture
def log() -> TestLog:
    return TestLog()


@pytest.fixture
def witness(tmp_path: Path, log: TestLog) -> Witness:
    cosigner = Cosigner("witness.test/w1", Ed25519PrivateKey.generate())
    return Witness(cosigner, [log.key], State(tmp_path / "w.sqlite"), clock=lambda: NOW)


def add(witness: Witness, body: str) -> tuple[int, str]:
    answer = witness.add_checkpoint(body.encode())
    return answer.status, answer.body


def test_the_checks_answer_in_the_specs_order(witness: Witness, log: TestLog) -> None:
    log.grow(6)
    stranger = TestLog(origin="example.test/other").grow(6)
    impostor = TestLog(origin=log.origin).grow(6)
    assert add(witness, stranger.body(0))[0] == 404
    assert add(witness, impostor.body(0))[0] == 403
    assert add(witness, consistency_body(7, [], log.checkpoint()))[0] == 400
    assert add(witness, log.body(0))[0] == 200
    status, body = add(witness, consistency_body(2, log.prove(2), log.checkpoint()))
    assert (status, body) == (409, "6\n")
    assert witness.add_checkpoint(log.body(2).encode()).content_type == SIZE
    log.grow(1)
    assert add(witness, consistency_body(6, [], log.checkpoint()))[0] == 422
    assert add(witness, log.body(6))[0] == 200


def test_the_cosignature_carries_the_clocks_time(witness: Witness, log: TestLog) -> None:
    log.grow(3)
    status, body = add(witness, log.body(0))
    assert status == 200 and len(parse_signatures(body)) == 1
    note = parse_note(log.checkpoint()).with_signatures(parse_signatures(body))
    _, _, found = open_checkpoint(note.format(), log.key, verify, [witness.cosigner.key])
    assert found == {witness.cosigner.key: NOW}


def test_the_served_checkpoint_keeps_only_verified_signatures(
    witness: Witness, log: TestLog
) -> None:
    """An unknown key's signature is dropped; the log's and the witness's stay."""
    log.grow(4)
    stray = Signature("someone.else", b"\x01\x02\x03\x04", bytes(64))
    note = parse_note(log.checkpoint()).with_signatures([stray])
    assert add(witness, consistency_body(0, [], note.format()))[0] == 200
    served = witness.checkpoint(origin_hash(log.origin))
    assert served.status == 200
    names = [s.name for s in parse_note(served.body).signatures]
    assert names == [log.origin, "witness.test/w1"]
    assert witness.checkpoint(origin_hash("example.test/other")).status == 404


def test_the_empty_tree(witness: Witness, log: TestLog) -> None:
    other_root = bytes(32)
    assert add(witness, consistency_body(0, [], log.checkpoint(0, other_root)))[0] == 422
    assert add(witness, consistency_body(0, [], log.checkpoint(0, EMPTY_ROOT)))[0] == 200
    log.grow(2)
    assert add(witness, log.body(0))[0] == 200
    refused = witness.state.refusals()
    assert [(r.size, r.root, r.status) for r in refused] == [(0, other_root, 422)]


def test_a_size_0_checkpoint_with_another_root_reads_as_it_is() -> None:
    wrong = Checkpoint("o", 0, bytes(32)).text()
    assert read_checkpoint(wrong).root == bytes(32)
    short = wrong.replace(base64.b64encode(bytes(32)).decode(), base64.b64encode(b"x").decode())
    for text in (short, "o\n0\n!!!\n", "o\n01\nAAAA\n"):
        with pytest.raises(NoteError):
            read_checkpoint(text)


def test_a_witness_takes_only_log_keys(tmp_path: Path, witness: Witness) -> None:
    with pytest.raises(ValueError, match="not a log"):
        Witness(witness.cosigner, [witness.cosigner.key], State(tmp_path / "x.sqlite"))


def test_a_fork_at_the_same_size_is_kept_with_the_logs_signature(
    witness: Witness, log: TestLog
) -> None:
    log.grow(5)
    assert add(witness, log.body(0))[0] == 200
    fork = TestLog(origin=log.origin, private=log.private).grow(5, tag="other")
    body = consistency_body(5, [], fork.checkpoint())
    assert add(witness, body) == (422, "two trees of the same size have different roots\n")
    (kept,) = witness.state.refusals()
    assert kept.request == body and kept.received_at == NOW
    checkpoint = Checkpoint.parse(parse_note(body.partition("\n\n")[2]).text)
    assert checkpoint.root == kept.root == fork.root() != log.root()


def test_a_clock_that_steps_back_never_dates_a_cosignature_earlier(
    tmp_path: Path, log: TestLog
) -> None:
    times = iter([NOW, NOW - 60])
    cosigner = Cosigner("witness.test/w1", Ed25519PrivateKey.generate())
    witness = Witness(cosigner, [log.key], State(tmp_path / "w.sqlite"), lambda: next(times))
    found = []
    for old, grow in ((0, 2), (2, 3)):
        log.grow(grow)
        status, body = add(witness, log.body(old))
        assert status == 200
        note = parse_note(log.checkpoint()).with_signatures(parse_signatures(body))
        found.append(open_checkpoint(note.format(), log.key, verify, [cosigner.key])[2])
    assert found == [{cosigner.key: NOW}, {cosigner.key: NOW}]
