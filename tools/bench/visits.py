"""One measured visit of a page in headless Chromium for `bench --load`: what the page
observes from navigation on (paints, marks, long tasks, bytes), a cold visit then a warm one in
the same profile, a whole play, the bare Pyodide page the figures are set against, and the
median of a figure over runs."""

from __future__ import annotations

import shutil
import statistics
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from engine import games
from engine.ui.games import presentation
from tools.build.compress import write_compressed
from tools.build.sources import PYODIDE

PLAY_GAME = games.on_sale()[0].id  # the game whose whole play is measured: the registry's first
# (Lab Riches)
# Every main-thread task over 50 ms from navigation on (PerformanceObserver 'longtask'),
# registered before any of the page's scripts run; and the moment a PLAY is first mirrored
# enabled (the page's first playable frame: the game's PLAY, control "play", or a lobby
# card's, "play:ID"), watched on the whole document.
OBSERVERS = """
window.__longTasks = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(e.duration);
  }).observe({type: 'longtask', buffered: true});
} catch (e) { window.__longTasks = null; }
window.__playableAt = null;
const __playable = new MutationObserver(() => {
  const play = [...document.querySelectorAll('#mirror button')].find((b) =>
    /^play(:|$)/.test(b.dataset.control || '') && b.getAttribute('aria-disabled') !== 'true');
  if (play) { window.__playableAt = performance.now(); __playable.disconnect(); }
});
__playable.observe(document, {childList: true, subtree: true, attributes: true,
                              characterData: true});
"""
TASKS = """() => {
  const tasks = window.__longTasks || [];
  return {longest_task_ms: Math.round(Math.max(0, ...tasks)),
          total_blocking_ms: Math.round(tasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0))};
}"""
MEASURE = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const resources = performance.getEntriesByType('resource');
  const bytes = resources.reduce((sum, r) => sum + r.transferSize, nav ? nav.transferSize : 0)
    + (window.lottery.stats.workerBytes || 0);
  const tasks = window.__longTasks || [];
  const marks = Object.fromEntries(performance.getEntriesByType('mark')
    .filter((m) => m.name.startsWith('lottery-') && m.startTime <= window.__playableAt)
    .map((m) => [m.name, m.startTime]));
  return {splash_ms: fcp ? fcp.startTime : null, ready_ms: window.lottery.stats.readyMs,
          playable_ms: window.__playableAt, bytes,
          longest_task_ms: Math.round(Math.max(0, ...tasks)),
          total_blocking_ms: Math.round(tasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0)),
          modules: window.lottery.stats.modules, marks};
}"""
RUNTIME_KEPT = """() => !window.lottery.config.runtimeCache
  || ['kept', 'failed'].includes(window.lottery.stats.runtimeCode)"""
# The reference page: Pyodide as its README starts it (full standard library, its own lock
# file), then one draw on a canvas from Python. A module script of its own (the server's CSP
# allows no other inline script).
BARE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
BARE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bare Pyodide</title></head>
<body><canvas id="c" width="200" height="100"></canvas>
<script type="module" src="/bare-pyodide/bare.js"></script></body></html>
"""
BARE_JS = """import { loadPyodide } from "/bare-pyodide/pyodide.mjs";
const pyodide = await loadPyodide({ indexURL: "/bare-pyodide/" });
pyodide.runPython(`
import js
ctx = js.document.getElementById("c").getContext("2d")
ctx.fillStyle = "#0b2a4a"
ctx.fillRect(10, 10, 120, 60)
`);
requestAnimationFrame(() => { window.__bareReady = performance.now(); });
"""
BARE_MEASURE = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const bytes = performance.getEntriesByType('resource')
    .reduce((sum, r) => sum + r.transferSize, nav ? nav.transferSize : 0);
  return {ready_ms: window.__bareReady, bytes};
}"""


def add_bare_pyodide(dist: Path) -> None:
    """The bare Pyodide page at /bare-pyodide/, with .br and .gz copies like the site's."""
    folder = dist / "bare-pyodide"
    folder.mkdir(exist_ok=True)
    for name in BARE_FILES:
        shutil.copyfile(PYODIDE / name, folder / name)
    # Pyodide's lock file lists its packages; none is loaded, so an empty list is the same.
    lock = (PYODIDE / "pyodide-lock.json").read_text()
    (folder / "pyodide-lock.json").write_text(lock)
    (folder / "index.html").write_text(BARE_HTML)
    (folder / "bare.js").write_text(BARE_JS)
    for path in folder.iterdir():
        if path.suffix in {".html", ".js", ".mjs", ".json", ".wasm", ".zip"}:
            write_compressed(path)


