"""web/endpoint/log/witnesses.py: the endpoint's submitter, against real witnesses
(`build.py witness serve` in subprocesses, real HTTP, real keys), with a test-side log."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.tlog.note import open_checkpoint
from engine.tlog.policy import Policy, Witness
from tests.witness_log import (
    RunningWitness,
    TestLog,
    free_port,
    new_witness_key,
    verify,
    witness_server,
)
from web.endpoint.log.witnesses import Witnesses

LOGS = 12  # one fresh log a test: the witnesses are shared, their state per log


@pytest.fixture(scope="module")
def logs() -> list[TestLog]:
    return [TestLog(origin=f"example.test/submitted{i}") for i in range(LOGS)]


@pytest.fixture(scope="module")
def witnesses(
    tmp_path_factory: pytest.TempPathFactory, logs: list[TestLog]
) -> Iterator[list[RunningWitness]]:
    """Three witnesses, each with its own key and state, of every test log."""
    folder = tmp_path_factory.mktemp("witnesses")
    with (
        started(folder, "witness.test/a", logs) as a,
        started(folder, "witness.test/b", logs) as b,
        started(folder, "witness.test/c", logs) as c,
    ):
        yield [a, b, c]


def started(
    folder: Path, name: str, logs: list[TestLog]
) -> contextlib.AbstractContextManager[RunningWitness]:
    """A new witness key, and `build.py witness serve` with it."""
    key_file, vkey = new_witness_key(folder, name)
    state = folder / (name.replace("/", "_") + ".sqlite")
    return witness_server(key_file, name, state, [log.key for log in logs], vkey)


@pytest.fixture
def log(logs: list[TestLog]) -> TestLog:
    return logs.pop()


def policy(log: TestLog, running: list[RunningWitness], quorum: str = "none") -> Policy:
    """The operator's tlog-policy: the log and the witnesses, each with its URL."""
    found = Policy(logs=[(log.key, None)], quorum=quorum)
    for w in running:
        found.witnesses[w.key.name] = Witness(w.key.name, w.key, w.url)
    return found


class Proofs:
    """The log's prove(old), remembering what it was asked."""

    def __init__(self, log: TestLog) -> None:
        self.log = log
        self.asked: list[int] = []

    def __call__(self, old: int) -> list[bytes]:
        self.asked.append(old)
        return self.log.prove(old)


def cosigners(log: TestLog, checkpoint: str, submitter: Witnesses, proofs: Proofs) -> set[str]:
    """Submit; the names of the witnesses whose cosignatures verify on the checkpoint."""
    signatures = submitter.cosign(checkpoint, log.size, proofs)
    keys = [w.key for w in submitter.witnesses]
    note = open_checkpoint(checkpoint, log.key, verify)[1].with_signatures(signatures)
    _, _, found = open_checkpoint(note.format(), log.key, verify, keys)
    assert len(signatures) == len(found)
    return {key.name for key in found}


def test_a_first_checkpoint_then_growth(witnesses: list[RunningWitness], log: TestLog) -> None:
    rules = policy(log, witnesses[:2], quorum="witness.test/a")
    rules.witnesses["offline"] = Witness("offline", witnesses[2].key, None)  # no URL: not asked
    rules.groups["both"] = (2, ("witness.test/a", "witness.test/b"))
    submitter, proofs = Witnesses(rules), Proofs(log)
    log.grow(5)
    names = cosigners(log, log.checkpoint(), submitter, proofs)
    assert names == {"witness.test/a", "witness.test/b"} and rules.satisfied(names)
    assert proofs.asked == [0, 0]
    for step in (1, 6, 20):
        log.grow(step)
        proofs.asked.clear()
        assert cosigners(log, log.checkpoint(), submitter, proofs) == names
        assert proofs.asked == [log.size - step] * 2  # from the size each last cosigned
    submitter.close()


def test_a_new_process_learns_each_witness_s_size_by_409(
    witnesses: list[RunningWitness], log: TestLog
) -> None:
    log.grow(9)
    first = Witnesses(policy(log, witnesses[:1]))
    assert cosigners(log, log.checkpoint(), first, Proofs(log)) == {"witness.test/a"}
    log.grow(4)
    second, proofs = Witnesses(policy(log, witnesses[:2])), Proofs(log)  # a restarted endpoint
    names = cosigners(log, log.checkpoint(), second, proofs)
    assert names == {"witness.test/a", "witness.test/b"}
    assert sorted(proofs.asked) == [0, 0, 9]  # a: 0, then 9 after its 409; b: from 0
    first.close()
    second.close()


def test_a_witness_ahead_of_the_checkpoint_is_skipped(
    witnesses: list[RunningWitness], log: TestLog, caplog: pytest.LogCaptureFixture
) -> None:
    log.grow(10)
    ahead = Witnesses(policy(log, witnesses[:1]))
    assert cosigners(log, log.checkpoint(), ahead, Proofs(log)) == {"witness.test/a"}
    older = log.checkpoint(7)  # another instance's older checkpoint, sent late
    late = Witnesses(policy(log, witnesses[:1]))
    with caplog.at_level(logging.WARNING, "web.endpoint"):
        assert late.cosign(older, 7, lambda old: log.prove(old, 7)) == []
    assert "cosigned 10 leaves already" in caplog.text
    ahead.close()
    late.close()


