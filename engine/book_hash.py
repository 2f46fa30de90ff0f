"""The book hash: SHA-256 of a book's canonical bytes (docs/books.md, "the bytes").

A play's recall rebuilds its book and is refused when this hash differs from the one recorded
at its sale, so no engine change can make a past play show something else.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from engine.book import Book
from engine.game import Game
from engine.outcome import Composition

Encode = Callable[[Book], bytes]


def canonical_bytes(built: Book) -> bytes:
    """A book's canonical bytes: its JSON as `Book.to_json` writes it (ASCII)."""
    return built.to_json().encode()


def book_hash(
    game: Game, model: str, composition: Composition, seed: bytes, encode: Encode = canonical_bytes
) -> str:
    """SHA-256 hex of the canonical bytes of the book `game` builds for a pool entry. `encode`
    may write those bytes faster (the endpoint's orjson writer), never other bytes."""
    return hashlib.sha256(encode(game.book(model, composition, seed))).hexdigest()
