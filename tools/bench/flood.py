"""Reveal floods beside purchases: `build.py bench --flood [--against REF] [--rounds N]`.

The endpoint's benchmark (tools/bench/endpoint.py: one uvicorn process on SQLite, 32 clients
buying Lab Riches plays back to back) measured three times in one run, SECONDS each: alone
(`baseline`), then while another process floods the public reveals of closed pools
(GET /api/pools/{game}/{pool_id}/reveal, no Accept-Encoding: the largest answer there is):

- `one_address`: one client address, ONE_ADDRESS_RATE reveals a second of one pool (the
  limit that address had before reveals had their own), over FLOOD_CLIENTS connections;
- `many_clients`: FLOOD_CLIENTS clients back to back over CLOSED closed pools, each request
  from a loopback address of its own (so no per-address limit holds them back).

Each flood's `purchases_ratio` is its purchases a second over the baseline's (the target:
0.9 or more); the flood's own figures are the reveals it was sent (200), refused (429) and
the megabytes it read. A last phase with no flood (`quiet`) is the control: its ratio is what
the run's drift alone (the hasher's growing backlog, the rest of the machine) does to the
same measure. The closed pools are laid out and retired once per invocation
(`prepare`, about a minute) and each run starts from a copy. The flood client shares the
machine's cores with the endpoint and the buyers, as an attacker on the same host would.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tools.bench.buyers import GAME, buy_until, percentile, player
from tools.bench.endpoint import CLIENTS, endpoint, free_port
from tools.bench.worktree import worktree
from tools.build.sources import ROOT

SECONDS = 5.0
CLOSED = 6
FLOOD_CLIENTS = 4
ONE_ADDRESS_RATE = 20.0
PHASES = ("baseline", "one_address", "many_clients", "quiet")
FLOODS = ("one_address", "many_clients")
LEAD = 5.0  # seconds from starting the flood's process to the phase (its start-up unmeasured)


def prepare(var: Path) -> list[str]:
    """Lay out and retire pools under `var` (SQLite) until CLOSED are closed, and commit the
    pool purchases draw from; the reveal paths of the closed pools."""
    from engine import games
    from web.endpoint.pools import reveal
    from web.endpoint.pools.pools import PoolKind
    from web.endpoint.sales.ledger import open_ledger
    from web.endpoint.settings import Settings

    ledger = open_ledger(Settings(var_dir=var), time.time)
    closed: list[str] = []
    kinds = [(game.id, kind) for game in games.on_sale() for kind in PoolKind]

    def close(game: str, kind: str, times: int) -> None:
        for _ in range(times):
            ledger.pools.ensure(game, kind=kind)
            retired = reveal.retire(ledger.pools, game, kind)
            reveal.write_reveal(ledger.pools, game, retired["pool_id"])  # (as build.py retire-pool)
            closed.append(f"/api/pools/{game}/{retired['pool_id']}/reveal")

    per_kind = -(-CLOSED // len(kinds))
    threads = [threading.Thread(target=close, args=(g, k, per_kind)) for g, k in kinds]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ledger.pools.ensure(GAME)  # the pool the buyers draw from
    ledger.db.dispose()
    return sorted(closed)[:CLOSED]


async def reveal_once(path: str, address: str, port: int, counts: dict[str, int]) -> None:
    """Ask for one reveal on a new connection from `address` and read it to its end."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        status = head.split(b" ", 2)[1].decode()
        counts[status] = counts.get(status, 0) + 1
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        while length > 0:
            chunk = await reader.read(min(length, 1 << 20))
            if not chunk:
                break
            length -= len(chunk)
            counts["bytes"] = counts.get("bytes", 0) + len(chunk)
    finally:
        writer.close()


async def flood_async(port: int, paths: list[str], mode: str, start: float) -> dict[str, int]:
    """Flood from `start` (time.time()) for SECONDS; what was answered."""
    counts: dict[str, int] = {}
    await asyncio.sleep(max(0.0, start - time.time()))
    end = time.monotonic() + SECONDS
    serial = 0

    async def client(k: int) -> None:
        nonlocal serial
        while time.monotonic() < end:
            if mode == "one_address":  # each connection its share of the address's rate
                due = time.monotonic() + FLOOD_CLIENTS / ONE_ADDRESS_RATE
                await reveal_once(paths[0], "127.0.0.1", port, counts)
                await asyncio.sleep(max(0.0, due - time.monotonic()))
            else:
                serial += 1
                address = f"127.0.{1 + serial // 250 % 250}.{2 + serial % 250}"
                await reveal_once(paths[serial % len(paths)], address, port, counts)

    await asyncio.gather(*(client(k) for k in range(FLOOD_CLIENTS)))
    return counts


