"""Lab Riches end to end: complete plays in headless Chromium against the real dev server.

Each play is driven through the mirrored buttons as a person would (PLAY, GO..., FINISH). The
pool entry is chosen through POST /api/test/next-entry, which exists only when the server was
started in test mode (LOTTERY_TEST_MODE=1, as the `server` fixture does); the same route is
refused (404) on a normal server. `?fast=1` turns on the player's faster-animations setting.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.chromium.conftest import open_game, screenshot
from tools.build.localserver import local_server

DESKTOP: ViewportSize = {"width": 1280, "height": 720}
PHONE: ViewportSize = {"width": 390, "height": 844}
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
PRICE = 300
# A control that is not enabled is mirrored with aria-disabled="true" (it keeps the focus).
ON = "b.getAttribute('aria-disabled') !== 'true'"
MIRROR = f"() => [...document.querySelectorAll('#mirror button')].map(b => [b.textContent, {ON}])"
GO_TAKEN = (
    "() => ![...document.querySelectorAll('#mirror button')]"
    f".some(b => b.textContent === 'GO' && {ON})"
)
# the end's total: 'Total won £X.XX', or the price back 'Your £3.00 back' (celebration.py)
TOTAL = re.compile(r"(?:Total won|Your) £([\d,]+)\.(\d\d)")


def pence_of(text: str) -> int:
    """The pence of the last 'Total won £X.XX' (or 'Your £X.XX back') in the narration."""
    found = TOTAL.findall(text)
    assert found, "the narration never said 'Total won' or 'Your £X back'"
    pounds, pence = found[-1]
    return int(pounds.replace(",", "")) * 100 + int(pence)


def api(page: Page, server: str, method: str, path: str, data: Any = None) -> dict[str, Any]:
    """Call the endpoint with the page's own session cookie."""
    if method == "GET":
        response = page.request.get(server + path)
    else:
        response = page.request.post(server + path, data=data if data is not None else {})
    assert response.ok, f"{method} {path}: {response.status} {response.text()}"
    body: dict[str, Any] = response.json()
    return body


def start(browser: Browser, server: str, view: str) -> Page:
    """The game opened at /?game=lab-riches with the faster-animations setting."""
    query = "?game=lab-riches&fast=1"
    page, _watch = open_game(browser, server, viewport=VIEWPORTS[view], query=query)
    expect(page.locator("#log")).to_contain_text("Balance £")
    return page


def choose(
    page: Page, server: str, composition: list[dict[str, Any]] | None, game: str = "lab-riches"
) -> None:
    """Test mode only: the next purchase takes an entry with this composition ([] loses)."""
    body: dict[str, Any] = {"game": game}
    if composition:
        body["composition"] = composition
    else:
        body["prize_pence"] = 0
    api(page, server, "POST", "/api/test/next-entry", body)


def play_through(page: Page, *, shots: str | None = None, stop_after: int | None = None) -> int:
    """Press GO until FINISH shows (or stop_after presses); returns the presses made."""
    presses = 0
    deadline = time.monotonic() + 150
    seen_bonus = False
    while time.monotonic() < deadline:
        mirrored = dict(page.evaluate(MIRROR))
        if "FINISH" in mirrored:
            return presses
        if stop_after is not None and presses >= stop_after:
            return presses
        go = page.get_by_role("button", name="GO", exact=True)
        if mirrored.get("GO") is True:
            log = page.locator("#log").inner_text()
            if shots and not seen_bonus and "BONUS GAME ACTIVATED" in log:
                seen_bonus = True
                screenshot(page, f"lab-riches-{shots}-bonus")
            go.click()
            presses += 1
            # The mirror updates on the next frame: wait until the press was taken.
            page.wait_for_function(GO_TAKEN, timeout=10_000)
            if shots and presses == 1:
                page.wait_for_timeout(350)
                screenshot(page, f"lab-riches-{shots}-animating")
        else:
            page.wait_for_timeout(60)
    raise AssertionError("the play did not reach FINISH in time")


