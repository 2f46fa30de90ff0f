"""£500K Power Puck Shot's examples for tests and benchmarks (tools only, never in the
browser's zip): its golden books and a winning entry (engine.game.Examples)."""

from __future__ import annotations

from typing import Any

# (composition parts, seed hex, SHA-256 of the book's JSON) of model 3 (model 2's are in
# tests/test_power_puck_shot_golden.py). Literals on purpose: they pin behaviour. These bytes
# must never change for a published model: a new presentation means a new model version.
GOLDEN: tuple[tuple[list[dict[str, Any]], str, str], ...] = (
    ([], "00" * 16, "18e4bf2e3b4be0835d63188d915a3c6f03f152a0a4c82cb417391a04c62f9a38"),
    (
        [
            {"feature": "row", "pence": 3000, "colour": "red", "boosts": 1},
            {"feature": "bonus", "pence": 0, "games": 1, "pucks": 1, "boosters": "red"},
        ],
        "0123456789abcdef0123456789abcdef",
        "68b46a2c2e7226fc52fac7207128b2fde7af5302199b98e38a05f859c257b09e",
    ),
    (
        [
            {"feature": "row", "pence": 2500, "colour": "red", "boosts": 0},
            {"feature": "pot", "pence": 2500, "pucks": 2},
        ],
        "f" * 32,
        "2ed9ecf290e4cc18759ff6c91d4b21bdc5c419db3978fee1b84139ca09c01086",
    ),
    (
        [{"feature": "pot", "pence": 10000, "pucks": 1}],  # the £100 Prize Game amount
        "3c" * 16,
        "ed1f8dc0333abaff653a63ab26d569818f3fe99d8315e9c41422e61f9d499992",
    ),
)
# A winning entry (the dark blue row's £5), which test mode's next-entry route can sell.
WIN: list[dict[str, Any]] = [{"feature": "row", "boosts": 0, "pence": 500, "colour": "dark-blue"}]
# The top prize (the yellow row's £500,000): its biggest celebration, which test mode can sell.
CELEBRATION: list[dict[str, Any]] = [
    {"feature": "row", "pence": 50_000_000, "colour": "yellow", "boosts": 0}
]
PRESSES = "shots"  # what its player's page counts
