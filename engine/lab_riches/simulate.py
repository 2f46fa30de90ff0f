"""Lab Riches: a random play under the documented rules, simulated from a stream.

docs/games/lab-riches.md ("a random play") and rules.py give the chances: each GO shows an
extra-goes motif (1–3, in a uniform column) with chance 36/256 (in models 1 and 2 only while
the goes would stay within 15); each other Top Row square is a lightning motif (1–5) with
chance 18/256, else a bonus motif with 16/256, else a uniform symbol; three or more bonus
motifs in a GO start a Bonus Game (at most two in a play; a GO whose Bonus Game would be a
third, or in models 1 and 2 would pass 15 goes, is drawn again), whose light stops on a
uniform segment of each row until it lands on something other than an up arrow; every
unlocked grid square shows a uniform symbol at each GO, so it locks at the first GO whose Top
Row symbol in its column it matches (chance 1/8); Prize Boxes show uniform amounts. From
model 3 the inactive start row is drawn like a GO's (with fewer than three bonus motifs).

This is what the fairness rule measures presentation against: a losing play must look no
closer to a win than a random play that lost (`certify` reports both, tests/test_lab_riches_
honesty.py holds the generator to it). The plan it returns is turned into events by the same
code as any book (generator._events), so a simulated play is a book like any other.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.lab_riches import rules
from engine.lab_riches.plan import Award, random_top_row, start_row
from engine.lab_riches.reveals import SYMBOL_SET, _first_matches, _spans
from engine.rng import Stream


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


def random_plan(stream: Stream, model: rules.Model) -> RandomPlan:
    """The plan of one random play under a model's rules, drawn from the stream."""
    top = [start_row(stream, model.start_specials)]
    triggers: dict[int, Award] = {}
    total = rules.START_GOES
    cap = model.max_goes
    go = 1
    while go <= total:
        while True:  # a GO whose Bonus Game would be a third, or pass the cap, is drawn again
            row, extra = random_top_row(stream, total, cap)
            award = None
            if row.count(rules.BONUS) >= rules.BONUS_MOTIFS_TO_ACTIVATE:
                award = bonus_award(stream)
                more = award[1] if award[0] == rules.EXTRA_GOES else 0
                third = len(triggers) == rules.MAX_BONUS_GAMES
                if third or (cap is not None and total + extra + more > cap):
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
