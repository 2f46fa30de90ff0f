"""Limits in the browser, with the operator's requirement on (LOTTERY_LIMITS_REQUIRED, the
default): a new player's PLAY is refused and the page leads to Limits, where the amounts are
typed (a real decimal field, a plain message for what cannot be a limit), and then the play
is bought. Desktop and phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.chromium.conftest import open_game, screenshot
from tests.chromium.test_lab_riches import PRICE, VIEWPORTS, api
from tests.chromium.test_lobby import lobby
from tools.build.localserver import local_server


@pytest.fixture(scope="module")
def required(dist_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The dev server with limits required before paid play (as deployed by default)."""
    with local_server(dist_dir, tmp_path_factory.mktemp("var-limits"), limits_required=True) as url:
        yield url


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_a_new_player_is_led_to_limits_types_them_and_then_buys(
    browser: Browser, required: str, view: str
) -> None:
    page, watch = open_game(
        browser, required, viewport=VIEWPORTS[view], query="?game=lab-riches&fast=1"
    )
    log = page.locator("#log")
    expect(log).to_contain_text("Balance £50.00", timeout=30_000)
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(log).to_contain_text("Choose your limits. Before a paid play, choose a daily and a")
    screenshot(page, f"limits-required-{view}")
    assert api(page, required, "GET", "/api/wallet")["balance_pence"] == 5_000  # not charged

    page.get_by_role("button", name="Go to my spend limits", exact=True).click()
    page.wait_for_url("**/?page=limits*", timeout=30_000)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(log).to_contain_text("Weekly limit: none", timeout=30_000)
    daily = page.get_by_role("textbox", name="Daily limit in pounds", exact=True)
    assert daily.get_attribute("inputmode") == "decimal"  # a phone shows its number keys
    daily.fill("twenty")
    page.get_by_role("button", name="Set the daily limit", exact=True).click()
    expect(log).to_contain_text("Daily limit not set: Type an amount in pounds, like 20 or 12.50.")
    daily.fill("20")
    page.get_by_role("button", name="Set the daily limit", exact=True).click()
    expect(log).to_contain_text("Daily limit: £20.00")
    weekly = page.get_by_role("textbox", name="Weekly limit in pounds", exact=True)
    weekly.fill("50.50")
    weekly.press("Enter")  # Enter in the field sets it too
    expect(log).to_contain_text("Weekly limit: £50.50")
    screenshot(page, f"limits-typed-{view}")
    limits = api(page, required, "GET", "/api/limits")
    assert limits["daily"]["limit_pence"] == 2_000 and limits["weekly"]["limit_pence"] == 5_050

    page.get_by_role("button", name="Back to the games", exact=True).click()
    page.get_by_role("button", name="PLAY Lab Riches", exact=True).click()
    page.wait_for_url("**/?game=lab-riches*", timeout=30_000)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(log).to_contain_text("Balance £", timeout=30_000)
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=60_000)
    assert api(page, required, "GET", "/api/wallet")["balance_pence"] == 5_000 - PRICE
    assert not watch.violations
    page.context.close()


def test_limits_are_set_from_the_lobby_and_a_purchase_over_one_is_refused(
    browser: Browser, server: str
) -> None:
    page, watch = lobby(browser, server, "desktop")
    page.get_by_role("button", name="Limits", exact=True).click()
    log = page.locator("#log")
    expect(log).to_contain_text("Daily limit: none.", timeout=30_000)
    daily = page.get_by_role("textbox", name="Daily limit in pounds", exact=True)
    daily.fill("50")
    page.get_by_role("button", name="Set the daily limit", exact=True).click()
    expect(log).to_contain_text("Daily limit: £50.00. Spent £0.00, £50.00 left until")
    # Raising waits 24 hours: the limit stays, the change is shown waiting.
    daily.fill("55")
    page.get_by_role("button", name="Set the daily limit", exact=True).click()
    expect(log).to_contain_text("Changing to £55.00 on")
    # Lowered to £2 (at once), a £3 play is refused and nothing is charged.
    answer = page.request.put(server + "/api/limits", data={"daily_pence": 200})
    assert answer.ok, answer.text()
    before = api(page, server, "GET", "/api/wallet")["balance_pence"]
    page.get_by_role("button", name="Back to the games", exact=True).click()
    page.get_by_role("button", name="PLAY Lab Riches", exact=True).click()
    page.wait_for_url("**/?game=lab-riches&fast=1", timeout=30_000)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.locator("#log")).to_contain_text("Balance £", timeout=30_000)
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(page.locator("#log")).to_contain_text(
        "Daily limit reached. You have £2.00 left to spend today.", timeout=30_000
    )
    assert api(page, server, "GET", "/api/wallet")["balance_pence"] == before
    assert [e for e in watch.errors if "403" not in e] == []  # the refusal itself is a 403
    page.context.close()


def test_a_swipe_that_starts_on_a_button_scrolls_limits_held_sideways_and_presses_nothing(
    browser: Browser, required: str
) -> None:
    context = browser.new_context(viewport={"width": 844, "height": 390}, has_touch=True)
    page = context.new_page()
    page.goto(required + "/?page=limits&layout=1")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    log = page.locator("#log")
    expect(log).to_contain_text("Weekly limit: none", timeout=30_000)
    page.wait_for_function("() => window.lottery.layout && !window.lottery.layout.changing")
    top, bottom, offset, content = page.evaluate("() => window.lottery.layout.scroll")
    assert offset == 0 and content > bottom - top  # Limits held sideways scrolls
    box = page.get_by_role("button", name="Set the daily limit", exact=True).bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = context.new_cdp_session(page)  # a finger on the button drags the page up by 80 px
    for kind, dy in (("touchStart", 0), ("touchMove", -40), ("touchMove", -80), ("touchEnd", 0)):
        points = [] if kind == "touchEnd" else [{"x": x, "y": y + dy}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
    page.wait_for_timeout(300)
    scrolled = page.evaluate("() => window.lottery.layout.scroll[2]")
    assert abs(scrolled - min(80.0, content - (bottom - top))) <= 1
    assert "Daily limit not set" not in log.inner_text()  # the swipe pressed nothing
    context.close()
