"""Lab Riches' examples for tests and benchmarks (tools only, never in the browser's zip):
its golden books and a winning entry (engine.game.Examples)."""

from __future__ import annotations

from typing import Any

# (composition parts, seed hex, SHA-256 of the book's JSON) of the current model. Literals on
# purpose: they pin behaviour. These bytes must never change for a published model: a new
# presentation means a new model version (tests/test_game_conformance.py holds them).
GOLDEN: tuple[tuple[list[dict[str, Any]], str, str], ...] = (
    ([], "00" * 16, "b89d00cabc1cd68be0eed3e1b38a66761e502be32287b337139853ea808877b3"),
    (
        [{"feature": "row", "pence": 500}, {"feature": "meter", "pence": 400}],
        "0123456789abcdef0123456789abcdef",
        "53bfd32ad63bcb000199e813d00185caccf174b516ca65d4868f3d0647bb5a2a",
    ),
    (
        [{"feature": "instant", "pence": 2000}, {"feature": "meter", "pence": 100000}],
        "f" * 32,
        "f4be986f60189333ad8f82ced179719261fb439f3cf89ba47242f30f3e0a8401",
    ),
)
# A winning entry (a row's £3 Prize Box), which test mode's next-entry route can sell.
WIN: list[dict[str, Any]] = [{"feature": "row", "pence": 300}]
# The top prize (the meter's £250,000): its biggest celebration, which test mode can sell.
CELEBRATION: list[dict[str, Any]] = [{"feature": "meter", "pence": 25_000_000}]
PRESSES = "GO presses"  # what its player's page counts
