"""The Power Surge Prize Meter: 7 boxes of segments and amounts, filling visibly.

A `segments` event's number runs along the Power Cable to the meter's foot (paint.py
`flying`, arriving at ARRIVE); a charge then climbs the meter, over the segments already lit,
and fills the new ones one after another (each flashing white, then blue), all filled by
SETTLE. A `meter_box` event lights its box: the gold fades in and its glow grows, with a burst
for a box that pays more than the price. With reduced motion no charge climbs: the new
segments light one after another where they are.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from engine.lab_riches import rules
from engine.lab_riches.replay import State
from engine.money import format_pounds
from engine.ui import fanfare
from engine.ui.draw import Canvas, Font, fit_text
from engine.ui.lab_riches import art
from engine.ui.lab_riches.layout import Layout
from engine.ui.lab_riches.paint import ARRIVE, LIT_INK, SETTLE, celebrated, lit_gold
from engine.ui.motion import Motion, ease_out, span

Event = Mapping[str, Any]
Rect = tuple[float, float, float, float]
MIN_LABEL = 10.0  # px: the smallest a meter box's amount is drawn, to be read
CLIMB = 0.25  # of the charge's time: it climbs over the segments already lit, then fills
FRESH = 0.6  # segments: a new segment is white until the charge is this far past it


def segment_rect(lay: Layout, segment: int) -> Rect:
    """The bar of a segment (1..25) in its box (x, y, w, h), bottom to top."""
    for box, (first, last, _pence) in enumerate(rules.METER_BOXES):
        if first <= segment <= last:
            bx, by, bw, bh = lay.meter_box(box)
            seg_h = (bh - 8) / (last - first + 1)
            sy = round(by + bh - 3 - (segment - first + 1) * seg_h)
            return bx + 5, sy, round(bw * 0.3), max(1, round(seg_h - 2))
    raise ValueError(f"no meter segment {segment}")


def level(s: State, e: Event | None, p: float) -> float:
    """How many segments are lit at p (in segments, fractional while the charge climbs): the
    state's count, but during a `segments` event the count before it until the number arrives,
    then rising to the new count by SETTLE."""
    if e is None or e["type"] != "segments":
        return float(s.meter)
    before = s.meter - int(e["count"])
    q = span(p, ARRIVE, SETTLE)
    if q <= 0.0:
        return float(before)
    fill = span(q, CLIMB, 1.0) if before else q
    return before + int(e["count"]) * fill


def charge_at(lay: Layout, s: State, e: Event, p: float) -> tuple[float, float] | None:
    """Where the climbing charge is at p of a `segments` event (None when it is not on the
    meter): from the meter's foot up over the segments already lit, then to each new one."""
    before = s.meter - int(e["count"])
    q = span(p, ARRIVE, SETTLE)
    if not 0.0 < q < 1.0:
        return None
    height = before * ease_out(q / CLIMB) if before and q < CLIMB else level(s, e, p)
    x, _y, w, _h = segment_rect(lay, 1)
    if height <= 0.0:
        return x + w / 2, lay.meter[1] + lay.meter[3]
    low, high = max(1, math.floor(height)), max(1, math.ceil(height))
    (_, y0, _, h0), (_, y1, _, h1) = segment_rect(lay, low), segment_rect(lay, min(high, 25))
    f = height - math.floor(height) if high != low else 0.0
    return x + w / 2, y0 + h0 / 2 + (y1 + h1 / 2 - y0 - h0 / 2) * f


def _amount(c: Canvas, pence: int, last: int, font: Font, bw: float) -> tuple[str, Font]:
    """A meter box's label (its amount, or its last segment's number when it pays nothing) and
    its font, fitted to the box: "£250K" for "£250,000" where the whole amount would shrink
    under MIN_LABEL px (a narrow meter)."""
    if not pence:
        return f"{last}", fit_text(c, f"{last}", font, bw * 0.52)
    label = format_pounds(pence, always_pence=False)
    fitted = fit_text(c, label, font, bw * 0.52)
    if fitted.size < MIN_LABEL and pence >= 100_000:
        label = f"£{pence // 100_000}K"
        fitted = fit_text(c, label, font, bw * 0.52)
    return label, fitted


def meter(c: Canvas, lay: Layout, s: State, e: Event | None, p: float, m: Motion) -> None:
    """The Power Surge Prize Meter: 7 boxes of segments and amounts, the lit box glowing, new
    segments filling one after another and a newly lit box's glow growing."""
    kind = e["type"] if e is not None else ""
    x, y, w, h = lay.meter
    c.rect(x - 3, y - 3, w + 6, h + 6, fill="#06182c", stroke=art.BLUE, line_width=2, radius=8)
    lit_now = level(s, e, p)
    for box, (first, last, pence) in enumerate(rules.METER_BOXES):
        bx, by, bw, bh = lay.meter_box(box)
        lit = s.meter_box == box
        # A box lighting now: its gold fades in and its glow grows (by SETTLE), then stays.
        grow = ease_out(span(p, 0.0, SETTLE)) if kind == "meter_box" and lit else 1.0
        gold = lit and pence > 0  # the first box (no prize yet) lights blue
        dark = "#123a60" if lit else "#0b2340"
        if gold:
            fanfare.glow(c, bx + 1, by + 1, bw - 2, bh - 2, 5, grow)
        if not lit or grow < 1.0:  # unlit, or under the light fading in
            c.rect(bx + 1, by + 1, bw - 2, bh - 2, fill="#0b2340", stroke="#2d5a85",
                   line_width=2, radius=5)  # fmt: skip
        if lit:
            c.save()
            c.alpha(grow)
            fill = lit_gold(bx, by, bh) if gold else dark
            c.rect(bx + 1, by + 1, bw - 2, bh - 2, fill=fill,
                   stroke="#ffffff" if gold else "#7fd4ff", line_width=2, radius=5)  # fmt: skip
            c.restore()
        if gold and celebrated(e, "meter_box"):
            fanfare.burst(c, bx + bw / 2, by + bh / 2, bh * 1.8, p, m, 14)
        for segment in range(first, last + 1):
            sx, sy, sw, sh = segment_rect(lay, segment)
            filled = segment <= lit_now + 1e-9
            fresh = (
                kind == "segments"
                and filled
                and lit_now < s.meter + 1e-9
                and (lit_now - segment < FRESH and segment > s.meter - int((e or {})["count"]))
            )
            colour = "#ffffff" if fresh and p < SETTLE else (art.BLUE if filled else "#1c3957")
            c.rect(sx, sy, sw, sh, fill=colour, radius=2)
        # The amount keeps clear of the box's border (and of the segment bars on its left).
        label, font = _amount(c, pence, last, Font(min(bh * 0.32, w * 0.24), "display", True), bw)
        dim = s.meter_box is not None and box < s.meter_box
        ink = LIT_INK if gold and grow >= 0.5 else None
        colour = ink or ("#9fb3c8" if dim or not pence else "#ffffff")  # dim: 5:1
        c.text(label, bx + bw * 0.665, by + bh / 2, font, fill=colour)
    if kind == "segments" and e is not None and not m.reduced:
        at = charge_at(lay, s, e, p)
        if at is not None:
            r = max(4.0, segment_rect(lay, 1)[2] * 0.3)
            c.circle(at[0], at[1], r * 1.8, fill="#7fd4ff55")
            c.circle(at[0], at[1], r, fill="#ffffff")
