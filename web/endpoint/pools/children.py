"""The endpoint's child processes (a pool's lay-out, the hashing process) end with it.

A child started with multiprocessing's "spawn" lives on by default when the process that
started it is killed (SIGKILL, the out-of-memory killer): nothing tells it, and a worker
waiting for its next task waits for good, keeping the multiprocessing resource tracker alive
too. So each child asks the kernel for a signal when its parent dies (`end_with_parent`).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal

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
