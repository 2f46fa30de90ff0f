"""The games' math: prize tables as data, exact odds and payout, finite pools and commitments.

Game-agnostic: a table is validated against the Game it belongs to (engine/game.py); the
registry (engine/games.py) loads each game's table.
"""

from __future__ import annotations

from engine.math.pool import Pool, PoolEntry, verify_proof
from engine.math.table import PrizeTable, TableError, Tier, parse_table

__all__ = ["Pool", "PoolEntry", "PrizeTable", "TableError", "Tier", "parse_table", "verify_proof"]
