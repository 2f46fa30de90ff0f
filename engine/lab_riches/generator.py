"""Lab Riches: build the book of a play from (model, composition, 128-bit seed), deterministically.

The event types and their fields are documented in docs/books.md; the decisions in
docs/games/lab-riches.md. The stream is engine.rng.Stream over model || 0x00 || seed.

Model 2 (`lab-riches/2`) shows a losing play as a random play that lost: it simulates random
plays under the documented rules (simulate.py) until one loses (at most RANDOM_ATTEMPTS, then
the construction of model 1 takes over from the same stream), so a losing play is never closer
to a win than chance makes it. A winning play is built as in model 1. Model 3 keeps that and
follows the procedure more closely (rules.MODELS): a GO that starts a Bonus Game plays it
before its Locked Symbols, every meter box crossed is highlighted in turn, the inactive start
row shows motifs too, and goes have no cap. Books of every model are built exactly as they
were (plays sold under them replay unchanged).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.book import Book
from engine.lab_riches import rules
from engine.lab_riches.plan import (
    MOD_SYMBOLS,
    N_SYMBOLS,
    Award,
    bonus_path,
    draw_symbols,
    meter_range,
    plan_goes,
    read_composition,
    variety_award,
)
from engine.lab_riches.reveals import plan_locks, plan_top
from engine.lab_riches.simulate import plan_pays, random_plan
from engine.outcome import Composition
from engine.rng import Stream

MODELS = tuple(rules.MODELS)
RANDOM_ATTEMPTS = 64  # a random play loses about 35 times in 100: 64 tries all win 1 in 10^12
SYMBOL_INDEX = {s: i for i, s in enumerate(rules.SYMBOLS)}
# Every Top Row special as (kind, number): "lightning/3" is (LIGHTNING, 3); the bonus motif is
# (BONUS, 0).
SPECIAL = {
    **{f"{rules.LIGHTNING}/{n}": (rules.LIGHTNING, n) for n in rules.LIGHTNING_VALUES},
    **{f"{rules.EXTRA_GOES}/{n}": (rules.EXTRA_GOES, n) for n in rules.EXTRA_GOES_VALUES},
    rules.BONUS: (rules.BONUS, 0),
}
# Every Top Row square as a byte: its symbol's index, or 255 (never a match) for a special.
TOP_INDEX = {**SYMBOL_INDEX, **dict.fromkeys(SPECIAL, 255)}
meter_box = cache(rules.meter_box)
ROW_SLICES = tuple(
    slice(k, k + rules.COLUMNS) for k in range(0, rules.ROWS * rules.COLUMNS, rules.COLUMNS)
)
# Squares k = row * COLUMNS + column, in the order the matching animates: column by column.
COLUMN_ORDER = sorted(
    range(rules.ROWS * rules.COLUMNS), key=lambda k: (k % rules.COLUMNS, k // rules.COLUMNS)
)


def build_book(model: str, composition: Composition, seed: bytes) -> Book:
    """The whole play for this outcome: the same inputs always give the same book."""
    if model not in MODELS:
        raise ValueError(f"unknown Lab Riches model {model!r}; known: {', '.join(MODELS)}")
    if len(seed) != 16:
        raise ValueError(f"the scenario seed must be 16 bytes, got {len(seed)}")
    outcome = read_composition(composition)
    shows = rules.MODELS[model]
    stream = Stream(model.encode() + b"\x00" + seed)
    if shows.random_losses and not composition.parts:
        lost = _random_loss(stream, shows)
        if lost is not None:
            return Book(rules.GAME_ID, model, 0, composition, seed.hex(), tuple(lost))
    low, high = meter_range(outcome.meter)
    awards: list[Award] = [(rules.INSTANT, p) for p in outcome.instants]
    if len(awards) < rules.MAX_BONUS_GAMES and stream.chance(*rules.VARIETY_BONUS_CHANCE):
        awards.append(variety_award(stream, high))
    goes = plan_goes(stream, awards, shows.max_goes)
    top = plan_top(stream, goes, low, high, shows.start_specials)
    winners = stream.sample(range(rules.ROWS), len(outcome.rows))
    boxes = [stream.choice(rules.PRIZE_BOX_AMOUNTS) for _ in range(rules.ROWS)]
    for row, pence in zip(winners, outcome.rows, strict=True):
        boxes[row] = pence
    locks = plan_locks(stream, top, set(winners))
    events = _events(stream, top, locks, boxes, goes.triggers, shows)
    return Book(
        game=rules.GAME_ID,
        model=model,
        prize_pence=composition.total,
        composition=composition,
        seed=seed.hex(),
        events=tuple(events),
    )


def _random_loss(stream: Stream, shows: rules.Model) -> list[dict[str, Any]] | None:
    """The events of the first random play that wins nothing (None after RANDOM_ATTEMPTS)."""
    for _ in range(RANDOM_ATTEMPTS):
        plan = random_plan(stream, shows)
        if not plan_pays(plan):
            return _events(stream, plan.top, plan.locks, plan.boxes, plan.triggers, shows)
    return None


def _events(
    stream: Stream,
    top: list[list[str]],
    locks: list[list[int]],
    boxes: list[int],
    triggers: dict[int, Award],
    shows: rules.Model,
) -> list[dict[str, Any]]:
    """Walk the GOs in order and write one event per thing the player sees happen."""
    rows, cols = rules.ROWS, rules.COLUMNS
    cells = rows * cols
    symbols = rules.SYMBOLS
    start = draw_symbols(stream, cells)
    goes_left = rules.START_GOES
    events: list[dict[str, Any]] = [
        {"type": "start", "goes_left": goes_left, "top": top[0], "grid": _rows(start)}
    ]
    # Square k is (row k // cols, column k % cols); its lock GO, and the GOs' locks and row wins.
    lock_at = [go for row in locks for go in row]
    locking: dict[int, list[int]] = {}
    for k in COLUMN_ORDER:
        locking.setdefault(lock_at[k], []).append(k)
    completing: dict[int, list[int]] = {}
    for r in range(rows):
        if min(locks[r]) > 0:
            completing.setdefault(max(locks[r]), []).append(r)
    # The grid as one big-endian integer of symbol-index bytes (byte k is square k): the Locked
    # Symbols so far, and a mask of 0xff over their squares.
    held = held_mask = 0
    meter = 0
    every = shows.every_meter_box
    won = {"rows": 0, "instants": 0}
    codes = bytes([TOP_INDEX[s] for row in top for s in row])  # 255: a special, never a match
    for go in range(1, len(top)):
        goes_left -= 1
        row_top = top[go]
        targets = codes[go * cols : go * cols + cols]
        now = locking.get(go, ())
        for k in now:
            shift = 8 * (cells - 1 - k)
            held |= targets[k % cols] << shift
            held_mask |= 0xFF << shift
        fresh = int.from_bytes(stream.read(cells).translate(MOD_SYMBOLS), "big")
        squares = bytearray(((fresh & ~held_mask) | held).to_bytes(cells, "big"))
        # Zero bytes: unlocked squares whose fresh symbol equals its column's Top Row symbol.
        clash = ((fresh ^ int.from_bytes(targets * rows, "big")) | held_mask).to_bytes(cells, "big")
        k = clash.find(0)
        while k >= 0:  # not a match after all: redraw among the other symbols
            x = stream.below(N_SYMBOLS - 1)
            squares[k] = x + (x >= targets[k % cols])
            k = clash.find(0, k + 1)
        grid = [symbols[x] for x in squares]
        events.append(
            {"type": "go", "go": go, "goes_left": goes_left, "top": row_top, "grid": _rows(grid)}
        )
        if go == 1:
            events.append({"type": "prize_boxes", "amounts": boxes})
        award = triggers.get(go)
        if award is not None and shows.bonus_first:
            meter, goes_left = _bonus_game(
                stream, events, go, award, (meter, goes_left), won, every
            )
        for k in now:
            events.append({"type": "lock", "row": k // cols, "col": k % cols, "symbol": grid[k]})
        for r in completing.get(go, ()):
            events.append({"type": "row_win", "row": r, "pence": boxes[r]})
            won["rows"] += boxes[r]
        c = targets.find(255)
        while c >= 0:
            kind, number = SPECIAL[row_top[c]]
            if kind == rules.LIGHTNING:
                meter = _add_segments(events, meter, number, {"source": "top", "col": c}, every)
            elif kind == rules.EXTRA_GOES:
                goes_left += number
                events.append(
                    {"type": "extra_goes", "source": "top", "col": c, "count": number,
                     "goes_left": goes_left}
                )  # fmt: skip
            c = targets.find(255, c + 1)
        if award is not None and not shows.bonus_first:
            meter, goes_left = _bonus_game(
                stream, events, go, award, (meter, goes_left), won, every
            )
    meter_pence = rules.meter_prize(meter)
    total = won["rows"] + meter_pence + won["instants"]
    events.append(
        {"type": "end", "rows_pence": won["rows"], "meter": meter, "meter_pence": meter_pence,
         "instant_pence": won["instants"], "total": total}
    )  # fmt: skip
    for i, event in enumerate(events):
        event["index"] = i
    return events


def _rows(flat: list[str]) -> list[list[str]]:
    """A flat list of the grid's squares as rows, top to bottom."""
    return [flat[s] for s in ROW_SLICES]


