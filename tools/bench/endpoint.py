"""Endpoint benchmark: purchases and finishes a second, with latency, on SQLite and PostgreSQL.

The endpoint runs in a uvicorn subprocess on loopback; 32 clients, each its own account,
buy Lab Riches plays back to back over keep-alive HTTP/1.1 connections (a minimal asyncio
client, so the clients cost as little CPU as possible on the same machine), then finish them.
`client_cpu_share` is the CPU the load generator itself used over the buying phase, as a share
of one core, so a reader can tell how much of the machine the figures had; `server_cpu_share`
(the uvicorn processes), `hashing_cpu_share` (the endpoint's book hasher, a child process at
SCHED_IDLE, which runs only on CPU time nothing else wants: web/endpoint/sales/hashes.py) and, on
PostgreSQL, `database_cpu_share` (every postgres process of the machine, when it is local and
readable) are measured over the same phase from /proc.

The load generator runs on the same cores, so its CPU is accounted for twice: as CPU time per
purchase (`client_cpu_ms_per_purchase`), and by `purchases_per_second_client_excluded`, the
throughput scaled to the cores the generator left: purchases/s x cores / (cores - client
share). That scaling assumes the rest of the machine was the limit; it is an estimate, reported
beside the measured figure, never instead of it. pgbench's figure is scaled the same way by
its own CPU share (`pgbench_tps_client_excluded`, `ratio_client_excluded`).

PostgreSQL's reference, measured in the same invocation on the same database: `pgbench -N`
(its simple-update transactions, 32 clients, prepared statements) in a scratch schema;
`ratio` is purchases a second over pgbench's transactions a second (a purchase is about one
pgbench transaction's worth of database work), and pgbench's own CPU share is reported too.

`cpu_bound` says what the machine's CPU allows at the CPU a purchase cost in the run (every
measured process's), with and without the hasher: no order of the work sells faster.
"""

from __future__ import annotations

import asyncio
import os
import re
import resource
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg

from tools.bench.buyers import buy_until, finish_all, percentile, player
from tools.bench.cpu import client_excluded, cpu_seconds, postgres_pids, server_and_hashing_cpu
from tools.bench.worktree import worktree
from tools.build.sources import ROOT

CLIENTS = 32
WORKERS = 1
SECONDS = 5.0
PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


def cpu_bound(figures: dict[str, float], purchases: int) -> dict[str, float]:
    """What the machine's CPU allows at the CPU a purchase cost in this run: the whole machine's
    CPU seconds a purchase (the server, its hasher, the database's processes and the load
    generator: every share measured, in ms), and the purchases a second all the cores would sell
    at that cost were every one of them busy with nothing else, with and without the hasher's
    share. A rate above the bound needs a cheaper purchase, not a better order of the work."""
    shares = ("server_cpu_share", "hashing_cpu_share", "database_cpu_share", "client_cpu_share")
    seconds = {name: figures.get(name, 0.0) * SECONDS for name in shares}
    cores, n = figures["cores"], max(purchases, 1)
    whole = sum(seconds.values()) * 1000 / n
    without = whole - seconds["hashing_cpu_share"] * 1000 / n
    return {
        "cpu_ms_per_purchase": round(whole, 3),
        "cpu_bound_purchases_per_second": round(cores * 1000 / whole, 1) if whole else 0.0,
        "cpu_ms_per_purchase_without_hasher": round(without, 3),
        "cpu_bound_purchases_per_second_without_hasher": (
            round(cores * 1000 / without, 1) if without else 0.0
        ),
    }


