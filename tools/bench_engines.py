"""`build.py bench --load`'s `engines`: first visits and return visits in Firefox ESR and
WebKitGTK (tools/browsers.py), the browsers players have besides Chromium.

For each engine, COLD first visits of a game's page, each in a new player's profile (Firefox:
a new user context, which has its own cookies, storage and HTTP cache; WebKitGTK: a new
MiniBrowser session, whose website data is ephemeral), and after each a return visit in the same
profile (its interpreter snapshot stored). Each visit's `ready_ms` (navigation to Python's first
frame, the shell's `stats.readyMs`), how Python started (`boot`: fresh or snapshot) and the
shell's `lottery-*` marks (ms from navigation: the worker, Pyodide's module, Python started, the
game imported, ready), so a slow start says which phase it was slow in. Reported per engine: the
longest and the median cold and return `ready_ms`, the slowest cold visit whole, and the phase
medians of both kinds of visit.
"""

from __future__ import annotations

import statistics
from typing import Any

from tools.browsers import ENGINES, missing, wait_for

COLD = 20
PAGE = "/?game=lab-riches"
READ = """async () => {
  const stats = window.lottery && window.lottery.stats;
  if (!stats || stats.readyMs === null) return null;
  const marks = Object.fromEntries(performance.getEntriesByType("mark")
    .filter((m) => m.name.startsWith("lottery-")).map((m) => [m.name, Math.round(m.startTime)]));
  const requests = performance.getEntriesByType("resource")
    .map((r) => [r.name.replace(location.origin, ""), Math.round(r.startTime),
                 Math.round(r.duration)])
    .sort((a, b) => b[2] - a[2]).slice(0, 3);
  return {ready_ms: Math.round(stats.readyMs), boot: stats.boot, marks, slowest_requests: requests};
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
    }


def run(url: str, cold: int = COLD) -> dict[str, Any]:
    """Every engine this machine has (one it lacks is named in `missing`)."""
    result: dict[str, Any] = {}
    for name in ENGINES:
        lacking = missing(name)
        result[name] = {"missing": lacking} if lacking else engine(name, url, cold)
    return result
