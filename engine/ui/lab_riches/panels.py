"""Lab Riches' glassy panels and titled boxes."""

from __future__ import annotations

from engine.ui.draw import Canvas, Font, LinearGradient, fit_text
from engine.ui.lab_riches import art


def panel(canvas: Canvas, x: float, y: float, w: float, h: float, *, glow: bool = False) -> None:
    """A glassy lab panel."""
    canvas.rect(x, y + 4, w, h, fill="#00000055", radius=14)
    fill = LinearGradient(x, y, x, y + h, ((0.0, "#15406b"), (1.0, "#0b2745")))
    canvas.rect(x, y, w, h, fill=fill, stroke=art.GOLD if glow else "#7fd4ff", line_width=2,
                radius=14)  # fmt: skip


def label_box(
    canvas: Canvas,
    rect: tuple[float, float, float, float],
    title: str,
    value: str,
    *,
    glow: bool = False,
) -> None:
    """A titled box such as TOTAL WON or GOES with its value."""
    x, y, w, h = rect
    panel(canvas, x, y, w, h, glow=glow)
    small = fit_text(canvas, title, Font(max(11.0, h * 0.24), "body", True), w * 0.9)
    canvas.text(title, x + w / 2, y + h * 0.27, small, fill="#cfe8ff")
    big = fit_text(canvas, value, Font(max(14.0, h * 0.4), "display", True), w * 0.9)
    canvas.text(value, x + w / 2, y + h * 0.66, big, fill=art.GOLD)
