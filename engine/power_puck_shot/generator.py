"""£500K Power Puck Shot: the book of a play from its composition and seed (models 2 and 3).

Model 3 (`power-puck-shot/3`, overlay.py) shows a losing play as a random play that lost and a
winning play as a random play with its win laid over it (simulate.py: the documented random
play), from Stream(b"power-puck-shot/book/3\0" || seed); after overlay.ATTEMPTS draws model 2's
construction below takes over from the same stream. Books of model 2 are built as before.

Model 2: the composition fixes what the play pays (rows at their boosted amounts, the PRIZE POT) and
every Bonus Game award (engine/power_puck_shot/compositions.py); the seed fixes everything else
the play shows: how many symbols each shot reveals and which, where the Bonus Games come, the
rows left short, the meter's last reading, the Prize Game amounts. The paths the pucks draw are
not in the book: they depend on the arrows the player picks (engine/power_puck_shot/paths.py),
which change nothing the book reveals. Events: docs/books.md.

Pure and deterministic: the same (model, composition, seed) always gives the same book.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from engine.book import Book
from engine.outcome import Composition
from engine.power_puck_shot import overlay, rules
from engine.power_puck_shot.compositions import BonusAwards, bonus_awards, check
from engine.power_puck_shot.plan import (
    BONUS,
    BOOSTER,
    EXTRA,
    MOTIFS_FOR_PUCKS,
    POT,
    POWER,
    PRIZE,
    SQUARE,
    SQUARES,
    MainShot,
    Plan,
)
from engine.power_puck_shot.plan import events as plan_events
from engine.rng import Stream

# The pips' tokens are the plan's (docs/books.md); the screens import them from here too.
__all__ = ["BONUS", "BOOSTER", "EXTRA", "POT", "POWER", "PRIZE", "SQUARE", "SQUARES"]
__all__ += ["Goal", "build_book"]

MODELS = rules.BOOK_MODELS
MODEL = MODELS[-1]  # "power-puck-shot/3"
DOMAIN = b"power-puck-shot/book/2\x00"  # a model 2 play's stream: Stream(DOMAIN || seed)
ATTEMPTS = 200  # plans drawn (from the same stream) before giving up on a composition

# Decision: how many squares a row that does not win shows: the smaller of two uniform draws
# from 0 to its colour's bound here (mostly a few, now and then one or two short of full), never
# more than 11 in all with the Bonus Games' squares. The cheaper the row, the higher its bound.
SHOWN_AT_MOST = {
    "dark-blue": 11,
    "purple": 11,
    "orange": 11,
    "light-blue": 11,
    "red": 10,
    "green": 10,
    "pink": 9,
    "yellow": 8,
}
POWER_REVEALS = (2, 6)  # a Power Puck's shot reveals 2-6 symbols, each collected twice


@dataclass(frozen=True)
class Goal:
    """What the composition fixes."""

    rows: dict[str, int]  # colour -> boosts, the rows won
    pot_pucks: int
    pot_pence: int
    awards: BonusAwards

    @classmethod
    def of(cls, comp: Composition) -> Goal:
        rows: dict[str, int] = {}
        pot_pucks = pot_pence = 0
        awards = BonusAwards()
        for part in comp.parts:
            if part.feature == "row":
                rows[str(part.get("colour"))] = int(part.get("boosts") or 0)
            elif part.feature == "pot":
                pot_pucks, pot_pence = int(part.get("pucks") or 0), part.pence
            elif part.feature == "bonus":
                awards = bonus_awards(part)
        return cls(rows, pot_pucks, pot_pence, awards)

    def bonus_squares(self, colour: str) -> int:
        """Squares of this colour the Bonus Games award."""
        return sum(n for c, n in self.awards.squares if c == colour)


def _splits(total: int, parts: int, low: int, high: int) -> list[tuple[int, ...]]:
    """Every way to write total as `parts` ordered numbers in [low, high]."""
    options = itertools.product(range(low, high + 1), repeat=parts)
    return [split for split in options if sum(split) == total]


def _bonus_games(stream: Stream, awards: BonusAwards) -> list[list[list[str]]]:
    """Each Bonus Game's shots and the awards each reveals, in order."""
    if not awards.games:
        return []
    pucks = stream.choice(_splits(awards.pucks, awards.games, 1, 3))
    tokens = [BOOSTER + c for c in awards.boosters]
    tokens += [EXTRA] * awards.extra_pucks + [POWER] * awards.power_pucks
    tokens += [f"{SQUARES}{c}:{n}" for c, n in awards.squares] + [PRIZE] * awards.symbols
    stream.shuffle(tokens)
    per_shot = stream.choice(_splits(len(tokens), awards.pucks, 1, rules.MAX_AWARDS_PER_BONUS_PUCK))
    shots: list[list[str]] = []
    at = 0
    for count in per_shot:
        shots.append(tokens[at : at + count])
        at += count
    games, at = [], 0
    for count in pucks:
        games.append(shots[at : at + count])
        at += count
    return games


