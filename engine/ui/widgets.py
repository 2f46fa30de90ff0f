"""Small drawing helpers shared by scenes: buttons and panels."""

from __future__ import annotations

from engine.ui.draw import Canvas, Font, LinearGradient, fit_text
from engine.ui.input import Control


def button(canvas: Canvas, control: Control, *, pressed: bool = False) -> None:
    """Draw a control as a rounded, glossy button with its label."""
    x, y, w, h = control.x, control.y, control.w, control.h
    top, bottom = ("#ffd54a", "#f29f05") if control.enabled else ("#9aa0a6", "#6b7075")
    if pressed:
        top, bottom = bottom, top
    canvas.rect(x, y + 4, w, h, fill="#00000055", radius=h / 2)
    canvas.rect(
        x,
        y,
        w,
        h,
        fill=LinearGradient(x, y, x, y + h, ((0.0, top), (1.0, bottom))),
        stroke="#ffffff",
        line_width=2,
        radius=h / 2,
    )
    font = fit_text(canvas, control.label, Font(h * 0.45, "display", True), w * 0.85)
    canvas.text(control.label, x + w / 2, y + h / 2, font, fill="#3b1d00")
