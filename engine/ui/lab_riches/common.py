"""Drawing helpers shared by the Lab Riches screens: text with inline icons, panels, boxes."""

from __future__ import annotations

import re

from engine.ui.draw import Canvas, Font, LinearGradient, fit_text
from engine.ui.input import Control
from engine.ui.lab_riches import art
from engine.ui.widgets import button

TOKEN = re.compile(r"\{([a-z-]+)\}|\S+")
ICON_WORDS = {
    "bonus": "bonus symbol",
    "lightning": "lightning symbol",
    "extra-goes": "extra goes",
    "up": "up arrow",
    "meter": "meter symbol",
    "cash": "cash symbol",
    "lock": "lock",
}


def words(text: str) -> str:
    """The text with its inline icons said in words (for the narration)."""
    return TOKEN.sub(lambda m: ICON_WORDS.get(m[1], m[1]) if m[1] else m[0], text)


def wrap(canvas: Canvas, text: str, font: Font, max_w: float) -> list[list[tuple[str, float]]]:
    """Split text (with '{icon}' tokens) into lines of (token, width) that fit max_w."""
    space = canvas.measure(" ", font)
    lines: list[list[tuple[str, float]]] = [[]]
    used = 0.0
    for match in TOKEN.finditer(text):
        token = match[0]
        width = font.size * 1.9 if match[1] else canvas.measure(token, font)
        extra = width + (space if lines[-1] else 0.0)
        if lines[-1] and used + extra > max_w:
            lines.append([])
            used, extra = 0.0, width
        lines[-1].append((token, width))
        used += extra
    return lines


def rich_text(
    canvas: Canvas, text: str, cx: float, y: float, font: Font, max_w: float, fill: str
) -> float:
    """Draw centred, wrapped text with inline icons from y; returns the y below it."""
    space = canvas.measure(" ", font)
    line_h = font.size * 1.6
    for line in wrap(canvas, text, font, max_w):
        total = sum(w for _, w in line) + space * (len(line) - 1)
        x = cx - total / 2
        for token, width in line:
            if token.startswith("{"):
                art.icon(canvas, token[1:-1], x + width / 2, y + line_h / 2, font.size * 1.8)
            else:
                canvas.text(token, x, y + line_h / 2, font, fill=fill, align="left")
            x += width + space
        y += line_h
    return y


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


def close_button(canvas: Canvas, control: Control) -> None:
    """The 'X' that closes a panel."""
    x, y, w, h = control.x, control.y, control.w, control.h
    canvas.circle(x + w / 2, y + h / 2, min(w, h) / 2, fill="#e53935", stroke="#ffffff",
                  line_width=2)  # fmt: skip
    r = min(w, h) * 0.2
    cx, cy = x + w / 2, y + h / 2
    canvas.path([(cx - r, cy - r), (cx + r, cy + r)], stroke="#ffffff", line_width=4, closed=False)
    canvas.path([(cx + r, cy - r), (cx - r, cy + r)], stroke="#ffffff", line_width=4, closed=False)


def arrow_button(canvas: Canvas, control: Control, *, left: bool = False) -> None:
    """A round arrow button (Next, Back)."""
    x, y, w, h = control.x, control.y, control.w, control.h
    cx, cy, r = x + w / 2, y + h / 2, min(w, h) / 2
    canvas.circle(cx, cy, r, fill=art.GOLD, stroke="#ffffff", line_width=2)
    d = -1 if left else 1
    canvas.path([(cx - d * r * 0.3, cy - r * 0.45), (cx + d * r * 0.4, cy),
                 (cx - d * r * 0.3, cy + r * 0.45)], fill="#3b1d00")  # fmt: skip


def draw_controls(canvas: Canvas, controls: list[Control], pressed: str | None = None) -> None:
    """Draw each control the usual way for its kind."""
    for c in controls:
        if c.id == "close":
            close_button(canvas, c)
        elif c.id in ("next", "back"):
            arrow_button(canvas, c, left=c.id == "back")
        else:
            button(canvas, c, pressed=c.id == pressed)
