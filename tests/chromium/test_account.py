"""The player's account from the lobby: an unfinished play resumed on another device signed
in with a code, and logging out, which ends the session (the lobby then starts a new one)."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, expect

from tests.chromium.test_lab_riches import api, choose
from tests.chromium.test_lobby import lobby

NAME = "£500K Power Puck Shot"


def test_an_unfinished_play_resumes_on_another_device_signed_in_with_a_code(
    browser: Browser, server: str
) -> None:
    from tests.chromium.test_power_puck_shot import AT_REST, CASES, GAME, progress, shoot_until

    first, first_watch = lobby(browser, server, "desktop")
    choose(first, server, CASES["power-puck"], GAME)
    first.get_by_role("button", name=f"PLAY {NAME}", exact=True).click()
    first.wait_for_url(f"**/?game={GAME}&fast=1", timeout=30_000)
    first.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(first.locator("#log")).to_contain_text("Balance £", timeout=30_000)
    first.get_by_role("button", name="PLAY", exact=True).click()
    made = shoot_until(first, "BONUS GAME!")
    first.wait_for_function(AT_REST, timeout=30_000)
    kept = progress(first)
    number = int(kept["play_number"])
    # The endpoint keeps it too (the shell sends it at each rest).
    deadline = time.monotonic() + 20
    while api(first, server, "GET", f"/api/plays/{number}")["progress"]["event"] != kept["index"]:
        assert time.monotonic() < deadline, "the endpoint never got the play's progress"
        time.sleep(0.2)
    # A code from this device's Account page...
    first.goto(server + "/?fast=1")
    first.wait_for_selector("body[data-ready='1']", timeout=60_000)
    first.get_by_role("button", name="Account", exact=True).click()
    first.get_by_role("button", name="Get a sign-in code", exact=True).click()
    log = first.locator("#log")
    expect(log).to_contain_text("Your sign-in code is ", timeout=30_000)
    code = re.findall(r"Your sign-in code is ([A-Z0-9]{4}-[A-Z0-9]{4})", log.inner_text())[-1]

    # ... signs a second device (another browser context: no cookie, no storage) in.
    second, second_watch = lobby(browser, server, "phone")
    second.get_by_role("button", name="Account", exact=True).click()
    second.once("dialog", lambda dialog: dialog.accept(code))
    second.get_by_role("button", name="Use a sign-in code", exact=True).click()
    expect(second.locator("#log")).to_contain_text("Signed in to your account", timeout=30_000)
    # Nothing was spent on this device: the reality check's net spend stays 0 across the
    # switch to an account with another balance (the session's start moved with it).
    began = second.evaluate("() => JSON.parse(sessionStorage.getItem('lottery.session-began'))")
    assert began["balance_pence"] == api(second, server, "GET", "/api/wallet")["balance_pence"]
    second.get_by_role("button", name="Back to the games", exact=True).click()
    second.get_by_role("button", name="My Games", exact=True).click()
    second.get_by_role("button", name=f"RESUME play {number}", exact=True).click(timeout=30_000)
    second.wait_for_url(f"**/?game={GAME}&fast=1", timeout=30_000)
    second.wait_for_selector("body[data-ready='1']", timeout=60_000)
    second.get_by_role("button", name="RESUME", exact=True).click(timeout=30_000)
    expect(second.locator("#log")).to_contain_text(f"Resumed play number {number}")
    second.wait_for_function(AT_REST, timeout=30_000)
    here = progress(second)
    assert here["index"] == kept["index"] and len(kept["choices"]) == made > 0
    arrows = list(kept["choices"])  # one ordered list, on this device as on the wire
    assert api(second, server, "GET", f"/api/plays/{number}")["progress"]["choices"] == arrows
    shoot_until(second)
    second.get_by_role("button", name="FINISH", exact=True).click()
    expect(second.get_by_role("button", name="ALL GAMES", exact=True)).to_be_visible(timeout=30_000)
    recalled = api(second, server, "GET", f"/api/plays/{number}/recall")
    assert recalled["choices"][: len(arrows)] == arrows  # the first device's arrows, kept
    assert first_watch.errors == [] and second_watch.errors == []
    first.context.close()
    second.context.close()


@pytest.mark.parametrize(
    ("view", "button"), [("desktop", "Log out"), ("phone", "Log out every device")]
)
def test_logging_out_ends_the_session_and_the_lobby_starts_a_new_one(
    browser: Browser, server: str, view: str, button: str
) -> None:
    page, watch = lobby(browser, server, view)
    me = api(page, server, "POST", "/api/account/code")["code"]  # the account, to find again

    def cookie() -> str:
        found = [c["value"] for c in page.context.cookies() if c["name"] == "lottery_session"]
        return found[0] if found else ""

    old = cookie()
    page.get_by_role("button", name="Account", exact=True).click()
    page.get_by_role("button", name=button, exact=True).click()
    deadline = time.monotonic() + 60
    while cookie() in ("", old):  # the lobby opened afresh, with a new guest session
        assert time.monotonic() < deadline, "no new session after logging out"
        page.wait_for_timeout(200)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.locator("#log")).to_contain_text("Balance £", timeout=30_000)
    ended = page.request.get(server + "/api/wallet", headers={"Authorization": f"Bearer {old}"})
    assert ended.status == 401
    again = page.request.post(server + "/api/session", data={"code": me})  # every device: codes end
    assert again.status == (401 if button == "Log out every device" else 201)
    # The new page asks for the wallet with the ended cookie first: that 401 starts the session.
    assert [e for e in watch.errors if "401" not in e] == []
    page.context.close()
