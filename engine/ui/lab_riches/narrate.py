"""Every Lab Riches book event in words, for the aria-live log (one handler per event type),
each said at the moment of its animation that shows it (paint.py, bonus.py): the Top Row once
it has turned over, segments once they reach the meter, extra goes and an Instant Prize once
they land in their box, the Bonus Game's award once the light rests on it and 'YOU HAVE WON'
shows, the totals once the end message shows."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.lab_riches import GAME, rules
from engine.lab_riches.replay import State
from engine.money import format_pounds
from engine.ui.celebration import COUNTED, Grade, headline, of_end, shown, total_words, won_words
from engine.ui.lab_riches import intro
from engine.ui.lab_riches.art import spoken
from engine.ui.lab_riches.bonus import REST_AT, WON_AT
from engine.ui.lab_riches.paint import ARRIVE, LAND, REVEAL, TURNED
from engine.ui.presentation import Said, said_at

Event = Mapping[str, Any]


def counted(n: int, one: str, many: str) -> str:
    """'1 go', '2 goes': a number and its noun, singular or plural."""
    return f"{n} {one if n == 1 else many}"


def sentence_start(words: str) -> str:
    """Words with a capital first letter (and the rest as they are: 'DNA' stays 'DNA')."""
    return words[:1].upper() + words[1:]


def _start(e: Event, s: State) -> Said:
    goes = counted(s.goes_left, "go", "goes")
    return said_at(0.0, f"Main game. You have {goes}. Press GO to play.")


def _go(e: Event, s: State) -> Said:
    top = ", ".join(spoken(name) for name in s.top)
    goes = counted(s.goes_left, "go", "goes")
    return said_at(REVEAL, f"Go {e['go']}: {goes} left. Top Row: {top}.")


def _prize_boxes(e: Event, s: State) -> Said:
    amounts = ", ".join(
        f"row {k + 1} {format_pounds(p, always_pence=False)}" for k, p in enumerate(e["amounts"])
    )
    return said_at(TURNED, f"Prize Boxes revealed: {amounts}.")


def _lock(e: Event, s: State) -> Said:
    symbol = sentence_start(spoken(e["symbol"]))
    return said_at(0.0, f"{symbol} locked in row {e['row'] + 1}, column {e['col'] + 1}.")


def _row_win(e: Event, s: State) -> Said:
    pence = int(e["pence"])
    won = won_words(format_pounds(pence), shown(pence, e, GAME))
    return said_at(0.0, f"Row {e['row'] + 1} complete{won}.")


def _segments(e: Event, s: State) -> Said:
    where = "from the Bonus Game" if e["source"] == "bonus" else "from the Top Row"
    count = counted(e["count"], "segment", "segments")
    return said_at(ARRIVE, f"{count} {where} to the Power Surge Prize Meter: "
                           f"{e['meter']} of {rules.METER_SEGMENTS} filled.")  # fmt: skip


def _meter_box(e: Event, s: State) -> Said:
    if not e["pence"]:
        return said_at(0.0, "The meter's first box is lit: no prize yet, fill 8 segments to win.")
    return said_at(0.0, f"Meter box lit: {format_pounds(e['pence'])}.")


def _extra_goes(e: Event, s: State) -> Said:
    extra = counted(e["count"], "extra go", "extra goes")
    return said_at(LAND, f"{extra}: {counted(e['goes_left'], 'go', 'goes')} left.")


def _bonus_activated(e: Event, s: State) -> Said:
    # (what to press is the prompt's to say, at the rest after it: not while REVEAL ALL runs)
    return said_at(intro.banner_said(), "BONUS GAME ACTIVATED.")


def award_words(award: str, value: int) -> str:
    """A Bonus Game award in words."""
    if award == rules.SEGMENTS:
        return counted(value, "meter segment", "meter segments")
    if award == rules.EXTRA_GOES:
        return counted(value, "extra go", "extra goes")
    if award == rules.INSTANT:
        return f"an Instant Prize of {format_pounds(value)}"
    return "an up arrow"


def _bonus_row(e: Event, s: State) -> Said:
    if e["award"] == rules.UP:  # once the light rests on it
        return said_at(REST_AT, f"Bonus row {e['row'] + 1}: the light lands on an up arrow. "
                                "Move up a row: press GO.")  # fmt: skip
    award = award_words(e["award"], e["value"])  # once 'YOU HAVE WON' shows
    return said_at(WON_AT, f"BONUS GAME: the light lands on {award}. YOU HAVE WON.")


def _instant(e: Event, s: State) -> Said:
    return said_at(LAND, f"Instant Prize {format_pounds(e['pence'])} added to INSTANT WINS.")


def _bonus_end(e: Event, s: State) -> Said:
    return said_at(0.0, "Back to the main game.")


def _end(e: Event, s: State) -> Said:
    prizes = int(e["rows_pence"]) + int(e["meter_pence"])
    g, total = of_end(e, GAME), int(e["total"])
    cheer = [headline(g, total)] if g >= Grade.BIG_WIN else []
    return said_at(  # as the end message shows its total, counted up
        COUNTED,
        *cheer,
        f"No goes left. Prizes {format_pounds(prizes)}, "
        f"Instant Prizes {format_pounds(int(e['instant_pence']))}.",
        total_words(g, total),
    )


HANDLERS: dict[str, Callable[[Event, State], Said]] = {
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
