"""The witness over real HTTP (tools/witness/server.py): `build.py witness serve` in a
subprocess with its own key and state, fed checkpoints of test-side logs signed with test log
keys, answering as c2sp.org/tlog-witness says."""

from __future__ import annotations

import base64
import hashlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from engine.tlog.note import Key, open_checkpoint, parse_note, parse_signatures, verified_by
from engine.tlog.proof import consistency_body
from engine.tlog.tree import EMPTY_ROOT
from tests.witness_log import RunningWitness, TestLog, new_witness_key, verify, witness_server
from tools.witness.state import State

NAME = "witness.test/w1"
LOGS = 16  # one fresh log a test, so the tests share one server and not their state


@pytest.fixture(scope="module")
def logs() -> list[TestLog]:
    return [TestLog(origin=f"example.test/log{i}") for i in range(LOGS)]


@pytest.fixture(scope="module")
def witness(
    tmp_path_factory: pytest.TempPathFactory, logs: list[TestLog]
) -> Iterator[RunningWitness]:
    folder = tmp_path_factory.mktemp("witness")
    key_file, vkey = new_witness_key(folder, NAME)
    with witness_server(
        key_file, NAME, folder / "state.sqlite", [log.key for log in logs], vkey
    ) as w:
        yield w


@pytest.fixture
def log(logs: list[TestLog]) -> TestLog:
    """A log this witness has never seen."""
    return logs.pop()


def post(witness: RunningWitness, body: str | bytes) -> httpx.Response:
    return httpx.post(f"{witness.url}/add-checkpoint", content=body, timeout=10)


def cosigned(witness: RunningWitness, log: TestLog, answer: httpx.Response, size: int) -> int:
    """The time of the witness's verified cosignature of the log's checkpoint at size."""
    assert answer.status_code == 200, answer.text
    note = parse_note(log.checkpoint(size))
    signed = note.with_signatures(parse_signatures(answer.text))
    found = verified_by(signed, [witness.key], verify)
    at = found[witness.key]
    assert at is not None and at > 0
    return at


def refusals(witness: RunningWitness, log: TestLog) -> list[tuple[int, int, str]]:
    return [
        (r.size, r.status, r.reason)
        for r in State(witness.state).refusals()
        if r.origin == log.origin
    ]


def test_a_first_checkpoint_is_cosigned_from_0(witness: RunningWitness, log: TestLog) -> None:
    log.grow(5)
    cosigned(witness, log, post(witness, log.body(0)), 5)


def test_the_log_grows_with_valid_proofs(witness: RunningWitness, log: TestLog) -> None:
    old = 0
    for step in (1, 1, 2, 3, 7, 1, 16, 30):
        log.grow(step)
        cosigned(witness, log, post(witness, log.body(old)), log.size)
        old = log.size
    same = post(witness, log.body(old))  # the same checkpoint again: cosigned again
    cosigned(witness, log, same, log.size)


def test_a_stale_old_size_gets_409_with_the_latest(witness: RunningWitness, log: TestLog) -> None:
    log.grow(4)
    cosigned(witness, log, post(witness, log.body(0)), 4)
    log.grow(6)
    stale = post(witness, log.body(0))
    assert stale.status_code == 409
    assert stale.headers["content-type"] == "text/x.tlog.size"
    assert stale.text == "4\n"
    cosigned(witness, log, post(witness, log.body(int(stale.text))), 10)
    assert post(witness, log.body(3)).text == "10\n"


def test_an_unknown_origin_is_404(witness: RunningWitness) -> None:
    stranger = TestLog(origin="example.test/unknown").grow(3)
    assert post(witness, stranger.body(0)).status_code == 404


def test_no_valid_log_signature_is_403(witness: RunningWitness, log: TestLog) -> None:
    log.grow(3)
    impostor = TestLog(origin=log.origin).grow(3)  # the log's name, another key
    assert post(witness, impostor.body(0)).status_code == 403
    text = log.checkpoint()
    bad_line = f"\u2014 {log.origin} {base64.b64encode(log.key.id + bytes(64)).decode()}\n"
    forged = text.rpartition("\u2014")[0] + bad_line  # the log key's name and ID, a bad signature
    assert post(witness, consistency_body(0, [], forged)).status_code == 403
    both = text + bad_line  # a good signature and a failing one of the same key: malformed
    assert post(witness, consistency_body(0, [], both)).status_code == 403
    assert refusals(witness, log) == []  # not signed: no evidence of anything


def test_an_old_size_above_the_size_is_400(witness: RunningWitness, log: TestLog) -> None:
    log.grow(3)
    assert post(witness, consistency_body(4, [], log.checkpoint())).status_code == 400


@pytest.mark.parametrize(
    "body",
    [b"", b"old 1\n", b"\xff\xfe", b"old 01\n\nx\n", b"old 0\n\nnot a note\n"],
)
def test_malformed_requests_are_400(witness: RunningWitness, body: bytes) -> None:
    assert post(witness, body).status_code == 400


def test_a_body_above_64_kib_is_413(witness: RunningWitness, log: TestLog) -> None:
    log.grow(2)
    assert post(witness, log.body(0) + "x" * 70_000).status_code == 413


def test_a_proof_from_0_is_422(witness: RunningWitness, log: TestLog) -> None:
    log.grow(4)
    answer = post(witness, consistency_body(0, [bytes(32)], log.checkpoint()))
    assert answer.status_code == 422
    assert [status for _, status, _ in refusals(witness, log)] == [422]


