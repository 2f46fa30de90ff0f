"""Widgets every game's screens share: buttons, the close 'X', arrows, text with inline icons.

A game styles them with its own art (engine/ui/<game>/): text icons are drawn by a function
the game passes in, and said in words from the game's table.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from typing import Any

from engine.ui.draw import Canvas, Font, LinearGradient, fit_text
from engine.ui.input import Control
from engine.ui.motion import Motion, ease_in, ease_out, overshoot, span

MIN_TARGET = 44.0  # the smallest control a finger can hit (WCAG 2.5.5), in logical px
Rect = tuple[float, float, float, float]  # (x, y, w, h)
GOLD = "#ffd54a"
TOKEN = re.compile(r"\{([a-z-]+)\}|\S+")
IconPainter = Callable[[Canvas, str, float, float, float], None]  # (canvas, name, cx, cy, size)


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
    canvas.circle(cx, cy, r, fill=GOLD, stroke="#ffffff", line_width=2)
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


def words(text: str, icon_words: Mapping[str, str]) -> str:
    """The text with its inline '{icon}' tokens said in words (for the narration)."""
    return TOKEN.sub(lambda m: icon_words.get(m[1], m[1]) if m[1] else m[0], text)


def wrap(canvas: Canvas, text: str, font: Font, max_w: float) -> list[list[tuple[str, float]]]:
    """Split text (with '{icon}' tokens) into lines of (token, width) that fit max_w; an icon
    stays on the line of the word before it, and so does the punctuation after an icon."""
    space = canvas.measure(" ", font)
    units: list[list[tuple[str, float]]] = []  # the tokens no line breaks between
    for match in TOKEN.finditer(text):
        token = match[0]
        width = font.size * 1.9 if match[1] else canvas.measure(token, font)
        after_icon = bool(units) and units[-1][-1][0].startswith("{") and not token[0].isalnum()
        if units and (match[1] or after_icon):
            units[-1].append((token, width))
        else:
            units.append([(token, width)])
    lines: list[list[tuple[str, float]]] = [[]]
    used = 0.0
    for unit in units:
        width = sum(w for _, w in unit) + space * (len(unit) - 1)
        extra = width + (space if lines[-1] else 0.0)
        if lines[-1] and used + extra > max_w:
            lines.append([])
            used, extra = 0.0, width
        lines[-1].extend(unit)
        used += extra
    return lines


def rich_text(
    canvas: Canvas,
    text: str,
    cx: float,
    y: float,
    font: Font,
    max_w: float,
    fill: str,
    icon: IconPainter,
) -> float:
    """Draw centred, wrapped text with inline icons (drawn by icon) from y; returns the y below."""
    space = canvas.measure(" ", font)
    line_h = font.size * 1.6
    for line in wrap(canvas, text, font, max_w):
        total = sum(w for _, w in line) + space * (len(line) - 1)
        x = cx - total / 2
        for token, width in line:
            if token.startswith("{"):
                icon(canvas, token[1:-1], x + width / 2, y + line_h / 2, font.size * 1.8)
            else:
                canvas.text(token, x, y + line_h / 2, font, fill=fill, align="left")
            x += width + space
        y += line_h
    return y


def spaced_width(c: Canvas, s: str, font: Font, spacing: float) -> float:
    """The width of one line of text with `spacing` em added between each two letters."""
    return c.measure(s, font) + spacing * font.size * max(0, len(s) - 1)


def spaced_text(c: Canvas, s: str, x: float, y: float, font: Font, spacing: float, *,
                fill: str) -> None:  # fmt: skip
    """One line of text centred on (x, y), its letters `spacing` em further apart than the
    font sets them (letter spacing, the same in every backend: each letter is drawn where
    the font puts it in the line, kerning included, moved on by the spacing before it)."""
    if not spacing:
        c.text(s, x, y, font, fill=fill)
        return
    gap = spacing * font.size
    left = x - spaced_width(c, s, font, spacing) / 2
    for k, letter in enumerate(s):
        if not letter.isspace():  # where the line up to this letter ends, less the letter
            at = c.measure(s[: k + 1], font) - c.measure(letter, font) + k * gap
            c.text(letter, left + at, y, font, fill=fill, align="left")


# A banner's life, as shares of its time p: the band opens, its lines
# drop in one after another, a light sweeps across it, it holds, then it closes at the end.
BAND_OPENS = 0.1  # the band is open
LINES_FROM = 0.06  # the first line starts to show (the band mostly open)
LINE_STAGGER = 0.03  # each next line starts this much later
LINE_TAKES = 0.08  # a line drops into place in this share
BANNER_OPENS = 0.2  # everything is in place (and said: the narration waits for it) by here
SHEEN = (0.2, 0.42)  # the light sweeps across the band
BANNER_CLOSES = 0.9  # the band starts to close; it is shut at p = 1


def banner_band(p: float, m: Motion) -> tuple[float, float]:
    """(the band's height as a share of its full height, its opacity) at p of its time: it
    opens fast, settling (never past its height and back: that would flash, motion.py), and
    shuts at the end; with reduced motion it stands at its full
    height and fades in and out."""
    closing = span(p, BANNER_CLOSES, 1.0)
    if m.reduced:
        return 1.0, span(p, 0.0, BAND_OPENS) * (1.0 - closing)
    return max(0.0, ease_out(span(p, 0.0, BAND_OPENS)) * (1.0 - ease_in(closing))), 1.0


def banner_line(p: float, k: int, m: Motion) -> tuple[float, float]:
    """(scale, opacity) of line k at p of its banner's time: it drops in large and settles
    with a punch, shrinking a little as the band closes; with reduced motion it only fades.
    Opacity 0: not drawn."""
    q = span(p, LINES_FROM + k * LINE_STAGGER, LINES_FROM + k * LINE_STAGGER + LINE_TAKES)
    closing = span(p, BANNER_CLOSES, 1.0)
    if q <= 0.0 or p >= 1.0:
        return 1.0, 0.0
    fade = min(1.0, q * 2.0) * max(0.1, 1.0 - closing)  # still shown (faint) until the end
    if m.reduced:
        return 1.0, fade
    return (1.0 + 0.8 * (1.0 - overshoot(q))) * (1.0 - 0.3 * ease_in(closing)), fade


def banner(c: Canvas, w: float, h: float, lines: tuple[str, ...], p: float, m: Motion, *,
           gold: str, band: str, height: float, spacing: float = 0.0) -> None:  # fmt: skip
    """A message across the middle of a w × h window ('BONUS GAME ACTIVATED'...) at p (0..1)
    of its time: a band `height` of the window high opens, its lines drop in, their letters
    `spacing` em apart (spaced_text) where the font sets capitals close, a light sweeps
    across it, and at the end it closes (banner_band, banner_line; with reduced motion it
    only fades in and out)."""
    grow, fade = banner_band(p, m)
    if grow <= 0.0 or fade <= 0.0:
        return
    full = h * height
    bh = full * grow
    top = h / 2 - bh / 2
    c.save()
    c.alpha(fade)
    c.rect(0, top - 6, w, bh + 12, fill="#00000055")  # its shadow on the window
    c.rect(0, top, w, bh, fill=band)  # all but opaque: the board does not show
    c.rect(
        0,
        top + 3,
        w,
        bh * 0.45,
        fill=LinearGradient(0, top, 0, top + bh * 0.45, ((0.0, "#ffffff26"), (1.0, "#ffffff00"))),
    )
    c.rect(0, top, w, bh, stroke=gold, line_width=3)
    c.restore()
    size = min(h * 0.06, w * 0.08)
    font = Font(size, "display", True)
    for k, line in enumerate(lines):
        scale, shown = banner_line(p, k, m)
        if shown <= 0.0:
            continue
        width = spaced_width(c, line, font, spacing)
        fitted = font
        if width > w * 0.9:  # as fit_text, the spacing included
            fitted = Font(max(6.0, size * w * 0.9 / width), "display", True)
        y = h / 2 + (k - (len(lines) - 1) / 2) * size * 1.3 * grow
        c.save()
        c.alpha(shown * fade)
        c.translate(w / 2, y)
        c.scale(scale, scale)
        spaced_text(c, line, 0.0, 0.0, fitted, spacing, fill=gold)
        c.restore()
    sweep = span(p, *SHEEN)
    if not m.reduced and 0.0 < sweep < 1.0:  # a slanted light across the band, left to right
        x = -bh + (w + 2 * bh) * ease_out(sweep)
        c.save()
        c.clip(0, top, w, bh)
        c.alpha(0.35 * (1.0 - sweep))
        c.path([(x - bh * 0.2, top + bh), (x + bh * 0.2, top + bh), (x + bh * 0.9, top),
                (x + bh * 0.5, top)], fill="#ffffff")  # fmt: skip
        c.restore()


SHORT = 480.0  # px: a window less tall is a phone held sideways (the end panel spans it)


def end_box(w: float, h: float, foot: float) -> Rect:
    """A game's end message's text area (x, y, w, h) in a w × h window: FINISH stands 20 px
    above its foot and the board's toggle 106 px below FINISH, the panel reaching `foot` below
    it; on a short screen (a phone held sideways) it all rises to stay on the screen, and spans
    the window's width, so that it covers the board's side columns whole rather than cutting
    their words in half."""
    pw = w * 0.92 if h < SHORT else min(w * 0.92, 520.0)
    ph = min(h * 0.42, 330.0)
    y = max(12.0, min(h * 0.62 - ph + 20, h - ph - foot + 2))
    return (w - pw) / 2, y, pw, ph


def unit_icon(fn: Callable[..., None]) -> Callable[..., None]:
    """An icon painter fn(canvas, *args) that draws in a 10 × 10 box centred on the origin,
    made into one drawn centred on (x, y) at size s: (canvas, x, y, s, *args)."""

    @functools.wraps(fn)
    def drawn(c: Canvas, x: float, y: float, s: float, *args: Any) -> None:
        c.save()
        c.translate(x, y)
        c.scale(s / 10, s / 10)
        fn(c, *args)
        c.restore()

    return drawn


def two_by_two(
    x: float, y: float, under: float, half: float, gap: float
) -> tuple[Rect, Rect, Rect, Rect]:
    """A main screen's settings two by two: HOW TO PLAY beside Rules and Prizes at (x, y),
    Faster animations beside Sound at y = under, each half wide and MIN_TARGET high."""
    return (
        (x, y, half, MIN_TARGET),
        (x + half + gap, y, half, MIN_TARGET),
        (x, under, half, MIN_TARGET),
        (x + half + gap, under, half, MIN_TARGET),
    )


READABLE_PX = 10.0  # the smallest text a header's second line is drawn at


def session_figures(
    c: Canvas, figures: Callable[[bool], str], right: float, y: float, size: float, room: float
) -> None:
    """A game's header line under the balance in paid play, right-aligned at `right`: the
    session's net position and minutes (Flow.header_figures), in its long form when that fits
    `room` at READABLE_PX or more, else in its short form (nothing in TRY and REPLAY)."""
    text = figures(False)
    if not text:
        return
    size = max(size, READABLE_PX)
    font = fit_text(c, text, Font(size, "body", True), room)
    if font.size < READABLE_PX:
        text = figures(True)
        font = fit_text(c, text, Font(size, "body", True), room)
    c.text(text, right, y, font, fill="#bfe6ff", align="right")
