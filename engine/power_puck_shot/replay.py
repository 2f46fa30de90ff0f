"""£500K Power Puck Shot: the replay state machine the screens drive, one book event at a time.

It never decides anything: it folds the book's events (docs/books.md) into the visible state
after each one, so a screen can draw any moment of the play and an interrupted play can resume
at any event. What a shot's path looks like depends on the arrow chosen (paths.py), not on this.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.book import Book
from engine.power_puck_shot import rules
from engine.power_puck_shot.tokens import BONUS, BOOSTER, EXTRA, POT, POWER, PRIZE, SQUARE
from engine.power_puck_shot.tokens import SQUARES as SQUARES_AWARD
from engine.replay import Fold

Counts = tuple[int, ...]  # one number per Prize Table colour, in rules.COLOURS order
NONE: Counts = (0,) * len(rules.COLOURS)


def _add(counts: Counts, colour: str, n: int) -> Counts:
    at = rules.COLOURS.index(colour)
    return (*counts[:at], counts[at] + n, *counts[at + 1 :])


@dataclass(frozen=True)
class State:
    """What the player sees after an event."""

    index: int
    event_type: str
    stage: str  # "main", "bonus", "prize" or "end": the screen the play is on
    pucks_left: int  # Main Game Pucks (a Power Puck counts among them too)
    power_pucks: int  # of which Power Pucks, played first
    bonus_pucks_left: int
    prize_pucks_left: int
    squares: Counts  # squares filled in each Prize Table row (12 fills it)
    boosts: Counts  # boosts of each row (its amount: rules.row_amount)
    won: tuple[tuple[str, int], ...]  # (colour, pence) of each row won, in the order won
    meter: int  # Prize Game symbols collected (0-10)
    pot: int  # the PRIZE POT so far
    pending_extra: int  # extra Pucks and Power Pucks a Bonus Game has awarded, added at its end
    pending_power: int
    finished: bool = False

    def amount(self, colour: str) -> int:
        """The row's amount now (after its boosts)."""
        return rules.row_amount(colour, self.boosts[rules.COLOURS.index(colour)])

    @property
    def total(self) -> int:
        """What the play has won so far: the rows won and the pot."""
        return sum(pence for _, pence in self.won) + self.pot


def _main_shot(s: State, event: Mapping[str, Any]) -> State:
    power = bool(event.get("power"))
    times = 2 if power else 1
    squares, meter = s.squares, s.meter
    for reveal in event["reveals"]:
        if reveal.startswith(SQUARE):
            squares = _add(squares, reveal[len(SQUARE) :], times)
        elif reveal == PRIZE:
            meter = min(rules.METER_SEGMENTS, meter + times)
        elif reveal != BONUS:
            raise ValueError(f"a Main Game pip cannot reveal {reveal!r}")
    return replace(
        s,
        stage="main",
        pucks_left=s.pucks_left - 1,
        power_pucks=s.power_pucks - power,
        squares=squares,
        meter=meter,
    )


def _bonus_shot(s: State, event: Mapping[str, Any]) -> State:
    squares, boosts, meter = s.squares, s.boosts, s.meter
    extra, power = s.pending_extra, s.pending_power
    for award in event["reveals"]:
        if award.startswith(BOOSTER):
            boosts = _add(boosts, award[len(BOOSTER) :], 1)
        elif award.startswith(SQUARES_AWARD):
            colour, n = award[len(SQUARES_AWARD) :].split(":")
            squares = _add(squares, colour, int(n))
        elif award == EXTRA:
            extra += 1
        elif award == POWER:
            power += 1
        elif award == PRIZE:
            meter = min(rules.METER_SEGMENTS, meter + 1)
        else:
            raise ValueError(f"a Bonus Game pip cannot reveal {award!r}")
    return replace(
        s,
        bonus_pucks_left=s.bonus_pucks_left - 1,
        squares=squares,
        boosts=boosts,
        meter=meter,
        pending_extra=extra,
        pending_power=power,
    )


def apply(s: State | None, event: Mapping[str, Any]) -> State:
    """The state after one event."""
    kind = str(event["type"])
    if s is None:
        if kind != "start":
            raise ValueError("a book starts with its start event")
        pucks = int(event["pucks"])
        return State(0, kind, "main", pucks, 0, 0, 0, NONE, NONE, (), 0, 0, 0, 0)
    s = replace(s, index=int(event["index"]), event_type=kind)
    if kind == "shot":
        game = event["game"]
        if game == "main":
            return _main_shot(s, event)
        if game == "bonus":
            return _bonus_shot(s, event)
        if game == "prize":
            (reveal,) = event["reveals"]
            amount = int(str(reveal)[len(POT) :])
            return replace(s, prize_pucks_left=s.prize_pucks_left - 1, pot=s.pot + amount)
        raise ValueError(f"unknown game {game!r} of a shot")
    if kind == "row_won":
        return replace(s, won=(*s.won, (str(event["colour"]), int(event["pence"]))))
    if kind == "bonus_start":
        pucks = int(event["pucks"])
        return replace(s, stage="bonus", bonus_pucks_left=pucks, pending_extra=0, pending_power=0)
    if kind == "bonus_end":
        added = s.pending_extra + s.pending_power
        return replace(
            s,
            stage="main",
            pucks_left=s.pucks_left + added,
            power_pucks=s.power_pucks + s.pending_power,
            pending_extra=0,
            pending_power=0,
        )
    if kind == "prize_start":
        return replace(s, stage="prize", prize_pucks_left=int(event["pucks"]))
    if kind == "end":
        return replace(s, stage="end", finished=True)
    raise ValueError(f"unknown Power Puck Shot event type {kind!r}")


class Replay(Fold[State]):
    """Steps through a book's events; `state_at(i)` restores the state after event i."""

    def __init__(self, book: Book | Mapping[str, Any]) -> None:
        super().__init__(book, apply)
