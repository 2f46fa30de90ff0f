"""Python boots in a real browser from our own origin, draws, and hears a mirrored button."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.chromium.conftest import Watch, open_game, screenshot

DESKTOP: ViewportSize = {"width": 1280, "height": 720}
PHONE: ViewportSize = {"width": 390, "height": 844}


def test_python_draws_and_reacts_to_a_mirrored_button(browser: Browser, server: str) -> None:
    page, watch = open_game(browser, server, viewport=DESKTOP, query="?scene=check")
    expect(page.locator("#splash")).to_be_hidden()
    expect(page.locator("#log")).to_contain_text("Python is ready")
    # The canvas really holds Python's drawing (done in the worker, on the canvas the page
    # handed over): not one flat colour, as a canvas nothing drew on is, but shapes and text.
    # The worker's frame reaches the page's canvas through the compositor, a moment after the
    # page hears of it (the first screenshot after the first frame was once all black).
    for _ in range(20):
        shot = Image.open(io.BytesIO(page.locator("#screen").screenshot())).convert("RGB")
        colours = shot.getcolors(maxcolors=1 << 20)
        if colours is not None and len(colours) > 16:
            break
        page.wait_for_timeout(250)
    assert shot.width > 0 and colours is not None and len(colours) > 16
    page.get_by_role("button", name="TAP").click()
    expect(page.locator("#log")).to_contain_text("Tapped 1 time")
    page.get_by_role("button", name="TAP").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#log")).to_contain_text("Tapped 2 times")
    screenshot(page, "boot-desktop")
    assert watch.foreign == []
    assert watch.errors == []
    page.context.close()


def test_phone_portrait_is_sharp_and_mirrored(browser: Browser, server: str) -> None:
    page, watch = open_game(browser, server, viewport=PHONE, query="?scene=check")
    # The worker sized the backing store at devicePixelRatio 2.
    assert page.evaluate("() => window.lottery.stats.canvas.width") == PHONE["width"] * 2
    box = page.get_by_role("button", name="TAP").bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    screenshot(page, "boot-phone")
    assert watch.errors == []
    page.context.close()


def test_a_missing_file_shows_a_clear_message(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.route("**/*.wasm", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(server + "/")
    expect(page.locator("#failure")).to_be_visible(timeout=30_000)
    expect(page.locator("#failure-text")).to_contain_text("could not be downloaded")
    expect(page.get_by_role("button", name="Try again")).to_be_visible()
    context.close()


def test_a_browser_without_webassembly_is_told_so(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.add_init_script("delete globalThis.WebAssembly")
    page.goto(server + "/")
    expect(page.locator("#failure")).to_be_visible(timeout=30_000)
    expect(page.locator("#failure-text")).to_contain_text("cannot run the game")
    context.close()


SNAPSHOT_STATE = "() => [window.lottery.stats.boot, window.lottery.stats.snapshot]"


def _snapshot_saved(page: Page) -> None:
    page.wait_for_function("() => window.lottery.stats.snapshot === 'saved'", timeout=30_000)


def test_a_returning_visit_restores_the_python_snapshot(browser: Browser, server: str) -> None:
    page, watch = open_game(browser, server, viewport=DESKTOP, query="?scene=check")
    assert page.evaluate(SNAPSHOT_STATE)[0] == "fresh"
    _snapshot_saved(page)
    again = page.context.new_page()
    again_watch = Watch(again, server)
    again.goto(server + "/?scene=check")
    again.wait_for_selector("body[data-ready='1']", timeout=60_000)
    assert again.evaluate(SNAPSHOT_STATE) == ["snapshot", "restored"]
    # The restored interpreter runs the game like a fresh one.
    again.get_by_role("button", name="TAP").click()
    expect(again.locator("#log")).to_contain_text("Tapped 1 time")
    assert watch.errors == [] and again_watch.errors == []
    page.context.close()


def test_a_returning_visit_reads_back_the_whole_runtime_s_code_chromium_kept(
    browser: Browser, server: str, tmp_path: Path
) -> None:
    """Once a visit has left its snapshot, a throwaway worker compiles the runtime's copy that V8
    compiles whole (web/shell/js/runtime.js); the next visit restores Python from that copy, and
    V8 reads back the code of all its functions (1.6 MB; Pyodide's own copy, compiled function
    by function, leaves about 20 kB) instead of compiling them."""
    page, watch = open_game(browser, server, viewport=DESKTOP, query="?scene=check")
    _snapshot_saved(page)
    page.wait_for_function("() => window.lottery.stats.runtimeCode === 'kept'", timeout=30_000)
    config = page.evaluate("() => window.lottery.config")
    again = page.context.new_page()
    again_watch = Watch(again, server)
    trace = tmp_path / "trace.json"
    browser.start_tracing(page=again, categories=["v8", "devtools.timeline"], path=str(trace))
    again.goto(server + "/?scene=check")
    again.wait_for_selector("body[data-ready='1']", timeout=60_000)
    browser.stop_tracing()
    assert again.evaluate(SNAPSHOT_STATE) == ["snapshot", "restored"]
    compiled = {
        urlsplit(event["args"]["data"]["url"]).path: event["args"]["data"]
        for event in json.loads(trace.read_text())["traceEvents"]
        if event["name"] == "v8.compileModule" and "url" in event.get("args", {}).get("data", {})
    }
    eager = compiled[config["pyodide"]["eager"]]
    assert eager.get("cacheRejected") is False, eager
    assert eager.get("consumedCacheSize", 0) > 1_000_000, eager
    assert config["pyodide"]["index"] + "pyodide.asm.mjs" not in compiled
    # Its WebAssembly was compiled by a second worker, the game's worker never fetched it.
    assert _wasm_fetched_and_received(again) == (False, True)
    assert watch.errors == [] and again_watch.errors == []
    page.context.close()


def _wasm_fetched_and_received(page: Page) -> tuple[bool, bool]:
    """Whether the game's worker fetched the WebAssembly itself, and whether it received it
    compiled by a second worker (its span `wasm-received`)."""
    page.wait_for_function("() => window.lottery.stats.worker !== undefined", timeout=10_000)
    worker = page.evaluate("() => window.lottery.stats.worker")
    fetched = any(d["path"].endswith(".wasm") for d in worker["downloads"])
    return fetched, "wasm-received" in {s["name"] for s in worker["spans"]}


def test_a_returning_visit_whose_second_worker_fails_compiles_its_own_webassembly(
    browser: Browser, server: str
) -> None:
    """The second worker that compiles a returning visit's WebAssembly (web/shell/js/runtime.js)
    cannot be made: the game's worker is told so at once, and Pyodide fetches and compiles its
    own; the snapshot still restores and the game plays."""
    page, watch = open_game(browser, server, viewport=DESKTOP, query="?scene=check")
    _snapshot_saved(page)
    page.wait_for_function("() => window.lottery.stats.runtimeCode === 'kept'", timeout=30_000)
    again = page.context.new_page()
    again.add_init_script(
        """const PageWorker = window.Worker;
        window.Worker = class extends PageWorker {
          constructor(url, options) {
            if (options && options.name === "lottery-wasm") throw new Error("no second worker");
            super(url, options);
          }
        };"""
    )
    again_watch = Watch(again, server)
    again.goto(server + "/?scene=check")
    again.wait_for_selector("body[data-ready='1']", timeout=60_000)
    assert again.evaluate(SNAPSHOT_STATE) == ["snapshot", "restored"]
    assert _wasm_fetched_and_received(again) == (True, True)  # told null, fetched its own
    again.get_by_role("button", name="TAP").click()
    expect(again.locator("#log")).to_contain_text("Tapped 1 time")
    assert watch.errors == [] and again_watch.errors == []
    page.context.close()


# Well packed (js/snapshot.js's page format) but not an interpreter; not packed at all; or the
# real one cut short, which must fail before a page is written into the interpreter's memory
# (Pyodide's restore writes them there itself): the start fails, with Pyodide's already under way.
BROKEN_SNAPSHOTS = {
    "not an interpreter": (
        "[new Uint32Array([0x4c525031, 65536, 1, 0]), new Uint8Array(65536).fill(0xab)]"
    ),
    "not packed": "[new Uint8Array(1000).fill(0xab)]",
    "truncated": "[(await (await cache.match(key)).arrayBuffer()).slice(0, -1000)]",
}


@pytest.mark.parametrize("broken", BROKEN_SNAPSHOTS)
def test_a_broken_snapshot_is_dropped_and_python_starts_afresh(
    browser: Browser, server: str, broken: str
) -> None:
    page, _ = open_game(browser, server, viewport=DESKTOP, query="?scene=check")
    _snapshot_saved(page)
    page.evaluate(
        f"""async () => {{ const cache = await caches.open('lottery-python-snapshot');
        for (const key of await cache.keys()) {{
          await cache.put(key, new Response(new Blob({BROKEN_SNAPSHOTS[broken]})));
        }}
        }}"""
    )
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    assert page.evaluate(SNAPSHOT_STATE)[0] == "fresh"
    assert any("snapshot did not restore" in w for w in warnings), warnings
    page.get_by_role("button", name="TAP").click()
    expect(page.locator("#log")).to_contain_text("Tapped 1 time")
    _snapshot_saved(page)  # and a good snapshot replaces the broken one
    page.context.close()


def test_a_game_downloads_only_its_own_code_and_keeps_its_own_snapshot(
    browser: Browser, server: str
) -> None:
    """The lobby (`/`) fetches every game's zip (it draws each card in its game's look); a
    game's page fetches the shared zip and its own, never another game's; each page keeps its
    own interpreter snapshot, so visiting one does not drop another's."""
    context = browser.new_context(viewport=DESKTOP)
    asked: list[str] = []
    # The page's and its Python worker's requests (not the service worker's precache, which
    # stores every file of the release once the first frame is up).
    context.on(
        "request",
        lambda request: None if request.service_worker else asked.append(request.url),
    )
    page = context.new_page()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    games = page.evaluate("() => window.lottery.config.game.games")
    assert len(games) >= 2
    first, second = games[0], games[1]
    expect(page.get_by_role("button", name="My Games")).to_be_visible(timeout=30_000)
    assert all(any(url.endswith(game["zip"]) for url in asked) for game in games)
    _snapshot_saved(page)
    page.close()
    for game, other in ((first, second), (second, first)):
        asked.clear()
        page = context.new_page()
        page.goto(f"{server}/?game={game['id']}")
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        assert page.evaluate(SNAPSHOT_STATE)[0] == "fresh"  # another page: its own snapshot
        expect(page.get_by_role("button", name="PLAY", exact=True)).to_be_visible(timeout=30_000)
        assert any(url.endswith(game["zip"]) for url in asked)
        assert not any(url.endswith(other["zip"]) for url in asked)
        _snapshot_saved(page)
        page.close()
    for query in ("", f"?game={first['id']}", f"?game={second['id']}"):
        page = context.new_page()
        page.goto(f"{server}/{query}")
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        assert page.evaluate(SNAPSHOT_STATE) == ["snapshot", "restored"], query
        name = "My Games" if not query else "PLAY"
        expect(page.get_by_role("button", name=name, exact=True)).to_be_visible(timeout=30_000)
        if not query:
            # The restored lobby still imports what it had not imported yet from each game's
            # zip (a game's Rules and Prizes are its screens'): the packages' paths into the
            # zips came back with the snapshot, not from running the fresh start's set-up.
            for game in games:
                rules = f"Rules and Prizes of {game['name']}"
                page.get_by_role("button", name=rules, exact=True).click()
                expect(page.locator("#log")).to_contain_text(
                    "Nothing you do while playing changes it", timeout=30_000
                )
                page.get_by_role("button", name="Close", exact=True).click()
                expect(page.get_by_role("button", name="My Games", exact=True)).to_be_visible()
                page.evaluate("() => { document.getElementById('log').textContent = ''; }")
        page.close()
    context.close()