def _bonus_game(
    stream: Stream,
    events: list[dict[str, Any]],
    go: int,
    award: Award,
    state: tuple[int, int],
    won: dict[str, int],
    every: bool,
) -> tuple[int, int]:
    """Append the Bonus Game that GO go starts, ending on award: bonus_activated, its rows, the
    award, bonus_end. state and the result are (meter, goes left) before and after it."""
    meter, goes_left = state
    events.append({"type": "bonus_activated", "go": go})
    for row, landed in enumerate(bonus_path(stream, award)):
        shown, amount = rules.BONUS_ROW_LAYOUTS[row][landed]
        events.append(
            {"type": "bonus_row", "row": row, "landed": landed, "award": shown, "value": amount}
        )
    prize, value = award
    if prize == rules.INSTANT:
        won["instants"] += value
        events.append({"type": "instant", "pence": value})
    elif prize == rules.SEGMENTS:
        meter = _add_segments(events, meter, value, {"source": "bonus"}, every)
    else:
        goes_left += value
        events.append(
            {"type": "extra_goes", "source": "bonus", "count": value, "goes_left": goes_left}
        )
    events.append({"type": "bonus_end"})
    return meter, goes_left


def _add_segments(
    events: list[dict[str, Any]], meter: int, count: int, where: dict[str, Any], every: bool
) -> int:
    """Append a segments event and a meter_box event if the lit box changes (with every, one
    for each box crossed, in order); the new meter."""
    before = meter_box(meter)
    meter += count
    events.append({"type": "segments", **where, "count": count, "meter": meter})
    box = meter_box(meter)
    if box != before and box is not None:
        first = box if not every else 0 if before is None else before + 1
        for crossed in range(first, box + 1):
            events.append(
                {"type": "meter_box", "box": crossed, "pence": rules.METER_BOXES[crossed][2]}
            )
    return meter