async def drive(port: int, server: int | None = None, database: bool = False) -> dict[str, float]:
    """Run the clients against a started endpoint and compute the figures."""
    players = await asyncio.gather(*(player(port) for _ in range(CLIENTS)))
    buys: list[float] = []
    # the hasher's process starts with the first play to hash, during the phase: the tree is
    # read again at its end, a process started meanwhile counting all its CPU
    server_before, hashing_before = server_and_hashing_cpu(server)
    databases = postgres_pids() if database else []
    database_before = cpu_seconds(databases)
    cpu_before = time.process_time()
    end = time.perf_counter() + SECONDS
    bought = await asyncio.gather(*(buy_until(c, a, end, buys) for c, a in players))
    client_cpu = time.process_time() - cpu_before
    server_after, hashing_after = server_and_hashing_cpu(server)
    server_cpu, hashing_cpu = server_after - server_before, hashing_after - hashing_before
    database_cpu = cpu_seconds(databases) - database_before
    finishes: list[float] = []
    start = time.perf_counter()
    pairs = zip(players, bought, strict=True)
    await asyncio.gather(*(finish_all(c, a, n, finishes) for (c, a), n in pairs))
    finish_seconds = time.perf_counter() - start
    for conn, _ in players:
        conn.writer.close()
    figures = {
        "purchases_per_second": round(len(buys) / SECONDS, 1),
        "finishes_per_second": round(len(finishes) / finish_seconds, 1),
        "p50_ms": percentile(buys, 0.50),
        "p99_ms": percentile(buys, 0.99),
        "finish_p50_ms": percentile(finishes, 0.50),
        "finish_p99_ms": percentile(finishes, 0.99),
        "purchases": len(buys),
        "clients": CLIENTS,
        "client_cpu_share": round(client_cpu / SECONDS, 2),
        "client_cpu_ms_per_purchase": round(client_cpu * 1000 / max(len(buys), 1), 3),
        "purchases_per_second_client_excluded": client_excluded(
            len(buys) / SECONDS, client_cpu / SECONDS
        ),
        "cores": os.cpu_count() or 1,
    }
    if server is not None:
        figures["server_cpu_share"] = round(server_cpu / SECONDS, 2)
        figures["hashing_cpu_share"] = round(hashing_cpu / SECONDS, 2)
    if databases:
        figures["database_cpu_share"] = round(database_cpu / SECONDS, 2)
    if server is not None:
        figures.update(cpu_bound(figures, len(buys)))
    return figures


