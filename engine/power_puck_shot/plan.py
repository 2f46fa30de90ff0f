"""£500K Power Puck Shot: what a play shows, as a plan, and the book events that show it.

Both models' builders (generator.py) and the random-play model (simulate.py) produce a Plan: the
Main Game shots in order with what each reveals, each Bonus Game's shots, the Prize Game's
amounts and the meter; `events` writes it as a book's events (docs/books.md), so a simulated
random play is a book like any other.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.power_puck_shot import rules
from engine.power_puck_shot.geometry import MAX_REVEALS

# What a pip reveals (docs/books.md): tokens.py, re-exported for the builders.
from engine.power_puck_shot.tokens import BONUS, BOOSTER, EXTRA, POT, POWER, PRIZE, SQUARE, SQUARES

__all__ = ["BONUS", "BOOSTER", "EXTRA", "POT", "POWER", "PRIZE", "SQUARE", "SQUARES"]
__all__ += ["MOTIFS_FOR_PUCKS", "MainShot", "Plan", "events"]

MOTIFS_FOR_PUCKS = {pucks: motifs for motifs, pucks in rules.BONUS_PUCKS_FOR_MOTIFS.items()}


@dataclass
class MainShot:
    """One Main Game shot being planned."""

    power: bool
    game: int | None = None  # the Bonus Game this shot unlocks
    reveals: list[str] = field(default_factory=list)

    def room(self) -> int:
        return MAX_REVEALS - len(self.reveals)


@dataclass
class Plan:
    """A whole play: the Main Game shots in order, each Bonus Game's shots, the Prize Game's."""

    main: list[MainShot]
    bonus: list[list[list[str]]]  # game -> shot -> awards
    prize: list[int]  # the amount each Prize Game Puck reveals
    meter: int  # Prize Game symbols at the end of the Main Game
    full: frozenset[str] = frozenset()  # rows a random play fills (simulate.py)


@dataclass
class _Tally:
    """The play's state while the events are written (the replay re-derives it)."""

    squares: Counter[str] = field(default_factory=Counter)
    boosts: Counter[str] = field(default_factory=Counter)
    won: dict[str, int] = field(default_factory=dict)
    meter: int = 0


def events(plan: Plan) -> list[dict[str, Any]]:
    """The book events of a plan (docs/books.md), each with its index."""
    tally = _Tally()
    events: list[dict[str, Any]] = [{"type": "start", "pucks": rules.START_PUCKS}]
    shot_number = 0

    def shot(game: str, reveals: list[str], power: bool = False) -> None:
        nonlocal shot_number
        event = {"type": "shot", "game": game, "shot": shot_number, "reveals": reveals}
        if game == "main":
            event["power"] = power
        events.append(event)
        shot_number += 1

    for main in plan.main:
        shot("main", main.reveals, main.power)
        times = 2 if main.power else 1
        filled = []
        for reveal in main.reveals:
            if reveal.startswith(SQUARE):
                colour = reveal[len(SQUARE) :]
                tally.squares[colour] += times
                if tally.squares[colour] == rules.SQUARES_PER_ROW:
                    filled.append(colour)
            elif reveal == PRIZE:
                tally.meter += times
        for colour in filled:
            pence = rules.row_amount(colour, tally.boosts[colour])
            tally.won[colour] = pence
            events.append({"type": "row_won", "colour": colour, "pence": pence})
        if main.game is None:
            continue
        game = plan.bonus[main.game]
        motifs = main.reveals.count(BONUS) * times  # a Power Puck collects each twice
        events.append({"type": "bonus_start", "pucks": len(game), "motifs": motifs})
        extra = power = 0
        for awards in game:
            shot("bonus", awards)
            for award in awards:
                if award.startswith(BOOSTER):
                    tally.boosts[award[len(BOOSTER) :]] += 1
                elif award.startswith(SQUARES):
                    colour, n = award[len(SQUARES) :].split(":")
                    tally.squares[colour] += int(n)
                elif award == EXTRA:
                    extra += 1
                elif award == POWER:
                    power += 1
                elif award == PRIZE:
                    tally.meter += 1
        events.append({"type": "bonus_end", "extra_pucks": extra, "power_pucks": power})
    if tally.meter != plan.meter:
        raise AssertionError(f"the meter ends at {tally.meter}, the plan says {plan.meter}")
    pot = 0
    if plan.prize:
        symbols = tally.meter
        events.append({"type": "prize_start", "pucks": len(plan.prize), "symbols": symbols})
        for amount in plan.prize:
            shot("prize", [f"{POT}{amount}"])
            pot += amount
    rows = sum(tally.won.values())
    events.append({"type": "end", "rows": rows, "pot": pot, "total": rows + pot})
    return [{"index": i, **event} for i, event in enumerate(events)]
