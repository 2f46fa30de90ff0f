"""`build.py bench --load`'s `engines`: first visits and return visits in Firefox ESR and
WebKitGTK (tools/bench/browsers.py), the browsers players have besides Chromium.

For each engine, COLD first visits of a game's page, each in a new player's profile (Firefox:
a new user context, which has its own cookies, storage and HTTP cache; WebKitGTK: a new
MiniBrowser session, whose website data is ephemeral), and after each a return visit in the same
profile (its interpreter snapshot stored). Each visit's `ready_ms` (navigation to Python's first
frame, the shell's `stats.readyMs`), how Python started (`boot`: fresh or snapshot) and the
shell's `lottery-*` marks (ms from navigation: the worker, Pyodide's module, Python started, the
game imported, ready), so a slow start says which phase it was slow in. Reported per engine: the
longest and the median cold and return `ready_ms`, the slowest cold visit whole, and the phase
medians of both kinds of visit; and for each cold visit, where its worker's time went (the
worker reports it to the page, web/shell/js/timings.js): each of its downloads' start, end and
bytes (Pyodide's module and runtime, the WebAssembly, the standard library, the game's zips),
WebAssembly's compile and instantiate, and Python's start, with the medians of each.
"""

from __future__ import annotations

import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from engine import games
from tools.bench.browsers import ENGINES, missing, wait_for

COLD = 20
PAGE = f"/?game={games.on_sale()[0].id}"  # the first game's page (Lab Riches')
READ = """async () => {
  const stats = window.lottery && window.lottery.stats;
  if (!stats || stats.readyMs === null || !stats.worker) return null;
  const marks = Object.fromEntries(performance.getEntriesByType("mark")
    .filter((m) => m.name.startsWith("lottery-")).map((m) => [m.name, Math.round(m.startTime)]));
  const requests = performance.getEntriesByType("resource")
    .map((r) => [r.name.replace(location.origin, ""), Math.round(r.startTime),
                 Math.round(r.duration)])
    .sort((a, b) => b[2] - a[2]).slice(0, 3);
  return {ready_ms: Math.round(stats.readyMs), boot: stats.boot, marks, slowest_requests: requests,
          worker: stats.worker};
}"""
# The snapshot is stored once the page is playable: the return visit waits for it.
SAVED = "async () => ['saved', 'failed', 'unavailable'].includes(window.lottery.stats.snapshot)"
PHASES = {
    "to_worker_ms": ("lottery-shell", "lottery-worker"),
    "pyodide_module_ms": ("lottery-boot", "lottery-pyodide-module"),
    "python_start_ms": ("lottery-pyodide-module", "lottery-python-started"),
    "game_import_ms": ("lottery-python-started", "lottery-game-imported"),
    "to_ready_ms": ("lottery-game-imported", "lottery-ready"),
}


def phases(visits: list[dict[str, Any]]) -> dict[str, float | None]:
    """The median of each phase over the visits that marked both its ends."""
    found: dict[str, float | None] = {}
    for name, (start, end) in PHASES.items():
        spans = [
            v["marks"][end] - v["marks"][start] for v in visits if {start, end} <= set(v["marks"])
        ]
        found[name] = statistics.median(spans) if spans else None
    return found


def worker_timeline(visit: dict[str, Any]) -> dict[str, Any]:
    """Where a visit's worker spent its start (ms from navigation; the page's `stats.worker`,
    web/shell/js/timings.js): each download as [path, start, end, bytes transferred], in the
    order made (a file fetched twice shows twice), each step as [name, start, end]."""
    worker = visit["worker"]
    downloads = [[d["path"], d["start"], d["end"], d["bytes"]] for d in worker["downloads"]]
    steps = [[s["name"], s["start"], s["end"]] for s in worker["spans"]]
    return {"ready_ms": visit["ready_ms"], "downloads": downloads, "steps": steps,
            "python_start_ms": python_start_parts(steps)}  # fmt: skip


def python_start_parts(steps: list[list[Any]]) -> dict[str, int] | None:
    """Python's start (Pyodide's loadPyodide) in three: up to the WebAssembly's instantiation
    (Pyodide's runtime module fetched and run), the instantiation (the rest of the
    WebAssembly's download, its compile and instantiate: the longest `wasm-instantiate*` step)
    and from there to Python started (CPython's own start, the standard library mounted)."""
    started = [step for step in steps if step[0] == "python-start"]
    wasms = [step for step in steps if step[0].startswith("wasm-instantiate")]
    if not started or not wasms:
        return None
    (_, begin, end), (_, wasm_begin, wasm_end) = started[-1], max(wasms, key=lambda s: s[2] - s[1])
    return {
        "to_wasm": wasm_begin - begin,
        "wasm": wasm_end - wasm_begin,
        "after_wasm": end - wasm_end,
    }


def worker_medians(timelines: list[dict[str, Any]]) -> dict[str, float]:
    """The median length of each download (by path) and step (by name) over the visits (ms)."""
    lengths: dict[str, list[float]] = {}
    for timeline in timelines:
        for name, start, end, *_ in timeline["downloads"] + timeline["steps"]:
            lengths.setdefault(name, []).append(end - start)
    return {name: statistics.median(spans) for name, spans in sorted(lengths.items())}


def engine(name: str, url: str, cold: int) -> dict[str, Any]:
    """One engine's cold and return visits."""
    colds, returns = [], []
    with ENGINES[name]() as new_tab:
        for _ in range(cold):
            tab = new_tab()
            try:
                tab.open(url + PAGE)
                colds.append(wait_for(tab, READ, timeout=180))
                wait_for(tab, SAVED, timeout=60)
                tab.open(url + PAGE)
                returns.append(wait_for(tab, READ, timeout=180))
            finally:
                tab.close()
    slowest = max(colds, key=lambda v: v["ready_ms"])
    timelines = [worker_timeline(v) for v in colds]
    ready = [v["ready_ms"] for v in colds]
    back = [v["ready_ms"] for v in returns]
    return {
        "cold_visits": len(colds),
        "cold_ready_ms_longest": max(ready),
        "cold_ready_ms_median": statistics.median(ready),
        "cold_ready_ms": ready,
        "return_ready_ms_median": statistics.median(back),
        "return_ready_ms_longest": max(back),
        "return_boots": sorted({v["boot"] for v in returns}),
        "cold_phases_ms": phases(colds),
        "return_phases_ms": phases(returns),
        "slowest_cold_visit": slowest,
        "cold_worker_ms_median": worker_medians(timelines),
        "cold_worker": timelines,
    }


def run(url: str, cold: int = COLD, engines: list[str] | None = None) -> dict[str, Any]:
    """Every engine this machine has, or those named (one it lacks is named in `missing`)."""
    result: dict[str, Any] = {}
    for name in engines or ENGINES:
        lacking = missing(name)
        result[name] = {"missing": lacking} if lacking else engine(name, url, cold)
    return result


def main(argv: list[str]) -> int:
    """`python -m tools.bench.load_engines [COLD [ENGINE...]]`: this part of `bench --load` alone
    (the site built and served as `bench --load` does), COLD first visits (20) in each engine named
    (firefox, webkit; both by default); prints its JSON."""
    from tools.build.dist import build
    from tools.build.localserver import local_server

    cold = int(argv[0]) if argv else COLD
    work = Path(tempfile.mkdtemp(prefix="bench-engines-"))
    try:
        build(work / "dist")
        with local_server(work / "dist", work / "var", test_mode=False) as url:
            print(json.dumps(run(url, cold, argv[1:] or None)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
