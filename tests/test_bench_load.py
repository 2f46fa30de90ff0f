"""tools/bench/load.py without a browser: the targets' verdict and the side-by-side summary."""

from __future__ import annotations


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
