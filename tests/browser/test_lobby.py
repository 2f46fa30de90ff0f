"""The lobby at `/`: both games as cards; PLAY opens a game, its outcome screen comes back;
My Games lists the play with its prize; a game's Rules and Prizes open from its card. Both
viewports, through the mirror, with axe on the lobby's screens."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from engine.math.figures import show2
from tests.browser.conftest import Watch
from tests.browser.test_accessibility import violations
from tests.browser.test_lab_riches import VIEWPORTS, api, choose, pence_of, play_through


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
        for button in (f"PLAY {game.name}", f"TRY {game.name}", f"Rules and Prizes of {game.name}"):
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
    page.get_by_role("button", name="Lower the daily limit by £5", exact=True).click()
    expect(log).to_contain_text("Daily limit: £50.00. Spent £0.00, £50.00 left until")
    # Raising waits 24 hours: the limit stays, the change is shown waiting.
    page.get_by_role("button", name="Raise the daily limit by £5", exact=True).click()
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
        "Your daily limit is reached: £2.00 left until", timeout=30_000
    )
    assert api(page, server, "GET", "/api/wallet")["balance_pence"] == before
    assert [e for e in watch.errors if "403" not in e] == []  # the refusal itself is a 403
    page.context.close()
