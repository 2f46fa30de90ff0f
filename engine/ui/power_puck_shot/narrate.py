"""Every £500K Power Puck Shot book event in words, for the aria-live log (one handler per
event type), and the prompt said when the play rests before the player's next shot.

A handler gets the event as the screens play it (a shot may carry "arrow", the Directional
Arrow the player picked, 0-5) and the replay's state after it (engine/power_puck_shot/replay.py).
Each sentence is said at the moment the picture shows it (timing.py's ShotClock, paint.py): a
pip's symbol as the puck reaches the pip, a row's count, the meter, a booster or the PRIZE POT
once the symbol that changes it has landed there, the totals once the end message shows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.money import format_pounds
from engine.power_puck_shot import GAME, rules
from engine.power_puck_shot.replay import State
from engine.power_puck_shot.tokens import BOOSTER, EXTRA, POT, POWER, PRIZE, SQUARE
from engine.power_puck_shot.tokens import SQUARES as SQUARES_AWARD
from engine.ui.celebration import COUNTED, Grade, headline, of_end, shown, total_words, won_words
from engine.ui.power_puck_shot.art import spoken
from engine.ui.power_puck_shot.timing import FLIGHT, JOIN, ShotClock, words_shown
from engine.ui.presentation import Said, said_at

Event = Mapping[str, Any]

# The six Directional Arrows, left to right (0-5), as the narration and the mirror's buttons
# ("Shoot steep left") name them.
ARROW_NAMES = ("steep left", "left", "slightly left", "slightly right", "right", "steep right")


def counted(n: int, one: str, many: str) -> str:
    """'1 puck', '2 pucks': a number and its noun, singular or plural."""
    return f"{n} {one if n == 1 else many}"


def sentence_start(words: str) -> str:
    """Words with a capital first letter (and the rest as they are)."""
    return words[:1].upper() + words[1:]


def colour_words(colour: str) -> str:
    """A Prize Table colour as it is said: 'dark-blue' -> 'dark blue'."""
    return colour.replace("-", " ")


def pounds(pence: int) -> str:
    """An amount as the screen shows it: '£6', '£1,000', '£2.50'."""
    return format_pounds(int(pence), always_pence=False)


def _a(n: int, one: str, many: str) -> str:
    """'a red square', '2 red squares' ('an' before a vowel)."""
    if n == 1:
        return f"{'an' if one[:1].lower() in 'aeiou' else 'a'} {one}"
    return f"{n} {many}"


def _pucks_left(n: int, power: int = 0) -> str:
    if n == 0:
        return "No pucks left."
    left = f"{counted(n, 'puck', 'pucks')} left"
    if power:
        return f"{left}, including {counted(power, 'Power Puck', 'Power Pucks')}."
    return f"{left}."


def _meter(meter: int) -> str:
    """'Prize Game meter 4 of 10.', with the Prize Pucks it gives from 6 on."""
    said = f"Prize Game meter {meter} of {rules.METER_SEGMENTS}"
    pucks = rules.PRIZE_PUCKS_FOR_SYMBOLS.get(min(meter, rules.METER_SEGMENTS), 0)
    if pucks:
        return f"{said}: {counted(pucks, 'Prize Puck', 'Prize Pucks')}."
    return f"{said}."


def _squares(s: State, colour: str) -> int:
    return s.squares[rules.COLOURS.index(colour)]


def _row(colour: str, filled: int) -> str:
    """'Dark blue row 9 of 12 squares.'"""
    return (
        f"{sentence_start(colour_words(colour))} row {filled} of {rules.SQUARES_PER_ROW} squares."
    )


def _opening(e: Event, label: str) -> str:
    """'Main Game shot, steep left' (the arrow when the screen added it)."""
    arrow = e.get("arrow")
    if arrow is None:
        return label
    return f"{label}, {ARROW_NAMES[int(arrow)]}"


def pip_words(reveal: str) -> str:
    """What one pip reveals, as said: 'a dark blue square', 'an extra Puck', '3 extra red
    squares'."""
    if reveal.startswith(SQUARES_AWARD):
        return spoken(reveal)  # already counted
    return _a(1, spoken(reveal), "")


