"""The messages over the £500K Power Puck Shot window: the feature banners ('BONUS GAME!',
'POWER PUCK ALL SYMBOLS X2', 'RESULT! PRIZE GAME UNLOCKED!') and the end message, graded by
the play's total (engine/ui/celebration.py) with the celebration it earns (engine/ui/fanfare.py).
"""

from __future__ import annotations

from engine.money import format_pounds
from engine.power_puck_shot import GAME
from engine.power_puck_shot.replay import State
from engine.ui import celebration, fanfare, widgets
from engine.ui.celebration import Grade
from engine.ui.draw import Canvas, LinearGradient
from engine.ui.flow import Flow
from engine.ui.motion import Motion
from engine.ui.power_puck_shot import art
from engine.ui.power_puck_shot.layout import Layout
from engine.ui.power_puck_shot.paint import Moment
from engine.ui.power_puck_shot.timing import CHANGE, DURATIONS, LEAD, power_message_at
from engine.ui.presentation import FREE_RESULT

END_FOOT = 170.0  # below its text, the end message holds FINISH, a note and the board toggle
BAND = "#0a0f24"  # the banners' band, and the colour the window dips to as it changes game
DIP = 0.3  # seconds (at the normal pace) the window darkens before it changes game, and after


def banners(c: Canvas, lay: Layout, mo: Moment) -> None:
    """'BONUS GAME!', 'POWER PUCK ALL SYMBOLS X2', 'RESULT! PRIZE GAME UNLOCKED!', over the
    window's `dip` as it changes game."""
    dip(c, lay, mo)
    e = mo.event
    if mo.kind in ("bonus_start", "prize_start") and not LEAD <= mo.p < CHANGE:
        return  # the symbols that started it light up first; then the window changes
    shown = (mo.p - LEAD) / (CHANGE - LEAD)
    if mo.kind == "bonus_start":
        n = int(e["pucks"])
        lines: tuple[str, ...] = ("BONUS GAME!", f"{n} BONUS PUCK{'S' if n > 1 else ''}")
        banner(c, lay, lines, shown, mo.m.part(CHANGE - LEAD))
    elif mo.kind == "prize_start":
        n = int(e["pucks"])
        lines = ("RESULT!", "PRIZE GAME UNLOCKED!", f"{n} PRIZE PUCK{'S' if n > 1 else ''}")
        banner(c, lay, lines, shown, mo.m.part(CHANGE - LEAD))
    elif mo.kind == "bonus_end" and e.get("power_pucks"):
        start = power_message_at(e)
        if mo.p >= start:
            banner(c, lay, ("POWER PUCK", "ALL SYMBOLS X2"), (mo.p - start) / (1 - start), mo.m)


def dip(c: Canvas, lay: Layout, mo: Moment) -> None:
    """The window changing game (Moment.stage): the old one darkens to the banners' colour in
    the DIP seconds before, the new one comes up out of it in the DIP seconds after (after a
    Bonus Game, whose window is dark already, it comes up only). A fade, so the same with
    reduced motion."""
    if mo.kind in ("bonus_start", "prize_start"):
        since = mo.p - CHANGE
    elif mo.kind == "bonus_end":
        since = mo.p
    else:
        return
    since *= DURATIONS[mo.kind](mo.event)  # in the event's seconds: faster at a faster pace
    dark = 1.0 - abs(since) / DIP
    if dark > 0.0:
        c.save()
        c.alpha(min(1.0, dark))
        c.rect(0, 0, lay.width, lay.height, fill=BAND)
        c.restore()


def banner(c: Canvas, lay: Layout, lines: tuple[str, ...], p: float, m: Motion) -> None:
    """A message across the middle of the window, over everything."""
    widgets.banner(c, lay.width, lay.height, lines, p, m, gold=art.GOLD, band=BAND + "f2",
                   height=0.12 + 0.07 * len(lines))  # fmt: skip


def end_box(w: float, h: float) -> tuple[float, float, float, float]:
    """The end message's text area (x, y, w, h): widgets.end_box, with END_FOOT under it."""
    return widgets.end_box(w, h, END_FOOT)


def end_message(c: Canvas, lay: Layout, flow: Flow, state: State, p: float = 1.0,
                m: Motion | None = None) -> None:  # fmt: skip
    """The end message at progress p of the end event (1 at rest): the rows won (when there
    were any), the PRIZE POT (when there was a Prize Game) and the total, counting up, with
    the celebration its grade earns; a free TRY's says it wins nothing."""
    m = m or Motion()
    w, h = lay.width, lay.height
    x, y, pw, ph = end_box(w, h)
    free = flow.mode == "try"  # a free TRY: no celebration and no amount won
    g = celebration.grade(state.total, GAME, free=free)
    c.rect(0, 0, w, h, fill="#00000080")  # the board dims behind the message ("See the board")
    box = (x - 4, y - 10, pw + 8, ph + END_FOOT)  # FINISH, a note and the board's toggle
    fanfare.behind(c, w, h, box, g, p, m)
    fill = LinearGradient(0, box[1], 0, box[1] + box[3], ((0.0, "#14305a"), (1.0, "#0a1a33")))
    c.rect(*box, fill=fill, stroke=art.GOLD, line_width=3, radius=18)
    # the burst flies out from the amount as it lands, behind the words
    fanfare.front(c, w / 2, y + ph * 0.76, min(pw * 0.6, h * 0.4), g, p, m, celebration.COUNTED)
    head = "FREE TRY OVER" if free else celebration.headline(g, state.total)
    size = min(36.0, pw * 0.08)
    scale = fanfare.heading_scale(g, p, m)
    art.label(c, head, w / 2, y + ph * 0.14, size * scale, pw - 20, art.GOLD)
    rows = sum(pence for _, pence in state.won)
    body = min(22.0, pw * 0.05)
    lines = []
    if free:
        lines.append("No money is staked or won.")
    else:  # only what the play showed: no 'Rows won: £0.00' on a Prize-Game-only win
        lines += [f"Rows won: {format_pounds(rows)}"] if rows else []
        lines += [f"PRIZE POT: {format_pounds(state.pot)}"] if state.pot else []
        lines = lines or ["No row complete."]
    for k, line in enumerate(lines):
        at = 0.44 if len(lines) == 1 else 0.36 + 0.16 * k
        art.label(c, line, w / 2, y + ph * at, body, pw - 20)
    band = min(size * 1.6, 2 * (ph * 0.24 - 22))  # clear of FINISH below it
    fanfare.plaque(c, w / 2, y + ph * 0.76, pw - 16, band, g)
    total = celebration.total_line(g, celebration.counted(state.total, g, p))
    if g == Grade.NONE:
        total = FREE_RESULT.upper() if free else "NO PRIZE THIS TIME"
    art.label(c, total, w / 2, y + ph * 0.76, min(size, band * 0.8), pw - 16 - band, art.GOLD)
    note = flow.error or flow.busy
    if note:
        colour = "#ffb4a8" if flow.error else "#cfe8ff"
        art.label(c, note, w / 2, y + ph + 70, min(18.0, pw * 0.04), pw - 24, colour)
