"""tools/bench/cpu.py: processes' CPU read from /proc, the idle-priority hasher told apart."""

from __future__ import annotations

import os
import subprocess
import sys

from tools.bench import cpu


def test_bench_endpoint_tells_the_idle_priority_hasher_from_the_server() -> None:
    """The endpoint's book hasher runs at SCHED_IDLE (CPU nothing else wants): the endpoint
    benchmark counts it apart from the server, whose own CPU a purchase costs."""
    code = "import os, time; os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0));"
    child = subprocess.Popen([sys.executable, "-c", code + " print(1, flush=True); time.sleep(30)"],
                             stdout=subprocess.PIPE)  # fmt: skip
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == b"1"
        assert cpu.idle_priority(child.pid)
        assert not cpu.idle_priority(os.getpid())
        assert child.pid in cpu.process_tree(os.getpid())
    finally:
        child.kill()
        child.wait()
