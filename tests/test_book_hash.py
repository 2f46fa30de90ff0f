"""The book hash (engine/book_hash.py): golden vectors, one per game on sale, and its writer."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from engine import games
from engine.book import Book
from engine.book_hash import book_hash, canonical_bytes
from engine.outcome import Composition

# (game, model, composition JSON, seed hex, hash): these entries must hash to these values for
# ever (a play sold under the model is recalled against its hash). Each is its golden book's
# digest in tests/test_<game>_golden.py.
GOLDEN: list[tuple[str, str, list[dict[str, Any]], str, str]] = [
    (
        "lab-riches",
        "lab-riches/2",
        [],
        "00" * 16,
        "507e6a0573d0f1788fde0836db46aa741e2cb1f5d239d740fe44f82686ce27da",
    ),
    (
        "power-puck-shot",
        "power-puck-shot/2",
        [
            {"feature": "row", "pence": 3000, "colour": "red", "boosts": 1},
            {"feature": "bonus", "pence": 0, "games": 1, "pucks": 1, "boosters": "red"},
        ],
        "0123456789abcdef0123456789abcdef",
        "6c7ecd72c07f8bd2baaa1d77552deffae09fb3cf0edb11f76e4656934cfbdd24",
    ),
]


@pytest.mark.parametrize(("game", "model", "parts", "seed", "digest"), GOLDEN)
def test_golden_book_hashes(
    game: str, model: str, parts: list[dict[str, Any]], seed: str, digest: str
) -> None:
    composition = Composition.from_json(parts)
    assert book_hash(games.get(game), model, composition, bytes.fromhex(seed)) == digest


def test_the_writer_given_writes_the_bytes_hashed() -> None:
    """Another writer of the same bytes gives the same hash; the hash is of what it writes."""
    game = games.get("lab-riches")
    empty = Composition.from_json([])
    seen: list[Book] = []

    def noted(built: Book) -> bytes:
        seen.append(built)
        return canonical_bytes(built)

    plain = book_hash(game, "lab-riches/2", empty, bytes(16))
    assert book_hash(game, "lab-riches/2", empty, bytes(16), noted) == plain
    assert plain == hashlib.sha256(seen[0].to_json().encode()).hexdigest()
    assert book_hash(game, "lab-riches/2", empty, bytes(16), lambda b: b"other") != plain