def _pips(e: Event, clock: ShotClock) -> Said:
    """Each pip's symbol as the puck reaches it: 'Pip 2: a dark blue square.'"""
    return [
        (clock.by(at), f"Pip {k + 1}: {pip_words(str(r))}.")
        for k, (at, r) in enumerate(zip(clock.reveals, e["reveals"], strict=True))
    ]


def _landed(clock: ShotClock, k: int) -> float:
    """The progress at which reveal k has flown to where it counts."""
    return clock.by(clock.reveals[k] + FLIGHT)


def _main_shot(e: Event, s: State) -> Said:
    reveals = [str(r) for r in e["reveals"]]
    clock = ShotClock.of(e)
    power = bool(e.get("power"))
    said = said_at(0.0, f"{_opening(e, 'Power Puck shot' if power else 'Main Game shot')}.")
    if power:
        said += said_at(0.0, "Power Puck: all symbols count twice.")
    said += _pips(e, clock)
    last = {reveal: k for k, reveal in enumerate(reveals)}  # the last of each kind lands last
    for reveal, k in last.items():
        if reveal.startswith(SQUARE):
            colour = reveal[len(SQUARE) :]
            said.append((_landed(clock, k), _row(colour, _squares(s, colour))))
        elif reveal == PRIZE:
            said.append((_landed(clock, k), _meter(s.meter)))
    return [*said, (1.0, _pucks_left(s.pucks_left, s.power_pucks))]


def award_sentences(reveals: list[str], s: State) -> list[str]:
    """Each Bonus Game award of one shot in words, in the order revealed; `s` is the state after
    the shot, so an award is told with what it made then (a second booster of a colour in the
    same shot says the second rise)."""
    said = []
    for k, award in enumerate(reveals):
        later = reveals[k + 1 :]
        if award.startswith(BOOSTER):
            colour = award[len(BOOSTER) :]
            boosts = s.boosts[rules.COLOURS.index(colour)] - later.count(award)
            amount = pounds(rules.row_amount(colour, boosts))
            said.append(f"Prize booster: the {colour_words(colour)} row rises to {amount}.")
        elif award.startswith(SQUARES_AWARD):
            colour, n = award[len(SQUARES_AWARD) :].split(":")
            after = _squares(s, colour) - sum(
                int(a.split(":")[2]) for a in later if a.startswith(f"{SQUARES_AWARD}{colour}:")
            )
            name = colour_words(colour)
            extra = counted(int(n), f"extra {name} square", f"extra {name} squares")
            said.append(f"{extra}: {name} row {after} of {rules.SQUARES_PER_ROW}.")
        elif award == EXTRA:
            said.append("An extra Puck, added when the Bonus Game ends.")
        elif award == POWER:
            said.append("A Power Puck, added when the Bonus Game ends.")
        elif award == PRIZE:
            meter = s.meter - later.count(PRIZE)
            said.append(f"A Prize Game symbol: meter {meter} of {rules.METER_SEGMENTS}.")
        else:
            said.append(f"{sentence_start(award)}.")
    return said


def _bonus_shot(e: Event, s: State) -> Said:
    reveals = [str(r) for r in e["reveals"]]
    clock = ShotClock.of(e)
    left = s.bonus_pucks_left
    last = f"{counted(left, 'Bonus Puck', 'Bonus Pucks')} left." if left else "No Bonus Pucks left."
    awards = award_sentences(reveals, s)  # each as it lands
    return [
        *said_at(0.0, f"{_opening(e, 'Bonus Game shot')}."),
        *_pips(e, clock),
        *((_landed(clock, k), award) for k, award in enumerate(awards)),
        (1.0, last),
    ]


def _prize_shot(e: Event, s: State) -> Said:
    amount = sum(int(str(r)[len(POT) :]) for r in e["reveals"])
    clock = ShotClock.of(e)
    left = s.prize_pucks_left
    last = f"{counted(left, 'Prize Puck', 'Prize Pucks')} left." if left else "No Prize Pucks left."
    return [
        *said_at(0.0, f"{_opening(e, 'Prize Game shot')}."),
        (clock.by(clock.reveals[0]), f"The Prize Puck reveals {pounds(amount)}."),
        (_landed(clock, len(e["reveals"]) - 1), f"PRIZE POT {pounds(s.pot)}."),
        (1.0, last),
    ]


