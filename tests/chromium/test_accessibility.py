"""axe-core (pinned in package.json) finds no accessibility violation on any screen of a play:
the splash, every How to Play page, both Rules and Prizes pages, the Main Game before and
during a play, the end message, the outcome, on the phone and the desktop."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.chromium.conftest import open_game
from tests.chromium.test_lab_riches import VIEWPORTS, choose, play_through
from tools.build.sources import ROOT

AXE = (ROOT / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length} nodes: `
    + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ') + ')');
}"""


def violations(page: Page, screen: str, found: dict[str, list[str]]) -> None:
    """Run axe on the page as it is now; record what it finds under the screen's name."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(AXE)  # through DevTools: the page's CSP allows no injected script tag
    problems = page.evaluate(RUN)
    if problems:
        found[screen] = problems


def rooms(page: Page, pages: int, found: dict[str, list[str]], odds: str = "") -> None:
    """axe on the screens around a play, from the splash: the splash, each of the game's
    How To Play pages, both Rules and Prizes pages; back on the splash at the end."""
    log = page.locator("#log")
    violations(page, "splash", found)
    page.get_by_role("button", name="HOW TO PLAY", exact=True).click()
    for number in range(1, pages + 1):
        expect(log).to_contain_text(f"page {number} of {pages}")
        violations(page, f"how to play {number}", found)
        if number < pages:
            page.get_by_role("button", name="Next", exact=True).click()
    page.get_by_role("button", name="Close", exact=True).click()
    page.get_by_role("button", name="Rules and Prizes", exact=True).click()
    expect(log).to_contain_text("Nothing you do while playing changes it")
    violations(page, "rules", found)
    page.get_by_role("button", name="Next", exact=True).click()
    expect(log).to_contain_text(f"Overall odds of winning{odds}")
    violations(page, "prizes", found)
    page.get_by_role("button", name="Close", exact=True).click()


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_every_screen_has_no_axe_violation(browser: Browser, server: str, view: str) -> None:
    context = browser.new_context(viewport=VIEWPORTS[view])
    page = context.new_page()
    page.goto(server + "/?game=lab-riches&fast=1")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    log = page.locator("#log")
    expect(log).to_contain_text("Balance £")
    found: dict[str, list[str]] = {}
    rooms(page, 5, found)
    choose(page, server, [{"feature": "instant", "pence": 500}])  # a play with a Bonus Game
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=60_000)
    violations(page, "main game", found)
    play_through(page, stop_after=2)
    violations(page, "main game, playing", found)
    play_through(page)
    violations(page, "end message", found)
    page.get_by_role("button", name="FINISH", exact=True).click()
    expect(page.get_by_role("button", name="PLAY AGAIN", exact=True)).to_be_visible(timeout=30_000)
    violations(page, "outcome", found)
    context.close()
    assert found == {}


def test_the_reduced_motion_setting_is_followed_live(browser: Browser, server: str) -> None:
    """The system's reduced-motion preference reaches the game when it changes, not only at
    start-up (the shell listens to the media query's change event)."""
    page, watch = open_game(browser, server, viewport=VIEWPORTS["phone"])
    log = page.locator("#log")
    expect(log).to_contain_text("Balance £")
    page.emulate_media(reduced_motion="reduce")
    expect(log).to_contain_text("Reduced motion on")
    page.emulate_media(reduced_motion="no-preference")
    expect(log).to_contain_text("Reduced motion off")
    assert watch.errors == []
    page.context.close()
