"""`build.py bench --frames`: frame rate and Python time per frame while Lab Riches animates.

Builds the site, starts the real dev server in test mode (a temporary var dir), opens the
game in headless Chromium at the desktop (1280 × 720) and phone (390 × 844) sizes, buys a
play with a Bonus Game (chosen through the test-only next-entry route), and measures the
first three GOs' animations at normal speed: frames per second and Python milliseconds per
drawn frame (median and p95) as the shell records them (window.lottery.stats).
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
from pathlib import Path
from typing import Any

from tools.dist import ROOT, build

SIZES = {"desktop": (1280, 720), "phone": (390, 844)}
GOES_MEASURED = 3
SAMPLE = """() => { const s = window.lottery.stats;
  return {frames: s.frames, ms: s.pythonMs.slice(), now: performance.now()}; }"""


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(dist: Path, var: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _port()
    env = {**os.environ, "LOTTERY_VAR_DIR": str(var), "LOTTERY_TEST_MODE": "1"}
    env["PYTHONPATH"] = str(ROOT)
    env.pop("DATABASE_URL", None)
    cmd = [sys.executable, "-m", "tools", "serve", "--no-build", "--dist", str(dist)]
    proc = subprocess.Popen(
        [*cmd, "--port", str(port)], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url + "/", timeout=2):
                return proc, url
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("the dev server did not start") from None
            time.sleep(0.2)


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
    frames, elapsed = 0, 0.0
    python_ms: list[float] = []
    for _ in range(GOES_MEASURED):
        go.wait_for(state="visible", timeout=60_000)
        page.wait_for_function(
            "() => [...document.querySelectorAll('#mirror button')]"
            ".some(b => b.textContent === 'GO' && !b.disabled)",
            timeout=60_000,
        )
        before = page.evaluate(SAMPLE)
        go.click()
        page.wait_for_timeout(1400)  # within the GO's animation (1.5 s at normal speed)
        after = page.evaluate(SAMPLE)
        frames += after["frames"] - before["frames"]
        elapsed += (after["now"] - before["now"]) / 1000
        python_ms += after["ms"][len(before["ms"]) :]
    context.close()
    return {
        "fps": round(frames / elapsed, 1),
        "python_ms_median": round(statistics.median(python_ms), 3),
        "python_ms_p95": round(_p95(python_ms), 3),
        "frames_measured": len(python_ms),
    }


def run() -> dict[str, Any]:
    """Measure both sizes; returns {"lab-riches": {"desktop": {...}, "phone": {...}}}."""
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="bench-frames-"))
    try:
        build(work / "dist")
        (work / "var").mkdir()
        proc, url = _serve(work / "dist", work / "var")
        try:
            with sync_playwright() as p:
                exe = os.environ.get("LOTTERY_CHROMIUM") or shutil.which("chromium")
                browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
                figures = {name: _measure(browser, url, size) for name, size in SIZES.items()}
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {"lab-riches": figures, "target": {"fps": 60, "python_ms_p95_max": 6}}