def visit(page: Page, url: str, path: str) -> dict[str, Any]:
    """Navigate to a page, wait for its first playable frame (a PLAY enabled), read the
    figures."""
    page.goto(url + path)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    page.wait_for_function("() => window.__playableAt !== null", timeout=60_000)
    # the worker's count of sys.modules, sent when the page tells it the first frame is shown
    page.wait_for_function("() => window.lottery.stats.modules !== undefined", timeout=10_000)
    figures: dict[str, Any] = page.evaluate(MEASURE)
    return figures


def bare_visit(browser: Browser, url: str) -> dict[str, float]:
    """A cold visit of the bare Pyodide page in a fresh profile."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.goto(url + "/bare-pyodide/")
        page.wait_for_function("() => window.__bareReady !== undefined", timeout=60_000)
        figures: dict[str, float] = page.evaluate(BARE_MEASURE)
        return figures
    finally:
        context.close()


# The names of the mirrored controls that are enabled now.
ENABLED = (
    "[...document.querySelectorAll('#mirror button')]"
    ".filter((b) => b.getAttribute('aria-disabled') !== 'true').map((b) => b.textContent)"
)


def press(page: Page, name: str) -> None:
    """Press a mirrored control once it is enabled."""
    page.wait_for_function(f"(name) => {ENABLED}.includes(name)", arg=name, timeout=60_000)
    page.get_by_role("button", name=name, exact=True).click()


def whole_play(page: Page, url: str) -> dict[str, float]:
    """A whole play of PLAY_GAME on a warm page, pressing its controls (Lab Riches' GO) as it
    declares them (Presentation.controls); the main thread's long tasks from PLAY on."""
    controls = presentation(games.get(PLAY_GAME)).controls
    page.goto(url + f"/?game={PLAY_GAME}&fast=1")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    page.get_by_role("button", name="PLAY", exact=True).wait_for(timeout=30_000)
    page.wait_for_timeout(500)  # settled: what follows is the play's, not the load's
    page.evaluate("() => { window.__longTasks = []; }")
    started = time.monotonic()
    press(page, "PLAY")
    at_rest = (
        f"(names) => {{ const on = {ENABLED}; "
        "return on.includes('FINISH') || names.some((n) => on.includes(n)); }"
    )
    presses = 0
    while True:
        if time.monotonic() - started > 300:
            raise TimeoutError("the play did not reach FINISH in 5 minutes")
        page.wait_for_function(at_rest, arg=list(controls.labels), timeout=60_000)
        enabled = page.evaluate(f"() => {ENABLED}")
        label = controls.to_finish(enabled, presses)
        if "FINISH" in enabled or label is None:
            break
        page.get_by_role("button", name=label, exact=True).click()
        presses += 1
        page.wait_for_function(f"(n) => !{ENABLED}.includes(n)", arg=label, timeout=10_000)
    press(page, "FINISH")
    page.wait_for_function(
        "() => /Play number \\d+ finished/.test(document.getElementById('log').textContent)",
        timeout=60_000,
    )
    figures: dict[str, float] = page.evaluate(TASKS)
    figures["play_s"] = round(time.monotonic() - started, 1)
    return figures


def cold_then_warm(browser: Browser, url: str, path: str) -> tuple[Any, ...]:
    """A cold visit of a page in a fresh profile, then a warm visit once the service worker
    and the snapshot are stored: the two visits' figures, and the warm page (its context
    open: the caller closes `page.context`)."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.add_init_script(OBSERVERS)
    try:
        page = context.new_page()
        cold = visit(page, url, path)
        page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
        # A returning player finds the worker's precache and the Python snapshot stored, and
        # the runtime's compiled code kept (js/runtime.js; a build without it has no runtimeCache).
        page.wait_for_function("() => !['saving', null].includes(window.lottery.stats.snapshot)")
        page.wait_for_function(RUNTIME_KEPT)
        page.wait_for_timeout(300)  # let the worker finish precaching from the HTTP cache
        page.close()
        page = context.new_page()
        return cold, visit(page, url, path), page
    except BaseException:
        context.close()
        raise


def one_page(browser: Browser, url: str, path: str, play: bool) -> tuple[Any, ...]:
    """A cold visit of a page in a fresh profile, then a warm visit once the service worker
    and the snapshot are stored, then (play) a whole Lab Riches play."""
    cold, warm, page = cold_then_warm(browser, url, path)
    try:
        return cold, warm, whole_play(page, url) if play else None
    finally:
        page.context.close()


def median(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The median of each figure over the runs (of each mark, over the runs that made it)."""
    out: dict[str, Any] = {
        key: round(statistics.median(r[key] for r in runs), 1) for key in runs[0] if key != "marks"
    }
    if "marks" in runs[0]:
        names = sorted(
            {name for r in runs for name in r["marks"]},
            key=lambda n: min(r["marks"][n] for r in runs if n in r["marks"]),
        )
        out["marks"] = {
            name: round(statistics.median(r["marks"][name] for r in runs if name in r["marks"]))
            for name in names
        }
    return out
