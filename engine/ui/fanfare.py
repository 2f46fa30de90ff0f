"""How a celebration is drawn, for every game: bursts, turning rays, a shower of coins and
glows, each graded by engine/ui/celebration.py and timed by its event's progress.

Everything moves by the event's progress (which the book player advances by elapsed time, at
the player's speed), never by frame count, and nothing is random: each piece's place and
colour come from its index (golden-ratio steps), so the same moment draws the same picture.
With reduced motion nothing flies, falls or turns: the bursts and the shower are left out and
the rays stand still; the message, the amount and the glows are the same.
The pieces are few (a celebration's frame draws 200 shapes at most) so a phone keeps
its frame time.
"""

from __future__ import annotations

import math

from engine.ui.celebration import Grade
from engine.ui.draw import Canvas, LinearGradient
from engine.ui.motion import Motion

PHI = 0.6180339887  # golden-ratio steps spread pieces evenly without a random stream
SPARKS = ("#ffe27a", "#ffffff", "#ffb300", "#7fd4ff", "#ff6f91")
COINS = ("#ffd54a", "#ffe9a3", "#f2a900")
BURST_PIECES = {Grade.WIN: 18, Grade.BIG_WIN: 24, Grade.TOP_PRIZE: 30}
SHOWER_PIECES = {Grade.BIG_WIN: 36, Grade.TOP_PRIZE: 64}
RAYS = {Grade.BIG_WIN: 16, Grade.TOP_PRIZE: 24}


def _frac(x: float) -> float:
    return x - math.floor(x)


def burst(c: Canvas, x: float, y: float, reach: float, p: float, m: Motion,
          pieces: int = 18) -> None:  # fmt: skip
    """Sparks flying out from (x, y) to `reach` as p goes 0..1, each a bright head with a
    streak behind it, slowing and fading as they go (none with reduced motion: a flourish)."""
    if m.reduced or not 0.0 < p < 1.0:
        return
    out = 1 - (1 - p) ** 3
    c.save()
    c.alpha(1.0 - p * p)
    for k in range(pieces):
        a = 2 * math.pi * (k / pieces + 0.5 * _frac(k * PHI) / pieces)
        d = reach * out * (0.55 + 0.45 * _frac(k * PHI * 3))
        size = reach * (0.018 + 0.02 * _frac(k * PHI * 7))
        colour = SPARKS[k % len(SPARKS)]
        cos, sin = math.cos(a), math.sin(a)
        tail = d * (0.55 + 0.3 * p)  # the streak: where it was a moment ago
        c.path([(x + tail * cos, y + tail * sin), (x + d * cos, y + d * sin)], stroke=colour,
               line_width=size, closed=False)  # fmt: skip
        c.circle(x + d * cos, y + d * sin, size * 1.3, fill=colour)
    c.restore()


def rays(c: Canvas, cx: float, cy: float, radius: float, turn: float, count: int,
         colours: tuple[str, str]) -> None:  # fmt: skip
    """Rays round (cx, cy) turned by `turn` radians, alternately of the two colours."""
    step = 2 * math.pi / count
    for k in range(count):
        a = turn + k * step
        c.path([(cx, cy), (cx + radius * math.cos(a), cy + radius * math.sin(a)),
                (cx + radius * math.cos(a + step / 2), cy + radius * math.sin(a + step / 2))],
               fill=colours[k % 2])  # fmt: skip


def shower(c: Canvas, w: float, h: float, p: float, pieces: int) -> None:
    """Coins falling across the whole w × h window as p goes 0..1, each turning as it falls
    (drawn as an ellipse that narrows and widens), the last ones gone by p = 1."""
    size = max(6.0, min(w, h) * 0.028)
    for k in range(pieces):
        start = 0.6 * _frac(k * PHI * 5)  # when it sets off, in the event
        q = (p - start) / 0.4  # it falls in 0.4 of the event
        if not 0.0 < q < 1.0:
            continue
        x = w * _frac(k * PHI) + math.sin(q * 6 + k) * size
        y = -size + (h + 2 * size) * q
        spin = abs(math.cos(q * 9 + k))
        c.save()
        c.translate(x, y)
        c.scale(max(0.15, spin), 1.0)
        c.circle(0, 0, size, fill=COINS[k % len(COINS)], stroke="#8a5a00", line_width=1.5)
        c.restore()


