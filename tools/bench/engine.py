"""`build.py bench --engine`: books built per second in CPython (one core) and ms a book in Pyodide,
for every registered game (engine/games.py) that has a book builder.

CPython: outcomes drawn from each game's prize table, weighted by its counts; the best and the
median of 12 rounds of 0.25 s (a shared machine's stalls skew a single long round), timing only
the game's build_book. Pyodide: the .py files the registry imports (its static import closure,
tools/build/dist.py) are written into Pyodide's file system in Node.js (node_modules/pyodide, as
pinned in package-lock.json) and the same kind of loop is timed there, calling the builder the
registry gives.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine import games
from engine.game import BookBuilder, Game
from engine.outcome import Composition
from engine.rng import Stream
from tools.bench import paths as bench_paths
from tools.build.sources import ROOT, import_closure

ROUND_SECONDS = 0.25
ROUNDS = 12
PYODIDE_BOOKS = 300

NODE_SCRIPT = r"""
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";
const [root, files, code] = [process.argv[2], JSON.parse(process.argv[3]), process.argv[4]];
const pyodide = await loadPyodide({ stdout: () => {}, stderr: (s) => process.stderr.write(s) });
for (const name of files) {
  const parts = name.split("/");
  for (let i = 1; i < parts.length; i++) {
    const dir = "/bench/" + parts.slice(0, i).join("/");
    if (!pyodide.FS.analyzePath(dir).exists) pyodide.FS.mkdirTree(dir);
  }
  pyodide.FS.writeFile("/bench/" + name, readFileSync(root + "/" + name));
}
pyodide.runPython("import sys; sys.path.insert(0, '/bench')");
process.stdout.write(pyodide.runPython(code) + "\n");
"""

PYODIDE_CODE = """
import time, json
from engine.games import get
from engine.outcome import Composition
build_book = get(GAME).build_book
outcomes = [Composition.from_json(c) for c in json.loads(OUTCOMES)]
build_book(MODEL, outcomes[0], bytes(16))
started = time.perf_counter()
for i, composition in enumerate(outcomes):
    build_book(MODEL, composition, i.to_bytes(16, "big"))
json.dumps({"ms_per_book": (time.perf_counter() - started) * 1000 / len(outcomes)})
"""


def draws(game: Game, count: int) -> list[Composition]:
    """count compositions drawn from the game's prize table, weighted by their counts."""
    choices: list[Composition] = []
    weights: list[int] = []
    for tier in game.table.tiers:
        for composition, number in tier.composition_counts():
            choices.append(composition)
            weights.append(number)
    stream = Stream(b"bench/" + game.id.encode())
    return [choices[stream.weighted(weights)] for _ in range(count)]


def cpython_rates(
    build_book: BookBuilder, model: str, outcomes: list[Composition]
) -> tuple[float, float]:
    """Books a second on this interpreter: the best and the median of ROUNDS short rounds.

    Short rounds and the best of them, as timeit does: on a shared virtual machine a round
    can lose the core to a neighbour, which says nothing about the code.
    """
    rates: list[float] = []
    for round_number in range(ROUNDS):
        done = 0
        started = time.perf_counter()
        while (elapsed := time.perf_counter() - started) < ROUND_SECONDS:
            for composition in outcomes[:100]:
                build_book(model, composition, (round_number * 10**6 + done).to_bytes(16, "big"))
                done += 1
        rates.append(done / elapsed)
    return max(rates), statistics.median(rates)


def pyodide_eval(code: str, roots: Sequence[str] | None = None) -> str | None:
    """Run Python code in Pyodide under Node.js with the modules roots import (by default the
    registry and every game's engine, with its lazily imported parts) importable; its last
    value.

    None when Node.js or the Pyodide package is missing.
    """
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "pyodide").exists():
        return None
    if roots is None:
        roots = ("engine.games", *(m for game in games.GAMES for m in game.lazy_modules()))
    files = import_closure(roots)
    with tempfile.NamedTemporaryFile("w", suffix=".mjs", dir=ROOT, delete=False) as script:
        script.write(NODE_SCRIPT)
    try:
        result = subprocess.run(
            [node, script.name, str(ROOT), json.dumps(files), code],
            cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
    finally:
        Path(script.name).unlink()
    if result.returncode != 0:
        lines = [line for line in result.stderr.splitlines() if len(line) < 300]
        raise RuntimeError("Pyodide run failed:\n" + "\n".join(lines[-20:]))
    return result.stdout.strip().splitlines()[-1]


def pyodide_ms(game: Game, outcomes: list[Composition]) -> float | None:
    """Milliseconds a book in Pyodide under Node.js, or None when Node or Pyodide is missing."""
    sample = json.dumps([c.to_json() for c in outcomes[:PYODIDE_BOOKS]])
    given = f"GAME = {game.id!r}\nMODEL = {game.table.model!r}\nOUTCOMES = {sample!r}\n"
    out = pyodide_eval(given + PYODIDE_CODE)
    return None if out is None else float(json.loads(out)["ms_per_book"])


def run() -> dict[str, Any]:
    """The engine figures of every registered game that builds books, by game id."""
    figures: dict[str, Any] = {}
    for game in games.GAMES:
        if game.build_book is None:
            continue
        outcomes = draws(game, 2_000)
        ms = pyodide_ms(game, outcomes)
        best, median = cpython_rates(game.build_book, game.table.model, outcomes)
        figures[game.id] = {
            "books_per_second": round(best),
            "books_per_second_median": round(median),
            "pyodide_ms_per_book": round(ms, 3) if ms is not None else None,
        }
    # The game whose choices draw paths (Game.choice_values: an arrow's), computed while the
    # player waits: tools/bench/paths.py times them.
    drawn = bench_paths.game()
    if drawn.id in figures and drawn.choice_values:
        paths = bench_paths.run()
        figures[drawn.id]["path_ms_p95"] = paths["pyodide_ms_p95"]
        figures[drawn.id]["path_ms_p95_cpython"] = paths["cpython_ms_p95"]
    return figures
