"""The game-agnostic book: compact, sorted JSON that reads back to an equal book."""

import json

import pytest

from engine.book import SCHEMA_VERSION, Book
from engine.outcome import Composition, Part


def make() -> Book:
    composition = Composition.of([Part("row", 500), Part("meter", 400)])
    events = ({"index": 0, "type": "start", "b": 1, "a": [1, 2]}, {"index": 1, "type": "end"})
    return Book("lab-riches", "lab-riches/1", 900, composition, "00" * 16, events)


def test_json_is_compact_sorted_and_round_trips() -> None:
    book = make()
    text = book.to_json()
    assert " " not in text
    assert text.startswith('{"composition":[{"feature":"meter","pence":400}')
    assert '{"a":[1,2],"b":1,"index":0,"type":"start"}' in text
    assert json.loads(text)["schema"] == SCHEMA_VERSION
    again = Book.from_json(text)
    assert again == book
    assert again.to_json() == text


def test_unknown_schema_is_refused() -> None:
    data = make().as_dict()
    data["schema"] = SCHEMA_VERSION + 1
    with pytest.raises(ValueError, match="schema"):
        Book.from_dict(data)
