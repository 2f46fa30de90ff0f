"""The browser backend's Python half: records drawing calls as one JSON batch a frame.

The shell's JavaScript (web/shell/app.js, `runBatch`) replays the batch on a 2D canvas
scaled by devicePixelRatio, so a frame costs one call across the Pyodide FFI instead of
hundreds. This module imports nothing from `js`; the caller passes in text measurement.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from engine.ui.draw import Align, Baseline, Font, LinearGradient, Paint, Point

Measure = Callable[[str, float, str, bool], float]


def _paint(paint: Paint | None) -> Any:
    if paint is None or isinstance(paint, str):
        return paint
    return {"g": [paint.x0, paint.y0, paint.x1, paint.y1, [list(s) for s in paint.stops]]}


class CommandCanvas:
    """A Canvas that appends compact commands to a list, flushed once per frame."""

    def __init__(self, width: float, height: float, measure: Measure) -> None:
        self._width = width
        self._height = height
        self._measure = measure
        self._widths: dict[tuple[str, float, str, bool], float] = {}
        self.commands: list[list[Any]] = []

    @property
    def width(self) -> float:
        """Logical width."""
        return self._width

    @property
    def height(self) -> float:
        """Logical height."""
        return self._height

    def resize(self, width: float, height: float) -> None:
        """Adopt a new logical size."""
        self._width, self._height = width, height

    def flush(self) -> str:
        """The frame's commands as JSON, and a fresh list for the next frame."""
        batch, self.commands = self.commands, []
        return json.dumps(batch, separators=(",", ":"))

    def clear(self, paint: Paint) -> None:
        """Fill the whole area."""
        self.commands.append(["clear", _paint(paint)])

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
        self.commands.append(["rect", x, y, w, h, _paint(fill), stroke, line_width, radius])

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
        self.commands.append(["circle", cx, cy, r, _paint(fill), stroke, line_width])

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
        flat = [c for p in points for c in p]
        self.commands.append(["path", flat, _paint(fill), stroke, line_width, closed])

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
        self.commands.append(
            ["text", s, x, y, font.size, font.family, font.bold, fill, align, baseline]
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

    def image(self, key: str, x: float, y: float, w: float, h: float) -> None:
        """A loaded image scaled into the rectangle."""
        self.commands.append(["image", key, x, y, w, h])

    def save(self) -> None:
        """Push state."""
        self.commands.append(["save"])

    def restore(self) -> None:
        """Pop state."""
        self.commands.append(["restore"])

    def translate(self, dx: float, dy: float) -> None:
        """Move the origin."""
        self.commands.append(["translate", dx, dy])

    def scale(self, sx: float, sy: float) -> None:
        """Scale what follows."""
        self.commands.append(["scale", sx, sy])

    def rotate(self, radians: float) -> None:
        """Rotate what follows."""
        self.commands.append(["rotate", radians])

    def alpha(self, a: float) -> None:
        """Multiply the opacity of what follows."""
        self.commands.append(["alpha", a])

    def clip(self, x: float, y: float, w: float, h: float) -> None:
        """Clip what follows to a rectangle."""
        self.commands.append(["clip", x, y, w, h])


def gradient_of(data: Any) -> LinearGradient:
    """Read back a gradient from its command form (for tests and tools)."""
    x0, y0, x1, y1, stops = data["g"]
    return LinearGradient(x0, y0, x1, y1, tuple((float(o), str(c)) for o, c in stops))
