"""The registry of games: the one list everything that works on games iterates.

Adding a game is one line here (see docs/architecture.md, "Adding a game"); a game kept
elsewhere (the tests' Lucky Dice, tests/fixtures/) is added by its package's name, `register`,
called by the edge that knows it: the engine reads no environment.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from engine import lab_riches, power_puck_shot
from engine.game import Game

if TYPE_CHECKING:
    from engine.math.table import PrizeTable

GAMES: tuple[Game, ...] = (
    lab_riches.GAME,
    power_puck_shot.GAME,
)
BY_ID: dict[str, Game] = {game.id: game for game in GAMES}


class UnknownGame(KeyError):
    """A game id that is not in the registry."""

    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r}; games are {', '.join(BY_ID)}"


def register(package: str) -> Game:
    """Add the game a package exports (its GAME) to the registry, after the others; a game
    already registered stays as it is. ValueError for another game of a registered id."""
    global GAMES  # (the one list everything iterates: the edge extends it, once a game)
    game: Game = importlib.import_module(package).GAME
    known = BY_ID.get(game.id)
    if known is not None and known is not game:
        raise ValueError(f"{package} declares {game.id!r}, a game the registry holds already")
    if known is None:
        GAMES = (*GAMES, game)
        BY_ID[game.id] = game
    return game


def packages() -> tuple[str, ...]:
    """The package of every registered game (its home, which exports its GAME), in order: a
    process the endpoint starts registers them (`register`) to hold the same games."""
    return tuple(game.home for game in GAMES)


def ids() -> tuple[str, ...]:
    """Every game's id, in the registry's order."""
    return tuple(BY_ID)


def get(game_id: str) -> Game:
    """The game with this id; UnknownGame (a KeyError) for any other."""
    try:
        return BY_ID[game_id]
    except (KeyError, TypeError):
        raise UnknownGame(game_id) from None


def on_sale() -> tuple[Game, ...]:
    """The games a player can buy: every part of a play exists."""
    return tuple(game for game in GAMES if game.on_sale)


def load_table(game_id: str) -> PrizeTable:
    """The validated prize table of a game (cached on the game)."""
    table: PrizeTable = get(game_id).table
    return table
