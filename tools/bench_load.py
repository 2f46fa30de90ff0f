"""`build.py bench --load`: how fast the game loads in headless Chromium from the local server.

For a cold visit (empty cache) and a warm one (the same browser profile, second visit,
service worker installed), the median of 5 runs of: ms from navigation to the splash
painted (first contentful paint), ms to Python ready with its first frame drawn, bytes
transferred over the network (resource timing transfer sizes, headers included), and the
main thread's long tasks up to then (PerformanceObserver 'longtask'): the longest, and the
total blocking time (the sum of each task's time over 50 ms).
"""

from __future__ import annotations

import statistics

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
MEASURE = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const resources = performance.getEntriesByType('resource');
  const bytes = resources.reduce((sum, r) => sum + r.transferSize, nav ? nav.transferSize : 0);
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


def one_run(browser: Browser, url: str) -> tuple[dict[str, float], dict[str, float]]:
    """A cold visit in a fresh profile, then a warm visit once the service worker is ready."""
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
        warm = visit(context.new_page(), url)
        return cold, warm
    finally:
        context.close()


def median(runs: list[dict[str, float]]) -> dict[str, float]:
    """The median of each figure over the runs."""
    return {key: round(statistics.median(r[key] for r in runs), 1) for key in runs[0]}


def run() -> dict[str, dict[str, float]]:
    """Build dist/, serve it, and measure cold and warm loads (median of RUNS)."""
    dist = ROOT / "dist"
    build(dist)
    colds, warms = [], []
    with local_server(dist, test_mode=False) as url, sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium_path(),
            args=CHROMIUM_ARGS,
        )
        try:
            for _ in range(RUNS):
                cold, warm = one_run(browser, url)
                colds.append(cold)
                warms.append(warm)
        finally:
            browser.close()
    return {"cold": median(colds), "warm": median(warms)}
