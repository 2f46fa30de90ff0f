"""tools/bench/bytes.py without a browser: what each page has left under the budget."""

from __future__ import annotations

from tools.bench.bytes import against_budget


def test_bench_bytes_says_what_each_page_has_left_and_a_page_over_the_budget() -> None:
    measured = {
        "1280x720@1": {"lab-riches": 3_528_486, "lobby": 3_543_939},
        "390x844@2": {"lab-riches": 3_552_470, "lobby": 3_600_001},
    }
    judged = against_budget(measured)
    assert judged["bytes"] == measured and judged["budget"] == 3_600_000
    assert judged["left"] == {
        "1280x720@1": {"lab-riches": 71_514, "lobby": 56_061},
        "390x844@2": {"lab-riches": 47_530, "lobby": -1},
    }
    assert judged["least_left"] == -1 and judged["within_budget"] is False
    measured["390x844@2"]["lobby"] = 3_600_000  # exactly the budget is within it
    assert against_budget(measured)["within_budget"] is True
