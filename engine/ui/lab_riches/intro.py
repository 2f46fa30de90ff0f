"""The Bonus Game's intro and its way out, over the Main Game Play Window.

BONUS GAME ACTIVATED (the `bonus_activated` event): first the three (or four) bonus motifs of
the Top Row that started it light up, each ringed and glowing; then the banner opens over the
board (engine/ui/widgets.py `banner`), and as it closes the Bonus Game's window fades in where
the board was. At the Bonus Game's end (its last `bonus_row`), the segment the light rests on
glows, 'BONUS GAME … YOU HAVE WON' grows open (bonus.py), and in the last moments of the event
the message fades and the Main Game's board shows through again, so the award sets off from
the board it goes to. Everything runs inside its event's time: nothing is delayed, nothing
said before it shows (narrate.py reads these shares). With reduced motion the rings do not
spread and the glows are steady; the banner and the windows only fade.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.lab_riches import rules
from engine.lab_riches.replay import State
from engine.ui import fanfare, widgets
from engine.ui.draw import Canvas
from engine.ui.lab_riches import art
from engine.ui.lab_riches.bonus import BACK_FROM
from engine.ui.lab_riches.layout import Layout
from engine.ui.motion import Motion, ease_out, span

Event = Mapping[str, Any]
MOTIFS = 0.3  # of bonus_activated: the motifs that started it light up, then the banner opens
BANNER_ENDS = 0.88  # the banner has closed
WINDOW_FROM = 0.82  # the Bonus Game's window fades in from here, under the closing banner
RINGS = 2  # rings spreading from each motif while it lights up
# Letter spacing (em) of 'BONUS GAME ACTIVATED': Fredoka's bold capitals sit so close that the
# I of ACTIVATED is lost between T and V without it.
BANNER_SPACING = 0.1


def banner_at(p: float) -> float:
    """The banner's own progress (0..1) at p of bonus_activated."""
    return span(p, MOTIFS, BANNER_ENDS)


def banner_said() -> float:
    """The share of bonus_activated at which the banner's words are in place (and said)."""
    return MOTIFS + widgets.BANNER_OPENS * (BANNER_ENDS - MOTIFS)


def window_shown(e: Event | None, p: float) -> float:
    """How much of the Bonus Game's window shows over the board (0..1) during the event
    animating: fading in at the end of bonus_activated, out at the end of the last row."""
    kind = e["type"] if e is not None else ""
    if kind == "bonus_activated":
        return span(p, WINDOW_FROM, 1.0)
    if kind == "bonus_row" and e is not None and e["award"] != rules.UP:
        return 1.0 - span(p, BACK_FROM, 1.0)
    return 1.0


def motifs(c: Canvas, lay: Layout, s: State, p: float, m: Motion) -> None:
    """The bonus motifs of the Top Row that started the Bonus Game, ringed and glowing at p of
    bonus_activated (the glow pulses at most 3 times a second; the rings spread and fade, none
    with reduced motion)."""
    cell = lay.cell
    lit = m.part(MOTIFS)
    q = span(p, 0.0, MOTIFS)
    strength = 1.0 if p >= MOTIFS else 0.55 + 0.45 * lit.pulse(q, 2)
    for col in range(rules.COLUMNS):
        if s.top[col] != rules.BONUS:
            continue
        x = lay.grid_x + col * cell
        cx, cy = lay.top(col)
        fanfare.glow(c, x + 2, lay.top_row_y + 2, cell - 4, cell - 4, 10, strength)
        c.rect(x + 3, lay.top_row_y + 3, cell - 6, cell - 6, stroke=art.GOLD, line_width=3,
               radius=round(cell * 0.14))  # fmt: skip
        if m.reduced or q >= 1.0:
            continue
        for k in range(RINGS):
            r = span(q, k / (RINGS + 1), k / (RINGS + 1) + 0.6)
            if 0.0 < r < 1.0:
                c.save()
                c.alpha(1.0 - r)
                c.circle(cx, cy, cell * (0.45 + 0.5 * ease_out(r)), stroke=art.GOLD,
                         line_width=4 * (1.0 - r) + 1)  # fmt: skip
                c.restore()


def banner(c: Canvas, lay: Layout, p: float, m: Motion) -> None:
    """'BONUS GAME ACTIVATED' across the middle of the window, over everything, at p of
    bonus_activated (nothing while the motifs light up)."""
    q = banner_at(p)
    if 0.0 < q < 1.0:
        widgets.banner(c, lay.width, lay.height, ("BONUS GAME", "ACTIVATED"), q, m,
                       gold=art.GOLD, band="#06182cf5", height=0.22,
                       spacing=BANNER_SPACING)  # fmt: skip
