"""The site installs as an app and says so when the connection is gone (tools/build/webapp.py,
web/shell/offline.html, sw.js): Chromium finds it installable, and a visit with no network gets
the offline page, which names the unfinished play the device keeps and returns to the game when
the connection does."""

from __future__ import annotations

import json
import time
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Browser, Playwright, expect

from tests.chromium.conftest import Watch, screenshot
from tests.chromium.test_lab_riches import PHONE
from tests.conftest import CHROMIUM_ARGS, chromium_path


def test_chromium_finds_the_site_installable(
    playwright: Playwright, server: str, tmp_path: Path
) -> None:
    # A profile of its own: Chromium never offers to install from an incognito context, which
    # is what a plain new_context() is ("in-incognito").
    context = playwright.chromium.launch_persistent_context(
        tmp_path / "profile", executable_path=chromium_path(), args=CHROMIUM_ARGS, viewport=PHONE
    )
    page = context.pages[0] if context.pages else context.new_page()
    watch = Watch(page, server)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active !== null)")
    cdp = context.new_cdp_session(page)
    found = cdp.send("Page.getAppManifest")
    assert found["url"].startswith(server + "/app.") and found["errors"] == [], found["errors"]
    assert json.loads(found["data"])["display"] == "standalone"
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    assert watch.errors == [] and watch.violations == [] and watch.failed == []
    context.close()


def test_a_visit_with_no_network_keeps_the_unfinished_play(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    game = server + "/?game=lab-riches&fast=1"
    page.goto(game)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
    expect(page.locator("#log")).to_contain_text("Balance £", timeout=30_000)
    page.get_by_role("button", name="PLAY", exact=True).click()  # bought, not yet played
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=60_000)
    kept = page.evaluate("localStorage.getItem('lottery.progress.lab-riches')")
    number = json.loads(kept)["play_number"]

    context.set_offline(True)
    page.goto(game)
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    expect(page.locator("#kept")).to_contain_text(f"Your unfinished play (Play Number {number})")
    screenshot(page, "offline")
    # Nothing on the offline page changes what the device keeps.
    assert page.evaluate("localStorage.getItem('lottery.progress.lab-riches')") == kept

    context.set_offline(False)  # the page goes back to the game by itself, and the play resumes
    expect(page.locator("#stage")).to_be_attached(timeout=20_000)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.locator("#log")).to_contain_text(f"You have an unfinished play, number {number}")
    page.get_by_role("button", name="RESUME", exact=True).click()
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=60_000)
    resumed = json.loads(page.evaluate("localStorage.getItem('lottery.progress.lab-riches')"))
    assert resumed["play_number"] == number
    context.close()


def test_a_returning_visit_reads_the_release_s_files_without_the_service_worker_s_script(
    browser: Browser, server: str
) -> None:
    """The release's files come straight from its cache (the Static Routing API), without a
    fetch event in the service worker; a file missing from the cache comes from the network,
    and what is not the release's goes to the fetch handler."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
    config = page.evaluate("() => window.lottery.config")
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    sources: list[tuple[str, str | None]] = []

    def received(event: dict) -> None:
        route = event["response"].get("serviceWorkerRouterInfo", {})
        sources.append((urlsplit(event["response"]["url"]).path, route.get("actualSourceType")))

    cdp.on("Network.responseReceived", received)

    def fetched(path: str) -> tuple[str, str | None]:
        sources.clear()
        assert page.evaluate("(path) => fetch(path).then((r) => r.status)", path) in (200, 404)
        deadline = time.monotonic() + 10
        while not sources and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert len(sources) == 1, sources
        return sources[0]

    for path in (config["worker"], config["pyodide"]["mjs"], "/offline.css"):
        assert fetched(path) == (path, "cache")
    assert fetched("/not-in-the-release.txt") == ("/not-in-the-release.txt", None)
    page.evaluate(
        "(path) => caches.keys().then((names) => Promise.all(names.map((name) =>"
        " caches.open(name).then((cache) => cache.delete(path)))))",
        "/offline.css",
    )
    assert fetched("/offline.css") == ("/offline.css", "network")
    context.close()
