"""`build.py bench --load`: how fast the game loads in headless Chromium from the local server.

For a cold visit (empty cache) and a warm one (the same browser profile, second visit,
service worker installed), the median of 5 runs of: ms from navigation to the splash
painted (first contentful paint), ms to Python ready with its first frame drawn, and
bytes transferred over the network (resource timing transfer sizes, headers included).
"""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

from tools.dist import ROOT, build

RUNS = 5
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
MEASURE = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const resources = performance.getEntriesByType('resource');
  const bytes = resources.reduce((sum, r) => sum + r.transferSize, nav ? nav.transferSize : 0);
  return {splash_ms: fcp ? fcp.startTime : null, ready_ms: window.lottery.stats.readyMs, bytes};
}"""


@contextmanager
def local_server(dist: Path) -> Iterator[str]:
    """The dev server on a free port, serving dist/; yields its URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    var = Path(tempfile.mkdtemp(prefix="lottery-bench-"))
    env = {**os.environ, "LOTTERY_VAR_DIR": str(var), "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "tools", "serve", "--no-build", "--dist", str(dist)]
    proc = subprocess.Popen([*cmd, "--port", str(port)], cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the dev server did not start") from None
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(var, ignore_errors=True)


def visit(page: Page, url: str) -> dict[str, float]:
    """Navigate, wait for Python's first frame, and read the figures."""
    page.goto(url + "/?scene=check")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    figures: dict[str, float] = page.evaluate(MEASURE)
    return figures


def one_run(browser: Browser, url: str) -> tuple[dict[str, float], dict[str, float]]:
    """A cold visit in a fresh profile, then a warm visit once the service worker is ready."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        cold = visit(page, url)
        page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
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
    with local_server(dist) as url, sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=os.environ.get("LOTTERY_CHROMIUM") or shutil.which("chromium"),
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
