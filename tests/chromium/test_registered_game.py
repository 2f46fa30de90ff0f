"""A game registered beyond the registry's own (the tests' Lucky Dice, tests/fixtures/) played in
the browser: the site built with it registered (engine.games.register, as the edge registers a
game), the dev server told of it (LOTTERY_GAMES); the lobby offers it, and one play of it is
bought and played to FINISH through the mirrored buttons its Controls declare."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from engine import games
from engine.game import Game
from engine.ui.games import presentation
from tests import fixtures
from tests.chromium.test_lab_riches import MIRROR, api, choose, pence_of
from tests.chromium.test_lobby import lobby
from tools.build.dist import build
from tools.build.localserver import local_server
from web.devserver import GAMES_VARIABLE


@pytest.fixture(scope="module")
def registered(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Game, str, Path]]:
    """The tests' games registered for this module (the registry restored after), the site
    built with them and the dev server that registers them too: (the game, its URL, dist)."""
    out = tmp_path_factory.mktemp("dist-registered")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(games, "GAMES", games.GAMES)
        patch.setattr(games, "BY_ID", dict(games.BY_ID))
        added = [games.register(package) for package in fixtures.PACKAGES]
        build(out / "dist")
        env = {GAMES_VARIABLE: ",".join(fixtures.PACKAGES)}
        with local_server(out / "dist", out / "var", env=env) as url:
            yield added[0], url, out / "dist"


def test_the_build_packs_it_in_its_own_zip_and_names_it_for_the_worker(
    registered: tuple[Game, str, Path],
) -> None:
    game, _url, dist = registered
    html = (dist / "index.html").read_text()
    config = json.loads(re.findall(r'id="lottery-config"[^>]*>(.*?)</script>', html)[0])
    assert config["game"]["register"] == [game.home]
    entry = next(entry for entry in config["game"]["games"] if entry["id"] == game.id)
    assert entry["packages"] == [game.home] and entry["bytes"] > 0


@pytest.mark.parametrize("view", ["phone"])
def test_the_lobby_offers_it_and_one_play_runs_to_finish(
    browser: Browser, registered: tuple[Game, str, Path], view: str
) -> None:
    game, url, _dist = registered
    controls = presentation(game).controls
    page, watch = lobby(browser, url, view)  # a new player on the lobby, faster animations
    win = game.load_examples().WIN
    choose(page, url, win, game=game.id)
    page.get_by_role("button", name=f"PLAY {game.name}", exact=True).click()
    page.wait_for_url(f"**/?game={game.id}&fast=1", timeout=30_000)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page).to_have_title(game.name)
    expect(page.locator("#log")).to_contain_text("Balance £", timeout=30_000)
    before = api(page, url, "GET", "/api/wallet")["balance_pence"]
    page.get_by_role("button", name="PLAY", exact=True).click()
    presses, deadline = 0, time.monotonic() + 120
    while time.monotonic() < deadline:  # each declared control pressed when offered
        offered = [label for label, on in page.evaluate(MIRROR) if on]
        if "FINISH" in offered:
            break
        label = controls.to_finish(offered, presses)
        if label is None:
            page.wait_for_timeout(100)
            continue
        page.get_by_role("button", name=label, exact=True).click()
        presses += 1
        page.wait_for_timeout(100)
    assert presses >= 1
    page.get_by_role("button", name="FINISH", exact=True).click()
    log = page.locator("#log")
    expect(log).to_contain_text("finished", timeout=30_000)
    prize = sum(int(part["pence"]) for part in win)
    assert pence_of(log.inner_text()) == prize
    number = int(re.findall(r"Play number (\d+) finished", log.inner_text())[-1])
    played = api(page, url, "GET", f"/api/plays/{number}")
    assert (played["game"], played["prize_pence"]) == (game.id, prize)
    after = api(page, url, "GET", "/api/wallet")["balance_pence"]
    assert after == before - game.price_pence + prize
    assert watch.errors == [] and watch.foreign == []
    page.context.close()
