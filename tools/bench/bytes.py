"""`build.py bench --bytes`: each page's cold bytes against issue 46's budget, on the two screens
it names, one cold visit each.

For each page a player may open first (tools/bench/load.py's PAGES: each game on sale and the
lobby) and each screen (SCREENS: a desktop at pixel ratio 1, a phone at 2, which takes the 2×
atlases), one visit in a fresh profile, measured as `bench --load` measures its cold visits
(tools/bench/visits.py: the bytes transferred up to the first playable frame, the page's and its
worker's resource timing, headers included), and what each has left under the budget
(`TARGET["cold_bytes_max"]`, 3,600,000). A cold visit's bytes are the same from one visit to
the next, so one is enough, where `bench --load` makes nine of each page at 1280×720 only.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import ViewportSize, sync_playwright

from tools.bench.load import PAGES, TARGET
from tools.bench.visits import OBSERVERS, visit
from tools.build.dist import build
from tools.build.localserver import CHROMIUM_ARGS, chromium_path, local_server

# name: (viewport, device pixel ratio)
SCREENS: dict[str, tuple[ViewportSize, int]] = {
    "1280x720@1": ({"width": 1280, "height": 720}, 1),
    "390x844@2": ({"width": 390, "height": 844}, 2),
}


def run() -> dict[str, Any]:
    """Build the site, serve it, and make one cold visit of each page on each screen."""
    work = Path(tempfile.mkdtemp(prefix="bench-bytes-"))
    measured: dict[str, dict[str, int]] = {screen: {} for screen in SCREENS}
    try:
        build(work / "dist")
        with (
            local_server(work / "dist", work / "var", test_mode=False) as url,
            sync_playwright() as p,
        ):
            browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            try:
                for screen, (viewport, ratio) in SCREENS.items():
                    for name, path in PAGES.items():
                        context = browser.new_context(viewport=viewport, device_scale_factor=ratio)
                        context.add_init_script(OBSERVERS)
                        try:
                            measured[screen][name] = round(
                                visit(context.new_page(), url, path)["bytes"]
                            )
                        finally:
                            context.close()
            finally:
                browser.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return against_budget(measured)


def against_budget(measured: dict[str, dict[str, int]]) -> dict[str, Any]:
    """The bytes of each page on each screen, what each has left under the budget (negative:
    over it), the least left, and whether every page is within it."""
    budget = TARGET["cold_bytes_max"]
    left = {s: {page: budget - b for page, b in pages.items()} for s, pages in measured.items()}
    least = min(n for pages in left.values() for n in pages.values())
    return {"bytes": measured, "left": left, "least_left": least, "budget": budget,
            "within_budget": least >= 0}  # fmt: skip
