"""The predetermined outcome of a play: what the math draws, the token carries, the book shows.

A Composition is the list of wins that make up one Prize Amount (e.g. £10 = meter £10, or
row £5 + row £5). Its JSON form is a list of flat objects, sorted canonically:
    [{"feature": "row", "pence": 500}, {"feature": "meter", "pence": 400}]
Power Puck Shot rows also carry their colour and boosts:
    {"feature": "row", "pence": 1000, "colour": "purple", "boosts": 2}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

Detail = tuple[tuple[str, str | int], ...]


@dataclass(frozen=True, order=True)
class Part:
    """One part of an outcome: a feature (row, meter, instant, pot) and the pence it pays, or a
    feature that pays nothing but fixes what the play shows (Power Puck Shot's `bonus`)."""

    feature: str
    pence: int
    detail: Detail = ()

    def __post_init__(self) -> None:
        if not isinstance(self.pence, int) or isinstance(self.pence, bool) or self.pence < 0:
            raise ValueError(f"a part's pence must be an int >= 0, got {self.pence!r}")

    def get(self, key: str) -> str | int | None:
        """The detail value named key, or None."""
        return dict(self.detail).get(key)

    def to_json(self) -> dict[str, str | int]:
        """The flat JSON object of this part."""
        return {"feature": self.feature, "pence": self.pence, **dict(self.detail)}

    @classmethod
    def from_json(cls, data: Mapping[str, str | int]) -> Part:
        """Read a part from its flat JSON object."""
        extra = tuple(sorted((k, v) for k, v in data.items() if k not in {"feature", "pence"}))
        pence = data["pence"]
        if not isinstance(pence, int):
            raise ValueError(f"pence must be an integer, got {pence!r}")
        return cls(str(data["feature"]), pence, extra)


@dataclass(frozen=True)
class Composition:
    """The wins that make up one Prize Amount; empty for a losing play."""

    parts: tuple[Part, ...] = ()

    @classmethod
    def of(cls, parts: Iterable[Part]) -> Composition:
        """A composition with its parts in canonical (sorted) order."""
        return cls(tuple(sorted(parts)))

    @property
    def total(self) -> int:
        """The Prize Amount in pence."""
        return sum(part.pence for part in self.parts)

    def to_json(self) -> list[dict[str, str | int]]:
        """The JSON list of parts."""
        return [part.to_json() for part in self.parts]

    @classmethod
    def from_json(cls, data: Iterable[Mapping[str, str | int]]) -> Composition:
        """Read a composition from its JSON list of parts."""
        return cls.of(Part.from_json(item) for item in data)