def flood(port: int, paths: list[str], mode: str, start: float, out: Any) -> None:
    """(In a process of its own.) Run the flood and put what was answered on `out`."""
    out.put(asyncio.run(flood_async(port, paths, mode, start)))


async def phases(port: int, paths: list[str]) -> dict[str, Any]:
    """The purchases a second alone and during each flood, on one endpoint."""
    players = await asyncio.gather(*(player(port) for _ in range(CLIENTS)))
    spawn = multiprocessing.get_context("spawn")
    figures: dict[str, Any] = {}
    for mode in PHASES:
        start = time.time() + LEAD  # (the flood's process started and imported meanwhile)
        out = spawn.Queue()
        flooder = None
        if mode in FLOODS:
            flooder = spawn.Process(target=flood, args=(port, paths, mode, start, out))
            flooder.start()
        await asyncio.sleep(start - time.time())
        buys: list[float] = []
        end = time.perf_counter() + SECONDS
        await asyncio.gather(*(buy_until(c, a, end, buys) for c, a in players))
        phase: dict[str, Any] = {
            "purchases_per_second": round(len(buys) / SECONDS, 1),
            "p99_ms": percentile(buys, 0.99),
        }
        if flooder is not None:
            counts = await asyncio.to_thread(out.get, timeout=120)
            flooder.join()
            phase["reveals_200"] = counts.get("200", 0)
            phase["reveals_429"] = counts.get("429", 0)
            phase["reveal_megabytes"] = round(counts.get("bytes", 0) / 1e6, 1)
        if mode != "baseline":
            base = figures["baseline"]["purchases_per_second"]
            phase["purchases_ratio"] = round(phase["purchases_per_second"] / base, 3)
        figures[mode] = phase
    for conn, _ in players:
        conn.writer.close()
    return figures


def measure(prepared: Path, paths: list[str], root: Path = ROOT) -> dict[str, Any]:
    """The three phases against the endpoint of the code under `root`, on a copy of the
    prepared database and pools."""
    port = free_port()
    with tempfile.TemporaryDirectory() as scratch:
        var = Path(scratch) / "var"
        # (-shm is SQLite's index of the WAL, rebuilt on open; it may vanish while listed)
        shutil.copytree(prepared, var, ignore=shutil.ignore_patterns("*-shm"))
        env = {
            **os.environ,
            "PYTHONPATH": str(root),
            "LOTTERY_VAR_DIR": str(var),
            "LOTTERY_LIMITS_REQUIRED": "0",  # (tests/endpoint/player/test_limits.py is about it)
            "DATABASE_URL": "",
            "LOTTERY_DEMO_BALANCE_PENCE": str(10**9),
            "LOTTERY_RATE_PER_SECOND": "100000",  # (the buyers' accounts are not held back)
            "LOTTERY_RATE_BURST": "100000",
            "LOTTERY_WARM_POOLS": "0",
        }
        with endpoint(env, root, port):
            return asyncio.run(phases(port, paths))


def ratios(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each flood's median purchases ratio over the runs, with every run's (the spread)."""
    out: dict[str, Any] = {}
    for mode in PHASES[1:]:
        values = [run[mode]["purchases_ratio"] for run in runs]
        out[mode] = {"median_ratio": round(statistics.median(values), 3), "ratios": values}
    out["baseline_purchases_per_second"] = [run["baseline"]["purchases_per_second"] for run in runs]
    return out


def run(rounds: int = 2) -> dict[str, Any]:
    """This checkout's figures, `rounds` runs (the machine is shared: judge the spread)."""
    with tempfile.TemporaryDirectory() as scratch:
        prepared = Path(scratch) / "var"
        paths = prepare(prepared)
        runs = [measure(prepared, paths) for _ in range(rounds)]
    return {"runs": runs, **ratios(runs)}


def compare(ref: str, rounds: int = 2) -> dict[str, Any]:
    """This checkout beside commit `ref` (in a temporary worktree), the order alternating from
    round to round, on copies of the same prepared pools."""
    sides: dict[str, list[dict[str, Any]]] = {"reference": [], "this": []}
    with tempfile.TemporaryDirectory() as scratch, worktree(ref) as (tree, commit):
        prepared = Path(scratch) / "var"
        paths = prepare(prepared)
        for round_number in range(rounds):
            order = [("reference", tree), ("this", ROOT)]
            if round_number % 2:
                order.reverse()
            for which, root in order:
                sides[which].append(measure(prepared, paths, root))
    return {
        "against": ref,
        "commit": commit,
        "rounds": rounds,
        **{which: {"runs": runs, **ratios(runs)} for which, runs in sides.items()},
    }
