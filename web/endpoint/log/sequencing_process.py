"""The sequencing process: the public log sequenced (web/endpoint/log/sequencer.py) in a process
of the endpoint's own, every LOTTERY_LOG_INTERVAL_MS, so that its work (a batch's records
hashed into the tree, the nodes stored, the checkpoint signed, the witnesses asked) never holds
the serving process's interpreter lock while purchases wait for it (what each way cost the
purchases: docs/log.md, "What a purchase costs").

The process starts with the endpoint, as the hashing process does, so that the first sales after
a start do not pay for its start (a spawned Python importing the endpoint's modules: about a
second of CPU); it keeps its database connection, its tree's right edge and its witnesses' state
from one turn to the next. It ends with the endpoint and is started again when it dies
(web/endpoint/children.py), counted in /api/metrics (`lottery_log_sequencer_restarts`).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import multiprocessing
import os
import signal
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING

import anyio

from web.endpoint.children import ChildProcess, end_with_parent
from web.endpoint.clock import Clock
from web.endpoint.log.sequencer import Sequencer, witnesses_of
from web.endpoint.log.signer import load_policy, load_signer
from web.endpoint.settings import Settings
from web.endpoint.store.database import Database

if TYPE_CHECKING:
    from collections.abc import Callable

logger = logging.getLogger("web.endpoint")

_SEQUENCER: Sequencer | None = None  # the sequencing process's own, made as it starts


def _open(parent: int, settings: Settings) -> None:
    """(In the sequencing process, as it starts.) End with the endpoint process, however it
    ends; open the database and the log's key and witnesses from the endpoint's settings."""
    end_with_parent(parent, "log-sequencer", signal.SIGTERM)
    with contextlib.suppress(OSError):  # the serving process first when the CPUs are busy (its
        os.nice(10)  # sales' SQLite write lock met its transactions less: bench --endpoint)
    global _SEQUENCER
    db = Database(
        settings.db_url, pool_size=2, connect_timeout=settings.db_connect_timeout_seconds,
        checkpoints=False,  # (the serving process copies SQLite's WAL back)
    )  # fmt: skip
    signer = load_signer(settings)
    policy, _ = load_policy(settings, signer.key)
    # the checkpoints' created_at: the machine's clock (test mode's offset moves only the
    # serving process's clock; nothing reads a checkpoint's time back)
    _SEQUENCER = Sequencer(db, signer, Clock(time.time).now_ms, witnesses_of(policy))


def sequence() -> int:
    """(In the sequencing process.) One run of the sequencer (`Sequencer.run`: what is pending,
    up to STEPS batches, then a checkpoint); how many checkpoints were signed."""
    assert _SEQUENCER is not None, "not the sequencing process"
    return len(_SEQUENCER.run())


def _started(settings: Settings) -> ProcessPoolExecutor:
    executor = ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_open,
        initargs=(os.getpid(), settings),
    )
    executor.submit(int)  # (started now, not by the first turn)
    return executor


def sequencing_process(settings: Settings, on_restart: Callable[[], None]) -> ChildProcess:
    """The endpoint's sequencing process, started."""
    start = functools.partial(_started, settings)
    return ChildProcess("the log's sequencing process", start, on_restart)


async def keep_sequencing(worker: ChildProcess, settings: Settings) -> None:
    """Have the sequencing process sequence the log every LOTTERY_LOG_INTERVAL_MS (every
    instance's records: whichever instance takes the head's lock first sequences them)."""
    while True:
        await anyio.sleep(settings.log_interval_ms / 1000)
        try:
            await worker.run(sequence)
        except BrokenProcessPool:
            pass  # said and started again (ChildProcess.run): the next turn sequences
        except Exception:
            logger.exception("sequencing the public log failed")
