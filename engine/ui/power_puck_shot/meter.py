"""The Prize Game Symbol Collection Meter of the £500K Power Puck Shot window: 10 segments, the
top five labelled with the Prize Pucks they unlock.

A Prize Game symbol flying to the meter sends a light up it from the bottom, which meets the
symbol at its segment as it lands; the segment then fills from the bottom (`FILL`), within the
shot. As the Prize Game unlocks, its collected segments light in turn and pulse with its banner
(lights.py). With reduced motion no light runs: a segment is lit as its symbol lands.
"""

from __future__ import annotations

from typing import Any

from engine.power_puck_shot import rules
from engine.power_puck_shot.replay import apply
from engine.power_puck_shot.tokens import PRIZE
from engine.ui import fanfare
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.power_puck_shot import art, lights
from engine.ui.power_puck_shot.layout import Layout
from engine.ui.power_puck_shot.timing import FLIGHT

FILL = 0.15  # seconds a segment takes to fill once its symbol has landed (a shot's last 0.15 s)
UNLIT = "#1a2a44"


def filling(mo: Any) -> dict[int, tuple[float, float]]:
    """The segments a shot is filling now: segment -> (how far its light has run up the meter
    0..1, how full it is 0..1); none with reduced motion or out of a shot."""
    timed = mo.timed
    if timed is None or mo.m.reduced:
        return {}
    clock, t = timed
    reveals = list(mo.event["reveals"])
    out: dict[int, tuple[float, float]] = {}
    count = mo.before.meter
    for k, reveal in enumerate(reveals):
        if reveal != PRIZE:
            continue
        upto = apply(mo.before, {**mo.event, "reveals": reveals[: k + 1]}).meter  # as replay
        level = (t - clock.reveals[k] - FLIGHT) / FILL
        for segment in range(count, upto):
            out[segment] = (clock.flown(k, t), min(1.0, max(0.0, level)))
        count = upto
    return out


def meter(c: Canvas, lay: Layout, mo: Any) -> None:
    """The meter at one moment (`paint.Moment`): its lit segments, those filling and their
    light, and the Prize Game's unlocking."""
    x, y, w, h = lay.meter
    filled = mo.shown.meter
    rising = filling(mo)
    unlocking = lights.prize_trigger(mo, 0, filled)  # the frame in step with its segments
    fanfare.glow(c, x - 4, y - 4, w + 8, h + 8, 10, unlocking)
    c.rect(x - 4, y - 4, w + 8, h + 8, fill="#071328", stroke="#7fd4ff", line_width=2, radius=10)
    for k in range(rules.METER_SEGMENTS):
        sx, sy, sw, sh = lay.segment(k)
        level = rising[k][1] if k in rising else float(k < filled)
        lit = level >= 1.0
        c.rect(sx + 3, sy + 2, sw - 6, sh - 4, fill=art.GOLD if lit else UNLIT,
               stroke="#ffffff55", line_width=1, radius=4)  # fmt: skip
        if 0.0 < level < 1.0:  # filling from the bottom, its top edge bright
            top = sy + 2 + (sh - 4) * (1 - level)
            c.rect(sx + 3, top, sw - 6, sy + sh - 2 - top, fill=art.GOLD,
                   radius=min(4.0, level * 4))  # fmt: skip
            c.rect(sx + 3, top - 1, sw - 6, 3, fill="#ffffff")
        fanfare.glow(c, sx + 3, sy + 2, sw - 6, sh - 4, 4, lights.prize_trigger(mo, k, filled))
        _label(c, k, (sx, sy, sw, sh), level >= 0.5)
    for k, (ran, level) in rising.items():
        if ran > 0.0 and level <= 0.0:
            _light(c, lay, k, ran)


def _light(c: Canvas, lay: Layout, k: int, ran: float) -> None:
    """The light running up the meter to segment k, `ran` 0..1 of the way from its bottom: a
    white-hot core in a gold glow, fading streaks below it where it has just been."""
    _, y, _, h = lay.meter
    sx, sy, sw, sh = lay.segment(k)
    goal = sy + sh / 2
    band = sh * 0.6
    for back, alpha in ((0.3, "33"), (0.18, "66"), (0.0, "cc")):  # the streak, then the head
        q = max(0.0, ran - back)
        cy = y + h + (goal - (y + h)) * (1 - (1 - q) ** 2)  # from the meter's bottom edge
        c.rect(sx + 3, cy - band / 2, sw - 6, band, fill=art.GOLD + alpha, radius=band / 2)
    fanfare.glow(c, sx + 3, cy - band / 2, sw - 6, band, band / 2, 1.0, "#fff3b0")
    c.rect(sx + sw * 0.2, cy - band / 5, sw * 0.6, band * 0.4, fill="#fff3b0", radius=band / 5)


def _label(c: Canvas, k: int, segment: tuple[float, float, float, float], lit: bool) -> None:
    """A top segment's words: how many Prize Pucks it unlocks."""
    sx, sy, sw, sh = segment
    pucks = k - rules.SYMBOLS_TO_UNLOCK + 2
    if pucks < 1:
        return
    text = f"{pucks} PRIZE PUCK{'S' if pucks > 1 else ''}"
    ink = "#3b2400" if lit else "#cfe8ff"
    size = min(sh * 0.5, 15.0)
    longest = f"{rules.METER_SEGMENTS - rules.SYMBOLS_TO_UNLOCK + 1} PRIZE PUCKS"
    one = fit_text(c, longest, Font(size, "body", True), sw - 8).size  # all alike
    two = min(sh * 0.34, 13.0)
    if one >= two * 0.8:  # one line, as big as the longest fits
        art.label(c, text, sx + sw / 2, sy + sh / 2, one, sw - 8, ink)
    else:  # a narrow meter: the number over the words
        size = two
        art.label(c, text[:1], sx + sw / 2, sy + sh * 0.3, size * 1.1, sw - 10, ink)
        art.label(c, text[2:], sx + sw / 2, sy + sh * 0.7, size, sw - 8, ink)
