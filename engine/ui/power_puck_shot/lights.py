"""What lights up on the £500K Power Puck Shot window: a symbol popping up as a pip reveals it,
the symbols that start a feature glowing before and while its banner shows, and the '×2'
badges of a Power Puck.

- BONUS GAME!: a ring pulses round each Bonus motif of the shot that started it (paint.grid);
- RESULT! PRIZE GAME UNLOCKED!: the meter's collected segments light in turn (meter.py);
- POWER PUCK ALL SYMBOLS X2: an '×2' badge pops onto each Power Puck of the counter in turn,
  and onto each symbol a Power Puck's shot reveals (paint.counter, paint.grid);
- the Bonus Game's end: rings round the pucks it awarded, waiting beside the counter, then in it.

Each moment's strength comes from the event's progress; pulses keep to motion.py's 3 flashes
a second, and with reduced motion a highlight is steady and nothing pops (it fades in).
"""

from __future__ import annotations

from typing import Any

from engine.ui.draw import Canvas, Font
from engine.ui.motion import Motion
from engine.ui.power_puck_shot import art
from engine.ui.power_puck_shot.timing import CHANGE, DURATIONS, JOIN, LEAD, power_message_at

# in seconds at the normal pace (as the events' own times, so faster at a faster pace)
POP = 0.22  # seconds a revealed symbol takes to pop up
FLASH = 0.3  # seconds the ring round a revealed pip widens and fades
BADGE = 0.3  # seconds an '×2' badge takes to pop on
PULSES = 3  # how often a highlight pulses over its time (fewer where motion.py allows fewer)


def _hex(alpha: float) -> str:
    return f"{max(0, min(255, round(255 * alpha))):02x}"


def pop(m: Motion, q: float) -> tuple[float, float]:
    """(scale, opacity) of a symbol popping up, q 0..1 of its POP: it lands a third larger and
    settles to its size, shrinking all the way (never through its size and back, which would
    read as a flash); with reduced motion it fades in at its size."""
    far, fade = m.travel(q)
    return 1.0 + 0.35 * (1.0 - far) ** 3, fade


def flash(c: Canvas, x: float, y: float, r: float, q: float, m: Motion,
          colour: str = "#ffffff") -> None:  # fmt: skip
    """A ring widening from a pip and fading as it reveals, q 0..1 of FLASH (none with
    reduced motion: a flourish)."""
    if m.reduced or not 0.0 <= q < 1.0:
        return
    c.circle(x, y, r * (0.6 + 0.8 * q), stroke=colour + _hex(0.9 * (1 - q)),
             line_width=max(2.0, r * 0.16 * (1 - q)))  # fmt: skip


def ring(c: Canvas, x: float, y: float, r: float, strength: float,
         colour: str = art.GOLD) -> None:  # fmt: skip
    """A glowing ring round (x, y): a bright line in a soft halo, strength 0..1 (0: none)."""
    if strength <= 0.0:
        return
    strength = min(1.0, strength)
    c.circle(x, y, r, fill=colour + _hex(0.3 * strength))  # the light behind the symbol
    for k, a in enumerate((0.2, 0.35)):  # the halo, widest first
        c.circle(x, y, r * 1.1, stroke=colour + _hex(a * strength), line_width=r * (0.5 - 0.2 * k))
    c.circle(x, y, r * 1.1, stroke=colour + _hex(strength), line_width=max(2.5, r * 0.12))


def badge(c: Canvas, x: float, y: float, s: float, q: float, m: Motion) -> None:
    """The '×2' badge of a doubled symbol, s across, popping on as q goes 0..1 of BADGE."""
    if q <= 0.0:
        return
    scale, fade = pop(m, min(1.0, q))
    r = s / 2 * scale
    c.save()
    c.alpha(fade)
    c.circle(x, y, r, fill="#d3002f", stroke=art.GOLD, line_width=max(1.5, r * 0.16))
    c.text("×2", x, y + r * 0.04, Font(r * 1.05, "display", True), fill="#ffffff")
    c.restore()


def pulse(m: Motion, p: float, start: float, end: float, lit: float | None = None) -> float:
    """How bright a highlight shown from progress `start` to `end` of its event is at p: it
    comes up (from `lit`, when it lights after the others, in step with them), then pulses
    (PULSES times at most, motion.py) and stays lit to `end`; 0 outside."""
    lit = start if lit is None else lit
    if not lit <= p < end:
        return 0.0
    if m.reduced:
        return 1.0
    share = end - start
    rise = (p - lit) / share * 6  # the lower of the two: never a wobble where they meet
    return min(rise, 0.55 + 0.45 * m.part(share).pulse((p - start) / share, PULSES))


def bonus_trigger(mo: Any) -> float:
    """How bright the Bonus motifs that started a Bonus Game glow now (0: not its start)."""
    return pulse(mo.m, mo.p, 0.0, CHANGE) if mo.kind == "bonus_start" else 0.0


def doubled(event: Any) -> bool:
    """Whether a shot's symbols count twice (a Power Puck's)."""
    return event is not None and bool(event.get("power"))


def awaiting(mo: Any) -> float:
    """How bright the pucks a Bonus Game awarded glow beside the counter as it ends, before
    they join it (0: not its end, or they have joined)."""
    return pulse(mo.m, mo.p, 0.0, JOIN) if mo.kind == "bonus_end" else 0.0


def puck_glow(power: bool) -> str:
    """The colour of an awarded puck's ring: gold for a Power Puck, an extra Puck's green."""
    return art.GOLD if power else art.GREEN


def joined(c: Canvas, mo: Any, spots: list[tuple[float, float, float]], power: int) -> None:
    """Behind the Pucks Left Counter's pucks (its `spots`, the first `power` of them Power
    Pucks) as a Bonus Game ends: a ring round each puck it awarded, once they have joined."""
    e = mo.event
    if mo.kind != "bonus_end" or mo.p < JOIN:
        return
    awarded = int(e.get("extra_pucks", 0)) + int(e.get("power_pucks", 0))
    glow = pulse(mo.m, mo.p, JOIN, 1.0)
    ringed = list(range(power)) + list(range(len(spots) - (awarded - power), len(spots)))
    for k in sorted(set(ringed) & set(range(len(spots)))):
        x, y, s = spots[k]
        ring(c, x, y, s * 0.62, glow, puck_glow(k < power))


def doubled_pucks(c: Canvas, mo: Any, spots: list[tuple[float, float, float]], power: int) -> None:
    """Over the counter's pucks with 'POWER PUCK ALL SYMBOLS X2': an '×2' badge popping onto
    each Power Puck in turn, once the banner has opened."""
    e = mo.event
    if mo.kind != "bonus_end" or not e.get("power_pucks"):
        return
    start = power_message_at(e)
    length = DURATIONS["bonus_end"](e)  # the event's seconds at the normal pace
    for k in range(min(power, len(spots))):
        x, y, s = spots[k]
        at = start + (1 - start) * (0.25 + 0.15 * k)  # in turn, once the banner has opened
        badge(c, x + s * 0.4, y - s * 0.4, s * 0.7, (mo.p - at) * length / BADGE, mo.m)


def prize_trigger(mo: Any, k: int, collected: int) -> float:
    """How bright segment k of the meter (of `collected` lit) glows as the Prize Game it
    unlocked starts: the segments light in turn from the bottom before the banner, then
    pulse with it (0: not its start, or not collected)."""
    if mo.kind != "prize_start" or k >= collected:
        return 0.0
    lit = 0.0 if mo.m.reduced else LEAD * 0.8 * k / max(1, collected)
    return pulse(mo.m, mo.p, 0.0, CHANGE, lit)
