"""The linter, the formatter and the type checker are part of the test command."""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_lint() -> None:
    result = run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = run("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy() -> None:
    result = run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


# The shipped JavaScript (the shell, its workers, the Node scripts) under Biome (lint and
# format, biome.json) and TypeScript's checker over JSDoc types (one tsconfig per global scope:
# the page, the workers, Node), installed from package-lock.json as the ruff and mypy of the JS.
TSCONFIGS = ("web/shell/tsconfig.json", "web/shell/tsconfig.worker.json", "tsconfig.json")


def node_tool(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run a tool of node_modules/.bin (build.py installs them) from the project's root."""
    tool = ROOT / "node_modules" / ".bin" / name
    assert tool.exists(), f"{tool} missing: run `python3 build.py test` to install it"
    return subprocess.run([str(tool), *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_biome_lint() -> None:
    result = node_tool("biome", "lint", "--error-on-warnings", "--max-diagnostics=50")
    assert result.returncode == 0, result.stdout + result.stderr


def test_biome_format() -> None:
    result = node_tool("biome", "format", "--max-diagnostics=50")
    assert result.returncode == 0, result.stdout + result.stderr


def test_tsc() -> None:
    for config in TSCONFIGS:
        result = node_tool("tsc", "--pretty", "false", "-p", config)
        assert result.returncode == 0, f"tsc -p {config}\n" + result.stdout + result.stderr


def test_set_up_output_goes_to_stderr_so_stdout_stays_the_command_s() -> None:
    """`build.py math --json > f` must give JSON even on a fresh clone, while it installs."""
    code = (
        "import sys, build\n"
        "build.say('installing something')\n"
        "build.run([sys.executable, '-c', 'print(\"a set-up tool talking\")'])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert "installing something" in result.stderr and "a set-up tool talking" in result.stderr


def test_a_json_command_prints_only_json() -> None:
    result = subprocess.run(
        [sys.executable, "build.py", "math", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    tables = json.loads(result.stdout)
    assert {table["id"] for table in tables} == {"lab-riches", "power-puck-shot"}


def test_bench_load_judges_the_targets_on_the_exact_ratios_not_the_printed_ones() -> None:
    from tools.bench.load import verdict

    bare = {"ready_ms": 2792.2, "bytes": 5_466_520}
    cold = {"lab-riches": {"playable_ms": 1017.4, "bytes": 3_520_113},
            "power-puck-shot": {"playable_ms": 1118.1, "bytes": 3_533_358},  # 0.40043
            "lobby": {"playable_ms": 929.6, "bytes": 3_600_001}}  # fmt: skip
    warm = {"lab-riches": {"playable_ms": 477.2}, "power-puck-shot": {"playable_ms": 440.4},
            "lobby": {"playable_ms": 484.1}}  # fmt: skip
    judged = verdict(cold, warm, bare)
    assert judged["ratio_cold_ready_by_page"] == {"lab-riches": 0.364, "power-puck-shot": 0.4,
                                                  "lobby": 0.333}  # fmt: skip
    assert judged["ratio_cold_ready"] == 0.4
    assert judged["ratio_warm_ready_by_page"]["lab-riches"] == 0.171
    # Printed as 0.4, over 0.4; and the lobby's bytes over 3.6 MB.
    assert judged["meets_target"] == {"lab-riches": True, "power-puck-shot": False, "lobby": False}
    warm["lab-riches"]["playable_ms"] = 502.7  # 0.18004
    assert verdict(cold, warm, bare)["meets_target"]["lab-riches"] is False


def test_bench_load_against_summarizes_both_builds_every_run_and_the_change() -> None:
    from tools.bench.load import summarize

    def cold(playable: float, started: float | None, imported: float) -> dict[str, object]:
        marks = {"lottery-pyodide-module": 200.0, "lottery-game-imported": imported}
        if started is not None:  # an older build may lack a mark
            marks["lottery-python-started"] = started
        return {"playable_ms": playable, "bytes": 100, "marks": marks}

    visits = {
        "lab-riches": {
            "reference": [cold(1300, 900, 1200), cold(1500, 1000, 1300), cold(1400, 950, 1250)],
            "this": [cold(1200, 950, 1080), cold(1100, 900, 1000), cold(1250, 1000, 1100)],
        },
        "lobby": {"reference": [cold(1000, None, 900)], "this": [cold(900, 700, 800)]},
    }
    page = summarize(visits)["lab-riches"]
    assert page["reference"] == {"playable_ms": 1400, "pyodide_start_ms": 750, "import_ms": 300,
                                 "ours_ms": 450, "bytes": 100,
                                 "playable_runs": [1300, 1500, 1400]}  # fmt: skip
    assert page["this"]["playable_runs"] == [1200, 1100, 1250]  # every run, in order
    assert page["this"]["ours_ms"] == 250 and page["this"]["import_ms"] == 100
    assert page["change"] == {"playable_ms": -200, "pyodide_start_ms": 0, "import_ms": -200,
                              "ours_ms": -200, "bytes": 0}  # fmt: skip
    lobby = summarize(visits)["lobby"]
    assert lobby["reference"]["ours_ms"] is None and lobby["change"]["ours_ms"] is None
    assert lobby["change"]["playable_ms"] == -100


def test_bench_engines_says_where_each_cold_visit_s_worker_spent_its_start() -> None:
    from tools.bench.load_engines import worker_medians, worker_timeline

    def visit(ready: int, wasm_end: int, again: bool = False) -> dict[str, object]:
        """A cold visit's stats.worker as the page keeps it (ms from navigation)."""
        wasm = {"path": "/p/pyodide.asm.wasm", "start": 300, "firstByte": 320, "end": wasm_end,
                "bytes": 2_700_000, "bodyBytes": 2_699_000}  # fmt: skip
        spans = [
            {"name": "pyodide-module", "start": 200, "end": 280},
            {"name": "wasm-instantiate", "start": 290, "end": 291},  # Pyodide's small module
            {"name": "python-start", "start": 280, "end": ready - 300},
            {"name": "wasm-instantiateStreaming", "start": 700, "end": 1500},
        ]
        downloads = [wasm, {**wasm, "start": 800, "end": 900}] if again else [wasm]
        return {"ready_ms": ready, "worker": {"downloads": downloads, "spans": spans}}

    slow = worker_timeline(visit(4_000, 1_400, again=True))
    # Python's start in three: to the (longest) instantiation, the instantiation, after it.
    assert slow["python_start_ms"] == {"to_wasm": 420, "wasm": 800, "after_wasm": 2_200}
    assert [d[0] for d in slow["downloads"]] == ["/p/pyodide.asm.wasm"] * 2  # fetched twice
    assert slow["downloads"][0] == ["/p/pyodide.asm.wasm", 300, 1_400, 2_700_000]
    medians = worker_medians([slow, worker_timeline(visit(2_000, 600))])
    assert medians["/p/pyodide.asm.wasm"] == 300  # of 1,100, 100 and 300 ms
    assert medians["python-start"] == 2_420 and medians["wasm-instantiateStreaming"] == 800
    no_steps = {"ready_ms": 1, "worker": {"downloads": [], "spans": []}}
    assert worker_timeline(no_steps)["python_start_ms"] is None


def test_bench_against_compares_one_benchmark_that_knows_how() -> None:
    for flags in (["--engine"], ["--load", "--endpoint"]):
        done = subprocess.run(
            [sys.executable, "-m", "tools", "bench", *flags, "--against", "HEAD"],
            cwd=ROOT, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 2
        assert "--against compares --load, --endpoint or --flood, one at a time" in done.stderr


def test_bench_endpoint_against_summarizes_both_sides_the_change_and_the_ratios() -> None:
    from tools.bench.endpoint import summarize

    def run(rate: float, p99: float, **extra: float) -> dict[str, float]:
        return {"purchases_per_second": rate, "p50_ms": 10.0, "p99_ms": p99, **extra}

    runs = {
        "postgresql": {
            "reference": [run(1500, 30), run(1600, 34), run(1400, 31)],
            "this": [run(1700, 28, pgbench_tps=5000), run(1800, 27, pgbench_tps=6000),
                     run(1650, 29, pgbench_tps=5500)],
        },
        "sqlite": {"reference": [run(2000, 25)], "this": [run(2300, 21)]},
    }  # fmt: skip
    summary = summarize(runs)
    pg = summary["postgresql"]
    assert pg["reference"]["purchases_per_second"] == 1500 and pg["this"]["p99_ms"] == 28
    assert pg["change"]["purchases_per_second"] == 200 and pg["change"]["p99_ms"] == -3
    assert pg["pgbench_tps"] == 5500
    assert pg["reference"]["ratio"] == 0.273 and pg["this"]["ratio"] == 0.309
    assert pg["change"]["server_cpu_share"] is None  # no run carried it
    assert summary["sqlite"]["change"]["purchases_per_second"] == 300
    assert "ratio" not in summary["sqlite"]["this"]
    assert pg["runs"] == {"reference": [1500, 1600, 1400], "this": [1700, 1800, 1650]}
    # each round's two runs side by side: 1700/1500, 1800/1600, 1650/1400
    assert pg["paired"] == {
        "change_pct": [13.3, 12.5, 17.9],
        "median_change_pct": 13.3,
        "rounds_faster": 3,
    }
    assert summary["sqlite"]["paired"]["median_change_pct"] == 15.0


def test_bench_endpoint_rounds_take_each_figure_s_median_and_each_round_s_own_ratio() -> None:
    from tools.bench.endpoint import medians

    def pg(rate: float, tps: float, p99: float) -> dict[str, float]:
        return {"purchases_per_second": rate, "p99_ms": p99, "pgbench_tps": tps,
                "ratio": round(rate / tps, 3), "server_cpu_share": 0.6}  # fmt: skip

    rounds: list[dict[str, Any]] = [
        {"sqlite": {"purchases_per_second": 4000, "p99_ms": 12.0},
         "postgresql": pg(3000, 10000, 20.0)},
        {"sqlite": {"purchases_per_second": 5000, "p99_ms": 10.0},
         "postgresql": pg(2000, 4000, 30.0)},
        {"sqlite": {"purchases_per_second": 4500, "p99_ms": 11.0},
         "postgresql": {"error": "PostgreSQL unavailable: gone"}},
        {"sqlite": {"purchases_per_second": 4200, "p99_ms": 14.0},
         "postgresql": pg(3500, 9000, 18.0)},
    ]  # fmt: skip
    out = medians(rounds)
    assert out["sqlite"]["purchases_per_second"] == 4350 and out["sqlite"]["p99_ms"] == 11.5
    assert out["sqlite"]["rounds"] == 4 and "ratio" not in out["sqlite"]
    postgresql = out["postgresql"]
    assert postgresql["rounds"] == 3  # the round PostgreSQL was unreachable is left out
    assert postgresql["purchases_per_second"] == 3000 and postgresql["pgbench_tps"] == 9000
    # each round's ratio (0.3, 0.5, 0.389), not the median rate over the median pgbench (0.333)
    assert postgresql["ratio"] == 0.389
    assert [run["ratio"] for run in postgresql["runs"]] == [0.3, 0.5, 0.389]
    assert medians([rounds[2]])["postgresql"] == {"error": "PostgreSQL unavailable: gone"}


def test_bench_endpoint_says_what_the_cpu_a_purchase_cost_allows() -> None:
    from tools.bench.endpoint import SECONDS, cpu_bound

    # 5 s at 3,500 purchases a second: the whole machine's CPU 1.65 cores, the hasher 0.55
    figures = {"cores": 2, "server_cpu_share": 0.65, "hashing_cpu_share": 0.55,
               "database_cpu_share": 0.30, "client_cpu_share": 0.15}  # fmt: skip
    bound = cpu_bound(figures, int(3_500 * SECONDS))
    assert bound["cpu_ms_per_purchase"] == round(1.65 / 3_500 * 1000, 3)  # 0.471 ms
    assert bound["cpu_bound_purchases_per_second"] == round(2 / (1.65 / 3_500), 1)  # 4,242
    assert bound["cpu_ms_per_purchase_without_hasher"] == round(1.10 / 3_500 * 1000, 3)
    assert bound["cpu_bound_purchases_per_second_without_hasher"] == round(2 / (1.1 / 3_500), 1)
    # SQLite: no database processes of its own (it runs in the server's)
    sqlite = cpu_bound({"cores": 2, "server_cpu_share": 1.0, "client_cpu_share": 0.2}, 25_000)
    assert sqlite["cpu_bound_purchases_per_second"] == round(2 / (1.2 * SECONDS / 25_000), 1)
    assert sqlite["cpu_ms_per_purchase"] == sqlite["cpu_ms_per_purchase_without_hasher"]


def test_bench_rounds_alone_are_for_the_endpoint_and_at_least_one() -> None:
    cases = [(["--engine", "--rounds", "3"], "is for --endpoint or --flood alone"),
             (["--endpoint", "--rounds", "0"], "--rounds must be at least 1")]  # fmt: skip
    for flags, said in cases:
        done = subprocess.run(
            [sys.executable, "-m", "tools", "bench", *flags],
            cwd=ROOT, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 2 and said in done.stderr


def test_bench_endpoint_tells_the_idle_priority_hasher_from_the_server() -> None:
    """The endpoint's book hasher runs at SCHED_IDLE (CPU nothing else wants): the endpoint
    benchmark counts it apart from the server, whose own CPU a purchase costs."""
    from tools.bench import endpoint as bench_endpoint

    code = "import os, time; os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0));"
    child = subprocess.Popen([sys.executable, "-c", code + " print(1, flush=True); time.sleep(30)"],
                             stdout=subprocess.PIPE)  # fmt: skip
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == b"1"
        assert bench_endpoint.idle_priority(child.pid)
        assert not bench_endpoint.idle_priority(os.getpid())
        assert child.pid in bench_endpoint.process_tree(os.getpid())
    finally:
        child.kill()
        child.wait()
