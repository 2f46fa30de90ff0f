"""What a page asks for as it starts, before Python has booted (docs/build.md, "Loading in the
browser"): the session and a game's unfinished play are asked once, Python takes those answers
(errors word for word), a retry asks afresh, and the interpreter snapshot, taken once the page
is playable, restores a game that plays."""

from __future__ import annotations

import json

from playwright.sync_api import Browser, Page, Request, Route, expect

from tests.chromium.conftest import Watch
from tests.chromium.test_lab_riches import DESKTOP

GAME = "/?game=lab-riches&fast=1"


def api_calls(page: Page) -> list[str]:
    """The page's requests to the endpoint from now on, as 'METHOD path?query'."""
    calls: list[str] = []

    def seen(request: Request) -> None:
        if "/api/" in request.url:
            calls.append(f"{request.method} /api/{request.url.split('/api/', 1)[1]}")

    page.on("request", seen)
    return calls


def playable(page: Page) -> None:
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.get_by_role("button", name="PLAY", exact=True)).to_be_enabled(timeout=30_000)


def test_a_returning_visit_asks_the_wallet_and_the_unfinished_play_once(
    browser: Browser, server: str
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page, server)
    calls = api_calls(page)
    page.goto(server + GAME)
    playable(page)
    # A first visit: the session is started (no wallet asked, so no 401), then the look for
    # an unfinished play, each once.
    assert calls.count("POST /api/session") == 1 and "GET /api/wallet" not in calls, calls
    assert calls.count("GET /api/plays?status=unfinished") == 1, calls
    expect(page.locator("#log")).to_contain_text("Balance £")
    page.wait_for_function("() => window.lottery.stats.snapshot === 'saved'", timeout=30_000)
    page.close()

    # Back: the interpreter snapshot (taken once the first visit was playable) restores, the
    # wallet and the unfinished play are each asked once, and the game plays.
    page = context.new_page()
    again = Watch(page, server)
    calls = api_calls(page)
    page.goto(server + GAME)
    playable(page)
    assert page.evaluate("() => window.lottery.stats.boot") == "snapshot"
    assert calls.count("GET /api/wallet") == 1 and "POST /api/session" not in calls, calls
    assert calls.count("GET /api/plays?status=unfinished") == 1, calls
    expect(page.locator("#log")).to_contain_text("Balance £")
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_visible(timeout=60_000)
    assert watch.errors == [] and again.errors == []
    context.close()


def test_a_wallet_that_fails_at_the_start_is_said_and_asked_again_on_retry(
    browser: Browser, server: str
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(server + GAME)
    playable(page)  # a session of this browser
    page.close()

    page = context.new_page()
    calls = api_calls(page)
    failing = {"on": True}

    def unavailable(route: Route) -> None:
        if not failing["on"]:
            route.continue_()
            return
        body = {"error": {"code": "unavailable", "message": "The wallet is resting."}}
        route.fulfill(status=503, content_type="application/json", body=json.dumps(body))

    page.route("**/api/wallet", unavailable)
    page.goto(server + GAME)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    # The answer asked as the page started reaches Python as it would have: its message, and
    # TRY AGAIN; no look for an unfinished play under a session that did not open.
    expect(page.locator("#log")).to_contain_text("The wallet is resting.")
    retry = page.get_by_role("button", name="TRY AGAIN", exact=True)
    expect(retry).to_be_enabled(timeout=30_000)
    assert "GET /api/plays?status=unfinished" not in calls, calls
    failing["on"] = False
    retry.click()
    playable(page)
    expect(page.locator("#log")).to_contain_text("Balance £")
    assert calls.count("GET /api/wallet") == 2, calls  # the retry asked again
    assert calls.count("GET /api/plays?status=unfinished") == 1, calls
    context.close()


def test_the_system_check_opens_no_session(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    calls = api_calls(page)
    page.goto(server + "/?scene=check")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.get_by_role("button", name="TAP")).to_be_visible()
    page.wait_for_function("() => window.lottery.stats.snapshot === 'saved'", timeout=30_000)
    assert calls == []
    context.close()
