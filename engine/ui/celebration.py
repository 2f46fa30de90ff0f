"""How much a win is celebrated: the one place that grades an amount won, for every game.

A play's celebration is decided from its book (the total its end event shows), the game's price
and top prize, and whether the play is a free TRY, by `grade` alone; the end messages, the
outcome screen, the end's sound cue, its length and its words all follow the grade:

- NONE: a losing play, and every free TRY (a TRY never celebrates money).
- PRICE_BACK: a total no bigger than the price. It is shown as the procedure says (the total in
  the end message) and called the price back ("YOUR £3.00 BACK"), with no win cue, burst or
  celebration: the UK's rules for online slots forbid celebrating a return no bigger than the
  stake, and we hold ourselves to that.
- WIN: more than the price: the amount counts up, with a burst.
- BIG_WIN: BIG_WIN_TIMES the price or more: a full-screen celebration.
- TOP_PRIZE: the game's top prize: a bigger one.

During a play a moment is graded by what it has shown so far, never by what is to come: a row
of the price is the price back when it completes, whatever the rest of the play wins.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from engine.money import format_pounds

if TYPE_CHECKING:
    from engine.game import Game
    from engine.ui.motion import Motion
    from engine.ui.presentation import CueTimer, Timeline

BIG_WIN_TIMES = 10  # a total of 10 times the price or more is a big win
FREE = "free"  # the key the book player adds to every event of a free TRY as the screens play it


class Grade(IntEnum):
    """How much an amount won is celebrated, least first."""

    NONE = 0
    PRICE_BACK = 1
    WIN = 2
    BIG_WIN = 3
    TOP_PRIZE = 4


def grade(pence: int, game: Game, *, free: bool = False) -> Grade:
    """The celebration an amount won earns in a game (a TRY's: none)."""
    if free or pence <= 0:
        return Grade.NONE
    if pence <= game.price_pence:
        return Grade.PRICE_BACK
    if pence >= game.top_prize_pence:
        return Grade.TOP_PRIZE
    if pence >= BIG_WIN_TIMES * game.price_pence:
        return Grade.BIG_WIN
    return Grade.WIN


def shown(pence: int, event: Mapping[str, Any], game: Game) -> Grade:
    """The grade of an amount an event shows, the event as the screens play it (a TRY's are
    marked FREE: none)."""
    return grade(pence, game, free=bool(event.get(FREE)))


def of_end(event: Mapping[str, Any], game: Game) -> Grade:
    """The grade of a play, from its end event (its total) as the screens play it."""
    return shown(int(event["total"]), event, game)


# The end's sound cue by grade (the notes are engine/ui/sound.py's SHARED): the price back and a
# TRY's end get a plain chime, never the win fanfare.
CUES = {
    Grade.NONE: "nowin",
    Grade.PRICE_BACK: "priceback",
    Grade.WIN: "win",
    Grade.BIG_WIN: "bigwin",
    Grade.TOP_PRIZE: "topwin",
}
# Seconds the end message's animation lasts at normal speed: a celebration's count-up and
# burst are part of the end event, so the player, the narration and the cues keep step with it.
SECONDS = {
    Grade.NONE: 0.6,
    Grade.PRICE_BACK: 0.6,
    Grade.WIN: 2.0,
    Grade.BIG_WIN: 4.0,
    Grade.TOP_PRIZE: 6.0,
}
COUNTED = 0.5  # the amount has counted up at this share of the end event (and is said then)


def end_cue(game: Game) -> CueTimer:
    """A game's timer for its end event: the grade's cue as the end message shows (a free
    TRY's the plain chime of the price back: it neither wins nor loses money)."""

    def timer(event: Mapping[str, Any], motion: Motion) -> Timeline:
        g = of_end(event, game)
        cue = CUES[Grade.PRICE_BACK] if event.get(FREE) else CUES[g]
        return ((0.0 if g >= Grade.WIN else COUNTED, cue),)

    return timer


def end_seconds(game: Game) -> Callable[[Mapping[str, Any]], float]:
    """A game's duration for its end event: the celebration's seconds."""
    return lambda event: SECONDS[of_end(event, game)]


def counted(pence: int, g: Grade, p: float) -> int:
    """The amount shown at progress p of the end event: counting up to pence by COUNTED when
    it is celebrated (eased out: it slows as it lands), at once when it is not."""
    if g < Grade.WIN or p >= COUNTED:
        return pence
    q = max(0.0, p / COUNTED)
    return int(pence * (1 - (1 - q) ** 3))


def headline(g: Grade, pence: int) -> str:
    """The end message's heading for a grade (a TRY's says it is over)."""
    return {
        Grade.NONE: "GAME OVER",
        Grade.PRICE_BACK: f"YOUR {format_pounds(pence)} BACK",
        Grade.WIN: "CONGRATULATIONS",
        Grade.BIG_WIN: "BIG WIN!",
        Grade.TOP_PRIZE: "TOP PRIZE!",
    }[g]


def total_line(g: Grade, pence: int) -> str:
    """The end message's total, as drawn: 'TOTAL WON £12.00', or 'TOTAL £3.00' under the
    heading 'YOUR £3.00 BACK' (the price back is not called a win)."""
    if g == Grade.PRICE_BACK:
        return f"TOTAL {format_pounds(pence)}"
    return f"TOTAL WON {format_pounds(pence)}"


def total_words(g: Grade, pence: int) -> str:
    """The end's total, as said: 'Total won £12.00', or 'Your £3.00 back'."""
    if g == Grade.PRICE_BACK:
        return f"Your {format_pounds(pence)} back"
    return f"Total won {format_pounds(pence)}"


def won_words(amount: str, g: Grade) -> str:
    """What a prize shown pays, said as the screen shows it (`amount` as the game writes it):
    ': you win £6.00', ': your £3.00 back' (no bigger than the price), or '' (a free TRY's
    shows no amount)."""
    if g == Grade.NONE:
        return ""
    if g == Grade.PRICE_BACK:
        return f": your {amount} back"
    return f": you win {amount}"
