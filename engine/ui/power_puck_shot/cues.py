"""When each £500K Power Puck Shot book event sounds: one handler per event type.

A handler gives the event's timeline, (progress 0..1, cue) pairs at the moments its picture
shows them (timing.py): a shot sounds as the arrow strikes, at each pip it reveals (a bumper's
own sound when the pip is a Pocket's), as the puck drops, and as each symbol lands where it
counts. The notes are in sounds.py; the book player (engine/ui/player.py) plays each cue as its
moment passes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.power_puck_shot import GAME
from engine.power_puck_shot.geometry import POCKETS
from engine.power_puck_shot.tokens import BONUS, BOOSTER, EXTRA, POT, POWER, PRIZE
from engine.ui.celebration import Grade, end_cue, shown
from engine.ui.motion import Motion
from engine.ui.power_puck_shot.timing import (
    FLIGHT,
    JOIN,
    LAUNCH,
    ShotClock,
    path_of,
    power_message_at,
)
from engine.ui.presentation import Timeline, cue_at, silent

Event = Mapping[str, Any]


def landing(reveal: str) -> str | None:
    """The cue of a symbol reaching its place (None: a Bonus motif stays on the grid)."""
    if reveal == BONUS:
        return None
    if reveal.startswith(BOOSTER):
        return "boost"
    if reveal in (EXTRA, POWER):
        return "puck"
    if reveal.startswith(POT):
        return "pot"
    if reveal == PRIZE:
        return "award"
    return "fill"


def _shot(e: Event, m: Motion) -> Timeline:
    clock = ShotClock.of(e)
    path = path_of(e)
    squares = [r.square for r in path.reveals] if path is not None else []
    out: list[tuple[float, str]] = [(0.0, "shoot")]
    for k, (at, reveal) in enumerate(zip(clock.reveals, e["reveals"], strict=True)):
        bumped = k < len(squares) and squares[k] in POCKETS
        out.append((at / clock.total, "bumper" if bumped else "pip"))
        cue = landing(str(reveal))
        if cue is not None:
            out.append(((at + FLIGHT) / clock.total, cue))
    out.append(((LAUNCH + clock.travel) / clock.total, "drop"))
    return tuple(sorted(out))


def _bonus_end(e: Event, m: Motion) -> Timeline:
    out: list[tuple[float, str]] = []
    if int(e.get("extra_pucks", 0)) + int(e.get("power_pucks", 0)):
        out.append((JOIN, "puck"))
    if e.get("power_pucks"):  # 'POWER PUCK ALL SYMBOLS X2' (timing.py: after the return)
        out.append((power_message_at(e), "power"))
    return tuple(out)


def _row_won(e: Event, m: Motion) -> Timeline:
    """A row completed: the rising chord when it pays more than the price, a plain chime for
    the price back or in a free TRY (engine/ui/celebration.py)."""
    return ((0.0, "full" if shown(int(e["pence"]), e, GAME) >= Grade.WIN else "priceback"),)


HANDLERS: dict[str, Callable[[Event, Motion], Timeline]] = {
    "start": silent,
    "shot": _shot,
    "row_won": _row_won,
    "bonus_start": cue_at(0.0, "bonus-game"),
    "bonus_end": _bonus_end,
    "prize_start": cue_at(0.0, "prize-game"),
    "end": end_cue(GAME),
}
