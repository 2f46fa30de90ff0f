"""£500K Power Puck Shot model 3: a losing play is a random play that lost; a winning play is a
random play with its win laid over it.

A losing play (a composition with no parts) is the first random play (simulate.py) drawn from
the play's stream that wins nothing. A winning play is a random play whose draws leave out the
won rows' colours (no coloured square, booster or "+N" of those colours), whose normal shot
number 0, 1 or 2 (uniform) hosts the composition's Bonus Game when it has one (Bonus motifs
added to reach its Bonus Pucks, its awards added to uniform Bonus Pucks); then each won row's
squares (12, less the Bonus Game's "+N" of its colour) are added one by one to uniform normal
Main Game shots after that Bonus Game (any normal shot when there is none) with room left, and
the Prize Game motifs the pot needs (5 + its Prize Game Pucks in all) to uniform normal shots
with room. A draw that fills another row, collects too many Prize Game motifs or runs out of
room is drawn again from the same stream. docs/games/power-puck-shot.md ("How a book shows the
composition (model 3)") and docs/books.md specify the draws.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.power_puck_shot import rules
from engine.power_puck_shot.plan import (
    BOOSTER,
    EXTRA,
    POWER,
    PRIZE,
    SQUARE,
    SQUARES,
    Plan,
)
from engine.power_puck_shot.simulate import filled, pays, random_plan
from engine.rng import Stream

if TYPE_CHECKING:
    from engine.power_puck_shot.generator import Goal

DOMAIN = b"power-puck-shot/book/3\x00"  # the play's stream: Stream(DOMAIN || seed)
ATTEMPTS = 64  # random plays drawn before model 2's construction takes over (same stream)


def forced_awards(goal: Goal) -> list[str]:
    """The composition's Bonus Game awards, in the order of its fields."""
    awards = goal.awards
    tokens = [BOOSTER + c for c in awards.boosters]
    tokens += [EXTRA] * awards.extra_pucks + [POWER] * awards.power_pucks
    tokens += [f"{SQUARES}{c}:{n}" for c, n in awards.squares] + [PRIZE] * awards.symbols
    return tokens


def plan(stream: Stream, goal: Goal) -> Plan | None:
    """One attempt at a model 3 plan; None when this draw cannot show the goal."""
    if not goal.rows and not goal.pot_pucks and not goal.awards.games:
        lost = random_plan(stream)
        return lost if lost is not None and not pays(lost) else None
    host = stream.below(rules.START_PUCKS - 1) if goal.awards.games else None
    forced = forced_awards(goal)
    drawn = random_plan(stream, set(goal.rows), host, forced, goal.awards.pucks)
    if drawn is None or filled(drawn):
        return None
    target = rules.SYMBOLS_TO_UNLOCK - 1 + goal.pot_pucks if goal.pot_pucks else None
    if drawn.meter > (target if target is not None else rules.SYMBOLS_TO_UNLOCK - 1):
        return None
    main = drawn.main
    normal = [i for i, shot in enumerate(main) if not shot.power]
    after = normal[host] if host is not None else -1  # the shot that hosts the Bonus Game
    touched: set[int] = set()
    for colour in goal.rows:
        for _ in range(rules.SQUARES_PER_ROW - goal.bonus_squares(colour)):
            places = [i for i in normal if i > after and main[i].room()]
            if not places:
                return None
            at = stream.choice(places)
            main[at].reveals.append(SQUARE + colour)
            touched.add(at)
    if target is not None:
        for _ in range(target - drawn.meter):
            places = [i for i in normal if main[i].room()]
            if not places:
                return None
            at = stream.choice(places)
            main[at].reveals.append(PRIZE)
            touched.add(at)
        drawn.meter = target
    for at in sorted(touched):
        stream.shuffle(main[at].reveals)
    return drawn
