"""A book's events folded into the visible state after each one: every game's replay.

A game gives `apply(state_or_None, event) -> state` (its rules of what an event changes); the
fold keeps the state after every event, so a screen can draw any moment of a play and an
interrupted play resumes at any event. It never decides anything.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

from engine.book import Book

S = TypeVar("S")


class Fold(Generic[S]):
    """Steps through a book's events; `state_at(i)` is the state after event i."""

    def __init__(
        self, book: Book | Mapping[str, Any], apply: Callable[[S | None, Mapping[str, Any]], S]
    ) -> None:
        events = book.events if isinstance(book, Book) else tuple(book["events"])
        self.events: tuple[Mapping[str, Any], ...] = events
        states: list[S] = []
        state: S | None = None
        for event in events:
            state = apply(state, event)
            states.append(state)
        self._states = tuple(states)

    def __len__(self) -> int:
        return len(self.events)

    def __iter__(self) -> Iterator[tuple[Mapping[str, Any], S]]:
        """Each event with the visible state after it, in order."""
        return iter(zip(self.events, self._states, strict=True))

    def state_at(self, index: int) -> S:
        """The visible state after event index (to draw or resume from)."""
        if not 0 <= index < len(self._states):
            raise IndexError(f"event index {index} is outside 0..{len(self._states) - 1}")
        return self._states[index]