def _shot(e: Event, s: State) -> Said:
    game = e["game"]
    if game == "bonus":
        return _bonus_shot(e, s)
    if game == "prize":
        return _prize_shot(e, s)
    return _main_shot(e, s)


def _start(e: Event, s: State) -> Said:
    pucks = counted(int(e["pucks"]), "puck", "pucks")
    return said_at(0.0, f"Main game. You have {pucks}. Pick a Directional Arrow to shoot.")


def _row_won(e: Event, s: State) -> Said:
    colour = sentence_start(colour_words(str(e["colour"])))
    pence = int(e["pence"])
    return said_at(0.0, f"{colour} row complete{won_words(pounds(pence), shown(pence, e, GAME))}.")


def _bonus_start(e: Event, s: State) -> Said:
    pucks = counted(int(e["pucks"]), "Bonus Puck", "Bonus Pucks")
    motifs = int(e.get("motifs") or 0)
    found = f"{motifs} Bonus symbols in one shot: " if motifs else ""
    return said_at(words_shown(e), f"BONUS GAME! {found}{pucks}.")  # the prompt asks for a shot


def _bonus_end(e: Event, s: State) -> Said:
    said = said_at(0.0, "Back to the main game.")
    extra, power = int(e["extra_pucks"]), int(e["power_pucks"])
    added = [
        *([counted(extra, "extra Puck", "extra Pucks")] if extra else []),
        *([counted(power, "Power Puck", "Power Pucks")] if power else []),
    ]
    left = _pucks_left(s.pucks_left, s.power_pucks)
    if added:  # as they join the counter
        said.append((JOIN, f"{' and '.join(added)} added: {left[:1].lower()}{left[1:]}"))
    else:
        said.append((0.0, left))
    if s.power_pucks:
        said.append((words_shown(e), "POWER PUCK ALL SYMBOLS X2"))
    return said


def _prize_start(e: Event, s: State) -> Said:
    pucks = counted(int(e["pucks"]), "Prize Puck", "Prize Pucks")
    symbols = int(e.get("symbols") or s.meter)
    return said_at(
        words_shown(e),
        f"RESULT! PRIZE GAME UNLOCKED! {symbols} Prize Game symbols: {pucks}.",
        "Each Prize Puck reveals an amount for the PRIZE POT.",
    )


def _end(e: Event, s: State) -> Said:
    rows = ", ".join(f"{colour_words(colour)} {pounds(pence)}" for colour, pence in s.won)
    pot = int(e["pot"])
    rows_said = f"Rows won: {rows}." if rows else "No row complete."
    pot_said = f"PRIZE POT {pounds(pot)}." if pot else "No PRIZE POT."
    g, total = of_end(e, GAME), int(e["total"])
    cheer = [headline(g, total)] if g >= Grade.BIG_WIN else []
    # as the end message shows its total, counted up
    return said_at(COUNTED, *cheer, f"{rows_said} {pot_said}", total_words(g, total))


HANDLERS: dict[str, Callable[[Event, State], Said]] = {
    "start": _start,
    "shot": _shot,
    "row_won": _row_won,
    "bonus_start": _bonus_start,
    "bonus_end": _bonus_end,
    "prize_start": _prize_start,
    "end": _end,
}


def prompt(upcoming: Mapping[str, Any] | None) -> str:
    """What to say when the play comes to rest before upcoming (None: at the end)."""
    if upcoming is None:
        return "Press FINISH to complete your play."
    game = upcoming.get("game")
    if game == "bonus":
        puck = "your Bonus Puck"
    elif game == "prize":
        puck = "your Prize Puck"
    elif upcoming.get("power"):
        puck = "your Power Puck"
    else:
        puck = "your next puck"
    return f"Pick a Directional Arrow to shoot {puck}."
