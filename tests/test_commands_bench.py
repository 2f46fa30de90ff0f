"""`build.py bench` (tools/commands/bench.py): which flags go together."""

from __future__ import annotations

import subprocess
import sys

from tools.build.sources import ROOT


def test_bench_against_compares_one_benchmark_that_knows_how() -> None:
    for flags in (["--engine"], ["--load", "--endpoint"]):
        done = subprocess.run(
            [sys.executable, "-m", "tools", "bench", *flags, "--against", "HEAD"],
            cwd=ROOT, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 2
        assert "--against compares --load, --endpoint or --flood, one at a time" in done.stderr


def test_bench_rounds_alone_are_for_the_endpoint_and_at_least_one() -> None:
    cases = [(["--engine", "--rounds", "3"], "is for --endpoint or --flood alone"),
             (["--endpoint", "--rounds", "0"], "--rounds must be at least 1")]  # fmt: skip
    for flags, said in cases:
        done = subprocess.run(
            [sys.executable, "-m", "tools", "bench", *flags],
            cwd=ROOT, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 2 and said in done.stderr
