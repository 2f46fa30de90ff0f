"""`build.py bench --load`: how fast the game loads in headless Chromium from the local server.

For a cold visit (empty cache) and a warm one (the same browser profile, second visit,
service worker installed), the median of 5 runs of: ms from navigation to the splash
painted (first contentful paint), ms to Python ready with its first frame drawn, bytes
transferred over the network (resource timing transfer sizes of the page and of its Python
worker, headers included), and the main thread's long tasks up to then (PerformanceObserver
'longtask'): the longest, and the total blocking time (the sum of each task's time over 50 ms).
Then, warm, a whole Lab Riches play (PLAY, every GO, FINISH, the outcome screen; faster
animations) and the main thread's long tasks during it.
"""

from __future__ import annotations

import statistics
import time

from playwright.sync_api import Browser, Page, sync_playwright

from tools.dist import ROOT, build
from tools.localserver import CHROMIUM_ARGS, chromium_path, local_server

RUNS = 5
# Every main-thread task over 50 ms from navigation on (PerformanceObserver 'longtask'),
# registered before any of the page's scripts run.
LONG_TASKS = """
window.__longTasks = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(e.duration);
  }).observe({type: 'longtask', buffered: true});
} catch (e) { window.__longTasks = null; }
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
  return {splash_ms: fcp ? fcp.startTime : null, ready_ms: window.lottery.stats.readyMs, bytes,
          longest_task_ms: Math.round(Math.max(0, ...tasks)),
          total_blocking_ms: Math.round(tasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0))};
}"""


def visit(page: Page, url: str) -> dict[str, float]:
    """Navigate, wait for Python's first frame, and read the figures."""
    page.goto(url + "/?scene=check")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    figures: dict[str, float] = page.evaluate(MEASURE)
    return figures


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
    """A whole Lab Riches play on a warm page; the main thread's long tasks from PLAY on."""
    page.goto(url + "/?fast=1")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    page.get_by_role("button", name="PLAY", exact=True).wait_for(timeout=30_000)
    page.wait_for_timeout(500)  # settled: what follows is the play's, not the load's
    page.evaluate("() => { window.__longTasks = []; }")
    started = time.monotonic()
    press(page, "PLAY")
    while True:
        if time.monotonic() - started > 300:
            raise TimeoutError("the play did not reach FINISH in 5 minutes")
        page.wait_for_function(
            f"() => {{ const on = {ENABLED}; return on.includes('GO') || on.includes('FINISH'); }}",
            timeout=60_000,
        )
        if "FINISH" in page.evaluate(f"() => {ENABLED}"):
            break
        page.get_by_role("button", name="GO", exact=True).click()
        page.wait_for_function(f"() => !{ENABLED}.includes('GO')", timeout=10_000)
    press(page, "FINISH")
    page.wait_for_function(
        "() => /Play number \\d+ finished/.test(document.getElementById('log').textContent)",
        timeout=60_000,
    )
    figures: dict[str, float] = page.evaluate(TASKS)
    figures["play_s"] = round(time.monotonic() - started, 1)
    return figures


def one_run(browser: Browser, url: str) -> tuple[dict[str, float], ...]:
    """A cold visit in a fresh profile, then a warm visit once the service worker is ready,
    then a whole play."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.add_init_script(LONG_TASKS)
    try:
        page = context.new_page()
        cold = visit(page, url)
        page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
        # A returning player finds the worker's precache and the Python snapshot (app.js) stored.
        page.wait_for_function("() => !['saving', null].includes(window.lottery.stats.snapshot)")
        page.wait_for_timeout(300)  # let the worker finish precaching from the HTTP cache
        page.close()
        page = context.new_page()
        warm = visit(page, url)
        return cold, warm, whole_play(page, url)
    finally:
        context.close()


def median(runs: list[dict[str, float]]) -> dict[str, float]:
    """The median of each figure over the runs."""
    return {key: round(statistics.median(r[key] for r in runs), 1) for key in runs[0]}


def run() -> dict[str, dict[str, float]]:
    """Build dist/, serve it, and measure cold and warm loads (median of RUNS)."""
    dist = ROOT / "dist"
    build(dist)
    colds, warms, plays = [], [], []
    with local_server(dist, test_mode=False) as url, sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium_path(),
            args=CHROMIUM_ARGS,
        )
        try:
            for _ in range(RUNS):
                cold, warm, play = one_run(browser, url)
                colds.append(cold)
                warms.append(warm)
                plays.append(play)
        finally:
            browser.close()
    return {"cold": median(colds), "warm": median(warms), "play": median(plays)}
