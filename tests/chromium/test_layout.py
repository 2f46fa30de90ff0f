"""Every screen at every size: nothing cut off, nothing out of reach, text clear of other text
and of controls, and readable (WCAG contrast 4.5:1, 3:1 for large text).

One player goes through the lobby, Rules and Prizes, Limits, Account, My Games and VERIFY, and
through a play of each game (splash, each How To Play page, the Main Game, the end message and
the final board, the outcome), its REPLAY (paused at the start, and at its end) and a TRY (its
splash, end message and final board); on each screen the window takes six sizes, a phone held
either way among them.

What it sees is the same on every machine and run: the endpoint it starts lays its pools out
from a fixed seed (test mode's LOTTERY_TEST_POOL_SEED, web/endpoint/testmode/) and the test
buys in a fixed order, so each play's book (outcome and scenario) is fixed. The books are the
worst cases of the prize tables for the screens: each game's play is a composition with every
feature of its table (Lab Riches: an Instant Prize from the Bonus Game, a meter prize and a
row; Power Puck Shot: a Bonus Game with a Prize Booster, a Prize Game and a boosted row).
Two things still differ between runs, neither a book: My Games and VERIFY show the day's dates
and the run's signatures, and the REPLAY is measured paused at the rest its Pause reaches first
(before or after its first action, by the machine's speed), the same book either way.

A second test measures the messages of limits and play time on an endpoint with limits
required (LOTTERY_LIMITS_REQUIRED): "Choose your limits", the Limits page of an account with
none, the reality check 20 minutes into a run and the cooling-off refusal after an hour (the
test clock moved as tests/chromium/test_playtime.py moves it).

The page is opened with `?layout=1`: each frame reports where its text was drawn
(backends/layout.py), so the test measures the layout drawn, with the mirror's buttons and
typed amounts' fields for the controls and the screenshot's pixels for the contrast. A control
shown cut by a scrolling area must come into view, whole, when its button takes the focus.
Screenshots: test-artifacts/layout/<screen>-<w>x<h>.png.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.chromium.conftest import ARTIFACTS
from tests.chromium.measure import CONTROLS, clipped, contrast, inside, off_screen, overlaps
from tests.chromium.test_lab_riches import api, play_through
from tests.chromium.test_playtime import MINUTE_MS, advance
from tests.chromium.test_power_puck_shot import shoot_until
from tools.build.localserver import local_server

SIZES = ((1280, 720), (390, 844), (360, 640), (844, 390), (412, 915), (1024, 768))
SHOTS = ARTIFACTS / "layout"
LAYOUT = "() => window.lottery.layout"
# The screen at this size (a screen change's frames report only {changing: true}: no size).
SIZED = "([w, h]) => { const l = window.lottery.layout; return l && l.w === w && l.h === h; }"
# True when no frame was drawn for 600 ms: the screen at rest (a frame that draws reports anew).
STILL = """() => new Promise((done) => { const seen = window.lottery.layout;
  setTimeout(() => done(window.lottery.layout === seen), 600); })"""
BOOKS: dict[str, list[dict[str, Any]]] = {  # each game's play: every feature of its table
    "lab-riches": [
        {"feature": "instant", "pence": 500},
        {"feature": "meter", "pence": 1000},
        {"feature": "row", "pence": 500},
    ],
    "power-puck-shot": [
        {"feature": "bonus", "pence": 0, "boosters": "green", "games": 1, "pucks": 1},
        {"feature": "pot", "pence": 10000, "pucks": 2},
        {"feature": "row", "pence": 15000, "boosts": 1, "colour": "green"},
    ],
}


@pytest.fixture(scope="module")
def fixed(dist_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An endpoint of its own whose pools are laid out from a fixed seed: the same entries,
    so the same books, on every machine and run."""
    env = {"LOTTERY_TEST_POOL_SEED": "layout-test"}
    with local_server(dist_dir, tmp_path_factory.mktemp("var-layout"), env=env) as url:
        yield url


def button(page: Page, name: str) -> Any:
    """The mirror's button by its exact name."""
    return page.get_by_role("button", name=name, exact=True)


