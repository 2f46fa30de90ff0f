"""The Prize Table of the £500K Power Puck Shot window: 8 coloured rows of 12 squares, each
row's amount (after boosts) and, once it is complete, its badge, lit bright.

A row completed says what it pays as engine/ui/celebration.py grades its amount: 'WIN £10'
with a burst of sparks as it completes, '£5 BACK' (no more than the price) with no burst, or
'COMPLETE' in a free TRY (which wins nothing).
"""

from __future__ import annotations

from engine.power_puck_shot import GAME, rules
from engine.power_puck_shot.replay import State
from engine.ui import fanfare
from engine.ui.celebration import Grade, grade
from engine.ui.draw import Canvas, Font, LinearGradient, fit_text
from engine.ui.power_puck_shot import art
from engine.ui.power_puck_shot.layout import Layout
from engine.ui.power_puck_shot.narrate import pounds
from engine.ui.power_puck_shot.paint import Moment

WON_INK = "#3b2400"  # dark brown on a lit gold badge


def table(c: Canvas, lay: Layout, mo: Moment, free: bool = False) -> None:
    """The Prize Table: 8 coloured rows, each its amount (after boosts), a booster arrow when
    boosted and 12 squares; a row won is lit, glowing gold, and pulses while it is won, with a
    burst from its badge when it pays more than the price (in a free TRY it reads COMPLETE,
    not what it would have paid)."""
    shown = mo.shown
    x, y, w, h = lay.table
    c.rect(x - 4, y - 4, w + 8, h + 8, fill="#071328cc", stroke="#7fd4ff", line_width=2,
           radius=10)  # fmt: skip
    won = dict(shown.won)
    for k, colour in enumerate(rules.COLOURS):
        rx, ry, rw, rh = lay.row(colour)
        fill = art.FILLS[colour]
        lit = colour in won
        winning = mo.kind == "row_won" and mo.event["colour"] == colour
        strength = fanfare.shine(mo.p, mo.m) if winning else 1.0
        if lit:
            fanfare.glow(c, rx + 2, ry + 2, rw - 4, rh - 4, rh * 0.25, strength)
        c.rect(rx + 2, ry + 2, rw - 4, rh - 4, fill=fill + ("66" if lit else "33"),
               stroke=art.GOLD if lit else fill, line_width=3 if lit else 1.5,
               radius=rh * 0.25)  # fmt: skip
        amount_box(c, lay, shown, colour, lit, free)
        for slot in range(rules.SQUARES_PER_ROW):
            sx, sy, ss, _ = lay.slot(colour, slot)
            if slot < shown.squares[k]:
                art.coloured_square(c, sx + ss / 2, sy + ss / 2, ss * 1.15, colour)
            else:
                c.rect(sx, sy, ss, ss, fill="#ffffff14", stroke=fill, line_width=1, radius=ss * 0.2)
    if mo.kind == "row_won":  # over the rows round it, under its badge (drawn again on top)
        colour = str(mo.event["colour"])
        if grade(won[colour], GAME, free=free) >= Grade.WIN:
            ax, ay, aw, ah = lay.amount(colour)
            fanfare.burst(c, ax + aw / 2, ay + ah / 2, ah * 2.2, mo.p, mo.m, 14)
            amount_box(c, lay, shown, colour, True, free)


def badge(pence: int, free: bool) -> str:
    """A completed row's badge: 'WIN £10', '£5 BACK' (no more than the price) or 'COMPLETE'
    (a free TRY's)."""
    g = grade(pence, GAME, free=free)
    if g == Grade.NONE:
        return "COMPLETE"
    return f"{pounds(pence)} BACK" if g == Grade.PRICE_BACK else f"WIN {pounds(pence)}"


def amount_box(
    c: Canvas, lay: Layout, shown: State, colour: str, won: bool, free: bool = False
) -> None:
    """A row's amount box: its amount (after boosts) as large as an unboosted row's with, inside
    the box at its right, the booster arrow and '×2' or '×3', as large as the amount where the
    box has room, else smaller (to 0.4: the badge gives way before the amount); a row won reads
    its `badge` there, dark on bright gold, so the badge hides none of its squares."""
    ax, ay, aw, ah = lay.amount(colour)
    fill = art.FILLS[colour]
    ink = art.INK if colour in art.DARK_INK else "#ffffff"
    pence = shown.amount(colour)
    if won:
        gold = LinearGradient(ax, ay, ax, ay + ah, ((0.0, "#fff3b0"), (0.5, art.GOLD),
                                                    (1.0, "#f2a900")))  # fmt: skip
        c.rect(ax + 4, ay, aw - 8, ah, fill=gold, stroke="#ffffff", line_width=2,
               radius=ah * 0.3)  # fmt: skip
        text = badge(dict(shown.won)[colour], free)
        art.label(c, text, ax + aw / 2, ay + ah / 2, ah * 0.62, aw - 16, WON_INK)
        return
    c.rect(ax + 4, ay, aw - 8, ah, fill=fill, radius=ah * 0.3)
    left, right = ax + 8, ax + aw - 8
    amount = pounds(pence)
    # The amount as large as in a row without a booster; the badge gives way, never the amount.
    font = fit_text(c, amount, Font(ah * 0.62, "body", True), right - left)
    boosts = shown.boosts[rules.COLOURS.index(colour)]
    if boosts:
        mark = f"×{boosts}" if boosts > 1 else ""
        big = Font(ah * 0.62, "body", True)
        wide = ah * 0.8 + 2 + (c.measure(mark, big) + 2 if mark else 0.0)
        k = max(0.4, min(1.0, (right - left - c.measure(amount, font) - 4) / wide))
        if mark:
            c.text(mark, right, ay + ah / 2, Font(big.size * k, "body", True), fill=ink,
                   align="right")  # fmt: skip
            right -= (c.measure(mark, big) + 2) * k
        art.boost_mark(c, right - ah * 0.4 * k, ay + ah / 2, ah * 0.8 * k, ink)
        right -= (ah * 0.8 + 2) * k
    c.text(amount, (left + right) / 2, ay + ah / 2, fit_text(c, amount, font, right - left),
           fill=ink)  # fmt: skip
