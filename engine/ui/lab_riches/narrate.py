"""Every Lab Riches book event in words, for the aria-live log (one handler per event type)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.lab_riches import rules
from engine.lab_riches.replay import State
from engine.money import format_pounds
from engine.ui.lab_riches.art import spoken

Event = Mapping[str, Any]


def counted(n: int, one: str, many: str) -> str:
    """'1 go', '2 goes': a number and its noun, singular or plural."""
    return f"{n} {one if n == 1 else many}"


def sentence_start(words: str) -> str:
    """Words with a capital first letter (and the rest as they are: 'DNA' stays 'DNA')."""
    return words[:1].upper() + words[1:]


def _start(e: Event, s: State) -> list[str]:
    return [f"Main game. You have {counted(s.goes_left, 'go', 'goes')}. Press GO to play."]


def _go(e: Event, s: State) -> list[str]:
    top = ", ".join(spoken(name) for name in s.top)
    return [f"Go {e['go']}: {counted(s.goes_left, 'go', 'goes')} left. Top Row: {top}."]


def _prize_boxes(e: Event, s: State) -> list[str]:
    amounts = ", ".join(
        f"row {k + 1} {format_pounds(p, always_pence=False)}" for k, p in enumerate(e["amounts"])
    )
    return [f"Prize Boxes revealed: {amounts}."]


def _lock(e: Event, s: State) -> list[str]:
    return [f"{sentence_start(spoken(e['symbol']))} locked in row {e['row'] + 1}, "
            f"column {e['col'] + 1}."]  # fmt: skip


def _row_win(e: Event, s: State) -> list[str]:
    return [f"Row {e['row'] + 1} complete: you win {format_pounds(e['pence'])}."]


def _segments(e: Event, s: State) -> list[str]:
    where = "from the Bonus Game" if e["source"] == "bonus" else "from the Top Row"
    return [f"{counted(e['count'], 'segment', 'segments')} {where} to the Power Surge Prize Meter: "
            f"{e['meter']} of {rules.METER_SEGMENTS} filled."]  # fmt: skip


def _meter_box(e: Event, s: State) -> list[str]:
    if not e["pence"]:
        return ["The meter's first box is lit: no prize yet, fill 8 segments to win."]
    return [f"Meter box lit: {format_pounds(e['pence'])}."]


def _extra_goes(e: Event, s: State) -> list[str]:
    extra = counted(e["count"], "extra go", "extra goes")
    return [f"{extra}: {counted(e['goes_left'], 'go', 'goes')} left."]


def _bonus_activated(e: Event, s: State) -> list[str]:
    return ["BONUS GAME ACTIVATED. Press GO to start the Bonus Game."]


def award_words(award: str, value: int) -> str:
    """A Bonus Game award in words."""
    if award == rules.SEGMENTS:
        return counted(value, "meter segment", "meter segments")
    if award == rules.EXTRA_GOES:
        return counted(value, "extra go", "extra goes")
    if award == rules.INSTANT:
        return f"an Instant Prize of {format_pounds(value)}"
    return "an up arrow"


def _bonus_row(e: Event, s: State) -> list[str]:
    if e["award"] == rules.UP:
        return [f"Bonus row {e['row'] + 1}: the light lands on an up arrow. "
                "Move up a row: press GO."]  # fmt: skip
    return [f"BONUS GAME: the light lands on {award_words(e['award'], e['value'])}. "
            "YOU HAVE WON."]  # fmt: skip


def _instant(e: Event, s: State) -> list[str]:
    return [f"Instant Prize {format_pounds(e['pence'])} added to INSTANT WINS."]


def _bonus_end(e: Event, s: State) -> list[str]:
    return ["Back to the main game."]


def _end(e: Event, s: State) -> list[str]:
    prizes = int(e["rows_pence"]) + int(e["meter_pence"])
    return [
        f"No goes left. Prizes {format_pounds(prizes)}, "
        f"Instant Prizes {format_pounds(int(e['instant_pence']))}.",
        f"Total won {format_pounds(int(e['total']))}",
    ]


HANDLERS: dict[str, Callable[[Event, State], list[str]]] = {
    "start": _start,
    "go": _go,
    "prize_boxes": _prize_boxes,
    "lock": _lock,
    "row_win": _row_win,
    "segments": _segments,
    "meter_box": _meter_box,
    "extra_goes": _extra_goes,
    "bonus_activated": _bonus_activated,
    "bonus_row": _bonus_row,
    "instant": _instant,
    "bonus_end": _bonus_end,
    "end": _end,
}
