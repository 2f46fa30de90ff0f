"""The endpoint's child processes (a pool's lay-out, the hashing process, the log's sequencing
process) end with it, and those it keeps are started again when they die (`ChildProcess`).

A child started with multiprocessing's "spawn" lives on by default when the process that
started it is killed (SIGKILL, the out-of-memory killer): nothing tells it, and a worker
waiting for its next task waits for good, keeping the multiprocessing resource tracker alive
too. So each child asks the kernel for a signal when its parent dies (`end_with_parent`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")

PR_SET_PDEATHSIG = 1  # linux/prctl.h
PR_SET_NAME = 15


def end_with_parent(parent: int, name: str = "", sig: int = signal.SIGKILL) -> None:
    """(Run first thing in a child.) On Linux, have the kernel send `sig` to this process when
    the thread that started it ends, however it ends; exit now if the parent (pid `parent`) is
    gone already. `name` is shown by `ps -o comm` and `top`."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, sig)
        if name:
            libc.prctl(PR_SET_NAME, name.encode()[:15])
    if os.getppid() != parent:  # it ended before the signal was asked for
        os._exit(0)


class ChildProcess:
    """A process the endpoint keeps for one kind of work (`start` makes its one-worker
    executor), started again when it dies (the kernel's out-of-memory killer, a crash): a dead
    one would fail every task after it. The task it was running fails (BrokenProcessPool) for
    its caller to do again; the restart is logged and counted (`on_restart`, a metric)."""

    def __init__(
        self, name: str, start: Callable[[], ProcessPoolExecutor],
        on_restart: Callable[[], None] = lambda: None,
    ) -> None:  # fmt: skip
        self.name = name  # as the log says it: "the hashing process"
        self.restarts = 0
        self._start = start
        self._on_restart = on_restart
        self._executor = start()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(*args) in the process."""
        executor = self._executor
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, fn, *args)
        except BrokenProcessPool:
            if executor is self._executor:  # (not started again already by another caller)
                self.restarts += 1
                self._on_restart()
                logging.getLogger("web.endpoint").warning(
                    "%s died; starting another (restart %d)", self.name, self.restarts
                )
                executor.shutdown(wait=False, cancel_futures=True)
                self._executor = self._start()
            raise

    def shutdown(self) -> None:
        """End the process, waiting for it."""
        self._executor.shutdown(wait=True, cancel_futures=True)
