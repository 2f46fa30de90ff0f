"""£500K Power Puck Shot end to end: complete plays in headless Chromium against the real dev
server, driven through the mirrored buttons as a person would (PLAY, a Directional Arrow for
every shot, FINISH), the pool entry chosen through the test-mode-only POST /api/test/next-entry.

Each play checks that the narrated total is the ledger's prize and that the balance moved by
exactly prize − price; a reload in the middle of a Bonus Game or a Prize Game resumes at the
same shot, with the arrows already chosen (so the same paths: paths.py is a pure function of
them) kept, also from progress an older shell stored by event index.
"""

from __future__ import annotations

import base64
import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from engine import games
from engine.payload import Payload
from engine.ui.flow import choice_events
from tests.chromium.conftest import open_game, screenshot
from tests.chromium.test_lab_riches import MIRROR, VIEWPORTS, api, choose, pence_of

GAME = "power-puck-shot"
PRICE = 500
ARROW_TAKEN = (
    "() => ![...document.querySelectorAll('#mirror button')]"
    ".some(b => b.textContent.startsWith('Shoot ') && b.getAttribute('aria-disabled') !== 'true')"
)
AT_REST = (
    "() => [...document.querySelectorAll('#mirror button')].some(b => b.textContent === 'FINISH'"
    " || (b.textContent.startsWith('Shoot ') && b.getAttribute('aria-disabled') !== 'true'))"
)
ROW = {"feature": "row", "boosts": 0}
CASES: dict[str, list[dict[str, Any]]] = {
    "losing": [],
    "row": [{**ROW, "pence": 500, "colour": "dark-blue"}],
    "boosted": [
        {"feature": "bonus", "pence": 0, "boosters": "dark-blue", "games": 1, "pucks": 1},
        {**ROW, "pence": 600, "boosts": 1, "colour": "dark-blue"},
    ],
    "extra-puck": [
        {"feature": "bonus", "pence": 0, "extra_pucks": 1, "games": 1, "pucks": 1},
        {**ROW, "pence": 500, "colour": "dark-blue"},
    ],
    "power-puck": [
        {"feature": "bonus", "pence": 0, "power_pucks": 1, "games": 1, "pucks": 1},
        {**ROW, "pence": 600, "colour": "purple"},
    ],
    "prize-game": [{"feature": "pot", "pence": 25_000, "pucks": 5}],
    "top": [{**ROW, "pence": 50_000_000, "colour": "yellow"}],
}


def start(browser: Browser, server: str, view: str) -> Page:
    """The game opened at /?game=power-puck-shot with the faster-animations setting."""
    page, _watch = open_game(
        browser, server, viewport=VIEWPORTS[view], query=f"?game={GAME}&fast=1"
    )
    expect(page.locator("#log")).to_contain_text("Balance £")
    return page


def shoot_until(page: Page, done: str = "FINISH", shots: str | None = None) -> int:
    """Shoot (the arrows in turn: 1, 2, ... 6, 1...) until `done` is mirrored; returns the
    shots made. `done` may be a phrase of the narration instead of a button."""
    made = 0
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        mirrored = dict(page.evaluate(MIRROR))
        if done in mirrored or done in page.locator("#log").inner_text():
            return made
        arrows = [name for name in mirrored if name.startswith("Shoot ")]
        if arrows and mirrored[arrows[0]] is True:
            assert len(arrows) == 6
            page.get_by_role("button", name=arrows[made % 6], exact=True).click()
            made += 1
            page.wait_for_function(ARROW_TAKEN, timeout=10_000)
            if shots and made == 1:
                page.wait_for_timeout(300)
                screenshot(page, f"power-puck-shot-{shots}-shot")
        else:
            page.wait_for_timeout(60)
    raise AssertionError(f"the play did not reach {done!r} in time")


def finish(page: Page, server: str, before: int, shots: str | None = None) -> tuple[int, str]:
    """FINISH; checks the narrated total against the ledger and the balance; (prize, log)."""
    log = page.locator("#log").inner_text()
    narrated = pence_of(log)
    if shots:
        screenshot(page, f"power-puck-shot-{shots}-end")
    page.get_by_role("button", name="FINISH", exact=True).click()
    expect(page.get_by_role("button", name="PLAY AGAIN", exact=True)).to_be_visible(timeout=30_000)
    if shots:
        screenshot(page, f"power-puck-shot-{shots}-outcome")
    number = int(re.findall(r"Play number (\d+) finished", page.locator("#log").inner_text())[-1])
    prize = int(api(page, server, "GET", f"/api/plays/{number}")["prize_pence"])
    after = api(page, server, "GET", "/api/wallet")["balance_pence"]
    assert narrated == prize
    assert after - before == prize - PRICE
    return prize, log


def complete_play(
    browser: Browser, server: str, view: str, case: str, *, shots: str | None = None
) -> tuple[Page, int, str]:
    """Buy the case's play, shoot every puck, FINISH, check the money; (page, prize, log)."""
    page = start(browser, server, view)
    before = api(page, server, "GET", "/api/wallet")["balance_pence"]
    composition = CASES[case]
    choose(page, server, composition, GAME)
    if shots:
        screenshot(page, f"power-puck-shot-{shots}-splash")
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(page.get_by_role("button", name="Shoot steep left", exact=True)).to_be_enabled(
        timeout=60_000
    )
    if shots:
        screenshot(page, f"power-puck-shot-{shots}-main")
    shoot_until(page, shots=shots)
    prize, log = finish(page, server, before, shots)
    assert prize == sum(int(part["pence"]) for part in composition)
    return page, prize, log


