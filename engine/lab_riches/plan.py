"""Lab Riches: the plan of one play (goes, Top Rows, lock times, bonus paths) built from an outcome.

Each step draws from a random play under the rules (rules.py, "a random play") conditioned on
the outcome; where conditioning is done by retrying, the attempts are capped and a direct
construction takes over, always drawing from the same stream.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.lab_riches import rules
from engine.outcome import Composition
from engine.rng import Stream

Award = tuple[str, int]
ATTEMPTS = 12
N_SYMBOLS = len(rules.SYMBOLS)
# A byte read as below(len(SYMBOLS)); 8 symbols divide 256, so no byte is ever rejected.
assert 256 % N_SYMBOLS == 0
MOD_SYMBOLS = bytes(b % N_SYMBOLS for b in range(256))
METER_PRIZES = frozenset(pence for _first, _last, pence in rules.METER_BOXES[1:])


@dataclass(frozen=True)
class Outcome:
    """A checked Lab Riches composition: row amounts, meter prize (0 if none), instants."""

    rows: tuple[int, ...]
    meter: int
    instants: tuple[int, ...]


def read_composition(composition: Composition) -> Outcome:
    """Split a composition into its parts, raising ValueError if the rules cannot show it."""
    rows: list[int] = []
    meters: list[int] = []
    instants: list[int] = []
    for part in composition.parts:
        if part.feature == "row" and part.pence in rules.PRIZE_BOX_AMOUNTS:
            rows.append(part.pence)
        elif part.feature == "meter" and part.pence in METER_PRIZES:
            meters.append(part.pence)
        elif part.feature == "instant" and part.pence in rules.INSTANT_PRIZE_AMOUNTS:
            instants.append(part.pence)
        else:
            raise ValueError(f"Lab Riches cannot show the part {part.to_json()}")
    if len(rows) > rules.MAX_ROW_WINS or len(meters) > 1 or len(instants) > rules.MAX_BONUS_GAMES:
        raise ValueError(f"too many parts for one Lab Riches play: {composition.to_json()}")
    return Outcome(tuple(rows), meters[0] if meters else 0, tuple(instants))


def draw_symbols(stream: Stream, count: int) -> list[str]:
    """count uniform symbols: the same draws as count calls of stream.choice(rules.SYMBOLS)."""
    return [rules.SYMBOLS[x] for x in stream.read(count).translate(MOD_SYMBOLS)]


LIGHTNING_BELOW = rules.LIGHTNING_CHANCE[0]  # a Top Row byte below this: lightning
BONUS_BELOW = LIGHTNING_BELOW + rules.BONUS_MOTIF_CHANCE[0]  # then below this: a bonus motif
EXTRA_BELOW = rules.EXTRA_GOES_CHANCE[0]  # a GO's first byte below this: an extra-goes motif
assert rules.LIGHTNING_CHANCE[1] == rules.BONUS_MOTIF_CHANCE[1] == 256
assert rules.EXTRA_GOES_CHANCE[1] == 256
LIGHTNING_MOTIFS = tuple(f"{rules.LIGHTNING}/{n}" for n in rules.LIGHTNING_VALUES)


def random_top_row(stream: Stream, total: int, max_goes: int | None) -> tuple[list[str], int]:
    """One Top Row of a random play and the extra goes it shows (none that would pass max_goes).

    docs/books.md, R2.1-2: an extra-goes motif with its chance (column, then value), then each
    other column a lightning motif, a bonus motif or a uniform symbol. (The hottest loop of a
    losing play's book, which simulates random plays: each chance is one `byte()`, the same
    draw as `below(256)`, and a symbol the same as `draw_symbols(stream, 1)`.)
    """
    row: list[str] = []
    extra_col, extra = -1, 0
    byte = stream.byte
    if byte() < EXTRA_BELOW:
        extra_col, extra = stream.below(rules.COLUMNS), stream.choice(rules.EXTRA_GOES_VALUES)
        if max_goes is not None and total + extra > max_goes:
            extra_col, extra = -1, 0
    for c in range(rules.COLUMNS):
        if c == extra_col:
            row.append(f"{rules.EXTRA_GOES}/{extra}")
            continue
        b = byte()
        if b < LIGHTNING_BELOW:
            row.append(stream.choice(LIGHTNING_MOTIFS))
        elif b < BONUS_BELOW:
            row.append(rules.BONUS)
        else:
            row.append(rules.SYMBOLS[byte() % N_SYMBOLS])
    return row, extra


def start_row(stream: Stream, specials: bool) -> list[str]:
    """The inactive Top Row shown before the first GO (docs/books.md, S): four symbols, or from
    model 3 a random Top Row like any GO's, drawn again while it shows three bonus motifs (so it
    never looks like a Bonus Game that did not start)."""
    if not specials:
        return draw_symbols(stream, rules.COLUMNS)
    while True:
        row, _extra = random_top_row(stream, rules.START_GOES, None)
        if row.count(rules.BONUS) < rules.BONUS_MOTIFS_TO_ACTIVATE:
            return row


def meter_range(pence: int) -> tuple[int, int]:
    """The segment counts whose lit box pays exactly pence (0 means 0 to 7 segments)."""
    if pence == 0:
        return 0, rules.METER_BOXES[0][1]
    for first, last, prize in rules.METER_BOXES:
        if prize == pence:
            return first, last
    raise ValueError(f"no meter box pays {pence} pence")


def stop_row(stream: Stream, award: Award) -> int:
    """The Bonus Game row where a random game that ends on award stops (exact conditional)."""
    layouts = rules.BONUS_ROW_LAYOUTS
    weights = []
    for i, layout in enumerate(layouts):
        weight = layout.count(award)
        for j, other in enumerate(layouts):
            if j < i:
                weight *= sum(1 for seg in other if seg[0] == rules.UP)
            elif j > i:
                weight *= len(other)
        weights.append(weight)
    if not any(weights):
        raise ValueError(f"no Bonus Game segment shows {award}")
    return stream.weighted(weights)


def bonus_path(stream: Stream, award: Award) -> tuple[int, ...]:
    """The segment landed on in each Bonus Game row: up arrows, then the award."""
    last = stop_row(stream, award)
    path = []
    for i in range(last + 1):
        layout = rules.BONUS_ROW_LAYOUTS[i]
        wanted = award if i == last else None
        spots = [
            k
            for k, seg in enumerate(layout)
            if seg == wanted or (wanted is None and seg[0] == rules.UP)
        ]
        path.append(stream.choice(spots))
    return tuple(path)


def variety_award(stream: Stream, max_segments: int) -> Award:
    """The award of a random Bonus Game that is not an Instant Prize and fits the meter."""
    for _ in range(ATTEMPTS):
        for layout in rules.BONUS_ROW_LAYOUTS:
            kind, value = stream.choice(layout)
            if kind != rules.UP:
                break
        if kind == rules.EXTRA_GOES or (kind == rules.SEGMENTS and value <= max_segments):
            return kind, value
    return rules.EXTRA_GOES, 1


@dataclass(frozen=True)
class Goes:
    """When things happen: total goes, the Bonus Game award of each trigger go, extra goes."""

    total: int
    triggers: dict[int, Award]
    extras: dict[int, int]


def plan_goes(stream: Stream, awards: list[Award], max_goes: int | None) -> Goes:
    """Run the goes of a random play, spreading the planned Bonus Games over them (extra goes
    that would pass max_goes, with the planned Bonus Games' extra goes, are not shown)."""
    pending = list(awards)
    stream.shuffle(pending)
    reserve = sum(v for kind, v in pending if kind == rules.EXTRA_GOES)
    total = rules.START_GOES
    triggers: dict[int, Award] = {}
    extras: dict[int, int] = {}
    numerator, denominator = rules.EXTRA_GOES_CHANCE
    go = 1
    while go <= total:
        if pending and stream.below(total - go + 1) < len(pending):
            award = pending.pop()
            triggers[go] = award
            if award[0] == rules.EXTRA_GOES:
                total += award[1]
                reserve -= award[1]
        if stream.below(denominator) < numerator:  # stream.chance(*rules.EXTRA_GOES_CHANCE)
            value = stream.choice(rules.EXTRA_GOES_VALUES)
            if max_goes is None or total + value + reserve <= max_goes:
                extras[go] = value
                total += value
        go += 1
    return Goes(total, triggers, extras)
