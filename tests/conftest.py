"""Fixtures shared by every test folder."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from engine import games
from tools.dist import build


@pytest.fixture(scope="session")
def dist_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The static site built once for the session (as `build.py dist` builds it)."""
    out = tmp_path_factory.mktemp("dist")
    build(out)
    return out


@pytest.fixture
def withdrawn(monkeypatch: pytest.MonkeyPatch) -> str:
    """A registered game taken off sale for one test (its presentation withdrawn): the id of
    £500K Power Puck Shot, which the endpoint must then refuse to sell."""
    game = dataclasses.replace(games.get("power-puck-shot"), presentation=None)
    assert not game.on_sale
    monkeypatch.setattr(games, "GAMES", tuple(game if g.id == game.id else g for g in games.GAMES))
    monkeypatch.setattr(games, "BY_ID", {**games.BY_ID, game.id: game})
    return game.id
