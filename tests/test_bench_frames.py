"""`build.py bench --frames` (tools/bench/frames.py): the figures of the frames it reads."""

from __future__ import annotations

import pytest

from tools.bench.frames import FRAME_MS, Samples


def test_the_figures_count_the_frames_a_late_one_skipped_across_parts() -> None:
    samples = Samples()
    at = [i * FRAME_MS for i in range(10)]
    samples.add({"at": at, "ms": [1.0] * 10, "draw": [0.5] * 10})
    late = [at[-1] + 3 * FRAME_MS, at[-1] + 4 * FRAME_MS]  # two frames skipped, then on time
    samples.add({"at": late, "ms": [2.0, 5.0], "draw": [0.5, 0.5]})
    figures = samples.figures()
    assert figures["dropped_frames"] == 0  # the gap between parts is not an interval
    assert figures["frames_measured"] == 12 and figures["python_ms_p95"] == 5.0
    assert figures["fps"] == pytest.approx(60.0, abs=0.1)
    samples.add({"at": [late[-1], late[-1] + 3 * FRAME_MS], "ms": [1.0, 1.0], "draw": [1, 1]})
    assert samples.figures()["dropped_frames"] == 2


def test_a_part_without_frames_has_no_rate() -> None:
    assert Samples().figures() == {"frames_measured": 0}
