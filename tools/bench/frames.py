"""`build.py bench --frames`: frame rate and Python time per frame through each game's biggest
celebration.

Builds the site, starts the real dev server in test mode (a temporary var dir), opens each game
on sale in headless Chromium at the desktop (1280 × 720) and phone (390 × 844) sizes, chooses
its play through the test-only next-entry route: the top-prize entry its examples declare
(engine.game.Examples.CELEBRATION), and plays it at normal speed to FINISH, pressing the
controls its presentation declares as soon as they are enabled (Controls.to_finish), measuring
every frame from PLAY until FINISH is offered; the frames after the last press (the play's
last animation and the end's celebration, engine/ui/celebration.py and fanfare.py) are also
reported apart, as "celebration".

Reported: frames per second and dropped frames, from the timestamps requestAnimationFrame gave
each frame, and Python milliseconds per drawn frame (median and p95), as the shell records them
(window.lottery.stats), and the canvas replay's milliseconds for comparison.
"""

from __future__ import annotations

import contextlib
import itertools
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from engine import games
from engine.game import Game
from engine.ui.games import presentation
from tools.build.dist import build
from tools.build.localserver import CHROMIUM_ARGS, chromium_path, local_server

SIZES = {"desktop": (1280, 720), "phone": (390, 844)}
# The stats' series, emptied in place before a measured animation (record() appends to them).
# The stats' series since the last call, which empties them in place (record() appends to them
# and, past 2000 values, drops the oldest 1000: the play is read in parts, one a press).
TAKE = """() => { const s = window.lottery.stats;
  const got = {at: s.frameAt.slice(), ms: s.pythonMs.slice(), draw: s.drawMs.slice()};
  s.frameAt.length = 0; s.pythonMs.length = 0; s.drawMs.length = 0; return got; }"""
ENABLED = (
    "[...document.querySelectorAll('#mirror button')]"
    ".filter((b) => b.getAttribute('aria-disabled') !== 'true').map((b) => b.textContent)"
)
# FINISH, or one of the game's controls (the labels given), is enabled
OFFERED = f"""(labels) => {{ const on = {ENABLED};
  return on.includes('FINISH') || on.some((n) => labels.includes(n)); }}"""
# FINISH is enabled, or the control pressed (its label given) no longer is
TAKEN = (
    f"(label) => {{ const on = {ENABLED}; return on.includes('FINISH') || !on.includes(label); }}"
)
FRAME_MS = 1000 / 60


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

    def add(self, got: dict[str, list[float]]) -> None:
        """Add frames as TAKE reads them (at: timestamps, ms: Python's, draw: the replay's)."""
        self.intervals += [b - a for a, b in itertools.pairwise(got["at"])]
        self.python_ms += got["ms"]
        self.draw_ms += got["draw"]

    def figures(self) -> dict[str, float]:
        """The figures of the frames added (none without two frames)."""
        if len(self.intervals) < 1 or not self.python_ms:
            return {"frames_measured": len(self.python_ms)}
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
    return context, page


def play(browser: Any, url: str, size: tuple[int, int], game: Game) -> dict[str, Any]:
    """A top-prize play of the game to FINISH, every frame measured from PLAY on: the whole
    play's figures, the presses made, and the celebration's (the frames after the last press)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    controls = presentation(game).controls
    labels = list(controls.labels)
    context, page = _open(browser, url, size, game.id, game.load_examples().CELEBRATION)
    page.evaluate(TAKE)
    page.get_by_role("button", name="PLAY", exact=True).click()
    presses, whole = 0, Samples()
    deadline = time.monotonic() + 300
    while True:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the {game.name} play did not reach FINISH in 5 minutes")
        page.wait_for_function(OFFERED, arg=labels, timeout=60_000, polling=16)
        enabled = page.evaluate(f"() => {ENABLED}")
        label = controls.to_finish(enabled, presses)
        if "FINISH" in enabled or label is None:
            break
        whole.add(page.evaluate(TAKE))
        page.get_by_role("button", name=label, exact=True).click()
        presses += 1
        # The control goes off while its animation runs (or the play ends); one still offered
        # after that is pressed again on the next turn.
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(TAKEN, arg=label, timeout=5_000, polling=16)
    last = page.evaluate(TAKE)  # from the last press to FINISH
    context.close()
    whole.add(last)
    celebration = Samples()
    celebration.add(last)
    return {**whole.figures(), "presses": presses, "celebration": celebration.figures()}


def run() -> dict[str, Any]:
    """Measure every game on sale at both sizes; returns {game id: {"desktop": {...}, "phone":
    {...}}, ..., "target": {...}}."""
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="bench-frames-"))
    try:
        build(work / "dist")
        with local_server(work / "dist", work / "var") as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            figures = {
                game.id: {name: play(browser, url, size, game) for name, size in SIZES.items()}
                for game in games.on_sale()
            }
            browser.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {**figures, "target": {"fps": 60, "python_ms_p95_max": 4}}
