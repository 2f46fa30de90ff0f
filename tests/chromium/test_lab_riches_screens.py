"""Lab Riches screens in the browser: How To Play, Rules and Prizes, keys, targets, screenshots."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.chromium.conftest import screenshot
from tests.chromium.test_lab_riches import GO_TAKEN, VIEWPORTS, choose, start


def targets_fit(page: Page, view: str) -> None:
    """Every mirrored control is at least 44 px each way and wholly on screen."""
    width, height = VIEWPORTS[view]["width"], VIEWPORTS[view]["height"]
    for box in page.locator("#mirror button").evaluate_all(
        "bs => bs.map(b => { const r = b.getBoundingClientRect();"
        " return [b.textContent, r.x, r.y, r.width, r.height]; })"
    ):
        _name, x, y, w, h = box
        assert w >= 44 and h >= 44, box
        assert x >= 0 and y >= 0 and x + w <= width + 0.5 and y + h <= height + 0.5, box


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_how_to_play_and_rules_pages(browser: Browser, server: str, view: str) -> None:
    page = start(browser, server, view)
    targets_fit(page, view)
    page.get_by_role("button", name="HOW TO PLAY", exact=True).click()
    log = page.locator("#log")
    expect(log).to_contain_text("How to play, page 1 of 5. MAIN GAME. TAP GO TO REVEAL 4 SYMBOLS")
    for number in range(1, 6):
        expect(log).to_contain_text(f"page {number} of 5")
        targets_fit(page, view)
        screenshot(page, f"lab-riches-{view}-how-to-play-{number}")
        if number < 5:
            page.get_by_role("button", name="Next", exact=True).click()
    expect(log).to_contain_text("LAND ON A cash symbol TO WIN AN INSTANT PRIZE.")
    expect(page.get_by_role("button", name="Next", exact=True)).to_have_count(0)
    page.get_by_role("button", name="Close", exact=True).click()
    page.get_by_role("button", name="Rules and Prizes", exact=True).click()
    expect(log).to_contain_text("Nothing you do while playing changes it")
    screenshot(page, f"lab-riches-{view}-rules")
    page.get_by_role("button", name="Next", exact=True).click()
    expect(log).to_contain_text("£250,000 1 in 2,000,000.00")
    expect(log).to_contain_text(
        "Overall odds of winning: 1 in 2.74. Expected prize payout: 71.00%."
    )
    targets_fit(page, view)
    screenshot(page, f"lab-riches-{view}-prizes")
    page.get_by_role("button", name="Close", exact=True).click()
    expect(page.get_by_role("button", name="PLAY", exact=True)).to_be_visible()
    page.context.close()


def test_keys_play_the_game(browser: Browser, server: str) -> None:
    page = start(browser, server, "desktop")
    choose(page, server, [])
    page.get_by_role("button", name="PLAY", exact=True).focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=60_000)
    targets_fit(page, "desktop")
    page.locator("body").focus()
    page.keyboard.press("Space")
    page.wait_for_function(GO_TAKEN, timeout=10_000)
    expect(page.locator("#log")).to_contain_text("Go 1: 5 goes left.")
    page.keyboard.press("Tab")
    focused = page.evaluate("() => document.activeElement && document.activeElement.textContent")
    assert focused in (
        "GO",
        "REVEAL ALL",
        "HOW TO PLAY",
        "Rules and Prizes",
        "Faster animations: on",
    )
    page.context.close()
