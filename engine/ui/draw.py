"""The drawing interface: the few primitives every scene speaks, whatever draws them.

Coordinates are logical pixels (CSS pixels in the browser); backends scale for the
device. Pictures are the project's art (assets/), rasterised at build time into atlases and
drawn by key (`image`); a key the backend has not loaded draws nothing.
Colours are CSS strings ('#rrggbb', '#rrggbbaa' or 'rgba(r,g,b,a)'); a Paint is
a colour or a LinearGradient. Two backends implement Canvas: backends/canvas.py
(the browser, through Pyodide) and backends/pygame_backend.py (a window or a PNG).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

Align = Literal["left", "center", "right"]
Baseline = Literal["top", "middle", "bottom"]
Point = tuple[float, float]
Matrix = tuple[float, float, float, float, float, float]  # a b c d e f, as in the canvas 2D API
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def then(m: Matrix, n: Matrix) -> Matrix:
    """m followed by n, as `translate`/`scale`/`rotate` compose on a canvas (m · n)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + c * b2,
        b * a2 + d * b2,
        a * c2 + c * d2,
        b * c2 + d * d2,
        a * e2 + c * f2 + e,
        b * e2 + d * f2 + f,
    )


def translation(dx: float, dy: float) -> Matrix:
    """The matrix of `translate(dx, dy)`."""
    return (1.0, 0.0, 0.0, 1.0, dx, dy)


def scaling(sx: float, sy: float) -> Matrix:
    """The matrix of `scale(sx, sy)`."""
    return (sx, 0.0, 0.0, sy, 0.0, 0.0)


def rotation(radians: float) -> Matrix:
    """The matrix of `rotate(radians)`."""
    c, s = math.cos(radians), math.sin(radians)
    return (c, s, -s, c, 0.0, 0.0)


def transform(m: Matrix, x: float, y: float) -> Point:
    """Where (x, y) lands under m."""
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


@dataclass(frozen=True)
class LinearGradient:
    """A linear gradient from (x0, y0) to (x1, y1) through (offset 0..1, colour) stops."""

    x0: float
    y0: float
    x1: float
    y1: float
    stops: tuple[tuple[float, str], ...]


Paint = str | LinearGradient


@dataclass(frozen=True)
class Font:
    """A font by family key ('display' or 'body'), size in logical px and weight."""

    size: float
    family: str = "body"
    bold: bool = False


class Canvas(Protocol):
    """What a scene may do to the screen; one implementation per backend."""

    @property
    def width(self) -> float:
        """Logical width of the drawing area."""
        ...

    @property
    def height(self) -> float:
        """Logical height of the drawing area."""
        ...

    def clear(self, paint: Paint) -> None:
        """Fill the whole area."""

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

    def path(
        self,
        points: Sequence[Point],
        *,
        fill: Paint | None = None,
        stroke: str | None = None,
        line_width: float = 1.0,
        closed: bool = True,
    ) -> None:
        """A polygon (closed) or polyline through the points."""

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

    def measure(self, s: str, font: Font) -> float:
        """The width of one line of text in logical px."""
        ...

    def save(self) -> None:
        """Push the transform, alpha and clip."""

    def restore(self) -> None:
        """Pop the transform, alpha and clip."""

    def translate(self, dx: float, dy: float) -> None:
        """Move the origin."""

    def scale(self, sx: float, sy: float) -> None:
        """Scale the following drawing."""

    def rotate(self, radians: float) -> None:
        """Rotate the following drawing about the origin."""

    def alpha(self, a: float) -> None:
        """Multiply the opacity of the following drawing by a (0..1)."""

    def clip(self, x: float, y: float, w: float, h: float) -> None:
        """Restrict the following drawing to a rectangle."""

    def image(self, key: str, x: float, y: float, w: float, h: float) -> None:
        """The asset atlas's picture `key` ('group/name') scaled into a rectangle."""


def fit_text(canvas: Canvas, s: str, font: Font, max_width: float) -> Font:
    """The font shrunk (never grown) so that s fits within max_width."""
    width = canvas.measure(s, font)
    if width <= max_width or width == 0:
        return font
    return Font(max(6.0, font.size * max_width / width), font.family, font.bold)


def along(points: Sequence[Point], t: float) -> Point:
    """The point a fraction t (0..1) of the way along a polyline (by length)."""
    lengths = [math.dist(a, b) for a, b in itertools.pairwise(points)]
    goal = max(0.0, min(1.0, t)) * sum(lengths)
    for (ax, ay), (bx, by), length in zip(points, points[1:], lengths, strict=False):
        if goal <= length and length > 0:
            f = goal / length
            return ax + (bx - ax) * f, ay + (by - ay) * f
        goal -= length
    return points[-1]


def picture(canvas: Canvas, key: str, x: float, y: float, s: float, aspect: float = 1.0) -> None:
    """The picture `key` centred on (x, y), s high and s × aspect wide."""
    canvas.image(key, x - s * aspect / 2, y - s / 2, s * aspect, s)


def cover(canvas: Canvas, key: str, w: float, h: float, aspect: float = 1.0) -> None:
    """The picture `key` (aspect = its width over its height) covering the w × h area from
    (0, 0), centred and cut at its edges as CSS's `background-size: cover` does."""
    s = max(w / aspect, h)
    canvas.save()
    canvas.clip(0, 0, w, h)
    picture(canvas, key, w / 2, h / 2, s, aspect)
    canvas.restore()