def free_port() -> int:
    """An unused loopback port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def measure(database_url: str, root: Path = ROOT) -> dict[str, float]:
    """Start the endpoint (the code under `root`: this checkout, or another commit's worktree)
    on a database in a subprocess and benchmark it."""
    port = free_port()
    with tempfile.TemporaryDirectory() as var:
        env = {
            **os.environ,
            "PYTHONPATH": str(root),
            "LOTTERY_VAR_DIR": var,
            "DATABASE_URL": database_url,
            "LOTTERY_DEMO_BALANCE_PENCE": str(10**9),
            "LOTTERY_RATE_PER_SECOND": "100000",
            "LOTTERY_RATE_BURST": "100000",
            "LOTTERY_WARM_POOLS": "0",  # only Lab Riches is bought; lay it out in the warm-up
        }
        with endpoint(env, root, port) as pid:
            return asyncio.run(drive(port, pid, database=bool(database_url)))


@contextmanager
def endpoint(env: dict[str, str], root: Path, port: int) -> Iterator[int]:
    """The endpoint of the code under `root` (uvicorn, WORKERS processes) in a subprocess with
    `env`, listening on `port`; yields its pid once it accepts connections, stops it after."""
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "web.endpoint.app:create_app",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
         "--no-access-log", "--timeout-keep-alive", "120", "--workers", str(WORKERS)],
        cwd=root,
        env=env,
    )  # fmt: skip
    try:
        deadline = time.time() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.time() > deadline or server.poll() is not None:
                    raise RuntimeError("the endpoint did not start") from None
                time.sleep(0.1)
        yield server.pid
    finally:
        server.terminate()
        server.wait(timeout=60)


def fresh_schema(url: str) -> tuple[str, str]:
    """A new PostgreSQL schema and the URL that uses it."""
    schema = "endpoint_bench_" + secrets.token_hex(4)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in url else "?"
    return schema, f"{url}{sep}options=-csearch_path%3D{schema}"


def pgbench(url: str) -> dict[str, float] | None:
    """pgbench -N on the same PostgreSQL (a scratch schema), CLIENTS clients, SECONDS seconds:
    its transactions a second and its own CPU share; None when pgbench is not installed."""
    exe = shutil.which("pgbench")
    if exe is None:
        return None
    schema, _scoped = fresh_schema(url)
    env = {**os.environ, "PGOPTIONS": f"-c search_path={schema}"}
    try:
        init = [exe, "-i", "-q", "-s", "1", url]
        subprocess.run(init, env=env, check=True, capture_output=True, text=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        cmd = [exe, "-N", "-M", "prepared", "-c", str(CLIENTS), "-j", "2", "-T", str(int(SECONDS))]
        done = subprocess.run([*cmd, url], env=env, check=True, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
    found = re.search(r"tps = ([0-9.]+) \(without initial connection time\)", done.stdout)
    if found is None:
        raise RuntimeError("pgbench printed no tps:\n" + done.stdout)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"pgbench_tps": round(float(found[1]), 1), "pgbench_cpu_share": round(cpu / SECONDS, 2)}


def run(rounds: int = 1) -> dict[str, Any]:
    """The figures for SQLite and (when reachable) PostgreSQL; with several rounds (each a run
    of both and of pgbench, in turn), the median of each figure over the rounds (`medians`)."""
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, not {rounds}")
    if rounds == 1:
        return one_round()
    return medians([one_round() for _ in range(rounds)])


def medians(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """Per database, the median over the rounds of each figure they report (the ratio: the
    median of each round's own ratio, its endpoint run beside its own pgbench run), with
    `rounds` and each round's headline figures in the order run (`runs`), to judge the
    spread. A database that gave an error in some round keeps the rounds that measured it."""
    out: dict[str, Any] = {}
    for database in ("sqlite", "postgresql"):
        measured = [r[database] for r in rounds if database in r and "error" not in r[database]]
        if not measured:
            errors = [r[database] for r in rounds if database in r]
            if errors:
                out[database] = errors[-1]
            continue
        names = sorted({name for figures in measured for name in figures})
        figures: dict[str, Any] = {}
        for name in names:
            values = [run[name] for run in measured if name in run]
            median = statistics.median(values)
            figures[name] = round(median, 3) if isinstance(median, float) else median
        figures["rounds"] = len(measured)
        headline = [n for n in ("purchases_per_second", "p99_ms", "pgbench_tps", "ratio",
                                "cpu_bound_ratio") if n in names]  # fmt: skip
        figures["runs"] = [{n: run[n] for n in headline if n in run} for run in measured]
        out[database] = figures
    return out


def one_round() -> dict[str, Any]:
    """One run on SQLite, one on PostgreSQL (when reachable) and one of pgbench."""
    results: dict[str, Any] = {"sqlite": measure("")}
    url = os.environ.get("DATABASE_URL") or PG_URL
    try:
        schema, scoped = fresh_schema(url)
    except psycopg.Error as error:
        results["postgresql"] = {"error": f"PostgreSQL unavailable: {error}"}
        return results
    try:
        results["postgresql"] = measure(scoped)
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
    reference = pgbench(url)
    if reference is not None:
        figures = results["postgresql"]
        figures.update(reference)
        figures["ratio"] = round(figures["purchases_per_second"] / reference["pgbench_tps"], 3)
        tps = client_excluded(reference["pgbench_tps"], reference["pgbench_cpu_share"])
        figures["pgbench_tps_client_excluded"] = tps
        figures["ratio_client_excluded"] = round(
            figures["purchases_per_second_client_excluded"] / tps, 3
        )
        for bound in ("", "_without_hasher"):  # the ratio the CPU allows at this run's costs
            rate = figures.get(f"cpu_bound_purchases_per_second{bound}")
            if rate is not None:
                figures[f"cpu_bound_ratio{bound}"] = round(rate / reference["pgbench_tps"], 3)
    return results


# The figures `compare` sets side by side (medians over its rounds).
COMPARED = ("purchases_per_second", "p50_ms", "p99_ms", "server_cpu_share", "hashing_cpu_share",
            "database_cpu_share", "client_cpu_share")  # fmt: skip


def summarize(runs: dict[str, dict[str, list[dict[str, float]]]]) -> dict[str, Any]:
    """Per database, the median of each COMPARED figure over the reference's and this
    checkout's runs ({"reference": [...], "this": [...]}), this one's change (this minus the
    reference), each run's purchases a second and, where runs carry pgbench's figure, each
    side's ratio to the median of pgbench's runs."""
    out: dict[str, Any] = {}
    for database, sides in runs.items():
        figures: dict[str, dict[str, float | None]] = {}
        for which, measured in sides.items():
            figures[which] = {}
            for name in COMPARED:
                values = [run[name] for run in measured if name in run]
                figures[which][name] = round(statistics.median(values), 2) if values else None
        change: dict[str, float | None] = {}
        for name in COMPARED:
            before, after = figures["reference"][name], figures["this"][name]
            change[name] = None if before is None or after is None else round(after - before, 2)
        out[database] = {"reference": figures["reference"], "this": figures["this"]}
        out[database]["change"] = change
        out[database]["runs"] = {  # each run's rate, in the order run, to judge the spread
            which: [run["purchases_per_second"] for run in measured]
            for which, measured in sides.items()
        }
        out[database]["paired"] = paired(out[database]["runs"])
        tps = [
            run["pgbench_tps"] for run in sides["this"] + sides["reference"] if "pgbench_tps" in run
        ]
        if tps:
            reference_tps = statistics.median(tps)
            out[database]["pgbench_tps"] = reference_tps
            for which in ("reference", "this"):
                rate = figures[which]["purchases_per_second"]
                figures[which]["ratio"] = None if rate is None else round(rate / reference_tps, 3)
    return out


def paired(runs: dict[str, list[float]]) -> dict[str, Any]:
    """Each round's two runs side by side (the two sides run in the same round, one after the
    other): each round's change in purchases a second in per cent (this over the reference),
    their median (`median_change_pct`) and how many rounds this side was the faster. The
    machine's speed drifts from round to round (pgbench's own rate by a third within a run),
    which a round's two runs share: their ratio does not carry it, the medians of each side do."""
    pairs = list(zip(runs["reference"], runs["this"], strict=True))
    changes = [round((this / reference - 1) * 100, 1) for reference, this in pairs]
    return {
        "change_pct": changes,
        "median_change_pct": round(statistics.median(changes), 1) if changes else None,
        "rounds_faster": sum(this > reference for reference, this in pairs),
    }


