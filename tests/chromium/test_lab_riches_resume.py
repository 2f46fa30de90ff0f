"""Lab Riches in the browser when things go wrong: a reload mid-play, a lost answer, a forgery."""

from __future__ import annotations

import base64
import json
import re

from playwright.sync_api import Browser, Page, Route, expect

from engine import games
from tests.chromium.conftest import screenshot
from tests.chromium.test_lab_riches import PRICE, api, choose, pence_of, play_through, start


def test_reload_in_the_middle_resumes_the_same_play(browser: Browser, server: str) -> None:
    page = start(browser, server, "desktop")
    before = api(page, server, "GET", "/api/wallet")["balance_pence"]
    choose(page, server, [{"feature": "row", "pence": 300}])
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=60_000)
    play_through(page, stop_after=2)
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=30_000)
    first_log = page.locator("#log").inner_text()
    goes = re.findall(r"Go (\d+):", first_log)
    saved = page.evaluate("JSON.parse(localStorage.getItem('lottery.progress.lab-riches'))")
    assert saved["index"] > 0 and saved["choices"] == []  # Lab Riches asks for no choice
    # Another game's unfinished play is kept under its own key: this one's finish leaves it.
    mine, elsewhere = "lab-riches", next(g for g in games.ids() if g != "lab-riches")
    other = {"play_number": 7, "token": "x", "index": 3, "choices": [2]}
    page.evaluate(
        "(p) => localStorage.setItem('lottery.progress.' + p[0], p[1])",
        [elsewhere, json.dumps(other)],
    )
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    resume = page.get_by_role("button", name="RESUME", exact=True)
    expect(resume).to_be_visible(timeout=30_000)
    screenshot(page, "lab-riches-desktop-resume-offer")
    resume.click()
    expect(page.locator("#log")).to_contain_text(f"at go {goes[-1]}")
    play_through(page)
    narrated = pence_of(page.locator("#log").inner_text())
    page.get_by_role("button", name="FINISH", exact=True).click()
    expect(page.get_by_role("button", name="PLAY AGAIN", exact=True)).to_be_visible(timeout=30_000)
    after = api(page, server, "GET", "/api/wallet")["balance_pence"]
    assert narrated == 300
    assert after - before == 300 - PRICE
    assert api(page, server, "GET", "/api/plays?status=unfinished")["plays"] == []
    stored = page.evaluate(
        "(games) => games.map((g) => localStorage['lottery.progress.' + g])", [mine, elsewhere]
    )
    assert stored[0] is None and json.loads(stored[1]) == other
    page.context.close()


def test_a_lost_answer_is_retried_and_charged_once(browser: Browser, server: str) -> None:
    page = start(browser, server, "phone")
    before = api(page, server, "GET", "/api/wallet")["balance_pence"]
    choose(page, server, [])
    lost = {"count": 0}

    def drop_first_answer(route: Route) -> None:
        if route.request.method == "POST" and lost["count"] == 0:
            lost["count"] += 1
            route.fetch()  # the purchase reaches the server and is charged ...
            route.abort("connectionreset")  # ... but its answer never arrives
        else:
            route.continue_()

    page.route("**/api/plays", drop_first_answer)
    page.get_by_role("button", name="PLAY", exact=True).click()
    retry = page.get_by_role("button", name="TRY AGAIN", exact=True)
    expect(retry).to_be_visible(timeout=30_000)
    expect(page.locator("#log")).to_contain_text("connection failed")
    screenshot(page, "lab-riches-phone-network-failure")
    retry.click()
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=60_000)
    plays = api(page, server, "GET", "/api/plays")["plays"]
    assert len(plays) == 1
    assert api(page, server, "GET", "/api/wallet")["balance_pence"] == before - PRICE
    page.context.close()


def _forged(token: str) -> str:
    head, body, signature = token.split(".")
    payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    payload["prize_pence"] = 25_000_000
    payload["composition"] = [{"feature": "meter", "pence": 25_000_000}]
    raw = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    return f"{head}.{base64.urlsafe_b64encode(raw).decode().rstrip('=')}.{signature}"


def forge_purchases(page: Page) -> None:
    """Every purchase's answer reaches the page with its token's signature forged."""

    def tamper(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        response = route.fetch()
        body = response.json()
        body["token"] = _forged(body["token"])
        route.fulfill(response=response, json=body)

    page.route("**/api/plays", tamper)


def test_a_tampered_token_is_refused_on_screen(browser: Browser, server: str) -> None:
    page = start(browser, server, "desktop")
    choose(page, server, [])
    forge_purchases(page)
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(page.locator("#log")).to_contain_text("could not be verified", timeout=30_000)
    expect(page.get_by_role("button", name="GO", exact=True)).to_have_count(0)
    screenshot(page, "lab-riches-desktop-tampered")
    page.context.close()
