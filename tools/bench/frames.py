"""`build.py bench --frames`: frame rate and Python time per frame during each game's busiest
animation.

Builds the site, starts the real dev server in test mode (a temporary var dir), opens each game
in headless Chromium at the desktop (1280 × 720) and phone (390 × 844) sizes, chooses its play
through the test-only next-entry route, and measures at normal speed:

- Lab Riches: the first three GOs' animations of a play;
- £500K Power Puck Shot: every shot of a play with a Bonus Game and a Power Puck (each arrow
  pressed as soon as the arrows are enabled), from the press until the puck is at rest.

Reported: frames per second and dropped frames, from the timestamps requestAnimationFrame gave
each frame, and Python milliseconds per drawn frame (median and p95), as the shell records them
(window.lottery.stats), and the canvas replay's milliseconds for comparison.
"""

from __future__ import annotations

import itertools
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tools.build.dist import build
from tools.build.localserver import CHROMIUM_ARGS, chromium_path, local_server

SIZES = {"desktop": (1280, 720), "phone": (390, 844)}
GOES_MEASURED = 3
# The stats' series, emptied in place before a measured animation (record() appends to them).
RESET = """() => { const s = window.lottery.stats;
  s.frameAt.length = 0; s.pythonMs.length = 0; s.drawMs.length = 0; }"""
SAMPLE = """() => { const s = window.lottery.stats;
  return {at: s.frameAt.slice(), ms: s.pythonMs.slice(), draw: s.drawMs.slice()}; }"""
ENABLED = (
    "[...document.querySelectorAll('#mirror button')]"
    ".filter((b) => b.getAttribute('aria-disabled') !== 'true').map((b) => b.textContent)"
)
FRAME_MS = 1000 / 60
POWER_PUCK_PLAY = [
    {"feature": "bonus", "pence": 0, "power_pucks": 1, "games": 1, "pucks": 1},
    {"feature": "row", "pence": 600, "boosts": 0, "colour": "purple"},
]


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


class Samples:
    """The frames of the measured animations: intervals between consecutive frames (as rAF
    timestamps them), Python's and the replay's milliseconds per drawn frame."""

    def __init__(self) -> None:
        self.intervals: list[float] = []
        self.python_ms: list[float] = []
        self.draw_ms: list[float] = []

    def during(self, page: Any, animate: Callable[[], None]) -> None:
        """Measure the frames drawn while animate() runs (it returns when the animation ends)."""
        page.evaluate(RESET)
        animate()
        got = page.evaluate(SAMPLE)
        self.intervals += [b - a for a, b in itertools.pairwise(got["at"])]
        self.python_ms += got["ms"]
        self.draw_ms += got["draw"]

    def figures(self) -> dict[str, float]:
        return {
            "fps": round(1000 * len(self.intervals) / sum(self.intervals), 1),
            # A frame is dropped when the next one comes more than half a frame late.
            "dropped_frames": sum(
                round(i / FRAME_MS) - 1 for i in self.intervals if i > 1.5 * FRAME_MS
            ),
            "python_ms_median": round(statistics.median(self.python_ms), 3),
            "python_ms_p95": round(_p95(self.python_ms), 3),
            "frames_measured": len(self.python_ms),
            # The shell's side: replaying the batch on the canvas (JavaScript), for comparison.
            "draw_ms_median": round(statistics.median(self.draw_ms), 3),
            "draw_ms_p95": round(_p95(self.draw_ms), 3),
        }


def _open(browser: Any, url: str, size: tuple[int, int], game: str, composition: list[Any]) -> Any:
    """A new page on the game, its next play chosen; returns (context, page)."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(f"{url}/?game={game}")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    page.locator("#log").get_by_text("Balance £").first.wait_for(timeout=30_000)
    page.request.post(url + "/api/test/next-entry", data={"game": game, "composition": composition})
    page.wait_for_function(f"() => {ENABLED}.includes('PLAY')", timeout=60_000)
    page.get_by_role("button", name="PLAY", exact=True).click()
    return context, page


def lab_riches(browser: Any, url: str, size: tuple[int, int]) -> dict[str, float]:
    """The first three GOs of a Lab Riches play."""
    composition = [{"feature": "instant", "pence": 500}]
    context, page = _open(browser, url, size, "lab-riches", composition)
    samples = Samples()
    go = page.get_by_role("button", name="GO", exact=True)
    for _ in range(GOES_MEASURED):
        go.wait_for(state="visible", timeout=60_000)
        page.wait_for_function(f"() => {ENABLED}.includes('GO')", timeout=60_000)

        def animate() -> None:
            go.click()
            page.wait_for_timeout(1400)  # within the GO's animation (1.5 s at normal speed)

        samples.during(page, animate)
    context.close()
    return samples.figures()


def power_puck_shot(browser: Any, url: str, size: tuple[int, int]) -> dict[str, float]:
    """Every shot of a Power Puck Shot play with a Bonus Game and a Power Puck."""
    context, page = _open(browser, url, size, "power-puck-shot", POWER_PUCK_PLAY)
    samples = Samples()
    shots = 0
    deadline = time.monotonic() + 300
    while True:
        if time.monotonic() > deadline:
            raise TimeoutError("the Power Puck Shot play did not reach FINISH in 5 minutes")
        page.wait_for_function(
            f"() => {{ const on = {ENABLED}; "
            "return on.includes('FINISH') || on.some((n) => n.startsWith('Shoot ')); }",
            timeout=60_000,
            polling=16,
        )
        enabled = page.evaluate(f"() => {ENABLED}")
        if "FINISH" in enabled:
            break
        arrow = next(n for n in enabled if n.startswith("Shoot "))

        def animate(arrow: str = arrow) -> None:
            page.get_by_role("button", name=arrow, exact=True).click()
            page.wait_for_function(  # the arrows go off while the puck runs, then come back
                f"() => !{ENABLED}.some((n) => n.startsWith('Shoot '))", timeout=10_000
            )
            page.wait_for_function(
                f"() => {{ const on = {ENABLED}; "
                "return on.includes('FINISH') || on.some((n) => n.startsWith('Shoot ')); }",
                timeout=60_000,
                polling=16,
            )

        samples.during(page, animate)
        shots += 1
    context.close()
    return {**samples.figures(), "shots": shots}


def run() -> dict[str, Any]:
    """Measure both games at both sizes; returns {"lab-riches": {"desktop": {...}, "phone":
    {...}}, "power-puck-shot": {"desktop": {...}, "phone": {...}}, "target": {...}}."""
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="bench-frames-"))
    try:
        build(work / "dist")
        with local_server(work / "dist", work / "var") as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            figures = {
                game: {name: measure(browser, url, size) for name, size in SIZES.items()}
                for game, measure in (
                    ("lab-riches", lab_riches),
                    ("power-puck-shot", power_puck_shot),
                )
            }
            browser.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {**figures, "target": {"fps": 60, "python_ms_p95_max": 4}}
