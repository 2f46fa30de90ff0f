"""Playing a game's forced plays in headless Chromium and photographing them, through the hooks
every build has had: the mirrored buttons (PLAY, the game's actions, FINISH), the narration
(#log) and test mode's POST /api/test/next-entry."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tools.shots.plan import GamePlan, Play, Size

# A control that is not enabled is mirrored with aria-disabled="true" (it keeps the focus).
MIRROR = (
    "() => [...document.querySelectorAll('#mirror button')]"
    ".map(b => [b.textContent, b.getAttribute('aria-disabled') !== 'true'])"
)
# True while a button named by one of the game's actions is offered; TAKEN once none is.
OFFERED = (
    "(names) => [...document.querySelectorAll('#mirror button')].some(b => b.getAttribute("
    "'aria-disabled') !== 'true' && names.some(n => b.textContent.toLowerCase().startsWith(n)))"
)
TAKEN = f"(names) => !({OFFERED})(names)"
SETTLE_MS = 400  # a banner's or a press's first frames drawn before a shot during the play
END_MS = 1500  # the end's celebration under way (or over) before its shot: it has no hook
PLAY_SECONDS = 240  # the longest a forced play may take


def shoot(page: Page, out: Path) -> Path:
    """Save what the page shows as a PNG."""
    out.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out))
    return out


def open_game(browser: Browser, url: str, game: str, size: Size) -> Page:
    """A fresh player on the game's page (faster animations) at this size, Python's first frame
    drawn and the balance narrated."""
    context = browser.new_context(
        viewport={"width": size.width, "height": size.height},
        device_scale_factor=size.scale,
        is_mobile=size.name != "desktop",
        has_touch=size.name != "desktop",
    )
    page = context.new_page()
    page.goto(f"{url}/?game={game}&fast=1")
    page.wait_for_selector("body[data-ready='1']", timeout=90_000)
    page.locator("#log").filter(has_text="Balance £").wait_for(timeout=60_000)
    return page


def force(page: Page, url: str, game: str, play: Play) -> None:
    """Test mode only: this player's next purchase of the game takes an entry like `play`."""
    body: dict[str, Any] = {"game": game}
    if play.composition.parts:
        body["composition"] = play.composition.to_json()
    else:
        body["prize_pence"] = 0
    answer = page.request.post(url + "/api/test/next-entry", data=body)
    if not answer.ok:
        raise RuntimeError(f"next-entry {body}: {answer.status} {answer.text()}")


def actions(page: Page, names: list[str]) -> list[str]:
    """The mirrored buttons of the game's actions offered now, in order."""
    mirrored = page.evaluate(MIRROR)
    return [text for text, on in mirrored if on and text.lower().startswith(tuple(names))]


def play_through(
    page: Page, play: Play, names: list[str], shots: dict[str, Path], taken: dict[str, Path]
) -> None:
    """Press the offered actions in turn (each of a choice's buttons in rotation) until FINISH
    is offered, photographing each of the play's banners (its words narrated once more than
    before the play) when the action after it is offered (added to `taken` as each is taken)."""
    pending = [(shot, words) for shot, words in play.phrases() if shot in shots]
    before = page.locator("#log").inner_text()  # the rules said at the start name them too
    heard = {words: before.count(words) for _shot, words in pending}
    presses = 0
    deadline = time.monotonic() + PLAY_SECONDS
    while time.monotonic() < deadline:
        if any(text == "FINISH" for text, _on in page.evaluate(MIRROR)):
            return
        offered = actions(page, names)
        if not offered:
            page.wait_for_timeout(60)
            continue
        log = page.locator("#log").inner_text()
        for shot, words in [p for p in pending if log.count(p[1]) > heard[p[1]]]:
            page.wait_for_timeout(SETTLE_MS)
            taken[shot] = shoot(page, shots[shot])
            pending.remove((shot, words))
        page.get_by_role("button", name=offered[presses % len(offered)], exact=True).click()
        presses += 1
        try:  # the mirror updates on a later frame; a press not taken is pressed again
            page.wait_for_function(TAKEN, arg=names, timeout=15_000)
        except PlaywrightTimeout:
            continue
    raise RuntimeError(f"the play of {play.composition.to_json()} did not reach FINISH in time")


def photograph(
    browser: Browser, url: str, plan: GamePlan, size: Size, paths: dict[str, Path]
) -> dict[str, Path]:
    """Take the shots of `paths` (shot -> PNG) of one game at one size: each play that gives one
    is a fresh player's; the first play also gives the splash (before PLAY) and the Main Game
    (its first action offered). The shots taken."""
    taken: dict[str, Path] = {}
    for number in range(len(plan.plays)):
        try:
            photograph_play(browser, url, plan, size, paths, number, taken)
        except (RuntimeError, PlaywrightError) as error:
            print(f"shots: {plan.game.id} play {number} at {size.name}: {error}", file=sys.stderr)
    return taken


def photograph_play(
    browser: Browser,
    url: str,
    plan: GamePlan,
    size: Size,
    paths: dict[str, Path],
    number: int,
    taken: dict[str, Path],
) -> None:
    """Add to `taken` each shot of `paths` that the plan's play `number` gives, as it is taken
    (see photograph)."""
    game, play = plan.game, plan.plays[number]
    names = sorted({action.name.lower() for action in game.waits.values()})
    first = {"splash", "main"} & set(paths) if number == 0 else set()
    wanted = {shot: paths[shot] for shot in play.shots if shot in paths}
    if not (first or wanted):
        return
    page = open_game(browser, url, game.id, size)
    try:
        force(page, url, game.id, play)
        if "splash" in first:
            taken["splash"] = shoot(page, paths["splash"])
        if not (wanted or "main" in first):
            return
        page.get_by_role("button", name="PLAY", exact=True).click()
        page.wait_for_function(OFFERED, arg=names, timeout=90_000)
        if "main" in first:
            page.wait_for_timeout(SETTLE_MS)
            taken["main"] = shoot(page, paths["main"])
        if not wanted:
            return
        play_through(page, play, names, wanted, taken)
        if play.end in wanted:
            page.wait_for_timeout(END_MS)
            taken[play.end] = shoot(page, wanted[play.end])
    finally:
        page.context.close()
