"""The puck's comet trail and the sparks of its bounces on the £500K Power Puck Shot table.

The trail is the path behind the puck, sampled at a few earlier moments of its clock (TRAIL
seconds, `SAMPLES` dots shrinking and fading away from it), so a frame costs the same however
long the shot: nothing is kept between frames. A Power Puck's trail is gold and brighter, a
Bonus Puck's violet on the Bonus Game's cyan, any other puck's blue. Each cushion and Spinning
Bumper the puck meets throws a short spray of sparks there (`ShotClock.bounces`). Both are
flourishes: none with reduced motion (engine/ui/motion.py), where the puck fades in where it
drops.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from engine.ui.draw import Canvas, along
from engine.ui.motion import ease_out
from engine.ui.power_puck_shot.layout import Layout
from engine.ui.power_puck_shot.timing import ShotClock

Point = tuple[float, float]
TRAIL = 0.3  # seconds of the puck's path its trail shows behind it
SAMPLES = 9  # dots of the trail behind the puck
SPARK = 0.28  # seconds a bounce's sparks fly
SPARKS = 7  # sparks of one bounce
REACH = 0.6  # how far they fly, in grid squares
# (the trail's glow, its core, how bright) by the kind of puck: a Power Puck's the brightest
COLOURS = {
    "power": ("#ff8f00", "#ffe27a", 1.0),
    "bonus": ("#8a3dff", "#f0e0ff", 0.9),
    "puck": ("#2f8cff", "#d6ecff", 0.7),
}


def kind(event: Any) -> str:
    """Which trail a shot's puck leaves: a Power Puck's, a Bonus Puck's or a plain one."""
    if event.get("power"):
        return "power"
    return "bonus" if event.get("game") == "bonus" else "puck"


def _hex(alpha: float) -> str:
    return f"{max(0, min(255, round(255 * alpha))):02x}"


def trail(c: Canvas, lay: Layout, screen: Sequence[Point], clock: ShotClock, t: float,
          r: float, event: Any, hold: Callable[[Point, float], Point]) -> None:  # fmt: skip
    """The trail behind a puck of radius r sliding along `screen` (its path on the window),
    t seconds into its shot; `hold(point, r)` keeps a point where the puck itself is drawn."""
    head = clock.moved(t)
    if head <= 0.0:
        return
    glow, core, bright = COLOURS[kind(event)]
    step = TRAIL / SAMPLES
    for k in range(SAMPLES, 0, -1):  # the faintest first, so the nearer dots lie on top
        was = clock.moved(t - k * step)
        if was >= head or was <= 0.0:
            continue  # not moving there (yet, or any more): no dot on the puck or the gate
        x, y = hold(along(screen, was), r)
        fade = 1.0 - k / (SAMPLES + 1)
        c.circle(x, y, r * (0.35 + 0.6 * fade), fill=glow + _hex(0.45 * fade * bright))
        c.circle(x, y, r * (0.12 + 0.3 * fade), fill=core + _hex(0.8 * fade * bright))


def sparks(c: Canvas, lay: Layout, screen: Sequence[Point], clock: ShotClock, t: float,
           event: Any) -> None:  # fmt: skip
    """A spray of sparks where the puck met a cushion or a bumper in the last SPARK seconds."""
    glow, core, _ = COLOURS[kind(event)]
    reach = lay.cell * REACH
    side = 4 * lay.cell
    for at, i in clock.bounces:
        q = (t - at) / SPARK
        if not 0.0 <= q < 1.0:
            continue
        x, y = screen[i]
        x = min(max(x, lay.grid_x), lay.grid_x + side)
        y = min(max(y, lay.grid_y), lay.grid_y + side)
        # two fans along the cushion, either side of the puck that strikes it
        inward = math.atan2(lay.grid_y + side / 2 - y, lay.grid_x + side / 2 - x)
        out = reach * (0.3 + 0.7 * ease_out(q))
        alpha = _hex(1.0 - q * q)
        half = SPARKS // 2
        for k in range(SPARKS):
            a = inward + (1 if k % 2 else -1) * (0.75 + 0.9 * (k // 2) / max(1, half))
            tip = (x + out * math.cos(a), y + out * math.sin(a))
            back = out * 0.5
            c.path([(x + back * math.cos(a), y + back * math.sin(a)), tip],
                   stroke=(core if k % 2 else glow) + alpha, line_width=max(2.0, reach * 0.08),
                   closed=False)  # fmt: skip
        c.circle(x, y, reach * 0.22 * (1 - q), fill=core + alpha)
