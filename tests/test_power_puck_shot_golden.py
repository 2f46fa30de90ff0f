"""Golden books of model power-puck-shot/2: these inputs must give exactly these bytes on every
CPython, for ever (plays sold under model 2 replay from them). The current model's golden books
are in tests/test_game_conformance.py.

If the generator changes on purpose, the model version changes with it (docs/books.md).
"""

import hashlib
import json
from typing import Any

import pytest

from engine.outcome import Composition
from engine.power_puck_shot.generator import build_book
from engine.power_puck_shot.validator import validate

# Model 2, the prize table's model until 2026-12-02: (composition, seed hex, SHA-256 of the JSON).
GOLDEN_2: list[tuple[list[dict[str, Any]], str, str]] = [
    ([], "00" * 16, "d93f26d40540bdb8ca40f79dc19054f2ad99b60143fa82c1d5e833777db5db9c"),
    (
        [
            {"feature": "row", "pence": 3000, "colour": "red", "boosts": 1},
            {"feature": "bonus", "pence": 0, "games": 1, "pucks": 1, "boosters": "red"},
        ],
        "0123456789abcdef0123456789abcdef",
        "6c7ecd72c07f8bd2baaa1d77552deffae09fb3cf0edb11f76e4656934cfbdd24",
    ),
    (
        [
            {"feature": "row", "pence": 2500, "colour": "red", "boosts": 0},
            {"feature": "pot", "pence": 2500, "pucks": 2},
        ],
        "f" * 32,
        "842a47edde6e4baf072e002fda567520850443da84477347a2d4635411db59ac",
    ),
    (
        [
            {
                "feature": "bonus",
                "pence": 0,
                "games": 2,
                "pucks": 2,
                "boosters": "light-blue",
                "symbols": 1,
            }
        ],  # a losing play with two Bonus Games
        "5a" * 16,
        "ef4bc378e9ed72930274444992f08dacdbe8677fa45b61942a5990295adefecd",
    ),
]


@pytest.mark.parametrize(("parts", "seed", "digest"), GOLDEN_2)
def test_model_2_golden_book_bytes(parts: list[dict[str, Any]], seed: str, digest: str) -> None:
    book = build_book("power-puck-shot/2", Composition.from_json(parts), bytes.fromhex(seed))
    assert hashlib.sha256(book.to_json().encode()).hexdigest() == digest
    assert validate(json.loads(book.to_json())) == []  # the validator follows the book's model


def test_a_model_2_book_is_held_to_model_2_rules() -> None:
    """Model 2's bonus part is every award its Bonus Games show: one more award is a fault."""
    parts, seed, _ = GOLDEN_2[3]
    book = json.loads(
        build_book("power-puck-shot/2", Composition.from_json(parts), bytes.fromhex(seed)).to_json()
    )
    bonus = next(e for e in book["events"] if e["type"] == "shot" and e["game"] == "bonus")
    bonus["reveals"].append("extra")
    assert any("Bonus" in fault for fault in validate(book))
