"""Lab Riches: what every GO reveals: its Top Row, and the go at which each Grid square locks.

Top Row squares are written as in the book: a symbol name, "lightning/N", "extra-goes/N" or
"bonus". Lock times are 0 for a square that never locks, else the GO (1-based) of its match.
"""

from __future__ import annotations

from engine.lab_riches import rules
from engine.lab_riches.plan import ATTEMPTS, N_SYMBOLS, Goes, draw_symbols, start_row
from engine.rng import Stream

Slot = tuple[int, int]  # (go, column)
Span = tuple[int, int, list[int]]
SYMBOL_SET = frozenset(rules.SYMBOLS)
# Tables for bytes.translate that map the bytes meaning "yes" to 0 (found with bytes.find):
# read as below(len(SYMBOLS)), a match when it is 0; read as flags() of a motif's chance, a motif.
MATCH = bytes(0 if b % N_SYMBOLS == 0 else 1 for b in range(256))
LIGHTNING_BYTE = rules.LIGHTNING_CHANCE[0] * (256 // rules.LIGHTNING_CHANCE[1])
BONUS_BYTE = rules.BONUS_MOTIF_CHANCE[0] * (256 // rules.BONUS_MOTIF_CHANCE[1])
LIGHTNING_HIT = bytes(0 if b < LIGHTNING_BYTE else 1 for b in range(256))
BONUS_HIT = bytes(0 if b < BONUS_BYTE else 1 for b in range(256))


def _zeros(data: bytes) -> list[int]:
    """The positions of the zero bytes in data, in order."""
    found = []
    k = data.find(0)
    while k >= 0:
        found.append(k)
        k = data.find(0, k + 1)
    return found


def _symbol_counts(top: list[list[str | None]]) -> list[int]:
    """How many GOs leave each column's Top Row square free for a symbol."""
    return [column.count(None) for column in zip(*top[1:], strict=True)]


def _place_lightning(
    stream: Stream, top: list[list[str | None]], target: int, free: list[Slot]
) -> list[int]:
    """Direct construction: lightning motifs adding up to target, keeping symbols in each column.

    Returns how many squares of each column are left for symbols.
    """
    counts = _symbol_counts(top)
    order = list(free)
    stream.shuffle(order)
    remaining = target
    for floor in (2, 1):
        for go, col in order:
            if remaining == 0:
                return counts
            if top[go][col] is None and counts[col] > floor:
                value = stream.between(min(4, remaining), min(5, remaining))
                top[go][col] = f"{rules.LIGHTNING}/{value}"
                counts[col] -= 1
                remaining -= value
    if remaining:
        raise ValueError("no room on the Top Rows for the planned meter segments")
    return counts


def plan_top(
    stream: Stream, goes: Goes, low: int, high: int, start_specials: bool
) -> list[list[str]]:
    """Top Rows for GOs 1..total (index 0 is the inactive start row) with specials placed."""
    base: list[list[str | None]] = [[None] * rules.COLUMNS for _ in range(goes.total + 1)]
    base[0][:] = start_row(stream, start_specials)
    for go in range(1, goes.total + 1):
        row = base[go]
        if go in goes.triggers:
            keep = stream.below(rules.COLUMNS)
            for c in range(rules.COLUMNS):
                if c != keep:
                    row[c] = rules.BONUS
            if go in goes.extras:
                row[keep] = f"{rules.EXTRA_GOES}/{goes.extras[go]}"
        elif go in goes.extras:
            row[stream.below(rules.COLUMNS)] = f"{rules.EXTRA_GOES}/{goes.extras[go]}"
    bonus_segments = sum(v for kind, v in goes.triggers.values() if kind == rules.SEGMENTS)
    free = [
        (g, c) for g in range(1, goes.total + 1) for c in range(rules.COLUMNS) if base[g][c] is None
    ]
    free_counts = _symbol_counts(base)
    top = None
    for _ in range(ATTEMPTS):
        # The same draws as stream.flags(len(free), *rules.LIGHTNING_CHANCE).
        hits = [free[k] for k in _zeros(stream.read(len(free)).translate(LIGHTNING_HIT))]
        values = [stream.choice(rules.LIGHTNING_VALUES) for _ in hits]
        if not low <= bonus_segments + sum(values) <= high:
            continue
        counts = list(free_counts)
        for _go, col in hits:
            counts[col] -= 1
        if min(counts) >= 1:
            top = [list(row) for row in base]
            for (go, col), value in zip(hits, values, strict=True):
                top[go][col] = f"{rules.LIGHTNING}/{value}"
            break
    if top is None:
        top = [list(row) for row in base]
        target = stream.between(max(low - bonus_segments, 0), high - bonus_segments)
        counts = _place_lightning(stream, top, target, free)
    _place_decoys(stream, top, goes, counts)
    names = iter(draw_symbols(stream, sum(counts)))
    return [[s if s is not None else next(names) for s in row] for row in top]


def _place_decoys(
    stream: Stream, top: list[list[str | None]], goes: Goes, counts: list[int]
) -> None:
    """Bonus motifs that do not trigger: at most two in a GO, never a column's last symbol.

    counts (how many squares of each column are left for symbols) is kept up to date.
    """
    plain = [go for go in range(1, goes.total + 1) if go not in goes.triggers]
    shown = dict.fromkeys(plain, 0)
    # The same draws as stream.flags(rules.COLUMNS, *rules.BONUS_MOTIF_CHANCE) for these GOs.
    for k in _zeros(stream.read(rules.COLUMNS * len(plain)).translate(BONUS_HIT)):
        go, col = plain[k // rules.COLUMNS], k % rules.COLUMNS
        if (
            top[go][col] is None
            and shown[go] < rules.BONUS_MOTIFS_TO_ACTIVATE - 1
            and counts[col] > 1
        ):
            top[go][col] = rules.BONUS
            counts[col] -= 1
            shown[go] += 1


def _spans(symbol_goes: list[list[int]]) -> list[Span]:
    """Where each column's bytes lie in a _first_matches read: (start, end, its GOs)."""
    spans = []
    end = 0
    for goes in symbol_goes:
        start, end = end, end + len(goes)
        spans.append((start, end, goes))
    return spans


def _first_matches(stream: Stream, spans: list[Span]) -> list[int]:
    """Per column, the first GO whose fresh random square matches its Top Row symbol (0: none).

    One byte per GO in column order, each read as below(len(SYMBOLS)) (a match when it is 0).
    """
    data = stream.read(spans[-1][1]).translate(MATCH)
    found = []
    for start, end, goes in spans:
        at = data.find(0, start, end)
        found.append(goes[at - start] if at >= 0 else 0)
    return found


def plan_locks(stream: Stream, top: list[list[str]], winners: set[int]) -> list[list[int]]:
    """Lock GO of every square: rows in winners complete, the others never do."""
    symbol_goes = [
        [g for g, s in enumerate(column, 1) if s in SYMBOL_SET]
        for column in zip(*top[1:], strict=True)
    ]
    every = _spans(symbol_goes)
    locks = []
    for r in range(rules.ROWS):
        row = _first_matches(stream, every)
        if r in winners:
            for _ in range(ATTEMPTS):
                missing = [c for c, go in enumerate(row) if not go]
                if not missing:
                    break
                again = _first_matches(stream, _spans([symbol_goes[c] for c in missing]))
                for c, go in zip(missing, again, strict=True):
                    row[c] = go
            row = [go or stream.choice(symbol_goes[c]) for c, go in enumerate(row)]
        else:
            for _ in range(ATTEMPTS):
                if not all(row):
                    break
                row = _first_matches(stream, every)
            else:
                row[stream.below(rules.COLUMNS)] = 0
        locks.append(row)
    return locks
