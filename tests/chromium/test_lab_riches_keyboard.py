"""Lab Riches by keyboard alone (Tab, Enter, Space): the mirror's focus and order, the heading.

The mirror lists its buttons in the order the frame gives the controls; a new screen takes the
focus to its first control; a pressed control that turns off during its animation keeps the
focus (aria-disabled="true", not `disabled`), so the focus is never dropped to <body>.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import Browser, Page, expect

from tests.chromium.test_lab_riches import GO_TAKEN, MIRROR, choose, start

# Records, from the first Tab on, every animation frame and every focus change that leaves
# the focus on <body> (or nowhere).
FOCUS_WATCH = """() => {
  window.lotteryLostFocus = [];
  const lost = () => !document.activeElement || document.activeElement === document.body;
  const frame = () => {
    if (lost()) window.lotteryLostFocus.push("frame " + performance.now());
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  // (A focusout with a relatedTarget is the focus moving on, as Tab does.)
  document.addEventListener("focusout", (e) => e.relatedTarget || queueMicrotask(() => {
    if (lost()) window.lotteryLostFocus.push("focusout from " + e.target.textContent);
  }), true);
}"""
FOCUSED = "() => document.activeElement && document.activeElement.getAttribute('aria-label')"
GO_ON_OR_FINISH = (
    "() => [...document.querySelectorAll('#mirror button')].some((b) => b.textContent === 'FINISH'"
    " || (b.textContent === 'GO' && b.getAttribute('aria-disabled') !== 'true'))"
)


def focused(page: Page, name: str) -> None:
    """The focused element is the button whose accessible name is `name`."""
    expect(page.get_by_role("button", name=name, exact=True)).to_be_focused(timeout=60_000)


def heading(page: Page, text: str) -> None:
    """The one level-1 heading a screen reader finds names the screen."""
    headings = page.get_by_role("heading", level=1)
    expect(headings).to_have_count(1)
    expect(headings).to_have_text(text)


def lost_focus(page: Page) -> list[str]:
    found: list[str] = page.evaluate("window.lotteryLostFocus")
    return found


def test_a_whole_play_by_keyboard(browser: Browser, server: str) -> None:
    page = start(browser, server, "desktop")
    choose(page, server, [])
    heading(page, "Lab Riches")
    assert page.evaluate("document.activeElement === document.body")

    # From the splash: the first Tab reaches PLAY, the first control.
    page.keyboard.press("Tab")
    page.evaluate(FOCUS_WATCH)
    focused(page, "PLAY")
    expect(page.get_by_role("button", name="PLAY", exact=True)).to_be_enabled()
    page.keyboard.press("Enter")

    # The Main Game: the focus moves to GO; Tab follows the game's order of its controls.
    focused(page, "GO")
    heading(page, "Lab Riches: Main Game")
    order = [
        "GO",
        "REVEAL ALL",
        "HOW TO PLAY",
        "Rules and Prizes",
        "Faster animations: on",
        "Sound: off",
    ]
    assert [label for label, _on in page.evaluate(MIRROR)] == order
    for name in order[1:]:
        page.keyboard.press("Tab")
        focused(page, name)
    for name in reversed(order[:-1]):
        page.keyboard.press("Shift+Tab")
        focused(page, name)

    # GO until FINISH, by Enter and Space in turn; GO keeps the focus while it is off.
    presses = 0
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        page.wait_for_function(GO_ON_OR_FINISH, timeout=30_000)
        if page.get_by_role("button", name="FINISH", exact=True).count():
            break
        focused(page, "GO")
        page.keyboard.press("Enter" if presses % 2 == 0 else "Space")
        presses += 1
        page.wait_for_function(GO_TAKEN, timeout=10_000)
        assert page.evaluate(FOCUSED) in ("GO", "FINISH")
    else:
        raise AssertionError("the play did not reach FINISH in time")
    expect(page.locator("#log")).to_contain_text("Go 6:")  # (a Bonus Game takes a GO too)

    # FINISH takes the focus, then PLAY AGAIN on the outcome screen.
    focused(page, "FINISH")
    expect(page.get_by_role("button", name="FINISH", exact=True)).to_be_enabled()
    page.keyboard.press("Space")
    focused(page, "PLAY AGAIN")
    heading(page, "Lab Riches: Play finished")
    log = page.locator("#log")
    expect(log).to_contain_text("Total won £0.00")
    expect(log).to_contain_text(re.compile(r"Play number \d+ finished"))
    assert lost_focus(page) == []
    page.context.close()


def test_how_to_play_by_keyboard(browser: Browser, server: str) -> None:
    page = start(browser, server, "phone")
    page.keyboard.press("Tab")
    page.evaluate(FOCUS_WATCH)
    focused(page, "PLAY")
    page.keyboard.press("Tab")
    focused(page, "HOW TO PLAY")
    page.keyboard.press("Enter")
    heading(page, "Lab Riches: How to Play")
    focused(page, "Next")
    log = page.locator("#log")
    for number in range(2, 6):
        page.keyboard.press("Enter")  # a page turn keeps the focus on Next ...
        expect(log).to_contain_text(f"How to play, page {number} of 5")
        if number < 5:
            focused(page, "Next")
    focused(page, "Back")  # ... until the last page, which has none: the first control
    page.keyboard.press("Tab")
    focused(page, "Close")
    page.keyboard.press("Enter")
    heading(page, "Lab Riches")
    focused(page, "PLAY")
    assert lost_focus(page) == []
    page.context.close()
