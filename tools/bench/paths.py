"""Milliseconds for one £500K Power Puck Shot path (`shot_path`), 95th percentile.

`build.py bench --paths --json` prints it for CPython here and for Pyodide under Node.js
(tools/bench/engine.py's `pyodide_eval`, with the import closure of the paths module) when Node.js
and the Pyodide package are installed. The cases are random (seed, shot, arrow, reveals) drawn
from the project's own stream, so both interpreters time the same shots. The path is computed
while the player waits after picking an arrow: the target is 2 ms in Pyodide.
"""

from __future__ import annotations

import inspect
import time

from engine import games
from engine.game import Game
from engine.power_puck_shot.paths import MAX_REVEALS, shot_path
from engine.rng import Stream

HEADER = """
import time
from engine.power_puck_shot.paths import MAX_REVEALS, shot_path
from engine.rng import Stream
"""


def path_ms_p95(samples: int = 2000) -> float:
    """95th-percentile milliseconds of one shot_path over random (seed, shot, arrow, reveals)."""
    stream = Stream(b"bench/power-puck-shot/paths")
    cases = [
        (stream.read(16), stream.below(8), stream.below(6), stream.between(1, MAX_REVEALS))
        for _ in range(samples)
    ]
    for case in cases[:50]:  # warm up
        shot_path(*case)
    times = []
    for case in cases:
        started = time.perf_counter()
        shot_path(*case)
        times.append(time.perf_counter() - started)
    times.sort()
    return times[min(len(times) - 1, int(0.95 * len(times)))] * 1000


def game() -> Game:
    """The registered game whose paths these are: the one whose package holds shot_path."""
    return next(g for g in games.GAMES if shot_path.__module__.startswith(g.home + "."))


def pyodide_path_ms_p95(samples: int = 2000) -> float | None:
    """path_ms_p95 run in Pyodide under Node.js, or None when Node.js or Pyodide is missing."""
    from tools.bench.engine import pyodide_eval

    code = HEADER + inspect.getsource(path_ms_p95) + f"\nstr(path_ms_p95({samples}))\n"
    out = pyodide_eval(code, roots=(shot_path.__module__,))
    return None if out is None else float(out)


def run(samples: int = 2000) -> dict[str, float | int | None]:
    """The figures: samples, and the p95 in CPython and in Pyodide (None without Node.js)."""
    pyodide = pyodide_path_ms_p95(samples)
    return {
        "samples": samples,
        "cpython_ms_p95": round(path_ms_p95(samples), 4),
        "pyodide_ms_p95": None if pyodide is None else round(pyodide, 4),
    }
