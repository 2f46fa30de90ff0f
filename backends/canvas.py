"""The browser backend's Python half: records drawing calls as one batch of numbers a frame.

A frame's batch is an `array.array('d')`: each command is an opcode followed by its numeric
arguments. Strings (colours, texts, font families, alignments, image keys) and gradients are
interned in a table kept across frames, referenced by index (-1 for None); a flush hands over
only the entries added since the last one. The shell (web/shell/app.js, `runBatch`) reads
the numbers zero-copy through Pyodide's buffer protocol and replays them on a 2D canvas, so
a frame costs a few calls across the FFI and no JSON of its commands. The format is in
docs/drawing.md; `BatchReader` decodes it back (tests and tools). This module imports
nothing from `js`; the caller passes in text measurement.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

from engine.ui.draw import Align, Baseline, Font, LinearGradient, Paint, Point

Measure = Callable[[str, float, str, bool], float]
Widths = dict[tuple[str, float, str, bool], float]
Entry = str | LinearGradient

# Opcodes and their argument counts (a path adds 2 × n coordinates after its 5 arguments).
CLEAR, RECT, CIRCLE, PATH, TEXT = 1, 2, 3, 4, 5
SAVE, RESTORE, TRANSLATE, SCALE, ROTATE, ALPHA, CLIP = 6, 7, 8, 9, 10, 11, 12
IMAGE = 13
NAMES = {
    CLEAR: ("clear", 1),
    RECT: ("rect", 8),
    CIRCLE: ("circle", 6),
    PATH: ("path", 5),
    TEXT: ("text", 9),
    SAVE: ("save", 0),
    RESTORE: ("restore", 0),
    TRANSLATE: ("translate", 2),
    SCALE: ("scale", 2),
    ROTATE: ("rotate", 1),
    ALPHA: ("alpha", 1),
    CLIP: ("clip", 4),
    IMAGE: ("image", 5),
}
REFS = {
    CLEAR: (0,),
    RECT: (4, 5),
    CIRCLE: (3, 4),
    PATH: (1, 2),
    TEXT: (0, 4, 6, 7, 8),
    IMAGE: (0,),
}
FLAGS = {PATH: 4, TEXT: 5}  # the argument that is a boolean (closed, bold)
TABLE_LIMIT = 4096  # entries; past it the table starts again at the next frame


@dataclass(frozen=True)
class Batch:
    """One frame: the numbers, and the table entries added from index `base` on."""

    numbers: array[float]
    base: int
    added: list[Entry]

    def table_json(self) -> dict[str, Any]:
        """The table update as the shell reads it: {"base": n, "add": [str | {"g": [...]}]}."""
        return {"base": self.base, "add": [entry_json(e) for e in self.added]}


def entry_json(entry: Entry) -> Any:
    """A table entry as JSON: the string itself, or {"g": [x0, y0, x1, y1, [[o, c], ...]]}."""
    if isinstance(entry, str):
        return entry
    return {"g": [entry.x0, entry.y0, entry.x1, entry.y1, [list(s) for s in entry.stops]]}


class _Table(dict[Entry | None, int]):
    """Index of each interned entry; a missing one is appended to `entries`, None is -1."""

    def __init__(self) -> None:
        super().__init__({None: -1})
        self.entries: list[Entry] = []

    def __missing__(self, entry: Entry) -> int:
        """Add a new entry at the end of the table."""
        index = self[entry] = len(self.entries)
        self.entries.append(entry)
        return index


class CommandCanvas:
    """A Canvas that appends opcodes and numbers to a list, flushed once per frame as an array."""

    def __init__(
        self, width: float, height: float, measure: Measure, widths: Widths | None = None
    ) -> None:
        self._width = width
        self._height = height
        self._measure = measure
        # Text widths already measured ((s, size, family, bold): width); `widths`, another
        # canvas's measured by the same `measure` with the same fonts, is shared.
        self._widths: Widths = {} if widths is None else widths
        self._numbers: list[float] = []  # list.extend is far cheaper than array.extend
        self._table = _Table()  # self._table[paint]: its index (-1 for None)
        self._sent = 0  # entries already handed over

    @property
    def width(self) -> float:
        """Logical width."""
        return self._width

    @property
    def widths(self) -> Widths:
        """The text widths measured so far, by (s, size, family, bold)."""
        return self._widths

    @property
    def height(self) -> float:
        """Logical height."""
        return self._height

    def resize(self, width: float, height: float) -> None:
        """Adopt a new logical size."""
        self._width, self._height = width, height

    def flush(self) -> Batch:
        """The frame's batch, and a fresh list for the next frame."""
        entries = self._table.entries
        batch = Batch(array("d", self._numbers), self._sent, entries[self._sent :])
        self._numbers = []
        self._sent = len(entries)
        if self._sent > TABLE_LIMIT:
            self._table, self._sent = _Table(), 0
        return batch

    def clear(self, paint: Paint) -> None:
        """Fill the whole area."""
        self._numbers.extend((CLEAR, self._table[paint]))

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: Paint | None = None,
        stroke: str | None = None,
        line_width: float = 1.0,
        radius: float = 0.0,
    ) -> None:
        """A rectangle, filled and/or stroked, with optional rounded corners."""
        ref = self._table
        self._numbers.extend((RECT, x, y, w, h, ref[fill], ref[stroke], line_width, radius))

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        *,
        fill: Paint | None = None,
        stroke: str | None = None,
        line_width: float = 1.0,
    ) -> None:
        """A circle, filled and/or stroked."""
        ref = self._table
        self._numbers.extend((CIRCLE, cx, cy, r, ref[fill], ref[stroke], line_width))

    def path(
        self,
        points: Sequence[Point],
        *,
        fill: Paint | None = None,
        stroke: str | None = None,
        line_width: float = 1.0,
        closed: bool = True,
    ) -> None:
        """A polygon or polyline through the points."""
        ref, numbers = self._table, self._numbers
        numbers.extend((PATH, len(points), ref[fill], ref[stroke], line_width, closed))
        numbers.extend(chain.from_iterable(points))

    def text(
        self,
        s: str,
        x: float,
        y: float,
        font: Font,
        *,
        fill: str = "#ffffff",
        align: Align = "center",
        baseline: Baseline = "middle",
    ) -> None:
        """One line of text anchored at (x, y)."""
        ref = self._table
        family, size, bold = ref[font.family], font.size, font.bold
        self._numbers.extend(
            (TEXT, ref[s], x, y, size, family, bold, ref[fill], ref[align], ref[baseline])
        )

    def measure(self, s: str, font: Font) -> float:
        """Text width, asked of the browser once per distinct string and font."""
        key = (s, font.size, font.family, font.bold)
        width = self._widths.get(key)
        if width is None:
            if len(self._widths) > 4096:
                self._widths.clear()
            width = self._widths[key] = float(self._measure(*key))
        return width

    def save(self) -> None:
        """Push state."""
        self._numbers.append(SAVE)

    def restore(self) -> None:
        """Pop state."""
        self._numbers.append(RESTORE)

    def translate(self, dx: float, dy: float) -> None:
        """Move the origin."""
        self._numbers.extend((TRANSLATE, dx, dy))

    def scale(self, sx: float, sy: float) -> None:
        """Scale what follows."""
        self._numbers.extend((SCALE, sx, sy))

    def rotate(self, radians: float) -> None:
        """Rotate what follows."""
        self._numbers.extend((ROTATE, radians))

    def alpha(self, a: float) -> None:
        """Multiply the opacity of what follows."""
        self._numbers.extend((ALPHA, a))

    def clip(self, x: float, y: float, w: float, h: float) -> None:
        """Clip what follows to a rectangle."""
        self._numbers.extend((CLIP, x, y, w, h))

    def image(self, key: str, x: float, y: float, w: float, h: float) -> None:
        """An atlas picture by key into a rectangle."""
        self._numbers.extend((IMAGE, self._table[key], x, y, w, h))


