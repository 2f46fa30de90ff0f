"""tools/bench/endpoint.py without an endpoint: the summaries of its runs and the CPU bound."""

from __future__ import annotations

from typing import Any


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
