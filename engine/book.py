"""The book: one play as an ordered list of flat events, game-agnostic (schema in docs/books.md).

JSON form (compact, sorted keys):
    {"composition": [...], "events": [{"index": 0, "type": "start", ...}, ...],
     "game": "lab-riches", "model": "lab-riches/1", "prize_pence": 500,
     "schema": 1, "seed": "<32 hex digits>"}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.outcome import Composition

SCHEMA_VERSION = 1

Event = Mapping[str, Any]


@dataclass(frozen=True)
class Book:
    """A whole play: what was decided (prize, composition, seed) and every event shown."""

    game: str
    model: str
    prize_pence: int
    composition: Composition
    seed: str
    events: tuple[Event, ...]
    schema: int = SCHEMA_VERSION

    def as_dict(self) -> dict[str, Any]:
        """The plain JSON object of this book."""
        return {
            "schema": self.schema,
            "game": self.game,
            "model": self.model,
            "prize_pence": self.prize_pence,
            "composition": self.composition.to_json(),
            "seed": self.seed,
            "events": [dict(event) for event in self.events],
        }

    def to_json(self) -> str:
        """Compact JSON with sorted keys: the same book always gives the same bytes."""
        return json.dumps(self.as_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Book:
        """Read a book from its parsed JSON object."""
        schema = data.get("schema")
        if schema != SCHEMA_VERSION:
            raise ValueError(f"unsupported book schema {schema!r}, expected {SCHEMA_VERSION}")
        return cls(
            game=str(data["game"]),
            model=str(data["model"]),
            prize_pence=int(data["prize_pence"]),
            composition=Composition.from_json(data["composition"]),
            seed=str(data["seed"]),
            events=tuple(dict(event) for event in data["events"]),
            schema=schema,
        )

    @classmethod
    def from_json(cls, text: str) -> Book:
        """Read a book from its JSON text."""
        return cls.from_dict(json.loads(text))
