"""When each Lab Riches book event sounds: one handler per event type, as for the narration.

A handler gives the event's timeline: (progress, cue) pairs, progress being the share of the
event's animation (0..1) at which its picture shows the moment (engine/ui/lab_riches/paint.py
and bonus.py draw them), given how it may move now (the Bonus Game light runs fewer steps when
its event is short: engine/ui/motion.py). The book player (engine/ui/player.py) plays each cue
as its moment passes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.lab_riches import GAME, rules
from engine.ui.celebration import Grade, end_cue, shown
from engine.ui.lab_riches.bonus import REST_AT, light_moves, light_steps
from engine.ui.lab_riches.paint import ARRIVE, LAND, sweep_starts
from engine.ui.motion import Motion
from engine.ui.presentation import Timeline, cue_at, silent

Event = Mapping[str, Any]


def _go(e: Event, m: Motion) -> Timeline:
    return ((0.0, "go"), *((at, "column") for at in sweep_starts()))


def prized(pence: int, e: Event) -> str:
    """The cue of a prize shown (a row, a paying meter box, an Instant Prize): the prize chime
    for more than the price, a plain one for the price back or in a free TRY (celebration.py)."""
    return "row" if shown(pence, e, GAME) >= Grade.WIN else "priceback"


def _meter_box(e: Event, m: Motion) -> Timeline:
    return ((0.0, prized(int(e["pence"]), e) if e["pence"] else "meter"),)


def _row_win(e: Event, m: Motion) -> Timeline:
    return ((0.0, prized(int(e["pence"]), e)),)


def _instant(e: Event, m: Motion) -> Timeline:
    return ((LAND, prized(int(e["pence"]), e)),)


def _bonus_row(e: Event, m: Motion) -> Timeline:
    steps = light_steps(len(rules.BONUS_ROW_LAYOUTS[int(e["row"])]), m)
    return ((0.0, "go"), *((at, "tick") for at in light_moves(steps)), (REST_AT, "rest"))


HANDLERS: dict[str, Callable[[Event, Motion], Timeline]] = {
    "start": silent,
    "go": _go,
    "prize_boxes": silent,
    "lock": cue_at(0.0, "lock"),
    "row_win": _row_win,
    "segments": cue_at(ARRIVE, "meter"),
    "meter_box": _meter_box,
    "extra_goes": cue_at(0.0, "goes"),
    "bonus_activated": cue_at(0.0, "bonus"),
    "bonus_row": _bonus_row,
    "instant": _instant,
    "bonus_end": silent,
    "end": end_cue(GAME),
}