# The worker's timeline (web/shell/js/timings.js) as the page keeps it, with what a game's page
# must have downloaded in its worker and the marks it must agree with.
WORKER = """() => {
  const {stats, config} = window.lottery;
  const id = new URLSearchParams(location.search).get("game");
  const game = config.game.games.find((g) => g.id === id);
  const marks = Object.fromEntries(performance.getEntriesByType("mark")
    .map((m) => [m.name, m.startTime]));
  return {worker: stats.worker, ready: stats.readyMs, marks,
          wanted: [config.pyodide.index + "pyodide.asm.wasm", config.pyodide.stdlib,
                   config.game.zip, game.zip]};
}"""


def test_the_worker_reports_its_downloads_and_steps_on_the_page_s_timeline(
    browser: Browser, server: str
) -> None:
    """The page's resource timing cannot see the worker's requests: the worker sends its own
    (each download's start, first byte, end and bytes) and its steps (Pyodide's module,
    WebAssembly's compile and instantiate, Python's start, the game's start and first frame),
    which the page shifts to its own timeline (ms from navigation), for the load benchmark."""
    page, watch = open_game(browser, server, viewport=DESKTOP, query="?game=lab-riches")
    page.wait_for_function("() => window.lottery.stats.worker !== undefined", timeout=10_000)
    seen = page.evaluate(WORKER)
    downloads = {d["path"]: d for d in seen["worker"]["downloads"]}
    for path in seen["wanted"]:
        got = downloads[path]
        assert 0 < got["start"] <= got["firstByte"] <= got["end"] <= seen["ready"], got
        assert got["bytes"] > 0 and got["bodyBytes"] > 0, got  # a cold visit: over the network
    steps = {s["name"]: s for s in seen["worker"]["spans"]}
    assert {"pyodide-module", "python-start", "wasm-instantiateStreaming"} <= set(steps), steps
    for name, step in steps.items():  # (the page may read the first frame's message before
        # the worker, which posted it, ends that step)
        ends = step["start"] if name == "first-frame" else step["end"]
        assert 0 < step["start"] <= step["end"] and ends <= seen["ready"], step
    marks = seen["marks"]
    # The same moments as the worker's marks, each on the page's clock.
    assert abs(steps["python-start"]["end"] - marks["lottery-python-started"]) <= 2
    assert abs(steps["pyodide-module"]["end"] - marks["lottery-pyodide-module"]) <= 2
    wasm = steps["wasm-instantiateStreaming"]
    assert steps["python-start"]["start"] <= wasm["start"] <= wasm["end"]
    # After the game's import, in order: the fonts, the game's start, its first frame.
    after = [steps[name] for name in ("fonts-awaited", "game-start", "first-frame")]
    assert marks["lottery-game-imported"] - 2 <= after[0]["start"], after
    for one, then in itertools.pairwise(after):
        assert one["end"] <= then["start"], after
    assert watch.errors == []
    page.context.close()
