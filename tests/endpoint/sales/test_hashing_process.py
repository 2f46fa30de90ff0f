"""A book's hash is the SHA-256 of its canonical bytes (docs/books.md), written fast
(web/endpoint/sales/hashing_process.py)."""

import hashlib
from dataclasses import replace

from engine import games
from engine.book import Book
from engine.book_hash import book_hash
from tools.bench.engine import draws
from web.endpoint.sales.hashing_process import orjson_bytes


def test_the_fast_writer_gives_every_model_s_books_the_bytes_of_to_json() -> None:
    """orjson writes the books the hasher hashes; the definition is Book.to_json: the same
    bytes for books of every model of both games, winning and losing (drawn as a pool sells
    them)."""
    checked = 0
    for game in games.on_sale():
        assert game.models
        for model in game.models:
            for n, composition in enumerate(draws(game, 1000)):
                built = game.book(model, composition, n.to_bytes(16, "big"))
                assert orjson_bytes(built) == built.to_json().encode(), (model, n)
                checked += 1
        seed = bytes(range(16))
        composition = draws(game, 1)[0]
        built = game.book(game.table.model, composition, seed)
        expected = hashlib.sha256(built.to_json().encode()).hexdigest()
        assert book_hash(game, game.table.model, composition, seed, orjson_bytes) == expected
    assert checked >= 4000


def test_a_book_outside_the_canonical_form_is_written_by_to_json() -> None:
    """Not ASCII (to_json escapes it, orjson would not) or an integer past 64 bits (orjson
    refuses it): to_json's bytes all the same."""
    game = games.on_sale()[0]
    built = game.book(game.table.model, draws(game, 1)[0], bytes(16))
    for odd in ({"type": "note", "text": "£5", "index": 99}, {"type": "x", "n": 2**70}):
        changed: Book = replace(built, events=(*built.events, odd))
        assert orjson_bytes(changed) == changed.to_json().encode()
    assert b"\\u00a35" in orjson_bytes(replace(built, events=({"t": "£5"},)))