@pytest.mark.parametrize("view", ["desktop", "phone"])
@pytest.mark.parametrize("case", ["losing", "power-puck", "prize-game"])
def test_plays_on_both_viewports(browser: Browser, server: str, view: str, case: str) -> None:
    page, prize, log = complete_play(browser, server, view, case, shots=f"{view}-{case}")
    if case == "losing":
        assert prize == 0 and "Total won £0.00" in log
    if case == "power-puck":
        assert "BONUS GAME!" in log and "A Power Puck" in log
        assert "POWER PUCK ALL SYMBOLS X2" in log and "Power Puck shot" in log
    if case == "prize-game":
        assert "RESULT! PRIZE GAME UNLOCKED! 10 Prize Game symbols: 5 Prize Pucks." in log
        assert log.count("Prize Game shot") == 5 and "Total won £250.00" in log
    page.context.close()


@pytest.mark.parametrize("case", ["row", "boosted", "extra-puck", "top"])
def test_wins(browser: Browser, server: str, case: str) -> None:
    page, prize, log = complete_play(browser, server, "desktop", case)
    if case == "row":
        # £5, the price, is the price back: said so, never 'you win' (engine/ui/celebration.py)
        assert "Dark blue row complete: your £5 back." in log and "Your £5.00 back" in log
    if case == "boosted":
        assert "Prize booster: the dark blue row rises to £6" in log
        assert "Dark blue row complete: you win £6." in log
    if case == "extra-puck":
        # The composition's extra Puck; from model 3 chance may add more, and Power Pucks, in
        # the same Bonus Game ("1 extra Puck and 1 Power Puck added": 45 of 300 seeds).
        assert "An extra Puck" in log
        assert re.search(r"\b\d+ extra Pucks?( and \d+ Power Pucks?)? added", log)
    if case == "top":
        assert prize == 50_000_000 and "Total won £500,000.00" in log
    page.context.close()


def progress(page: Page) -> dict[str, Any]:
    """The play's progress as the shell keeps it (index reached and the arrows chosen)."""
    raw = page.evaluate(
        "() => Object.entries(localStorage).filter(([k]) => k.includes('progress'))"
        ".map(([, v]) => v)"
    )
    assert raw, "no progress kept"
    found: dict[str, Any] = json.loads(raw[0])
    return found


@pytest.mark.parametrize(("case", "banner"), [("power-puck", "BONUS GAME!"),
                                               ("prize-game", "PRIZE GAME UNLOCKED!")])  # fmt: skip
def test_a_reload_in_the_middle_resumes_at_the_same_shot(
    browser: Browser, server: str, case: str, banner: str
) -> None:
    page = start(browser, server, "desktop")
    before = api(page, server, "GET", "/api/wallet")["balance_pence"]
    choose(page, server, CASES[case], GAME)
    page.get_by_role("button", name="PLAY", exact=True).click()
    made = shoot_until(page, banner)
    page.wait_for_function(AT_REST, timeout=30_000)  # in that game, before its first shot
    screenshot(page, f"power-puck-shot-reload-{case}-before")
    kept = progress(page)
    assert len(kept["choices"]) == made  # every arrow chosen so far is kept
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    page.get_by_role("button", name="RESUME", exact=True).click()
    log = page.locator("#log")
    expect(log).to_contain_text("Resumed play number")
    page.wait_for_function(AT_REST, timeout=30_000)
    screenshot(page, f"power-puck-shot-reload-{case}-after")
    again = progress(page)
    assert again["index"] == kept["index"]
    assert again["choices"] == kept["choices"]  # the same arrows: the same paths
    shoot_until(page)
    finish(page, server, before)
    page.context.close()


def test_progress_an_older_shell_kept_by_event_index_still_resumes(
    browser: Browser, server: str
) -> None:
    """An older shell kept the arrows as {"<event index>": arrow}: a browser holding such a play
    resumes it with the same arrows, and keeps them as a list (docs/books.md) from then on."""
    page = start(browser, server, "desktop")
    before = api(page, server, "GET", "/api/wallet")["balance_pence"]
    choose(page, server, CASES["power-puck"], GAME)
    page.get_by_role("button", name="PLAY", exact=True).click()
    made = shoot_until(page, "BONUS GAME!")
    page.wait_for_function(AT_REST, timeout=30_000)
    kept = progress(page)
    # (the Bonus Game may come at the first shot: the book is drawn from the pool, by chance)
    assert made >= 1 and len(kept["choices"]) == made
    body = kept["token"].split(".")[1]
    payload = Payload.from_json(json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))))
    game = games.get(GAME)
    assert game.replay is not None
    replay = game.replay(game.book(payload.model, payload.composition, payload.seed_bytes))
    at = choice_events(game, replay)
    old = {**kept, "choices": {str(i): c for i, c in zip(at, kept["choices"], strict=False)}}
    assert len(old["choices"]) == made
    page.evaluate(
        "(p) => localStorage.setItem('lottery.progress.' + p[0], p[1])", [GAME, json.dumps(old)]
    )
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    page.get_by_role("button", name="RESUME", exact=True).click()
    expect(page.locator("#log")).to_contain_text("Resumed play number")
    page.wait_for_function(AT_REST, timeout=30_000)
    again = progress(page)
    assert again["index"] == kept["index"] and again["choices"] == kept["choices"]
    shoot_until(page)
    finish(page, server, before)  # with every arrow: the endpoint's kept ones are extended
    recorded = api(page, server, "GET", f"/api/plays/{kept['play_number']}")["progress"]
    assert recorded["choices"][:made] == kept["choices"]
    page.context.close()
