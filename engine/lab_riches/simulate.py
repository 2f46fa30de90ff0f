"""Lab Riches: a random play under the documented rules, simulated from a stream.

docs/games/lab-riches.md ("a random play") and rules.py give the chances: each GO shows an
extra-goes motif (1–3, in a uniform column) with chance 36/256 while the goes would stay within
15; each other Top Row square is a lightning motif (1–5) with chance 18/256, else a bonus motif
with 16/256, else a uniform symbol; three or more bonus motifs in a GO start a Bonus Game (at
most two in a play; a GO whose Bonus Game would be a third, or would pass 15 goes, is
drawn again), whose light stops on a
uniform segment of each row until it lands on something other than an up arrow; every
unlocked grid square shows a uniform symbol at each GO, so it locks at the first GO whose Top
Row symbol in its column it matches (chance 1/8); Prize Boxes show uniform amounts.

This is what the fairness rule measures presentation against: a losing play must look no
closer to a win than a random play that lost (`certify` reports both, tests/test_lab_riches_
honesty.py holds the generator to it). The plan it returns is turned into events by the same
code as any book (generator._events), so a simulated play is a book like any other.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.lab_riches import rules
from engine.lab_riches.plan import Award, draw_symbols
from engine.lab_riches.reveals import SYMBOL_SET, _first_matches, _spans
from engine.rng import Stream

LIGHTNING_BELOW = rules.LIGHTNING_CHANCE[0]  # a byte below this: lightning
BONUS_BELOW = LIGHTNING_BELOW + rules.BONUS_MOTIF_CHANCE[0]  # then below this: a bonus motif
assert rules.LIGHTNING_CHANCE[1] == rules.BONUS_MOTIF_CHANCE[1] == 256


@dataclass(frozen=True)
class RandomPlan:
    """What a random play shows: Top Rows (0: the start row), lock GOs, Prize Boxes, and the
    award of each GO that starts a Bonus Game."""

    top: list[list[str]]
    locks: list[list[int]]
    boxes: list[int]
    triggers: dict[int, Award]


def bonus_award(stream: Stream) -> Award:
    """The award of a random Bonus Game: a uniform segment per row, up while it is an arrow."""
    for layout in rules.BONUS_ROW_LAYOUTS:
        kind, value = stream.choice(layout)
        if kind != rules.UP:
            return kind, value
    raise AssertionError("the top Bonus Game row has no up arrow")


def _top_row(stream: Stream, total: int) -> tuple[list[str], int]:
    """One GO's Top Row and the extra goes it shows (only while goes stay within the cap)."""
    row: list[str] = []
    extra_col, extra = -1, 0
    if stream.chance(*rules.EXTRA_GOES_CHANCE):
        extra_col, extra = stream.below(rules.COLUMNS), stream.choice(rules.EXTRA_GOES_VALUES)
        if total + extra > rules.MAX_GOES:
            extra_col, extra = -1, 0
    for c in range(rules.COLUMNS):
        if c == extra_col:
            row.append(f"{rules.EXTRA_GOES}/{extra}")
            continue
        b = stream.below(256)
        if b < LIGHTNING_BELOW:
            row.append(f"{rules.LIGHTNING}/{stream.choice(rules.LIGHTNING_VALUES)}")
        elif b < BONUS_BELOW:
            row.append(rules.BONUS)
        else:
            row.append(draw_symbols(stream, 1)[0])
    return row, extra


def random_plan(stream: Stream) -> RandomPlan:
    """The plan of one random play, drawn from the stream."""
    top = [draw_symbols(stream, rules.COLUMNS)]
    triggers: dict[int, Award] = {}
    total = rules.START_GOES
    go = 1
    while go <= total:
        while True:  # a GO whose Bonus Game would be a third, or pass 15 goes, is drawn again
            row, extra = _top_row(stream, total)
            award = None
            if row.count(rules.BONUS) >= rules.BONUS_MOTIFS_TO_ACTIVATE:
                award = bonus_award(stream)
                more = award[1] if award[0] == rules.EXTRA_GOES else 0
                if len(triggers) == rules.MAX_BONUS_GAMES or total + extra + more > rules.MAX_GOES:
                    continue
                extra += more
            break
        total += extra
        if award is not None:
            triggers[go] = award
        top.append(row)
        go += 1
    symbol_goes = [
        [g for g, s in enumerate(column, 1) if s in SYMBOL_SET]
        for column in zip(*top[1:], strict=True)
    ]
    spans = _spans(symbol_goes)
    locks = [_first_matches(stream, spans) for _ in range(rules.ROWS)]
    boxes = [stream.choice(rules.PRIZE_BOX_AMOUNTS) for _ in range(rules.ROWS)]
    return RandomPlan(top, locks, boxes, triggers)


def plan_pays(plan: RandomPlan) -> bool:
    """Whether the play wins anything: a completed row, a paying meter box, an Instant Prize."""
    if any(all(row) for row in plan.locks):
        return True
    segments = sum(
        int(square.partition("/")[2])
        for row in plan.top[1:]
        for square in row
        if square.startswith(rules.LIGHTNING)
    )
    for kind, value in plan.triggers.values():
        if kind == rules.INSTANT:
            return True
        if kind == rules.SEGMENTS:
            segments += value
    return rules.meter_prize(segments) > 0
