"""£500K Power Puck Shot by keyboard alone, and axe-core on every screen of a play.

A whole play by Tab, Enter, the digits 1–6 and Left/Right then Space: the focus moves to each
new screen's first control (on the Main Game, the arrow ringed in gold), the arrows keep it
while they are off (aria-disabled), it follows the ring Left/Right move and the arrow a digit
shot, so Space shoots the ringed arrow (it shot the focused one, issue 29), it is never dropped
to <body>, and the one heading names the screen. axe (pinned in package.json)
finds no violation on the splash, the seven How To Play pages, both Rules and Prizes pages,
the Main Game before and during a play, the Bonus Game, the end message and the outcome.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.chromium.conftest import open_game
from tests.chromium.test_accessibility import rooms, violations
from tests.chromium.test_lab_riches import MIRROR, VIEWPORTS, choose
from tests.chromium.test_lab_riches_keyboard import (
    FOCUS_WATCH,
    FOCUSED,
    focused,
    heading,
    lost_focus,
)
from tests.chromium.test_power_puck_shot import (
    ARROW_TAKEN,
    AT_REST,
    CASES,
    GAME,
    shoot_until,
    start,
)

NAME = "£500K Power Puck Shot"
ARROWS = ["Shoot steep left", "Shoot left", "Shoot slightly left", "Shoot slightly right",
          "Shoot right", "Shoot steep right"]  # fmt: skip


def settled(page: Page) -> None:
    """Wait for the frames that answer the last key: a Tab onto an arrow rings it in the game,
    and a frame still ringing the arrow before it pulls the focus back (web/shell/js/controls.js,
    `moved`), so a key pressed within a frame of the last can land from there."""
    frames = page.evaluate("window.lottery.stats.frames")
    after = "(n) => window.lottery.stats.frames >= n"
    page.wait_for_function(after, arg=frames + 3, timeout=10_000)


def test_a_whole_play_by_keyboard(browser: Browser, server: str) -> None:
    page = start(browser, server, "desktop")
    choose(page, server, CASES["power-puck"], GAME)  # a Bonus Game and a Power Puck
    heading(page, NAME)
    expect(page).to_have_title(NAME)  # from the page's config, before Python draws
    page.keyboard.press("Tab")
    page.evaluate(FOCUS_WATCH)
    focused(page, "PLAY")
    page.keyboard.press("Enter")

    # The Main Game: the focus moves to the ringed arrow; Tab follows the game's order.
    focused(page, ARROWS[2])
    heading(page, f"{NAME}: Main Game")
    order = [*ARROWS, "HOW TO PLAY", "Rules and Prizes", "Faster animations: on", "Sound: off"]
    assert [label for label, _on in page.evaluate(MIRROR)] == order
    for name in order[3:5]:
        page.keyboard.press("Tab")
        focused(page, name)
        settled(page)
    page.keyboard.press("Shift+Tab")
    focused(page, order[3])
    settled(page)
    page.keyboard.press("Shift+Tab")
    focused(page, ARROWS[2])

    # Every shot by a key: the digits 1-6 in turn, and every third one by Right then Space.
    log = page.locator("#log")
    shots = 0
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        page.wait_for_function(AT_REST, timeout=30_000)
        if page.get_by_role("button", name="FINISH", exact=True).count():
            break
        assert page.evaluate(FOCUSED) in ARROWS  # an arrow kept the focus while it was off
        if shots % 3 == 2:  # the last digit shot arrow (shots - 1) % 6: the ring moves right
            ringed = min(len(ARROWS) - 1, (shots - 1) % 6 + 1)
            page.keyboard.press("ArrowRight")
            expect(log).to_contain_text(re.compile(r"Arrow \d: "))
            focused(page, ARROWS[ringed])  # the browser's focus is on the ringed arrow
            page.keyboard.press("Space")
            name = ARROWS[ringed][len("Shoot ") :]
        else:
            page.keyboard.press(str(shots % 6 + 1))
            name = ARROWS[shots % 6][len("Shoot ") :]
        shots += 1
        page.wait_for_function(ARROW_TAKEN, timeout=10_000)
        said = log.locator("p").filter(has_text=re.compile(r"shot, "))
        expect(said.last).to_contain_text(f"shot, {name}.")  # the arrow the key meant
    else:
        raise AssertionError("the play did not reach FINISH in time")
    expect(log).to_contain_text("BONUS GAME!")
    expect(log).to_contain_text("POWER PUCK ALL SYMBOLS X2")

    # FINISH takes the focus, then PLAY AGAIN on the outcome screen.
    focused(page, "FINISH")
    expect(page.get_by_role("button", name="FINISH", exact=True)).to_be_enabled()
    page.keyboard.press("Enter")
    focused(page, "PLAY AGAIN")
    heading(page, f"{NAME}: Play finished")
    expect(log).to_contain_text("Total won £6.00")
    assert lost_focus(page) == []
    page.context.close()


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_every_screen_has_no_axe_violation(browser: Browser, server: str, view: str) -> None:
    page, _watch = open_game(browser, server, viewport=VIEWPORTS[view], query=f"?game={GAME}")
    log = page.locator("#log")
    expect(log).to_contain_text("Balance £")
    found: dict[str, list[str]] = {}
    rooms(page, 7, found, odds=": 1 in 2.55")
    choose(page, server, CASES["power-puck"], GAME)
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(page.get_by_role("button", name=ARROWS[0], exact=True)).to_be_enabled(timeout=60_000)
    violations(page, "main game", found)
    page.get_by_role("button", name=ARROWS[2], exact=True).click()
    page.wait_for_function(ARROW_TAKEN, timeout=10_000)
    violations(page, "main game, a shot", found)
    shoot_until(page, "BONUS GAME!")
    page.wait_for_function(AT_REST, timeout=30_000)
    violations(page, "bonus game", found)
    shoot_until(page)
    violations(page, "end message", found)
    page.get_by_role("button", name="FINISH", exact=True).click()
    expect(page.get_by_role("button", name="PLAY AGAIN", exact=True)).to_be_visible(timeout=30_000)
    violations(page, "outcome", found)
    page.context.close()
    assert found == {}
