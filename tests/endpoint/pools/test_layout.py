"""Pool lay-outs (web/endpoint/pools/layout.py): no lay-out process outlives the endpoint."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.endpoint.sales.test_batch import free_port
from web.endpoint.pools import layout

ROOT = Path(__file__).resolve().parents[3]


def marked(mark: str) -> dict[int, str]:
    """Every live process (not a zombie) whose environment holds `mark`, with its command
    line: the endpoint and whatever it started, even once reparented to PID 1."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if mark.encode() not in (entry / "environ").read_bytes():
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:  # ended meanwhile, or not ours to read
            continue
        if state != "Z":
            found[int(entry.name)] = command
    return found


def laying_out(mark: str) -> bool:
    """True while the marked endpoint runs a lay-out process beside its hashing process (both
    started by multiprocessing's spawn)."""
    return sum("spawn_main" in command for command in marked(mark).values()) >= 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_an_endpoint_stopped_or_killed_while_laying_out_pools_leaves_no_process(
    tmp_path: Path, sig: signal.Signals
) -> None:
    """An endpoint stopped (SIGTERM) or killed (SIGKILL) while its pools are being laid out
    at start: a few seconds later none of its processes is left (no lay-out process, no
    hashing process, no multiprocessing resource tracker)."""
    mark = f"LOTTERY_TEST_MARK={secrets.token_hex(8)}"
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "LOTTERY_VAR_DIR": str(tmp_path / "var"),
        "LOTTERY_LIMITS_REQUIRED": "0",  # (tests/endpoint/http/routes/test_sales.py is about it)
        "LOTTERY_WARM_POOLS": "1",
        "DATABASE_URL": "",
        "LOTTERY_TEST_MARK": mark.partition("=")[2],
        "PYTHONWARNINGS": "ignore:resource_tracker:UserWarning",  # (a killed endpoint's queues)
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "web.endpoint.app:create_app",
         "--host", "127.0.0.1", "--port", str(free_port()), "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not laying_out(mark):
            assert time.monotonic() < deadline and server.poll() is None, "no pool lay-out"
            time.sleep(0.05)
        time.sleep(0.5)  # well into the lay-out
        assert laying_out(mark), "the lay-out ended before the signal"
        server.send_signal(sig)
        server.wait(timeout=60)
        deadline = time.monotonic() + 10
        while (left := marked(mark)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not left, f"left behind: {left}"
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
        for pid in marked(mark):  # (the test's own leftovers, before the fix)
            os.kill(pid, signal.SIGKILL)


def test_a_save_cut_short_leaves_no_partial_directory_behind(tmp_path: Path) -> None:
    """A pool's save is written to a partial directory named after its process, then renamed:
    one left by a process that has ended (killed mid-save: the endpoint, or its lay-out process)
    holds a never-committed pool's secrets, and is deleted when a pool cache opens the
    directory; a save still running in a live process is left alone."""
    directory = tmp_path / "pools"
    directory.mkdir(mode=0o700)
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    left = directory / f".{'ab' * 16}.{ended.pid}.partial"
    running = directory / f".{'cd' * 16}.{os.getpid()}.partial"
    for path in (left, running):
        (path / "entries").mkdir(parents=True)
    layout.clear_partials(directory)
    assert not left.exists() and running.exists()
