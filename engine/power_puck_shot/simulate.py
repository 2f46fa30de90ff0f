"""£500K Power Puck Shot: a random play under the documented rules, simulated from a stream.

docs/games/power-puck-shot.md ("A random play") gives the chances, rules.py holds them: each
shot, in any game, crosses 1 to 16 Pips with the weights PIPS_PER_SHOT (what paths give when
each Pocket shows a Spinning Bumper with chance 3/4); each Main Game Pip shows a Bonus motif, a
Prize Game motif or a coloured square (MAIN_PIP_WEIGHTS); a shot collecting three or more Bonus
motifs (a Power Puck collects each twice) starts a Bonus Game of 1, 2 or 3 Bonus Pucks (3, 4, 5
or more motifs), each Bonus Pip showing an award (BONUS_PIP_WEIGHTS); extra Pucks and Power
Pucks join the Main Game when the Bonus Game ends, Power Pucks played first.

This is what the fairness rule measures presentation against (engine/math/fairness.py): a
losing play of model 3 is the first random play that lost (generator.py), and `certify`
compares losing books with random plays that lost (stats.py). `random_plan` can also leave the
won rows' colours out of every draw and host the composition's Bonus Game: the rest of a
winning play's board (overlay.py).
"""

from __future__ import annotations

import bisect
import functools
import itertools
from collections import Counter
from collections.abc import Collection, Sequence

from engine.power_puck_shot import rules
from engine.power_puck_shot.geometry import MAX_REVEALS
from engine.power_puck_shot.plan import (
    BONUS,
    BOOSTER,
    EXTRA,
    MOTIFS_FOR_PUCKS,
    POWER,
    PRIZE,
    SQUARE,
    SQUARES,
    MainShot,
    Plan,
)
from engine.rng import Stream

BOOSTABLE = tuple(c for c in rules.COLOURS if c not in rules.UNBOOSTED)
ROW = rules.SQUARES_PER_ROW
PIPS_ENDS = tuple(itertools.accumulate(rules.PIPS_PER_SHOT))
PIPS_TOTAL = PIPS_ENDS[-1]


def _spread(weighted: dict[str, int]) -> tuple[str, ...]:
    """Each draw of below(sum of weights) as what it shows: the same as Stream.weighted."""
    return tuple(token for token, weight in weighted.items() for _ in range(weight))


@functools.cache
def _main_table(exclude: frozenset[str]) -> tuple[str, ...]:
    """What a Main Game Pip shows for each draw, the `exclude` colours left out."""
    tokens = {
        (k if k in (BONUS, PRIZE) else SQUARE + k): w for k, w in rules.MAIN_PIP_WEIGHTS.items()
    }
    return _spread({t: w for t, w in tokens.items() if t[len(SQUARE) :] not in exclude})


BONUS_TABLE = _spread(rules.BONUS_PIP_WEIGHTS)


def pips(stream: Stream) -> int:
    """How many Pips a shot crosses (1-16): weighted by PIPS_PER_SHOT."""
    return 1 + bisect.bisect_right(PIPS_ENDS, stream.below(PIPS_TOTAL))


def bonus_pucks(motifs: int) -> int:
    """The Bonus Pucks that this many collected Bonus motifs give (0 below three)."""
    if motifs < min(rules.BONUS_PUCKS_FOR_MOTIFS):
        return 0
    return rules.BONUS_PUCKS_FOR_MOTIFS[min(motifs, max(rules.BONUS_PUCKS_FOR_MOTIFS))]


