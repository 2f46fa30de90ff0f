"""Drawing the Bonus Game Play Window: five rows of segments, the light cycling, then resting."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.lab_riches import rules
from engine.lab_riches.replay import BonusState
from engine.money import format_pounds
from engine.ui import fanfare
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.lab_riches import art
from engine.ui.lab_riches.layout import Layout
from engine.ui.lab_riches.panels import panel
from engine.ui.motion import MAX_FLASHES_PER_SECOND, Motion, ease_out, span

Event = Mapping[str, Any]
REST_AT = 0.7  # the light cycles for this share of a bonus_row event, then rests
WON_AT = REST_AT + 0.05  # then 'BONUS GAME … YOU HAVE WON' shows the award it rests on
WON_OPENS = 0.06  # share of the event in which that message pops open
BACK_FROM = 0.93  # of the last row: the message closes, the Main Game's window shows again
CYCLES = 18


def area(lay: Layout) -> tuple[float, float, float, float]:
    """The rectangle of the Bonus Game rows."""
    x = lay.meter[0]
    w = lay.prize_x + lay.prize_w - x
    return x, lay.top_row_y, w, lay.grid_y + 5 * lay.cell - lay.top_row_y


def segment(c: Canvas, kind: str, value: int, x: float, y: float, s: float) -> None:
    """One Bonus Symbol by its kind and value."""
    if kind == rules.UP:
        art.up_arrow(c, x, y, s)
    elif kind == rules.SEGMENTS:
        art.meter_symbol(c, x, y, s, value)
    elif kind == rules.EXTRA_GOES:
        art.extra_goes(c, x, y, s, value)
    else:
        art.cash(c, x, y, s, format_pounds(value, always_pence=False))


def _lap_starts(steps: int, count: int) -> float:
    """The share of the chase between the light's first step and its first return to the same
    segment `count` steps later (the steps come fastest at the start: eased out)."""
    return 1.0 - (1.0 - count / steps) ** 0.5 if count < steps else 1.0


def light_steps(count: int, m: Motion) -> int:
    """How many steps the light runs along a row of `count` segments before it rests: up to
    CYCLES, but few enough that no segment lights again within a third of a second (the light
    must not make a segment flash more than 3 times a second, at any speed)."""
    chase = REST_AT * m.seconds
    steps = CYCLES
    while steps > count and _lap_starts(steps, count) * chase < 1.0 / MAX_FLASHES_PER_SECOND:
        steps -= 1
    return steps


def lit_segment(landed: int, count: int, p: float, steps: int) -> int:
    """Which segment the light is on at progress p: it slows down and rests on `landed`."""
    q = min(1.0, p / REST_AT)
    eased = 1 - (1 - q) ** 2
    return (landed - (steps - int(eased * steps))) % count


def light_moves(steps: int) -> tuple[float, ...]:
    """The progress at which `lit_segment` moves on to the next segment, before it rests."""
    return tuple(REST_AT * (1 - (1 - k / steps) ** 0.5) for k in range(1, steps))


def draw(c: Canvas, lay: Layout, bonus: BonusState, e: Event | None, p: float, m: Motion) -> None:
    """The window: the current row lit, the rows below faded, the light moving or resting
    (with reduced motion the light does not run: it shows where it rests, once it rests)."""
    x, y, w, h = area(lay)
    panel(c, x - 6, y - 6, w + 12, h + 12, glow=True)
    title = Font(min(lay.cell * 0.4, 28.0), "display", True)
    row_h = (h - title.size * 1.8) / rules.BONUS_ROWS
    c.text("BONUS GAME", x + w / 2, y + title.size * 0.8, title, fill=art.GOLD)
    moving = e is not None and e["type"] == "bonus_row"
    current = int(e["row"]) if moving and e is not None else bonus.row
    if not moving and bonus.landed and bonus.award is None:
        current = bonus.row + 1  # after an up arrow the next row waits for GO
    for row, layout in enumerate(rules.BONUS_ROW_LAYOUTS):
        ry = y + h - (row + 1) * row_h
        n = len(layout)
        sw = w / n
        c.save()
        if row < current:
            c.alpha(0.35)
        lit = -1
        landing = None  # how far the landed segment's highlight has gone (None: no highlight)
        if row == current and moving and e is not None and p >= REST_AT:
            landing = span(p, REST_AT, 1.0)
        if row == current and moving and e is not None:
            if not m.reduced:
                lit = lit_segment(int(e["landed"]), n, p, light_steps(n, m))
            elif p >= REST_AT:
                lit = int(e["landed"])
        elif row < len(bonus.landed) and row <= current:
            lit = bonus.landed[row]
        for k, (kind, value) in enumerate(layout):
            sx = x + k * sw
            on = k == lit
            if on and landing is not None:
                _landed(c, (sx + 2, ry + 2, sw - 4, row_h - 4), landing, m)
            c.rect(sx + 2, ry + 2, sw - 4, row_h - 4, fill="#fff3c4" if on else "#123a60",
                   stroke=art.GOLD if on else ("#7fd4ff" if row == current else "#2d5a85"),
                   line_width=3 if on else 1.5, radius=8)  # fmt: skip
            segment(c, kind, value, sx + sw / 2, ry + row_h / 2, min(sw, row_h) * 0.8)
        c.restore()


def _landed(c: Canvas, box: tuple[float, float, float, float], q: float, m: Motion) -> None:
    """The segment the light rests on, q (0..1) of the way from resting to the event's end:
    glowing (pulsing at most 3 times a second, motion.py) with a ring spreading from it as it
    lands (no ring with reduced motion)."""
    x, y, w, h = box
    fanfare.glow(c, x, y, w, h, 8, 0.6 + 0.4 * m.part(1.0 - REST_AT).pulse(q, 3))
    ring = span(q, 0.0, 0.25)
    if not m.reduced and 0.0 < ring < 1.0:
        d = ease_out(ring) * min(w, h) * 0.4
        c.save()
        c.alpha(1.0 - ring)
        c.rect(x - d, y - d, w + 2 * d, h + 2 * d, stroke=art.GOLD, line_width=3, radius=8 + d)
        c.restore()


def result(c: Canvas, lay: Layout, e: Event | None, p: float, m: Motion) -> None:
    """Once the light rests on an award: 'BONUS GAME', the award, 'YOU HAVE WON' (drawn over
    everything else on the screen, the counters and the controls included), growing open and,
    at the end of the event, fading where it stands as the Main Game's window comes back
    (intro.py): the award it shows is where the award sets off from, at the same size."""
    if e is None or e["type"] != "bonus_row" or e["award"] == rules.UP or p < WON_AT:
        return
    opening = span(p, WON_AT, WON_AT + WON_OPENS)
    closing = span(p, BACK_FROM, 1.0)
    fade = min(1.0, opening * 2.0) * max(0.1, 1.0 - closing)
    scale = 1.0 if m.reduced else 0.7 + 0.3 * ease_out(opening)
    c.save()
    c.alpha(fade)
    c.translate(lay.width / 2, lay.height / 2)
    c.scale(max(0.05, scale), max(0.05, scale))
    c.translate(-lay.width / 2, -lay.height / 2)
    won(c, lay, str(e["award"]), int(e["value"]))
    c.restore()


def won(c: Canvas, lay: Layout, award: str, value: int) -> None:
    """'BONUS GAME', the Bonus Symbol awarded and 'YOU HAVE WON'."""
    w, h = min(lay.width * 0.9, 420.0), min(lay.height * 0.5, 300.0)
    x, y = (lay.width - w) / 2, (lay.height - h) / 2
    panel(c, x, y, w, h, glow=True)
    big = Font(min(40.0, w * 0.1), "display", True)
    c.text("BONUS GAME", x + w / 2, y + h * 0.16, fit_text(c, "BONUS GAME", big, w - 20),
           fill=art.GOLD)  # fmt: skip
    segment(c, award, value, x + w / 2, y + h * 0.5, h * 0.38)
    c.text("YOU HAVE WON", x + w / 2, y + h * 0.85, fit_text(c, "YOU HAVE WON", big, w - 20))