def glow(c: Canvas, x: float, y: float, w: float, h: float, radius: float, strength: float,
         colour: str = "#ffd54a") -> None:  # fmt: skip
    """A soft halo round a box (three widening translucent outlines), strength 0..1."""
    if strength <= 0.0:
        return
    for k, a in enumerate((0.5, 0.3, 0.15)):
        d = 2 + 3 * k
        alpha = f"{int(255 * a * min(1.0, strength)):02x}"
        c.rect(x - d, y - d, w + 2 * d, h + 2 * d, stroke=colour + alpha, line_width=3,
               radius=radius + d)  # fmt: skip


def plaque(c: Canvas, cx: float, cy: float, w: float, h: float, g: Grade) -> None:
    """The band a celebrated total stands on (centred on cx, cy): deep red edged in gold, a
    wider gold edge for a big win and the top prize; nothing for a smaller grade."""
    if g < Grade.WIN:
        return
    edge = 4.0 if g >= Grade.BIG_WIN else 2.0
    c.rect(cx - w / 2, cy - h / 2 + 3, w, h, fill="#00000066", radius=h / 2)
    fill = LinearGradient(0, cy - h / 2, 0, cy + h / 2, ((0.0, "#7a1030"), (1.0, "#3d0718")))
    c.rect(cx - w / 2, cy - h / 2, w, h, fill=fill, stroke="#ffd54a", line_width=edge,
           radius=h / 2)  # fmt: skip


def shine(p: float, m: Motion) -> float:
    """How bright a glow is at progress p of its event: rising and falling (at most 3 times a
    second, motion.py) while the event runs, steady and full at rest or with reduced motion."""
    return 1.0 if p >= 1.0 else 0.6 + 0.4 * m.pulse(p, 3)


def backdrop(c: Canvas, w: float, h: float, cx: float, cy: float, g: Grade, p: float,
             m: Motion) -> None:  # fmt: skip
    """Behind a big win's or the top prize's message: the window darkened, rays turning round
    the message (faster and more for the top prize) and a shower of coins; nothing for a
    smaller grade."""
    if g < Grade.BIG_WIN:
        return
    c.rect(0, 0, w, h, fill="#000000a0")
    top = g == Grade.TOP_PRIZE
    turn = 0.0 if m.reduced else p * (1.6 if top else 0.9)
    colours = ("#ffd54a55", "#ff6f9133") if top else ("#ffd54a44", "#ffb30022")
    rays(c, cx, cy, math.hypot(w, h), turn, RAYS[g], colours)
    if not m.reduced:
        shower(c, w, h, p, SHOWER_PIECES[g])


def behind(c: Canvas, w: float, h: float, box: tuple[float, float, float, float], g: Grade,
           p: float, m: Motion) -> None:  # fmt: skip
    """Behind an end message whose panel is `box` (x, y, w, h) in a w × h window: the big
    win's `backdrop` round it and, for a win, the panel's glow."""
    x, y, bw, bh = box
    backdrop(c, w, h, x + bw / 2, y + bh * 0.3, g, p, m)
    if g >= Grade.WIN:
        glow(c, x, y, bw, bh, 16, shine(p, m))


def heading_scale(g: Grade, p: float, m: Motion) -> float:
    """How large a message's heading is drawn at progress p: a big win's and the top prize's
    a fifth larger, popping up to it as the message opens (at once with reduced motion)."""
    if g < Grade.BIG_WIN:
        return 1.0
    return 1.2 * (1.0 if m.reduced else min(1.0, 0.6 + p * 4))


def front(c: Canvas, cx: float, cy: float, reach: float, g: Grade, p: float, m: Motion,
          counted: float) -> None:  # fmt: skip
    """Over a celebrated message: a burst from its amount as the count lands (at `counted` of
    the event), a second, wider one for the top prize; nothing for a smaller grade."""
    if g < Grade.WIN:
        return
    q = (p - counted) / (1 - counted)
    burst(c, cx, cy, reach, q, m, BURST_PIECES[g])
    if g == Grade.TOP_PRIZE:
        burst(c, cx, cy, reach * 1.6, (q - 0.25) / 0.75, m, BURST_PIECES[g])