def test_a_fork_is_refused_and_nothing_is_returned(
    witnesses: list[RunningWitness], log: TestLog, caplog: pytest.LogCaptureFixture
) -> None:
    log.grow(6)
    submitter = Witnesses(policy(log, witnesses[:2]))
    assert len(cosigners(log, log.checkpoint(), submitter, Proofs(log))) == 2
    fork = TestLog(origin=log.origin, private=log.private).grow(8, tag="rewritten")
    with caplog.at_level(logging.WARNING, "web.endpoint"):
        assert submitter.cosign(fork.checkpoint(), 8, Proofs(fork)) == []
    assert caplog.text.count("HTTP 422") == 2
    submitter.close()


def test_a_cosignature_by_another_key_is_not_kept(
    witnesses: list[RunningWitness], log: TestLog, caplog: pytest.LogCaptureFixture
) -> None:
    """The policy names witness b's key at witness a's URL: a's answer does not verify."""
    log.grow(3)
    rules = policy(log, witnesses[1:2])
    rules.witnesses["witness.test/b"] = Witness(
        "witness.test/b", witnesses[1].key, witnesses[0].url
    )
    submitter = Witnesses(rules)
    with caplog.at_level(logging.WARNING, "web.endpoint"):
        assert submitter.cosign(log.checkpoint(), 3, Proofs(log)) == []
    assert "no cosignature of its key" in caplog.text
    submitter.close()


def test_bad_input_never_raises(witnesses: list[RunningWitness], log: TestLog) -> None:
    log.grow(2)
    submitter = Witnesses(policy(log, witnesses[:1]))
    assert submitter.cosign("not a note", 2, Proofs(log)) == []

    def broken(old: int) -> list[bytes]:
        raise KeyError(old)

    assert submitter.cosign(log.checkpoint(), 2, broken) == []
    assert len(submitter.cosign(log.checkpoint(), 2, Proofs(log))) == 1
    submitter.close()


def test_a_witness_down_delays_nothing(
    witnesses: list[RunningWitness], log: TestLog, tmp_path: Path
) -> None:
    """A witness whose port is closed fails at once; the others cosign as ever."""
    log.grow(4)
    down = Witness("witness.test/down", witnesses[2].key, f"http://127.0.0.1:{free_port()}")
    rules = policy(log, witnesses[:2])
    rules.witnesses[down.name] = down
    submitter = Witnesses(rules, timeout_s=5.0)
    began = time.monotonic()
    names = cosigners(log, log.checkpoint(), submitter, Proofs(log))
    assert time.monotonic() - began < 2.0
    assert names == {"witness.test/a", "witness.test/b"}
    submitter.close()


def test_a_witness_that_hangs_costs_one_timeout(
    witnesses: list[RunningWitness], log: TestLog, caplog: pytest.LogCaptureFixture
) -> None:
    """Witness c stopped (SIGSTOP: its socket takes the connection, nothing answers): the
    call returns after the timeout with a's and b's cosignatures; c, resumed, catches up."""
    log.grow(5)
    submitter = Witnesses(policy(log, witnesses), timeout_s=1.0)
    hung = witnesses[2].process
    os.kill(hung.pid, signal.SIGSTOP)
    try:
        began = time.monotonic()
        with caplog.at_level(logging.WARNING, "web.endpoint"):
            names = cosigners(log, log.checkpoint(), submitter, Proofs(log))
        assert 1.0 <= time.monotonic() - began < 2.5
        assert names == {"witness.test/a", "witness.test/b"}
        assert "witness.test/c" in caplog.text
    finally:
        os.kill(hung.pid, signal.SIGCONT)
    log.grow(2)
    submitter.timeout_s = 10.0
    deadline = time.monotonic() + 20
    while "witness.test/c" not in cosigners(log, log.checkpoint(), submitter, Proofs(log)):
        assert time.monotonic() < deadline, "witness c never cosigned again"
        time.sleep(0.2)
    submitter.close()


def test_a_witness_that_lost_its_state_is_reported(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The witness restarts from an empty state file: its 409 says 0, below what it cosigned
    for us; the submitter says so (docs/log.md: such a witness must retire its key)."""
    log = TestLog().grow(5)
    key_file, _ = new_witness_key(tmp_path, "witness.test/forgetful")
    with witness_server(key_file, "witness.test/forgetful", tmp_path / "1.sqlite", [log.key]) as w:
        submitter = Witnesses(policy(log, [w]))
        assert cosigners(log, log.checkpoint(), submitter, Proofs(log)) == {w.key.name}
    log.grow(3)
    with witness_server(key_file, "witness.test/forgetful", tmp_path / "2.sqlite", [log.key]) as w:
        submitter.witnesses[0] = Witness(w.key.name, w.key, w.url)  # its new address
        with caplog.at_level(logging.WARNING, "web.endpoint"):
            assert cosigners(log, log.checkpoint(), submitter, Proofs(log)) == {w.key.name}
        assert "witness.test/forgetful is back at 0 after cosigning 5" in caplog.text
    submitter.close()
