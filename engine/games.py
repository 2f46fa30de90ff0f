"""The registry of games: the one list everything that works on games iterates.

Adding a game is one line here (see docs/architecture.md, "Adding a game").
"""

from __future__ import annotations

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