class BatchReader:
    """Decodes batches back into commands, keeping the table as the shell does."""

    def __init__(self) -> None:
        self.table: list[Entry] = []

    def read(self, batch: Batch) -> list[list[Any]]:
        """The batch's commands as [name, *args]: references resolved, a path's points listed."""
        if batch.base == 0:
            self.table.clear()
        if batch.base != len(self.table):
            raise ValueError(f"table out of step: base {batch.base}, have {len(self.table)}")
        self.table += batch.added
        out: list[list[Any]] = []
        data, i = batch.numbers, 0
        while i < len(data):
            if data[i] not in NAMES:
                raise ValueError(f"unknown drawing opcode {data[i]} at {i}")
            op = int(data[i])
            name, count = NAMES[op]
            args: list[Any] = list(data[i + 1 : i + 1 + count])
            i += 1 + count
            if i > len(data):
                raise ValueError(f"the last command ({name}) is cut short")
            if op == PATH:
                coords, i = data[i : i + 2 * int(args[0])], i + 2 * int(args[0])
                if i > len(data):
                    raise ValueError("the last path is cut short")
                args[0] = list(zip(coords[::2], coords[1::2], strict=True))
            for k in REFS.get(op, ()):
                args[k] = None if args[k] < 0 else self.table[int(args[k])]
            if op in FLAGS:
                args[FLAGS[op]] = bool(args[FLAGS[op]])
            out.append([name, *args])
        return out