def test_a_size_0_checkpoint_needs_the_empty_root(witness: RunningWitness, log: TestLog) -> None:
    good = post(witness, consistency_body(0, [], log.checkpoint(0, EMPTY_ROOT)))
    cosigned(witness, log, good, 0)
    wrong = post(witness, consistency_body(0, [], log.checkpoint(0, hashlib.sha256(b"x").digest())))
    assert wrong.status_code == 422
    assert [(size, status) for size, status, _ in refusals(witness, log)] == [(0, 422)]


def test_a_proof_that_fails_is_422(witness: RunningWitness, log: TestLog) -> None:
    log.grow(5)
    cosigned(witness, log, post(witness, log.body(0)), 5)
    log.grow(6)
    proof = log.prove(5)
    proof[0] = bytes(32)
    assert post(witness, consistency_body(5, proof, log.checkpoint())).status_code == 422
    assert post(witness, consistency_body(5, proof[:-1], log.checkpoint())).status_code == 422
    cosigned(witness, log, post(witness, log.body(5)), 11)  # the true proof still goes through


def test_a_fork_is_refused_and_kept_as_evidence(witness: RunningWitness, log: TestLog) -> None:
    """Two trees of one size, and a tree that does not extend the one cosigned: both 422,
    both kept, signed by the log, and the witness still at the honest tree."""
    log.grow(8)
    cosigned(witness, log, post(witness, log.body(0)), 8)
    fork = TestLog(origin=log.origin, private=log.private).grow(8, tag="rewritten")
    same_size = post(witness, consistency_body(8, [], fork.checkpoint()))
    assert same_size.status_code == 422
    fork.grow(4)
    longer = post(witness, consistency_body(8, fork.prove(8), fork.checkpoint()))
    assert longer.status_code == 422
    kept = [r for r in State(witness.state).refusals() if r.origin == log.origin]
    assert [(r.size, r.status) for r in kept] == [(8, 422), (12, 422)]
    assert kept[0].reason == "two trees of the same size have different roots"
    for refusal in kept:  # the evidence: the log's own signature on the forked tree
        note_text = refusal.request.partition("\n\n")[2]
        checkpoint, _, _ = open_checkpoint(note_text, log.key, verify)
        assert checkpoint.root == refusal.root == fork.root(checkpoint.size)
    assert kept[0].root != log.root(8)
    assert State(witness.state).latest(log.origin).root == log.root(8)  # type: ignore[union-attr]
    log.grow(1)
    cosigned(witness, log, post(witness, log.body(8)), 9)


def test_the_checkpoint_is_served_cosigned(witness: RunningWitness, log: TestLog) -> None:
    path = f"{witness.url}/{hashlib.sha256(log.origin.encode()).hexdigest()}/checkpoint"
    assert httpx.get(path).status_code == 404
    log.grow(7)
    at = cosigned(witness, log, post(witness, log.body(0)), 7)
    served = httpx.get(path)
    assert served.status_code == 200
    checkpoint, note, found = open_checkpoint(served.text, log.key, verify, [witness.key])
    assert (checkpoint.size, checkpoint.root, found) == (7, log.root(), {witness.key: at})
    assert len(note.signatures) == 2
    assert httpx.get(f"{witness.url}/{'A' * 64}/checkpoint").status_code == 404


def test_concurrent_submissions_never_roll_back(witness: RunningWitness, log: TestLog) -> None:
    """Threads each submit a different size from the same old size: one wins, the rest are
    told 409; then every thread chases the latest size. The stored size only ever grows and
    ends at the largest cosigned."""
    log.grow(32)
    cosigned(witness, log, post(witness, log.body(0, 1)), 1)
    sizes = list(range(2, 33))
    results: dict[int, int] = {}

    def submit(size: int) -> None:
        old = 1
        for _ in range(100):
            answer = post(witness, log.body(old, size))
            if answer.status_code != 409 or int(answer.text) > size:
                results[size] = answer.status_code if answer.status_code != 409 else -1
                return
            old = int(answer.text)

    threads = [threading.Thread(target=submit, args=(size,)) for size in sizes]
    for thread in threads:
        thread.start()
    state, seen = State(witness.state), []
    while any(t.is_alive() for t in threads):
        latest = state.latest(log.origin)
        seen.append(latest.size if latest else 0)
        time.sleep(0.005)
    for thread in threads:
        thread.join()
    assert seen == sorted(seen)
    assert set(results.values()) <= {200, -1} and 200 in results.values()
    final = state.latest(log.origin)
    assert final is not None
    cosigned_sizes = [size for size, status in results.items() if status == 200]
    assert final.size == max(cosigned_sizes) and final.root == log.root(final.size)


def test_the_state_survives_a_restart(tmp_path: Path) -> None:
    log = TestLog().grow(6)
    key_file, vkey = new_witness_key(tmp_path, NAME)
    state = tmp_path / "state.sqlite"
    with witness_server(key_file, NAME, state, [log.key]) as first:
        assert first.vkey == vkey
        cosigned(first, log, post(first, log.body(0)), 6)
    log.grow(3)
    with witness_server(key_file, NAME, state, [log.key]) as second:
        assert second.key == Key.parse(vkey)
        assert post(second, log.body(0)).text == "6\n"
        cosigned(second, log, post(second, log.body(6)), 9)
