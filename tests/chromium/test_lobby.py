"""The lobby at `/`: both games as cards; PLAY opens a game, its outcome screen comes back;
My Games lists the play with its prize; a game's Rules and Prizes open from its card. Both
viewports, through the mirror, with axe on the lobby's screens."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from engine.math.figures import show2
from tests.chromium.conftest import Watch
from tests.chromium.test_accessibility import violations
from tests.chromium.test_lab_riches import VIEWPORTS, api, choose, pence_of, play_through
from tools.build.localserver import local_server

ROOT = Path(__file__).resolve().parents[2]
NAME = "£500K Power Puck Shot"
GAME_LR = "lab-riches"


def lobby(browser: Browser, server: str, view: str) -> tuple[Page, Watch]:
    """A fresh player on the lobby, with the faster-animations setting (it travels to games)."""
    context = browser.new_context(viewport=VIEWPORTS[view])
    page = context.new_page()
    watch = Watch(page, server)
    page.goto(server + "/?fast=1")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.locator("#log")).to_contain_text("Balance £", timeout=30_000)
    return page, watch


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_the_lobby_opens_a_game_and_my_games_finds_the_play(
    browser: Browser, server: str, view: str
) -> None:
    from engine import games

    page, watch = lobby(browser, server, view)
    found: dict[str, list[str]] = {}
    log = page.locator("#log")
    expect(page).to_have_title("Instant Win Games")
    for game in games.GAMES:  # each card's figures, read from its prize table
        table = game.table
        expect(log).to_contain_text(
            f"{game.name}: £{game.price_pence // 100}.00 a play · WIN UP TO "
            f"£{game.top_prize_pence // 100:,}. Odds of winning 1 in {show2(table.odds_one_in)}"
            f" · Payout {show2(table.rtp * 100)}%."
        )
        for button in (
            f"PLAY {game.name}",
            f"TRY {game.name} for free",
            f"Rules and Prizes of {game.name}",
        ):
            expect(page.get_by_role("button", name=button, exact=True)).to_be_visible()
    violations(page, "lobby", found)

    # A game's Rules and Prizes, in its look, back to the lobby.
    page.get_by_role("button", name="Rules and Prizes of Lab Riches", exact=True).click()
    expect(log).to_contain_text("Nothing you do while playing changes it")
    violations(page, "lobby rules", found)
    page.get_by_role("button", name="Close", exact=True).click()
    expect(page.get_by_role("button", name="My Games", exact=True)).to_be_visible()

    # PLAY opens the game's page; its outcome screen comes back to the lobby.
    choose(page, server, [{"feature": "row", "pence": 500}])
    page.get_by_role("button", name="PLAY Lab Riches", exact=True).click()
    page.wait_for_url("**/?game=lab-riches&fast=1", timeout=30_000)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page).to_have_title("Lab Riches")
    expect(page.locator("#log")).to_contain_text("Balance £", timeout=30_000)
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=60_000)
    play_through(page)
    prize = pence_of(page.locator("#log").inner_text())
    assert prize == 500
    page.get_by_role("button", name="FINISH", exact=True).click()
    expect(page.get_by_role("button", name="ALL GAMES", exact=True)).to_be_visible(timeout=30_000)
    number = int(re.findall(r"Play number (\d+) finished", page.locator("#log").inner_text())[-1])
    page.get_by_role("button", name="ALL GAMES", exact=True).click()
    page.wait_for_url("**/?fast=1", timeout=30_000)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)

    # My Games: the play, with its prize, newest first.
    page.get_by_role("button", name="My Games", exact=True).click()
    log = page.locator("#log")
    expect(log).to_contain_text(f"Play {number}, Lab Riches,", timeout=30_000)
    row = next(line for line in log.inner_text().splitlines() if line.startswith(f"Play {number},"))
    assert "£3.00, won £5.00, finished." in row, row
    assert api(page, server, "GET", f"/api/plays/{number}")["prize_pence"] == 500
    violations(page, "my games", found)

    # REPLAY: the same book again, by itself, charging and paying nothing.
    before = api(page, server, "GET", "/api/wallet")["balance_pence"]
    page.get_by_role("button", name=f"REPLAY play {number}", exact=True).click()
    page.wait_for_url(f"**/?game=lab-riches&replay={number}&fast=1", timeout=30_000)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    log = page.locator("#log")
    expect(log).to_contain_text(f"Replay of play number {number}.", timeout=30_000)
    expect(page.locator("#screen-title")).to_contain_text("(REPLAY)")
    expect(page.get_by_role("button", name="Pause", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="GO", exact=True)).to_have_count(0)
    expect(page.get_by_role("button", name="ALL GAMES", exact=True)).to_be_visible(timeout=120_000)
    assert pence_of(log.inner_text()) == prize  # the same narration, the same total
    violations(page, "replay", found)
    assert api(page, server, "GET", "/api/wallet")["balance_pence"] == before
    page.get_by_role("button", name="ALL GAMES", exact=True).click()
    page.wait_for_url("**/?fast=1", timeout=30_000)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.get_by_role("button", name="My Games", exact=True)).to_be_visible()
    assert found == {}
    assert watch.errors == []
    page.context.close()


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_a_try_plays_for_free_and_leaves_no_trace(browser: Browser, server: str, view: str) -> None:
    page, watch = lobby(browser, server, view)
    before = api(page, server, "GET", "/api/wallet")["balance_pence"]
    mine = api(page, server, "GET", "/api/plays")["plays"]
    page.get_by_role("button", name="TRY Lab Riches for free", exact=True).click()
    page.wait_for_url("**/?game=lab-riches&mode=try&fast=1", timeout=30_000)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.locator("#screen-title")).to_contain_text("(TRY)")
    page.get_by_role("button", name="TRY", exact=True).click()
    expect(page.locator("#log")).to_contain_text("no money is staked or won")
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=60_000)
    play_through(page)
    page.get_by_role("button", name="FINISH", exact=True).click()
    expect(page.get_by_role("button", name="ALL GAMES", exact=True)).to_be_visible(timeout=30_000)
    expect(page.locator("#screen-title")).to_contain_text("(TRY)")
    assert api(page, server, "GET", "/api/wallet")["balance_pence"] == before
    assert api(page, server, "GET", "/api/plays")["plays"] == mine
    assert watch.errors == []
    page.context.close()


def test_my_games_turns_pages_and_resumes_an_unfinished_play(browser: Browser, server: str) -> None:
    page, watch = lobby(browser, server, "phone")
    numbers: list[int] = []
    for _ in range(9):  # more plays than a phone's page shows (8), within the £50 grant
        bought = page.request.post(
            server + "/api/plays",
            data={"game": "power-puck-shot"},
            headers={"Idempotency-Key": f"k-{len(numbers)}-{id(page)}"},
        )
        assert bought.ok, bought.text()
        numbers.append(int(bought.json()["play_number"]))
    page.get_by_role("button", name="My Games", exact=True).click()
    log = page.locator("#log")
    expect(log).to_contain_text("My Games, page 1:", timeout=30_000)
    expect(log).to_contain_text(f"Play {numbers[-1]}, £500K Power Puck Shot,")
    page.get_by_role("button", name="Next page", exact=True).click()
    expect(log).to_contain_text("My Games, page 2:", timeout=30_000)
    expect(log).to_contain_text(f"Play {numbers[0]}, £500K Power Puck Shot,")
    page.get_by_role("button", name="Previous page", exact=True).click()
    expect(log).to_contain_text("My Games, page 1:", timeout=30_000)
    # RESUME opens the game, which offers the unfinished play.
    page.get_by_role("button", name=f"RESUME play {numbers[-1]}", exact=True).click()
    page.wait_for_url("**/?game=power-puck-shot&fast=1", timeout=30_000)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.get_by_role("button", name="RESUME", exact=True)).to_be_visible(timeout=30_000)
    assert watch.errors == []
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


def test_a_play_left_unfinished_is_settled_by_the_settle_command_a_day_later(
    browser: Browser, dist_dir: Path, tmp_path: Path
) -> None:
    """Bought in the browser and left; `build.py settle` with the test clock moved 24 h on
    finishes it and credits its prize once; My Games says so and it can be replayed."""
    var = tmp_path / "var"
    quiet = {"LOTTERY_SWEEP_INTERVAL_SECONDS": "3600"}  # the endpoint's own sweeper stays out
    with local_server(dist_dir, var, env=quiet) as url:
        page, watch = lobby(browser, url, "desktop")
        choose(page, url, [{"feature": "row", "pence": 500}])
        page.get_by_role("button", name="PLAY Lab Riches", exact=True).click()
        page.wait_for_url("**/?game=lab-riches&fast=1", timeout=30_000)
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        expect(page.locator("#log")).to_contain_text("Balance £", timeout=30_000)
        page.get_by_role("button", name="PLAY", exact=True).click()
        expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=60_000)
        number = int(
            api(page, url, "GET", "/api/plays?status=unfinished")["plays"][0]["play_number"]
        )
        before = api(page, url, "GET", "/api/wallet")["balance_pence"]
        moved = page.request.post(url + "/api/test/clock", data={"advance_ms": 24 * 3600_000 + 1})
        assert moved.ok, moved.text()
        env = {**os.environ, "LOTTERY_VAR_DIR": str(var), "LOTTERY_TEST_MODE": "1"}
        env.pop("DATABASE_URL", None)
        for expected in (1, 0):  # a second run finds nothing more to settle
            done = subprocess.run(
                [sys.executable, "build.py", "settle", "--json"],
                cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr
            assert json.loads(done.stdout.strip().splitlines()[-1])["settled"] == expected
        assert api(page, url, "GET", "/api/wallet")["balance_pence"] == before + 500
        page.goto(url + "/?fast=1")
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        page.get_by_role("button", name="My Games", exact=True).click()
        log = page.locator("#log")
        expect(log).to_contain_text(f"Play {number}, Lab Riches,", timeout=30_000)
        expect(log).to_contain_text("won £5.00, settled automatically.")
        page.get_by_role("button", name=f"REPLAY play {number}", exact=True).click()
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        expect(page.locator("#log")).to_contain_text(f"Replay of play number {number}.")
        expect(page.get_by_role("button", name="ALL GAMES", exact=True)).to_be_visible(
            timeout=120_000
        )
        assert api(page, url, "GET", "/api/wallet")["balance_pence"] == before + 500
        assert watch.errors == []
        page.context.close()


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_verify_checks_a_play_step_by_step_and_a_tampered_proof_fails_at_the_merkle_step(
    browser: Browser, server: str, view: str
) -> None:
    context = browser.new_context(viewport=VIEWPORTS[view], service_workers="block")
    page = context.new_page()
    watch = Watch(page, server)
    page.goto(server + "/?fast=1")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.locator("#log")).to_contain_text("Balance £", timeout=30_000)
    bought = page.request.post(
        server + "/api/plays", data={"game": GAME_LR}, headers={"Idempotency-Key": "verify-1"}
    )
    assert bought.ok, bought.text()
    number = int(bought.json()["play_number"])
    api(page, server, "POST", f"/api/plays/{number}/finish")
    found: dict[str, list[str]] = {}
    page.get_by_role("button", name="My Games", exact=True).click()
    page.get_by_role("button", name=f"VERIFY play {number}", exact=True).click(timeout=30_000)
    log = page.locator("#log")
    expect(log).to_contain_text("Every step passed", timeout=30_000)
    for step in ("Signature", "The play's entry", "Leaf hash", "Merkle path", "Published root"):
        expect(log).to_contain_text(f"{step}: passed.")
    violations(page, "verify", found)
    page.get_by_role("button", name="Back to My Games", exact=True).click()

    def tampered(route: Route) -> None:
        answer = route.fetch()
        detail = answer.json()
        first = detail["proof"][0]
        detail["proof"][0] = ("0" if first[0] != "0" else "1") + first[1:]
        route.fulfill(response=answer, json=detail)

    page.route(f"**/api/plays/{number}", tampered)
    page.get_by_role("button", name=f"VERIFY play {number}", exact=True).click(timeout=30_000)
    expect(log).to_contain_text("Step 4, Merkle path: FAILED.", timeout=30_000)
    expect(log).to_contain_text("The check failed at step 4, Merkle path.")
    assert found == {}
    assert watch.errors == []
    context.close()


def test_a_reality_check_shows_time_played_and_net_spend(browser: Browser, server: str) -> None:
    """After each hour of play in a session (brought to 10 s here by realityCheck=10)."""
    context = browser.new_context(viewport=VIEWPORTS["phone"])
    page = context.new_page()
    watch = Watch(page, server)
    page.goto(server + "/?game=lab-riches&fast=1&realityCheck=10")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    log = page.locator("#log")
    expect(log).to_contain_text("Balance £", timeout=30_000)
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=60_000)
    expect(log).to_contain_text("Reality check. You have played for", timeout=30_000)
    expect(log).to_contain_text("Net spend in this session: £3.00.")
    found: dict[str, list[str]] = {}
    violations(page, "reality check", found)
    page.get_by_role("button", name="Keep playing", exact=True).click()
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_visible()
    checks = page.locator("#log p", has_text="Reality check.")
    expect(checks).to_have_count(2, timeout=30_000)  # 10 s of play later, again
    page.get_by_role("button", name="Stop", exact=True).click()
    page.wait_for_url("**/?fast=1&realityCheck=10", timeout=30_000)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.get_by_role("button", name="My Games", exact=True)).to_be_visible()
    assert found == {} and watch.errors == []
    context.close()