def _main_shots(stream: Stream, bonus: list[list[list[str]]]) -> list[MainShot]:
    """The Main Game's shots in order: 4 Pucks, each Bonus Game unlocked by one of the first
    four, its extra Pucks added and its Power Pucks played as soon as it ends."""
    triggers = sorted(stream.sample(range(rules.START_PUCKS), len(bonus)))
    shots: list[MainShot] = []
    pucks, power, normal, game = rules.START_PUCKS, 0, 0, 0
    while pucks or power:
        if power:
            power -= 1
            shots.append(MainShot(power=True))
            continue
        pucks -= 1
        shot = MainShot(power=False)
        if game < len(bonus) and normal == triggers[game]:
            shot.game = game
            awarded = [token for one in bonus[game] for token in one]
            pucks += awarded.count(EXTRA)
            power += awarded.count(POWER)
            game += 1
        normal += 1
        shots.append(shot)
    return shots


def _prize_amounts(stream: Stream, pucks: int, pence: int) -> list[int]:
    """What each Prize Game Puck reveals: one of the ways to make the pot, in a shuffled order."""
    ways = [
        combo
        for combo in itertools.combinations_with_replacement(rules.PRIZE_PUCK_AMOUNTS, pucks)
        if sum(combo) == pence
    ]
    amounts = list(stream.choice(ways))
    stream.shuffle(amounts)
    return amounts


