"""Fixtures shared by every test folder."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from engine import games
from engine.game import Game
from tests import fixtures
from tools.build.dist import build
from tools.build.localserver import CHROMIUM_ARGS, chromium_path, local_server


@pytest.fixture(scope="session")
def dist_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The static site built once for the session (as `build.py dist` builds it)."""
    out = tmp_path_factory.mktemp("dist")
    build(out)
    return out


@pytest.fixture(scope="session")
def server(dist_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real dev server (site + endpoint, test mode, SQLite) in a subprocess; its URL: one
    for the session, shared by the Chromium tests (tests/chromium) and the other browsers'
    (tests/firefox_webkit), each of whose pages is a new player."""
    with local_server(dist_dir, tmp_path_factory.mktemp("var")) as url:
        yield url


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    """One Playwright for the session: its sync API cannot be started twice at once."""
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """One headless Chromium for the session's browser tests, in every folder."""
    b = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
    yield b
    b.close()


@pytest.fixture
def withdrawn(monkeypatch: pytest.MonkeyPatch) -> str:
    """A registered game taken off sale for one test (its presentation withdrawn): the id of
    £500K Power Puck Shot, which the endpoint must then refuse to sell."""
    game = dataclasses.replace(games.get("power-puck-shot"), presentation=None)
    assert not game.on_sale
    monkeypatch.setattr(games, "GAMES", tuple(game if g.id == game.id else g for g in games.GAMES))
    monkeypatch.setattr(games, "BY_ID", {**games.BY_ID, game.id: game})
    return game.id


@pytest.fixture
def test_games(monkeypatch: pytest.MonkeyPatch) -> tuple[Game, ...]:
    """The games only the tests register (tests/fixtures/: PACKAGES), added to the registry for
    one test as the edge adds a game (engine.games.register), the registry restored after."""
    monkeypatch.setattr(games, "GAMES", games.GAMES)
    monkeypatch.setattr(games, "BY_ID", dict(games.BY_ID))
    return tuple(games.register(package) for package in fixtures.PACKAGES)
