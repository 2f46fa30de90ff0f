"""tools/witness/state.py: the latest checkpoint a witness cosigned for each log, checked and
stored in one atomic step, the refused checkpoints kept, everything on disk across a reopen."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from tools.witness.state import Refusal, RolledBack, State, Step, origin_hash

ORIGIN = "example.test/log"


def test_a_step_stores_and_a_reopened_state_reads_it(tmp_path: Path) -> None:
    state = State(tmp_path / "w.sqlite")
    with state.step(ORIGIN) as step:
        assert step.latest is None
        step.store(3, b"r" * 32, "cosigned note\n", 100)
    with state.step(ORIGIN) as step:
        step.refuse(Refusal(ORIGIN, 3, 3, b"f" * 32, 422, "a fork", "old 3\n\nnote\n", 101))
    again = State(tmp_path / "w.sqlite")
    latest = again.latest(ORIGIN)
    assert latest is not None and (latest.size, latest.root, latest.checkpoint) == (
        3,
        b"r" * 32,
        "cosigned note\n",
    )
    assert again.by_hash(origin_hash(ORIGIN)) == latest
    assert again.by_hash(origin_hash("example.test/other")) is None
    assert [(r.size, r.reason) for r in again.refusals()] == [(3, "a fork")]


def test_a_step_that_fails_leaves_nothing(tmp_path: Path) -> None:
    state = State(tmp_path / "w.sqlite")
    with pytest.raises(ZeroDivisionError), state.step(ORIGIN) as step:
        step.store(3, b"r" * 32, "note\n", 100)
        _ = 1 / 0
    assert state.latest(ORIGIN) is None


def test_a_second_step_waits_for_the_first_and_reads_what_it_stored(tmp_path: Path) -> None:
    """The race of c2sp.org/tlog-witness: B must not read the size before A has stored."""
    state = State(tmp_path / "w.sqlite")
    a_read = threading.Event()
    b_saw: list[int | None] = []

    def a() -> None:
        with state.step(ORIGIN) as step:
            a_read.set()
            time.sleep(0.3)  # A has checked the old size; B arrives now
            step.store(10, b"a" * 32, "A\n", 1)

    def b() -> None:
        a_read.wait()
        with state.step(ORIGIN) as step:
            b_saw.append(step.latest.size if step.latest else None)

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert b_saw == [10]


def test_a_store_from_a_stale_read_is_refused(tmp_path: Path) -> None:
    """The store is a compare-and-swap on the size read: a step that read 10 cannot store
    once another wrote 20, nor store a smaller size than the one it read."""
    state = State(tmp_path / "w.sqlite")
    with state.step(ORIGIN) as step:
        step.store(10, b"a" * 32, "A\n", 1)
    stale = Step(sqlite3.connect(tmp_path / "w.sqlite", isolation_level=None), ORIGIN)
    with state.step(ORIGIN) as step:
        step.store(20, b"b" * 32, "B\n", 2)
    with pytest.raises(RolledBack):
        stale.store(15, b"c" * 32, "C\n", 3)
    with pytest.raises(RolledBack), state.step(ORIGIN) as step:
        step.store(5, b"d" * 32, "D\n", 4)
    latest = state.latest(ORIGIN)
    assert latest is not None and latest.size == 20


def test_concurrent_steps_only_ever_grow_the_size(tmp_path: Path) -> None:
    """Threads each move the size to theirs only if it is still what they read and below
    theirs: the stored size never goes down, and ends at the largest."""
    state = State(tmp_path / "w.sqlite")
    history: list[int] = []

    def advance(size: int) -> None:
        with state.step(ORIGIN) as step:
            have = step.latest.size if step.latest else 0
            time.sleep(0.001)
            if have < size:
                step.store(size, bytes([size]) * 32, f"{size}\n", size)
                history.append(size)

    threads = [threading.Thread(target=advance, args=(n,)) for n in range(40, 0, -1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert history == sorted(history) and history[-1] == 40
    latest = state.latest(ORIGIN)
    assert latest is not None and latest.size == 40
