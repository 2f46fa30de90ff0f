"""The games' math: prize tables as data, exact odds and payout, finite pools and commitments."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

from engine.math.pool import Pool, PoolEntry, verify_proof
from engine.math.table import PrizeTable, TableError, Tier, parse_table

GAMES = ("lab-riches", "power-puck-shot")

__all__ = [
    "GAMES",
    "Pool",
    "PoolEntry",
    "PrizeTable",
    "TableError",
    "Tier",
    "load_table",
    "parse_table",
    "table_text",
    "verify_proof",
]


def table_text(game_id: str) -> str:
    """The TOML text of a game's prize table, shipped inside this package."""
    if game_id not in GAMES:
        raise TableError(f"{game_id}: unknown game; games are {', '.join(GAMES)}")
    return (resources.files(__package__) / "tables" / f"{game_id}.toml").read_text("utf-8")


@cache
def load_table(game_id: str) -> PrizeTable:
    """The validated prize table of a game (cached); TableError names the game and tier."""
    try:
        data = tomllib.loads(table_text(game_id))
    except tomllib.TOMLDecodeError as exc:
        raise TableError(f"{game_id}: the prize table is not valid TOML: {exc}") from exc
    table = parse_table(data)
    if table.game != game_id:
        raise TableError(f"{game_id}: the table file names the game {table.game!r}")
    return table
