"""The games' math: prize tables as data, exact odds and payout, finite pools and commitments.

Game-agnostic: a table is validated against the Game it belongs to (engine/game.py); the
registry (engine/games.py) loads each game's table. The pool modules (pool, leaves, merkle,
shuffle) are imported by their own names: the screens use only the table and its figures, so
the browser's game zip does not carry them.
"""

from __future__ import annotations

from engine.math.table import PrizeTable, TableError, Tier, parse_table

__all__ = ["PrizeTable", "TableError", "Tier", "parse_table"]