def _plan(stream: Stream, goal: Goal) -> Plan | None:
    """One attempt at a plan; None when this draw cannot meet the goal (the caller draws again)."""
    bonus = _bonus_games(stream, goal.awards)
    main = _main_shots(stream, bonus)
    trigger_at = {shot.game: i for i, shot in enumerate(main) if shot.game is not None}

    # Bonus motifs: 3/4/5 on the shot that unlocks a Bonus Game, fewer than 3 collected on any
    # other (a Power Puck collects each twice).
    for shot in main:
        if shot.game is not None:
            shot.reveals += [BONUS] * MOTIFS_FOR_PUCKS[len(bonus[shot.game])]
        else:
            shot.reveals += [BONUS] * stream.between(0, 1 if shot.power else 2)

    # Coloured squares: each won row gets exactly 12 (its last one after every Bonus Game that
    # boosted it or added to it), every other row stops short of 12.
    units: dict[str, int] = {}
    last: dict[str, int] = {}  # won colour -> index of the shot its 12th square comes in
    for colour in rules.COLOURS:
        extra = goal.bonus_squares(colour)
        if colour in goal.rows:
            units[colour] = rules.SQUARES_PER_ROW - extra
            touched = [
                trigger_at[k]
                for k, game in enumerate(bonus)
                for token in (t for one in game for t in one)
                if token == BOOSTER + colour or token.startswith(f"{SQUARES}{colour}:")
            ]
            after = max(touched, default=-1)
            eligible = list(range(after + 1, len(main)))
            if not eligible or units[colour] < 1:
                return None
            finish = stream.choice(eligible)
            worth = 2 if main[finish].power else 1
            if units[colour] < worth or not main[finish].room():
                return None
            main[finish].reveals.append(SQUARE + colour)
            units[colour] -= worth
            last[colour] = finish
        else:
            cap = rules.SQUARES_PER_ROW - 1 - extra
            high = SHOWN_AT_MOST[colour]
            units[colour] = min(cap, stream.between(0, high), stream.between(0, high))

    # Prize Game symbols: 5 + the pot's pucks when the pot is won, otherwise at most 5.
    meter = rules.SYMBOLS_TO_UNLOCK - 1 + goal.pot_pucks if goal.pot_pucks else None
    if meter is None:
        meter = stream.between(goal.awards.symbols, rules.SYMBOLS_TO_UNLOCK - 1)
    units[PRIZE] = meter - goal.awards.symbols

    def allowed(kind: str, index: int) -> bool:
        return kind not in last or index <= last[kind]

    # A Power Puck's reveals count twice: give each a few pairs first.
    for i, shot in enumerate(main):
        if not shot.power:
            continue
        for _ in range(stream.between(*POWER_REVEALS)):
            kinds = [k for k, n in units.items() if n >= 2 and allowed(k, i)]
            if not kinds or not shot.room():
                break
            kind = stream.choice(kinds)
            shot.reveals.append(PRIZE if kind == PRIZE else SQUARE + kind)
            units[kind] -= 2
    # Every other unit is one reveal of a Main Game shot that is not a Power Puck's.
    normal = [i for i, shot in enumerate(main) if not shot.power]
    for kind in sorted(units, key=lambda k: (k not in last, k)):
        for _ in range(units[kind]):
            places = [i for i in normal if allowed(kind, i) and main[i].room()]
            if not places:
                return None
            main[stream.choice(places)].reveals.append(PRIZE if kind == PRIZE else SQUARE + kind)
        units[kind] = 0
    for shot in main:
        if not shot.reveals:
            shot.reveals.append(BONUS)  # a lone motif: one (or two, on a Power Puck) collected
    # Each shot's symbols in a drawn order (a won row fills at its colour's last square there).
    for shot in main:
        stream.shuffle(shot.reveals)
    prize = _prize_amounts(stream, goal.pot_pucks, goal.pot_pence) if goal.pot_pucks else []
    return Plan(main, bonus, prize, meter)


def build_book(model: str, composition: Composition, seed: bytes) -> Book:
    """The book of one play (docs/books.md); ValueError for a model or a composition this
    builder cannot show."""
    if model not in MODELS:
        raise ValueError(f"unknown Power Puck Shot model {model!r}; this builder makes {MODELS}")
    if composition.parts:
        problem = check(composition)
        if problem:
            raise ValueError(f"composition {composition.to_json()} cannot be shown: {problem}")
    goal = Goal.of(composition)
    plan = None
    if model == MODELS[1]:
        stream = Stream(overlay.DOMAIN + seed)
        for _ in range(overlay.ATTEMPTS):
            plan = overlay.plan(stream, goal)
            if plan is not None:
                break
    else:
        stream = Stream(DOMAIN + seed)
    for _ in range(0 if plan is not None else ATTEMPTS):
        plan = _plan(stream, goal)
        if plan is not None:
            break
    if plan is None:
        raise ValueError(f"no plan for {composition.to_json()} in {ATTEMPTS} draws")
    if model == MODELS[1] and goal.pot_pucks and not plan.prize:
        plan.prize = _prize_amounts(stream, goal.pot_pucks, goal.pot_pence)
    events = plan_events(plan)
    end = events[-1]
    if end["total"] != composition.total:
        raise AssertionError(f"the book pays {end['total']}, the composition {composition.total}")
    return Book(rules.GAME_ID, model, composition.total, composition, seed.hex(), tuple(events))
