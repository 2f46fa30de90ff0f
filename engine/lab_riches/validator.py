"""Lab Riches: an independent check of a book (parsed JSON), re-applying the procedures' rules.

It reads only the rules' constants, never the generator or its helpers. From each GO's visible
grid and Top Row (and the Bonus Game segments landed on) it works out, by the rules, the events
that must follow, compares them with the book's, and at the end recomputes the total. It returns
every violation as a sentence; an empty list means the book is a faithful play of its outcome.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.lab_riches import rules

Event = dict[str, Any]


def _box(meter: int) -> int | None:
    """Index of the meter box holding this segment count (None at 0 segments)."""
    for i, (first, last, _pence) in enumerate(rules.METER_BOXES):
        if first <= meter <= last:
            return i
    return None


def _top_ok(item: Any) -> bool:
    """True for a symbol, the bonus motif, or a lightning/extra-goes motif with a legal number."""
    if item in rules.SYMBOLS or item == rules.BONUS:
        return True
    if not isinstance(item, str):
        return False
    kind, _, number = item.partition("/")
    values = {
        rules.LIGHTNING: rules.LIGHTNING_VALUES,
        rules.EXTRA_GOES: rules.EXTRA_GOES_VALUES,
    }.get(kind, ())
    return number.isdigit() and int(number) in values


def _shape_ok(grid: Any, top: Any) -> bool:
    """True when grid is 5 rows of 4 symbols and top is 4 known Top Row squares."""
    if not (isinstance(grid, list) and len(grid) == rules.ROWS and isinstance(top, list)):
        return False
    if len(top) != rules.COLUMNS or not all(_top_ok(item) for item in top):
        return False
    return all(
        isinstance(row, list) and len(row) == rules.COLUMNS and all(s in rules.SYMBOLS for s in row)
        for row in grid
    )


class _Play:
    """The state of the play as the rules see it, while the GOs are re-applied."""

    def __init__(self, shows: rules.Model) -> None:
        self.shows = shows
        self.faults: list[str] = []
        self.goes_left = rules.START_GOES
        self.grid: list[list[str]] = []
        self.locked = [[False] * rules.COLUMNS for _ in range(rules.ROWS)]
        self.won = [False] * rules.ROWS
        self.boxes: list[int] = [0] * rules.ROWS
        self.meter = 0
        self.rows: list[int] = []
        self.instants: list[int] = []

    def segments(self, count: int, where: Event) -> list[Event]:
        """The segments event and, if the lit box changes, a meter_box event for the new box
        (from model 3, one for every box reached, in turn) for count segments."""
        before = _box(self.meter)
        self.meter += count
        out = [{"type": "segments", **where, "count": count, "meter": self.meter}]
        box = _box(self.meter)
        if box is not None and box != before:
            lit = range(0 if before is None else before + 1, box + 1)
            for each in lit if self.shows.every_meter_box else (box,):
                out.append({"type": "meter_box", "box": each, "pence": rules.METER_BOXES[each][2]})
        return out

    def play_go(self, number: int, events: list[Event]) -> list[Event]:
        """The events the rules require for this GO (events[0] is the go event itself)."""
        go = events[0]
        self.goes_left -= 1
        want: list[Event] = [{**go, "go": number, "goes_left": self.goes_left}]
        grid, top = go.get("grid"), go.get("top")
        if not _shape_ok(grid, top):
            self.faults.append(f"GO {number}: grid or Top Row has a wrong shape or symbol")
            return want
        assert isinstance(grid, list) and isinstance(top, list)
        for r in range(rules.ROWS):
            for c in range(rules.COLUMNS):
                if self.locked[r][c] and grid[r][c] != self.grid[r][c]:
                    self.faults.append(f"GO {number}: Locked Symbol at ({r}, {c}) changed")
        self.grid = grid
        if number == 1:
            shown = events[1].get("amounts") if len(events) > 1 else None
            if not (isinstance(shown, list) and len(shown) == rules.ROWS):
                shown = [0] * rules.ROWS
            if not all(a in rules.PRIZE_BOX_AMOUNTS for a in shown):
                self.faults.append(f"Prize Box amounts {shown} are not all legal amounts")
            self.boxes = list(shown)
            want.append({"type": "prize_boxes", "amounts": shown})
        bonus = top.count(rules.BONUS) >= rules.BONUS_MOTIFS_TO_ACTIVATE
        if bonus and self.shows.bonus_first:  # the award first, then the Grid's Locked Symbols
            want.append({"type": "bonus_activated", "go": number})
            want += self.bonus(events[len(want) :])
        for c in range(rules.COLUMNS):
            for r in range(rules.ROWS):
                if not self.locked[r][c] and grid[r][c] == top[c]:
                    self.locked[r][c] = True
                    want.append({"type": "lock", "row": r, "col": c, "symbol": top[c]})
        for r in range(rules.ROWS):
            if all(self.locked[r]) and not self.won[r]:
                self.won[r] = True
                self.rows.append(self.boxes[r])
                want.append({"type": "row_win", "row": r, "pence": self.boxes[r]})
        for c, item in enumerate(top):
            kind, _, number_text = item.partition("/")
            if kind == rules.LIGHTNING:
                want += self.segments(int(number_text), {"source": "top", "col": c})
            elif kind == rules.EXTRA_GOES:
                self.goes_left += int(number_text)
                want.append(
                    {"type": "extra_goes", "source": "top", "col": c,
                     "count": int(number_text), "goes_left": self.goes_left}
                )  # fmt: skip
        if bonus and not self.shows.bonus_first:
            want.append({"type": "bonus_activated", "go": number})
            want += self.bonus(events[len(want) :])
        return want

    def bonus(self, events: list[Event]) -> list[Event]:
        """The Bonus Game rows (using the segments landed on in events) and its award."""
        want: list[Event] = []
        for row, layout in enumerate(rules.BONUS_ROW_LAYOUTS):
            event = events[row] if row < len(events) else {}
            landed = event.get("landed")
            if not (isinstance(landed, int) and 0 <= landed < len(layout)):
                self.faults.append(f"Bonus Game row {row}: no legal segment landed on")
                return want
            kind, value = layout[landed]
            want.append(
                {"type": "bonus_row", "row": row, "landed": landed, "award": kind, "value": value}
            )
            if kind != rules.UP:
                break
        if kind == rules.UP:
            self.faults.append("the Bonus Game ended on an up arrow")
        elif kind == rules.INSTANT:
            self.instants.append(value)
            want.append({"type": "instant", "pence": value})
        elif kind == rules.SEGMENTS:
            want += self.segments(value, {"source": "bonus"})
        elif kind == rules.EXTRA_GOES:
            self.goes_left += value
            want.append(
                {"type": "extra_goes", "source": "bonus", "count": value,
                 "goes_left": self.goes_left}
            )  # fmt: skip
        want.append({"type": "bonus_end"})
        return want


def _strip(event: Any) -> Event:
    """An event without its index (for comparison); {} for anything that is not an object."""
    return {k: v for k, v in event.items() if k != "index"} if isinstance(event, dict) else {}


def _header(book: Mapping[str, Any]) -> list[str]:
    """Violations in the book's own fields (schema, game, model, seed)."""
    faults = []
    if book.get("schema") != 1:
        faults.append(f"unknown book schema {book.get('schema')!r}")
    if book.get("game") != rules.GAME_ID:
        faults.append(f"not a Lab Riches book: game {book.get('game')!r}")
    if not str(book.get("model", "")).startswith(rules.GAME_ID + "/"):
        faults.append(f"not a Lab Riches model: {book.get('model')!r}")
    seed = book.get("seed")
    if not (
        isinstance(seed, str) and len(seed) == 32 and all(ch in "0123456789abcdef" for ch in seed)
    ):
        faults.append("the seed is not 32 lower-case hex digits")
    return faults


