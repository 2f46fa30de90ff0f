"""The lobby at `/`: both games as cards; PLAY opens a game, its outcome screen comes back;
My Games lists the play with its prize; a game's Rules and Prizes open from its card. Both
viewports, through the mirror, with axe on the lobby's screens."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from engine.math.figures import show2
from tests.chromium.conftest import Watch
from tests.chromium.test_accessibility import violations
from tests.chromium.test_lab_riches import VIEWPORTS, api, choose, pence_of, play_through
from tools.build.localserver import local_server

ROOT = Path(__file__).resolve().parents[2]


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


def test_a_first_visit_s_lobby_is_playable_before_its_pictures_come(
    browser: Browser, server: str
) -> None:
    """A first visit asks for the lobby's atlas once the page is playable, and draws the cards
    again when it comes; a returning visit has it before its first frame (docs/build.md)."""
    from engine import games

    context = browser.new_context(viewport=VIEWPORTS["desktop"])
    held: list[Route] = []  # the atlas's request, answered only when the test says so
    atlas = re.compile(r"/assets/art/lobby@1x\.[0-9a-f]+\.webp$")

    def hold(route: Route) -> None:
        held.append(route)

    context.route(atlas, hold)
    page = context.new_page()
    watch = Watch(page, server)
    page.goto(server + "/")
    play = page.get_by_role("button", name=f"PLAY {games.on_sale()[0].name}", exact=True)
    expect(play).not_to_have_attribute("aria-disabled", "true", timeout=60_000)
    page.wait_for_function("() => window.lottery.stats.art === 'asked'", timeout=30_000)
    page.wait_for_timeout(500)
    assert len(held) == 1 and page.evaluate("() => window.lottery.stats.art") == "asked"
    canvas = page.locator("canvas")
    without = canvas.screenshot()
    page.wait_for_timeout(300)
    assert canvas.screenshot() == without  # the lobby at rest draws the same picture
    held[0].continue_()
    context.unroute(atlas, hold)
    page.wait_for_function("() => window.lottery.stats.art === 'drawn'", timeout=30_000)
    page.wait_for_timeout(300)
    assert canvas.screenshot() != without  # the cards drawn again, with their pictures
    page.wait_for_function("() => window.lottery.stats.snapshot === 'saved'", timeout=30_000)
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    assert page.evaluate("() => [window.lottery.stats.boot, window.lottery.stats.art]") == [
        "snapshot",
        None,
    ]
    assert watch.errors == []
    context.close()
