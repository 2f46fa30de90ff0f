"""Where a frame put its text, in screen pixels: what the layout test in the browser measures.

A frame's drawing commands (decoded by `BatchReader`) are replayed here without pixels: the
transform, the clip and the opacity are followed as a canvas would, and each line of text gets
its box on the screen (measured with the fonts it is drawn with), its colour and size and the
clip it was drawn inside. Text that an opaque rectangle drawn later covers (a banner's band
across the board) is not shown, so it is left out. `?layout=1` asks `backends/browser.py` to
send this with every frame that drew (docs/drawing.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.ui.draw import (
    IDENTITY,
    LinearGradient,
    Matrix,
    rotation,
    scaling,
    then,
    transform,
    translation,
)

Box = tuple[float, float, float, float]  # x, y, w, h on the screen
Measure = Callable[[str, float, str, bool], float]


def _bounds(m: Matrix, x: float, y: float, w: float, h: float) -> Box:
    """The screen box of a rectangle under m (its corners' bounds)."""
    xs, ys = zip(*(transform(m, px, py) for px in (x, x + w) for py in (y, y + h)), strict=True)
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def _meet(a: Box | None, b: Box) -> Box:
    """The intersection of two boxes (an empty one where they do not meet)."""
    if a is None:
        return b
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[0] + a[2], b[0] + b[2]), min(a[1] + a[3], b[1] + b[3])
    return x0, y0, max(0.0, x1 - x0), max(0.0, y1 - y0)


def _opaque(paint: Any) -> bool:
    """True for a colour with no transparency ('#rrggbb' or '#rrggbbff'), or a gradient of
    such colours."""
    if isinstance(paint, LinearGradient):
        return all(_opaque(stop) for _, stop in paint.stops)
    if not isinstance(paint, str) or not paint.startswith("#"):
        return False
    return len(paint) in (4, 7) or (len(paint) == 9 and paint[7:].lower() == "ff")


def _covers(outer: Box, inner: Box) -> bool:
    return (
        outer[0] <= inner[0] + 0.5
        and outer[1] <= inner[1] + 0.5
        and outer[0] + outer[2] >= inner[0] + inner[2] - 0.5
        and outer[1] + outer[3] >= inner[1] + inner[3] - 0.5
    )


def text_boxes(commands: Iterable[list[Any]], measure: Measure) -> list[dict[str, Any]]:
    """Each line of text the commands show: {"text", "box", "fill", "size", "bold", "clip"}
    (box and clip in screen px, clip None when nothing clips it) and "dimmed" (a translucent
    rectangle was drawn over it: what an end message's veil dims), in drawing order."""
    matrix, opacity, clip = IDENTITY, 1.0, None
    stack: list[tuple[Matrix, float, Box | None]] = []
    shown: list[dict[str, Any]] = []
    for name, *args in commands:
        if name == "save":
            stack.append((matrix, opacity, clip))
        elif name == "restore" and stack:
            matrix, opacity, clip = stack.pop()
        elif name == "translate":
            matrix = then(matrix, translation(*args))
        elif name == "scale":
            matrix = then(matrix, scaling(*args))
        elif name == "rotate":
            matrix = then(matrix, rotation(args[0]))
        elif name == "alpha":
            opacity *= args[0]
        elif name == "clip":
            clip = _meet(clip, _bounds(matrix, *args))
        elif name == "rect" and args[4] is not None:
            over = _meet(clip, _bounds(matrix, *args[:4]))
            if opacity >= 0.999 and _opaque(args[4]):
                shown = [t for t in shown if not _covers(over, t["box"])]
            else:  # a veil over the text (the board dimmed behind an end message)
                for t in shown:
                    t["dimmed"] = t["dimmed"] or _covers(over, t["box"])
        elif name == "text" and opacity > 0.05 and args[0]:
            s, x, y, size, family, bold, fill, align, baseline = args
            w = measure(s, size, family, bool(bold))
            left = x - {"left": 0.0, "center": w / 2, "right": w}[align or "center"]
            top = y - {"top": 0.0, "middle": size / 2, "bottom": size}[baseline or "middle"]
            shown.append(
                {
                    "text": s,
                    "box": [round(v, 1) for v in _bounds(matrix, left, top, w, size)],
                    "fill": fill,
                    "size": round(size * max(abs(matrix[0]), abs(matrix[3])), 1),
                    "bold": bool(bold),
                    "clip": None if clip is None else [round(v, 1) for v in clip],
                    "dimmed": False,
                }
            )
    return shown