def measure(page: Page, name: str, w: int, h: int) -> list[str]:
    """The faults of the screen showing at w × h, with its screenshot kept."""
    page.set_viewport_size({"width": w, "height": h})
    page.wait_for_function(SIZED, arg=[w, h], timeout=10_000)
    page.wait_for_timeout(150)  # the mirror follows the frame that drew
    page.wait_for_function(SIZED, arg=[w, h], timeout=10_000)  # a change begun has ended
    layout, buttons = page.evaluate(LAYOUT), page.evaluate(CONTROLS)
    png = page.screenshot(path=str(SHOTS / f"{name}-{w}x{h}.png"))
    faults = clipped(layout) + overlaps(layout, buttons) + contrast(layout, png)
    faults += off_screen(layout, buttons) + reach(page, layout, buttons)
    return [f"{name} at {w}x{h}: {fault}" for fault in faults]


def reach(page: Page, layout: dict[str, Any], buttons: list[dict[str, Any]]) -> list[str]:
    """Each control a scrolling area cuts comes into view, whole and at least 44 px, when its
    mirror button (or typed amount's field) takes the focus (as Tab gives it)."""
    out, screen = [], (0.0, 0.0, layout["w"], layout["h"])
    for b in buttons:
        if b["box"][3] >= 44 or not layout["scroll"]:
            continue
        locator = page.locator(f"#mirror [aria-label={b['label']!r}]")
        locator.focus()
        page.wait_for_timeout(120)
        box = page.evaluate(CONTROLS)
        now = next((c["box"] for c in box if c["label"] == b["label"]), None)
        if now is None or now[3] < 44 or not inside(tuple(now), screen):
            out.append(f"{b['label']!r} is out of reach when focused: {now}")
    page.keyboard.press("Home")  # back to the top for the next size
    return out


def choose(page: Page, server: str, composition: list[dict[str, Any]], game: str) -> None:
    """Test mode: the next purchase takes an entry of this composition (as test_lab_riches'
    choose, with time for a first pick that reads a whole pool on a loaded machine)."""
    body = {"game": game, "composition": composition}
    answer = page.request.post(server + "/api/test/next-entry", data=body, timeout=120_000)
    assert answer.ok, answer.text()