def complete_play(
    browser: Browser,
    server: str,
    view: str,
    composition: list[dict[str, Any]] | None,
    *,
    shots: str | None = None,
) -> tuple[Page, int, str]:
    """Buy a chosen play, play it to FINISH, check the ledger and the balance; returns the log."""
    page = start(browser, server, view)
    before = api(page, server, "GET", "/api/wallet")["balance_pence"]
    choose(page, server, composition)
    if shots:
        screenshot(page, f"lab-riches-{shots}-splash")
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=60_000)
    if shots:
        screenshot(page, f"lab-riches-{shots}-main")
    play_through(page, shots=shots)
    if shots:
        screenshot(page, f"lab-riches-{shots}-end")
    log = page.locator("#log").inner_text()
    narrated = pence_of(log)
    page.get_by_role("button", name="FINISH", exact=True).click()
    expect(page.get_by_role("button", name="PLAY AGAIN", exact=True)).to_be_visible(timeout=30_000)
    if shots:
        screenshot(page, f"lab-riches-{shots}-outcome")
    number = int(re.findall(r"Play number (\d+) finished", page.locator("#log").inner_text())[-1])
    detail = api(page, server, "GET", f"/api/plays/{number}")
    after = api(page, server, "GET", "/api/wallet")["balance_pence"]
    prize = int(detail["prize_pence"])
    assert narrated == prize
    assert after - before == prize - PRICE
    if composition is not None:
        assert prize == sum(int(part["pence"]) for part in composition)
    return page, prize, log


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_a_losing_play(browser: Browser, server: str, view: str) -> None:
    page, prize, log = complete_play(browser, server, view, [], shots=f"{view}-losing")
    assert prize == 0 and "Total won £0.00" in log
    page.context.close()


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_a_meter_win(browser: Browser, server: str, view: str) -> None:
    page, _, log = complete_play(browser, server, view, [{"feature": "meter", "pence": 400}])
    assert "Meter box lit: £4.00" in log
    page.context.close()


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_a_row_win(browser: Browser, server: str, view: str) -> None:
    page, _, log = complete_play(browser, server, view, [{"feature": "row", "pence": 300}])
    # £3, the price, is the price back: said so, never 'you win' (engine/ui/celebration.py)
    assert re.search(r"Row \d complete: your £3\.00 back", log) and "Your £3.00 back" in log
    assert "you win" not in log and "Total won" not in log
    page.context.close()


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_a_bonus_game_with_an_instant_prize(browser: Browser, server: str, view: str) -> None:
    composition = [{"feature": "instant", "pence": 500}]
    page, _, log = complete_play(browser, server, view, composition, shots=f"{view}-instant")
    assert "BONUS GAME ACTIVATED" in log and "YOU HAVE WON" in log
    assert "Instant Prize £5.00 added to INSTANT WINS" in log
    page.context.close()


@pytest.fixture(scope="module")
def second_server(dist_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Another test-mode dev server with its own ledger and pools (so its own top prize)."""
    with local_server(dist_dir, tmp_path_factory.mktemp("var2")) as url:
        yield url


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_the_top_prize(
    browser: Browser, server: str, view: str, request: pytest.FixtureRequest
) -> None:
    # A pool holds one £250,000 entry (1 in 2,000,000): one top-prize play per test server.
    here = server if view == "phone" else request.getfixturevalue("second_server")
    composition = [{"feature": "meter", "pence": 25_000_000}]
    page, prize, log = complete_play(browser, here, view, composition, shots=f"{view}-top")
    assert prize == 25_000_000 and "Total won £250,000.00" in log
    page.context.close()


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_a_play_with_extra_goes(browser: Browser, server: str, view: str) -> None:
    # Extra goes are part of the presentation, not of the outcome the test can choose: about
    # 6 plays in 10 show them, so play (and fully check) up to 8 plays until one does.
    for _ in range(8):
        page, _, log = complete_play(browser, server, view, None)
        page.context.close()
        if re.search(r"\d extra goe?s?: \d+ goe?s? left", log):
            assert re.search(r"Go 7:", log), "extra goes give more than 6 GO presses"
            return
    raise AssertionError("no play showed extra goes")


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_reveal_all_plays_the_rest_through_its_button(
    browser: Browser, server: str, view: str
) -> None:
    """REVEAL ALL, pressed as a person would (the mirror's button), presses GO to the end: the
    rest plays by itself, said, and GO and REVEAL ALL stay off; the play is then finished."""
    page = start(browser, server, view)
    choose(page, server, [{"feature": "instant", "pence": 500}])  # a Bonus Game in it too
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=60_000)
    page.get_by_role("button", name="REVEAL ALL", exact=True).click()
    log = page.locator("#log")
    expect(log).to_contain_text("Revealing all: the rest of your play is revealed for you.")
    assert page.get_by_role("button", name="REVEAL ALL").get_attribute("aria-disabled") == "true"
    finish = page.get_by_role("button", name="FINISH", exact=True)
    expect(finish).to_be_visible(timeout=120_000)  # no press of the player's on the way
    said = log.inner_text()
    assert "Press FINISH to complete your play." in said.split("Revealing all")[-1]
    assert "Press GO" not in said.split("Revealing all")[-1]
    assert pence_of(said) == 500
    finish.click()
    expect(page.get_by_role("button", name="PLAY AGAIN", exact=True)).to_be_visible(timeout=30_000)
    page.context.close()
