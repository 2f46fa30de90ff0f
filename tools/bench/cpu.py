"""CPU time of the processes a benchmark measures, read from /proc (Linux)."""

from __future__ import annotations

import os
from pathlib import Path


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (from the state on); None when the
    process is gone or unreadable."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU seconds of these processes (those gone or unreadable count 0)."""
    ticks = 0
    for pid in pids:
        fields = _stat(pid)
        if fields is not None:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def idle_priority(pid: int) -> bool:
    """True for a process scheduled SCHED_IDLE (the hasher), from /proc/PID/stat's policy."""
    fields = _stat(pid)
    return fields is not None and int(fields[38]) == os.SCHED_IDLE


def server_and_hashing_cpu(server: int | None) -> tuple[float, float]:
    """CPU seconds so far of the server's processes at normal priority and of its hasher (at
    SCHED_IDLE), the process tree read now; (0, 0) without a server."""
    tree = process_tree(server) if server is not None else []
    hashers = [pid for pid in tree if idle_priority(pid)]
    return cpu_seconds([pid for pid in tree if pid not in hashers]), cpu_seconds(hashers)


def process_tree(root: int) -> list[int]:
    """A process and its descendants (uvicorn's workers), from /proc; [root] without /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        fields = _stat(int(entry.name))
        if fields is not None:
            parents[int(entry.name)] = int(fields[1])
    tree = [root]
    for pid in tree:
        tree += [child for child, parent in parents.items() if parent == pid]
    return tree


def postgres_pids() -> list[int]:
    """Every process named postgres on this machine (the local server and its backends)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if (entry / "comm").read_text().strip() == "postgres":
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def client_excluded(rate: float, client_share: float) -> float:
    """A rate scaled to the cores the load generator left: rate x cores / (cores - share)."""
    cores = os.cpu_count() or 1
    return round(rate * cores / max(cores - client_share, 0.01), 1)
