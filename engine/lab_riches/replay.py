"""Lab Riches: the replay state machine the screens drive, one book event at a time.

It never decides anything: it folds the book's events into the visible state after each one,
so a screen can draw any moment of the play and an interrupted play can resume at any index.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.book import Book
from engine.lab_riches import rules
from engine.replay import Fold

Grid = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class BonusState:
    """The Bonus Game on screen: the row the light is on and the segments landed on so far."""

    row: int = 0
    landed: tuple[int, ...] = ()
    award: tuple[str, int] | None = None


@dataclass(frozen=True)
class State:
    """What the player sees after an event."""

    index: int
    event_type: str
    go: int
    goes_left: int
    grid: Grid
    top: tuple[str, ...]
    top_active: bool
    locks: frozenset[tuple[int, int]]
    prize_boxes: tuple[int, ...] | None
    won_rows: tuple[int, ...]
    meter: int
    meter_box: int | None
    bonus: BonusState | None
    rows_pence: int
    instant_pence: int
    finished: bool

    @property
    def meter_pence(self) -> int:
        """The prize of the meter box lit now (0 when none pays)."""
        return rules.METER_BOXES[self.meter_box][2] if self.meter_box is not None else 0

    @property
    def total(self) -> int:
        """Wins so far: completed rows, the meter box lit now, Instant Prizes."""
        return self.rows_pence + self.meter_pence + self.instant_pence


def _grid(rows: Any) -> Grid:
    """An immutable copy of a grid from an event."""
    return tuple(tuple(row) for row in rows)


def apply(state: State | None, event: Mapping[str, Any]) -> State:
    """The state after one event (state is None before the start event)."""
    kind = str(event["type"])
    index = int(event["index"])
    if state is None:
        if kind != "start":
            raise ValueError("a book must begin with its start event")
        return State(
            index, kind, 0, int(event["goes_left"]), _grid(event["grid"]), tuple(event["top"]),
            False, frozenset(), None, (), 0, None, None, 0, 0, False,
        )  # fmt: skip
    s = replace(state, index=index, event_type=kind)
    if kind == "go":
        return replace(
            s, go=int(event["go"]), goes_left=int(event["goes_left"]), grid=_grid(event["grid"]),
            top=tuple(event["top"]), top_active=True,
        )  # fmt: skip
    if kind == "prize_boxes":
        return replace(s, prize_boxes=tuple(event["amounts"]))
    if kind == "lock":
        return replace(s, locks=s.locks | {(int(event["row"]), int(event["col"]))})
    if kind == "row_win":
        return replace(
            s, won_rows=(*s.won_rows, int(event["row"])), rows_pence=s.rows_pence + event["pence"]
        )
    if kind == "segments":
        return replace(s, meter=int(event["meter"]))
    if kind == "meter_box":
        return replace(s, meter_box=int(event["box"]))
    if kind == "extra_goes":
        return replace(s, goes_left=int(event["goes_left"]))
    if kind == "bonus_activated":
        return replace(s, bonus=BonusState())
    if kind == "bonus_row":
        bonus = s.bonus or BonusState()
        award = None if event["award"] == rules.UP else (str(event["award"]), int(event["value"]))
        return replace(
            s,
            bonus=BonusState(int(event["row"]), (*bonus.landed, int(event["landed"])), award),
        )
    if kind == "instant":
        return replace(s, instant_pence=s.instant_pence + int(event["pence"]))
    if kind == "bonus_end":
        return replace(s, bonus=None)
    if kind == "end":
        return replace(s, finished=True)
    raise ValueError(f"unknown Lab Riches event type {kind!r}")


class Replay(Fold[State]):
    """Steps through a book's events; `state_at(i)` restores the state after event i."""

    def __init__(self, book: Book | Mapping[str, Any]) -> None:
        super().__init__(book, apply)
        self.position = -1

    def restore(self, index: int) -> State:
        """Move the cursor to event index and return the state there."""
        state = self.state_at(index)
        self.position = index
        return state

    def step(self) -> tuple[Mapping[str, Any], State] | None:
        """Advance the cursor by one event; None when the play is over."""
        if self.position + 1 >= len(self.events):
            return None
        self.position += 1
        return self.events[self.position], self._states[self.position]