def compare(ref: str, rounds: int = 5) -> dict[str, Any]:
    """This checkout's endpoint and commit `ref`'s (its own code, in a temporary worktree), on
    the same machine at the same time: per round a run of each on SQLite and on PostgreSQL
    (each on a fresh database), the order of the two alternating from round to round, and on
    PostgreSQL a pgbench run per round; medians and the change. One run of either moves by 10 %
    or more from the next on a 2-core VM, as much as most changes to the purchase path."""
    url = os.environ.get("DATABASE_URL") or PG_URL
    runs: dict[str, dict[str, list[dict[str, float]]]] = {
        "sqlite": {"reference": [], "this": []},
        "postgresql": {"reference": [], "this": []},
    }
    with worktree(ref) as (tree, commit):
        for round_number in range(rounds):
            order = [("reference", tree), ("this", ROOT)]
            if round_number % 2:
                order.reverse()
            for which, root in order:
                runs["sqlite"][which].append(measure("", root))
                schema, scoped = fresh_schema(url)
                try:
                    runs["postgresql"][which].append(measure(scoped, root))
                finally:
                    with psycopg.connect(url, autocommit=True) as conn:
                        conn.execute(f"DROP SCHEMA {schema} CASCADE")
            reference = pgbench(url)
            if reference is not None:
                runs["postgresql"]["this"][-1]["pgbench_tps"] = reference["pgbench_tps"]
    return {"against": ref, "commit": commit, "rounds": rounds, **summarize(runs)}
