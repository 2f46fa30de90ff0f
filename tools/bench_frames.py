"""`build.py bench --frames`: frame rate and Python time per frame while Lab Riches animates.

Builds the site, starts the real dev server in test mode (a temporary var dir), opens the
game in headless Chromium at the desktop (1280 × 720) and phone (390 × 844) sizes, buys a
play with a Bonus Game (chosen through the test-only next-entry route), and measures the
first three GOs' animations at normal speed: frames per second and dropped frames, from the
timestamps requestAnimationFrame gave each frame, and Python milliseconds per drawn frame
(median and p95), as the shell records them (window.lottery.stats).
"""

from __future__ import annotations

import itertools
import shutil
import statistics
import tempfile
from pathlib import Path
from typing import Any

from tools.dist import build
from tools.localserver import CHROMIUM_ARGS, chromium_path, local_server

SIZES = {"desktop": (1280, 720), "phone": (390, 844)}
GOES_MEASURED = 3
SAMPLE = """() => { const s = window.lottery.stats;
  return {frames: s.frames, at: s.frameAt.slice(), ms: s.pythonMs.slice(),
  draw: s.drawMs.slice()}; }"""
FRAME_MS = 1000 / 60


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def _measure(browser: Any, url: str, size: tuple[int, int]) -> dict[str, float]:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(url + "/?game=lab-riches")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    page.locator("#log").get_by_text("Balance £").first.wait_for(timeout=30_000)
    body = {"game": "lab-riches", "composition": [{"feature": "instant", "pence": 500}]}
    page.request.post(url + "/api/test/next-entry", data=body)
    page.get_by_role("button", name="PLAY", exact=True).click()
    go = page.get_by_role("button", name="GO", exact=True)
    intervals: list[float] = []  # between consecutive animation frames, as rAF timestamps them
    python_ms: list[float] = []
    draw_ms: list[float] = []
    for _ in range(GOES_MEASURED):
        go.wait_for(state="visible", timeout=60_000)
        page.wait_for_function(
            "() => [...document.querySelectorAll('#mirror button')]"
            ".some(b => b.textContent === 'GO' && b.getAttribute('aria-disabled') !== 'true')",
            timeout=60_000,
        )
        before = page.evaluate(SAMPLE)
        go.click()
        page.wait_for_timeout(1400)  # within the GO's animation (1.5 s at normal speed)
        after = page.evaluate(SAMPLE)
        at = after["at"][len(after["at"]) - (after["frames"] - before["frames"]) :]
        intervals += [b - a for a, b in itertools.pairwise(at)]
        python_ms += after["ms"][len(before["ms"]) :]
        draw_ms += after["draw"][len(before["draw"]) :]
    context.close()
    return {
        "fps": round(1000 * len(intervals) / sum(intervals), 1),
        # A frame is dropped when the next one comes more than half a frame late.
        "dropped_frames": sum(round(i / FRAME_MS) - 1 for i in intervals if i > 1.5 * FRAME_MS),
        "python_ms_median": round(statistics.median(python_ms), 3),
        "python_ms_p95": round(_p95(python_ms), 3),
        "frames_measured": len(python_ms),
        # The shell's side: replaying the batch on the canvas (JavaScript), for comparison.
        "draw_ms_median": round(statistics.median(draw_ms), 3),
        "draw_ms_p95": round(_p95(draw_ms), 3),
    }


def run() -> dict[str, Any]:
    """Measure both sizes; returns {"lab-riches": {"desktop": {...}, "phone": {...}}}."""
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="bench-frames-"))
    try:
        build(work / "dist")
        with local_server(work / "dist", work / "var") as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            figures = {name: _measure(browser, url, size) for name, size in SIZES.items()}
            browser.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {"lab-riches": figures, "target": {"fps": 60, "python_ms_p95_max": 6}}