class _Board:
    """The counts a random play keeps to know which awards a Bonus Pip may show."""

    def __init__(self, exclude: Collection[str]) -> None:
        self.exclude = frozenset(exclude)
        self.squares: Counter[str] = Counter()
        self.boosts: Counter[str] = Counter()
        self.meter = 0
        self.table = _main_table(self.exclude)

    def main_pips(self, stream: Stream, n: int) -> list[str]:
        """What n Main Game Pips show, one weighted draw each."""
        table = self.table
        if len(table) == 256:  # below(256) is one byte
            return [table[b] for b in stream.read(n)]
        return [table[stream.below(len(table))] for _ in range(n)]

    def bonus_pip(self, stream: Stream) -> str:
        """One Bonus Pip's award: a kind by weight, then a uniform colour (and N) among the
        rows it may go to; a kind with no such row is drawn again."""
        while True:
            kind = BONUS_TABLE[stream.byte()]  # the weights add up to 256
            if kind == "booster":
                rows = [c for c in BOOSTABLE if self._open(c) and self.boosts[c] < rules.MAX_BOOSTS]
                if rows:
                    colour = stream.choice(rows)
                    self.boosts[colour] += 1
                    return BOOSTER + colour
            elif kind == "squares":
                n = stream.choice(rules.EXTRA_SQUARES)
                rows = [c for c in BOOSTABLE if self._open(c) and self.squares[c] + n < ROW]
                if rows:
                    colour = stream.choice(rows)
                    self.squares[colour] += n
                    return f"{SQUARES}{colour}:{n}"
            else:
                self.meter += kind == PRIZE
                return {"prize": PRIZE, "extra": EXTRA, "power": POWER}[kind]

    def _open(self, colour: str) -> bool:
        return colour not in self.exclude and self.squares[colour] < rules.SQUARES_PER_ROW

    def collect(self, reveals: Sequence[str], times: int) -> None:
        for reveal, n in Counter(reveals).items():
            if reveal.startswith(SQUARE):
                self.squares[reveal[len(SQUARE) :]] += n * times
            elif reveal == PRIZE:
                self.meter += n * times


def random_plan(
    stream: Stream,
    exclude: Collection[str] = (),
    host: int | None = None,
    forced: Sequence[str] = (),
    forced_pucks: int = 0,
) -> Plan | None:
    """One random play drawn from the stream (its Prize Game left empty), or None when it runs
    past MAX_RANDOM_SHOTS. Rows of the `exclude` colours show nothing and take no award; the
    normal shot number `host` (0, 1, 2) shows enough Bonus motifs for `forced_pucks` Bonus Pucks
    and its Bonus Game shows the `forced` awards too, each on a uniform Bonus Puck with room
    (None when the host or every Bonus Puck has no room left)."""
    board = _Board(exclude)
    main: list[MainShot] = []
    bonus: list[list[list[str]]] = []
    pucks, power, normal = rules.START_PUCKS, 0, 0
    while pucks or power:
        if len(main) == rules.MAX_RANDOM_SHOTS:
            return None
        shot = MainShot(power=power > 0)
        if shot.power:
            power -= 1
        else:
            pucks -= 1
        times = 2 if shot.power else 1
        shot.reveals = board.main_pips(stream, pips(stream))
        hosting = not shot.power and normal == host
        if hosting:
            short = max(0, MOTIFS_FOR_PUCKS[forced_pucks] - shot.reveals.count(BONUS))
            if len(shot.reveals) + short > MAX_REVEALS:
                return None
            shot.reveals += [BONUS] * short
            stream.shuffle(shot.reveals)
        normal += not shot.power
        board.collect(shot.reveals, times)
        count = bonus_pucks(shot.reveals.count(BONUS) * times)
        if count:
            game = [[board.bonus_pip(stream) for _ in range(pips(stream))] for _ in range(count)]
            if hosting:
                for award in forced:
                    room = [one for one in game if len(one) < MAX_REVEALS]
                    if not room:
                        return None
                    stream.choice(room).append(award)
                board.meter += list(forced).count(PRIZE)
            awarded = [a for one in game for a in one]
            pucks += awarded.count(EXTRA)
            power += awarded.count(POWER)
            shot.game = len(bonus)
            bonus.append(game)
        main.append(shot)
    full = {c for c, n in board.squares.items() if n >= rules.SQUARES_PER_ROW}
    return Plan(main, bonus, [], board.meter, frozenset(full))


def pays(plan: Plan) -> bool:
    """Whether a random play wins anything: a full row, or 6 Prize Game motifs or more."""
    return plan.meter >= rules.SYMBOLS_TO_UNLOCK or bool(filled(plan))


def filled(plan: Plan) -> frozenset[str]:
    """The colours whose rows a random play fills."""
    return plan.full