def go_through(page: Page, name: str, faults: list[str]) -> None:
    """Measure the screen showing at every size (ending at the first again)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for w, h in SIZES:
        faults += measure(page, name, w, h)
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})


def pages_through(page: Page, name: str, faults: list[str]) -> None:
    """Each page of How To Play or Rules and Prizes, then Close."""
    for k in itertools.count(1):
        go_through(page, f"{name}-{k}", faults)
        if not button(page, "Next").count():
            break
        button(page, "Next").click()
    button(page, "Close").click()


def play_number(page: Page) -> int:
    """The number of the play the log last said was finished."""
    found = re.findall(r"Play number (\d+) finished", page.locator("#log").inner_text())
    assert found, "no play finished"
    return int(found[-1])


def at_rest(page: Page) -> None:
    """Wait until the screen stops drawing (a paused replay finishes the event it was in)."""
    for _ in range(100):
        if page.evaluate(STILL):
            return
    raise AssertionError("the screen never came to rest")


def finish_and_look(page: Page, game: str, name: str, faults: list[str]) -> None:
    """Play to the end message, then measure it and the final board."""
    play_through(page) if game == "lab-riches" else shoot_until(page)
    go_through(page, f"{name}-end", faults)
    button(page, "See the board").click()
    go_through(page, f"{name}-board", faults)


@pytest.mark.timeout(1200)
def test_every_screen_fits_every_size(browser: Browser, fixed: str) -> None:
    server = fixed
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    faults: list[str] = []
    page.goto(server + "/?fast=1&layout=1")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    log = page.locator("#log")
    expect(log).to_contain_text("Balance £", timeout=30_000)
    for _ in range(3):  # three finished plays for My Games, bought and finished as the shell does
        choose(page, server, [{"feature": "row", "pence": 500}], "lab-riches")
        number = page.request.post(server + "/api/plays", data={"game": "lab-riches"},
                                   headers={"Idempotency-Key": f"layout-{_}"}).json()  # fmt: skip
        api(page, server, "POST", f"/api/plays/{number['play_number']}/finish", {"choices": []})
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(log).to_contain_text("Balance £", timeout=30_000)
    go_through(page, "lobby", faults)
    for game in ("Lab Riches", "£500K Power Puck Shot"):
        button(page, f"Rules and Prizes of {game}").click()
        pages_through(page, f"rules-{game[-4:].lower()}", faults)
    button(page, "Limits").click()
    expect(log).to_contain_text("Weekly limit", timeout=30_000)
    go_through(page, "limits", faults)
    button(page, "Back to the games").click()
    button(page, "Account").click()
    go_through(page, "account", faults)
    button(page, "Back to the games").click()
    button(page, "My Games").click()
    expect(log).to_contain_text("My Games, page 1", timeout=30_000)
    go_through(page, "my-games", faults)
    third = page.locator("#mirror button[aria-label^='VERIFY play']").nth(2)
    third.click()
    expect(log).to_contain_text("Every step passed", timeout=30_000)
    go_through(page, "verify", faults)

    for game, query in (("lab-riches", "&fast=1"), ("power-puck-shot", "&fast=1")):
        page.goto(f"{server}/?game={game}{query}&layout=1")
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        expect(log).to_contain_text("Balance £", timeout=30_000)
        go_through(page, f"{game}-splash", faults)
        button(page, "HOW TO PLAY").click()
        pages_through(page, f"{game}-howto", faults)
        choose(page, server, BOOKS[game], game)
        button(page, "PLAY").click()
        first = "GO" if game == "lab-riches" else "Shoot steep left"
        expect(button(page, first)).to_be_enabled(timeout=60_000)
        go_through(page, f"{game}-main", faults)
        finish_and_look(page, game, game, faults)
        button(page, "FINISH").click()
        expect(button(page, "PLAY AGAIN")).to_be_visible(timeout=30_000)
        go_through(page, f"{game}-outcome", faults)
        number = play_number(page)
        page.goto(f"{server}/?game={game}&replay={number}&fast=1&layout=1")
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        button(page, "Pause").click()  # held still at its start while it is measured
        expect(button(page, "Play on")).to_be_visible(timeout=30_000)
        at_rest(page)  # the event it was playing, played out
        go_through(page, f"{game}-replay", faults)
        button(page, "Play on").click()
        expect(button(page, "ALL GAMES")).to_be_visible(timeout=240_000)
        go_through(page, f"{game}-replay-end", faults)
        page.goto(f"{server}/?game={game}&mode=try&fast=1&layout=1")
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        expect(button(page, "TRY")).to_be_enabled(timeout=30_000)
        go_through(page, f"{game}-try-splash", faults)
        button(page, "TRY").click()
        expect(button(page, first)).to_be_enabled(timeout=60_000)
        finish_and_look(page, game, f"{game}-try", faults)
    # A purchase over a spend limit (a daily limit of £0 takes effect at once): its screen.
    assert page.request.put(server + "/api/limits", data={"daily_pence": 0}).ok
    page.goto(f"{server}/?game=lab-riches&fast=1&layout=1")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(log).to_contain_text("Balance £", timeout=30_000)
    button(page, "PLAY").click()
    expect(button(page, "Go to my spend limits")).to_be_visible(timeout=30_000)
    go_through(page, "limit-reached", faults)
    context.close()
    assert not faults, f"{len(faults)} faults:\n" + "\n".join(faults)


def bought(page: Page, server: str, key: str) -> None:
    """A Lab Riches play bought and finished by the API, as the shell would (in the run)."""
    choose(page, server, [{"feature": "row", "pence": 500}], "lab-riches")
    answer = page.request.post(server + "/api/plays", data={"game": "lab-riches"},
                               headers={"Idempotency-Key": key}, timeout=120_000)  # fmt: skip
    assert answer.status == 201, answer.text()
    number = answer.json()["play_number"]
    api(page, server, "POST", f"/api/plays/{number}/finish", {"choices": []})


def opened(page: Page, server: str, game: str = "lab-riches", query: str = "") -> None:
    """The game's page (or the lobby's page `query` with no game), measured as it draws."""
    page.goto(f"{server}/?{f'game={game}&' if game else ''}{query}&fast=1&layout=1")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.locator("#log")).to_contain_text("Balance £", timeout=30_000)


@pytest.mark.timeout(1200)
def test_the_refusals_and_the_reality_check_fit_every_size(
    browser: Browser, dist_dir: Path, tmp_path: Path
) -> None:
    """The messages of play time and limits: "Choose your limits" (403 limits_required), the
    Limits page of an account with none yet (its typed amounts), the reality check 20 minutes
    into a run and the cooling-off refusal after an hour (test clock: test_playtime's way)."""
    env = {"LOTTERY_TEST_POOL_SEED": "layout-test"}
    with local_server(dist_dir, tmp_path / "var", limits_required=True, env=env) as server:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        page = context.new_page()
        faults: list[str] = []
        log = page.locator("#log")
        opened(page, server)
        button(page, "PLAY").click()
        expect(log).to_contain_text("Choose your limits", timeout=30_000)
        go_through(page, "limits-required", faults)
        button(page, "Go to my spend limits").click()
        page.wait_for_url("**page=limits**", timeout=30_000)  # (the shell drops ?layout=1)
        opened(page, server, "", "page=limits")
        expect(log).to_contain_text("Weekly limit", timeout=30_000)
        go_through(page, "limits-none", faults)
        fields = page.locator("#mirror input")  # the typed amounts: measured as controls
        named = {fields.nth(k).get_attribute("aria-label") for k in range(fields.count())}
        assert named and named <= {c["label"] for c in page.evaluate(CONTROLS)}
        limits = {"daily_pence": 1_000_000, "weekly_pence": 5_000_000}
        assert page.request.put(server + "/api/limits", data=limits).ok
        bought(page, server, "run-0")  # the run begins; 19 minutes 52 seconds of it
        for n in (1, 2):
            advance(page, server, 9 * MINUTE_MS)
            bought(page, server, f"run-{n}")
        advance(page, server, 2 * MINUTE_MS - 8_000)
        opened(page, server)
        choose(page, server, [{"feature": "row", "pence": 500}], "lab-riches")
        button(page, "PLAY").click()  # the check comes at the play's first rest
        expect(button(page, "Keep playing")).to_be_visible(timeout=60_000)
        go_through(page, "reality-check", faults)
        button(page, "Keep playing").click()
        expect(button(page, "GO")).to_be_visible(timeout=30_000)
        unfinished = api(page, server, "GET", "/api/plays?status=unfinished")["plays"]
        for play in unfinished:
            api(page, server, "POST", f"/api/plays/{play['play_number']}/finish", {"choices": []})
        for n in (3, 4, 5, 6):  # the run goes on to the hour
            advance(page, server, 9 * MINUTE_MS)
            bought(page, server, f"run-{n}")
        advance(page, server, 5 * MINUTE_MS)
        opened(page, server)
        button(page, "PLAY").click()
        expect(log).to_contain_text("take a break", timeout=30_000)
        go_through(page, "cooling-off", faults)
        context.close()
    assert not faults, f"{len(faults)} faults:\n" + "\n".join(faults)


SCROLLED = "() => window.lottery.layout.scroll[2]"


def test_a_page_taller_than_a_phone_held_sideways_scrolls_by_wheel_keys_and_touch(
    browser: Browser, server: str
) -> None:
    from engine.ui.power_puck_shot.words import HOW_TO_PLAY

    context = browser.new_context(viewport={"width": 844, "height": 390}, has_touch=True)
    page = context.new_page()
    page.goto(server + "/?game=power-puck-shot&fast=1&layout=1")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    button(page, "HOW TO PLAY").click()
    collect = next(k for k, (_, paras) in enumerate(HOW_TO_PLAY) if "COLLECT 10" in paras[-1])
    for _ in range(collect):  # the page of the procedure's COLLECT list
        button(page, "Next").click()
    page.wait_for_function(
        f"() => window.lottery.layout.screen === 'howto' && "
        f"document.getElementById('log').innerText.includes('page {collect + 1} ')"
    )
    top, bottom, offset, content = page.evaluate(LAYOUT)["scroll"]
    assert offset == 0 and content > bottom - top  # taller than its area: it scrolls
    seen: set[str] = set()

    def read() -> float:
        page.wait_for_timeout(150)
        layout = page.evaluate(LAYOUT)
        seen.update(t["text"] for t in layout["texts"] if t["box"][1] < bottom)
        return float(layout["scroll"][2])

    page.mouse.move(422, (top + bottom) / 2)
    page.mouse.wheel(0, 120)
    assert read() > 0
    page.keyboard.press("End")
    assert abs(read() - (content - (bottom - top))) <= 1
    page.keyboard.press("Home")
    assert read() == 0
    cdp = context.new_cdp_session(page)  # a finger dragging the text up by 100 px
    for kind, y in (("touchStart", 290), ("touchMove", 240), ("touchMove", 190), ("touchEnd", 0)):
        points = [] if kind == "touchEnd" else [{"x": 200, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
    assert abs(read() - min(100.0, content - (bottom - top))) <= 1  # as far as it goes
    page.keyboard.press("End")
    read()
    last = HOW_TO_PLAY[collect][1][-1]  # the page's last line, word for word, scrolled to
    assert set(last.split()) <= seen, (last, seen)
    context.close()