def validate(book: Mapping[str, Any], choices: Mapping[int, int] | None = None) -> list[str]:
    """Every way this book breaks the rules or its outcome; [] for a faithful play. (A Lab
    Riches player makes no choices: `choices` is there for the game contract and unused.)"""
    faults = _header(book)
    raw = book.get("events")
    if not isinstance(raw, list) or len(raw) < 2:
        return [*faults, "a book needs a start and an end event"]
    faults += [f"event {i} has index {e.get('index')!r}" for i, e in enumerate(raw)
               if not isinstance(e, dict) or e.get("index") != i]  # fmt: skip
    events = [_strip(e) for e in raw]
    start, end = events[0], events[-1]
    shows = rules.MODELS.get(str(book.get("model")))
    if shows is None:
        return [*faults, f"unknown Lab Riches model {book.get('model')!r}"]
    play = _Play(shows)
    if start.get("type") != "start" or start.get("goes_left") != rules.START_GOES:
        faults.append(f"the first event must be start with {rules.START_GOES} goes left")
    elif not _shape_ok(start.get("grid"), start.get("top")):
        faults.append("the start grid or Top Row has a wrong shape or symbol")
    else:
        play.grid = start["grid"]
        inactive = start["top"]
        if not shows.start_specials and not all(item in rules.SYMBOLS for item in inactive):
            faults.append("the start Top Row shows a motif, which this model never shows")
        if inactive.count(rules.BONUS) >= rules.BONUS_MOTIFS_TO_ACTIVATE:
            faults.append("the inactive start Top Row shows a Bonus Game's motifs")
    starts = [i for i, e in enumerate(events) if e.get("type") == "go"]
    if not starts or starts[0] != 1:
        faults.append("the first GO must follow the start event")
    for number, (first, after) in enumerate(
        zip(starts, [*starts[1:], len(events) - 1], strict=True), 1
    ):
        if play.goes_left <= 0:
            faults.append(f"GO {number} was played with no goes left")
        chunk = events[first:after]
        want = play.play_go(number, chunk)
        for k in range(max(len(want), len(chunk))):
            got = chunk[k] if k < len(chunk) else None
            expected = want[k] if k < len(want) else None
            if got != expected:
                faults.append(f"event {first + k}: the rules give {expected}, the book has {got}")
                break
    if play.goes_left != 0:
        faults.append(f"the play ended with {play.goes_left} goes left")
    if shows.max_goes is not None and len(starts) > shows.max_goes:
        faults.append(f"{len(starts)} GOs: this model shows at most {shows.max_goes}")
    meter_box = _box(play.meter)
    meter_pence = rules.METER_BOXES[meter_box][2] if meter_box is not None else 0
    total = sum(play.rows) + meter_pence + sum(play.instants)
    want_end = {
        "type": "end",
        "rows_pence": sum(play.rows),
        "meter": play.meter,
        "meter_pence": meter_pence,
        "instant_pence": sum(play.instants),
        "total": total,
    }
    if end != want_end:
        faults.append(f"the end event should be {want_end}, the book has {end}")
    if book.get("prize_pence") != total:
        faults.append(
            f"the play reveals {total} pence but the Prize Amount is {book.get('prize_pence')}"
        )
    shown = Counter([("row", p) for p in play.rows] + [("instant", p) for p in play.instants])
    if meter_pence:
        shown[("meter", meter_pence)] += 1
    parts = book.get("composition")
    planned = Counter(
        (str(p.get("feature")), p.get("pence")) for p in (parts if isinstance(parts, list) else [])
    )
    if shown != planned:
        faults.append(
            f"the wins shown {sorted(shown.items())} differ from the composition "
            f"{sorted(planned.items())}"
        )
    return faults + play.faults
