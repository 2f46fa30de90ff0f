"""Where everything goes on the £500K Power Puck Shot window, from the canvas size.

Landscape (desktop, 1280 × 720, 4:3 sizes, a phone held sideways): the Prize Game Symbol
Collection Meter | the Play Grid | the Prize Table, as the procedure places them; the six
Directional Arrows under the grid and the Pucks Left Counter under them; the settings under
the Prize Table, two by two (HOW TO PLAY beside Rules and Prizes over Faster animations beside
Sound), as at a portrait phone's foot. Portrait (phone, 390 × 844 down to
360 × 640): the Prize Table across the top, then the meter beside the grid, the arrows, the
counter and the settings; on a tall phone, whose grid the width bounds, the rows of the Prize
Table grow and the rest of the height spaces the parts out. The PRIZE POT panel sits at the top
left, over the title, in the Prize Game. Every control is at least 44 px each way; a window
under 320 px either way is laid out as 320 px.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.power_puck_shot import rules
from engine.ui.widgets import MIN_TARGET, two_by_two

Rect = tuple[float, float, float, float]
ROWS = len(rules.COLOURS)  # Prize Table rows, the top prize's at the top
ARROWS = rules.DIRECTIONAL_ARROWS
# How far past their rectangles paint.py draws: the Play Grid's cushions (10 px and a 4 px
# stroke in the Bonus and Prize Games), the meter's and the Prize Table's frames (4 px and a
# 2 px stroke). The spaces between the parts leave room for them, so no frame runs under another
# part, the header, an arrow or off the window.
CUSHION = 12.0
FRAME = 5.0
TALL_ROW = 36.0  # the tallest a Prize Table row grows on a tall phone


@dataclass(frozen=True)
class Layout:
    """Rectangles (x, y, w, h) and sizes of one window size."""

    width: float
    height: float
    portrait: bool
    cell: float  # one square of the Play Grid
    header: Rect
    grid_x: float
    grid_y: float
    meter: Rect
    table: Rect
    arrows: tuple[Rect, ...]
    pucks: Rect
    pot: Rect
    howto: Rect
    rules: Rect
    speed: Rect
    sound: Rect

    def at(self, gx: float, gy: float) -> tuple[float, float]:
        """The screen point of a point of the table in grid units (0..4 each way)."""
        return self.grid_x + gx * self.cell, self.grid_y + gy * self.cell

    def square(self, square: int) -> tuple[float, float]:
        """The centre of a square of the Play Grid (0–15, row by row)."""
        return self.at(square % 4 + 0.5, square // 4 + 0.5)

    def row(self, colour: str) -> Rect:
        """A Prize Table row: the yellow top prize at the top, dark blue at the bottom."""
        x, y, w, h = self.table
        k = ROWS - 1 - rules.COLOURS.index(colour)
        rh = h / ROWS
        return x, y + k * rh, w, rh

    def amount(self, colour: str) -> Rect:
        """The amount box at the left of a row."""
        x, y, w, h = self.row(colour)
        return x, y + h * 0.1, w * 0.3, h * 0.8

    def slot(self, colour: str, k: int) -> Rect:
        """The k-th (0–11) square of a row."""
        x, y, w, h = self.row(colour)
        left = x + w * 0.33
        size = min(h * 0.72, (w * 0.66) / rules.SQUARES_PER_ROW * 0.86)
        step = (w * 0.66) / rules.SQUARES_PER_ROW
        return left + k * step, y + (h - size) / 2, size, size

    def segment(self, k: int) -> Rect:
        """The k-th (0–9) segment of the meter, k = 0 at the bottom."""
        x, y, w, h = self.meter
        sh = h / rules.METER_SEGMENTS
        return x, y + h - (k + 1) * sh, w, sh


def layout(width: float, height: float) -> Layout:
    """The layout for a canvas of this size."""
    w, h = max(width, 320.0), max(height, 320.0)
    portrait = w < h * 1.1
    margin = float(round(max(8.0, min(w, h) * 0.015)))
    header_h = float(round(max(40.0, min(64.0, h * (0.06 if portrait else 0.08)))))
    arrow = MIN_TARGET + 4.0
    pucks_h = max(MIN_TARGET, min(64.0, h * 0.07))
    gap = margin * 0.75
    beside = max(2 * gap, CUSHION + FRAME)  # the meter or the Prize Table beside the grid
    under = max(gap, CUSHION)  # the arrows under the grid
    if portrait:
        meter_w = float(round(max(92.0, w * 0.24)))  # its labels readable
        settings_h = 2 * MIN_TARGET + gap
        row_h = max(18.0, min(34.0, h * 0.032))
        fixed = (header_h + margin + beside + under + arrow + 1.5 * gap + pucks_h + settings_h
                 + margin)  # fmt: skip
        cell = min((w - 2 * max(margin, CUSHION) - meter_w - beside) / 4,
                   (h - fixed - ROWS * row_h) / 4)  # fmt: skip
        cell = float(int(cell))
        # A tall phone's grid is bound by the width: the height left over goes to the Prize
        # Table's rows (up to TALL_ROW), then in equal parts above the grid, above the arrows
        # and above the settings, so nothing is left in a band at the bottom.
        spare = max(0.0, h - fixed - ROWS * row_h - 4 * cell)
        grown = min(TALL_ROW, max(row_h, row_h + spare / ROWS))
        spare -= ROWS * (grown - row_h)
        row_h, air = grown, spare / 3
        table_h = ROWS * row_h
        row_w = meter_w + beside + 4 * cell
        left = float(round((w - row_w) / 2))
        table = (float(margin), header_h + margin, w - 2 * margin, table_h)
        grid_y = table[1] + table_h + beside + air
        grid_x = left + meter_w + beside
        meter = (left, grid_y, meter_w, 4 * cell)
        below = grid_y + 4 * cell + under + air
        arrows_y = below
        pucks = (w / 2 - 110.0, arrows_y + arrow + gap * 0.5, 220.0, pucks_h)
        foot = pucks[1] + pucks_h + gap + air
        half = (w - 2 * margin - gap) / 2
        howto, rules_r, speed, sound = two_by_two(margin, foot, foot + MIN_TARGET + gap, half, gap)
        centre, lo, hi = grid_x + 2 * cell, float(margin), w - margin
    else:
        top = header_h + max(margin, CUSHION)
        cell = min((h - top - margin - under - 0.5 * gap - arrow - pucks_h) / 4,
                   (w - 2 * margin - 2 * beside) / 10.2)  # fmt: skip
        cell = float(int(cell))
        meter_w = float(round(max(96.0, cell * 1.15)))
        table_w = float(round(max(300.0, cell * 4.4)))
        row_w = meter_w + beside + 4 * cell + beside + table_w
        left = float(round((w - row_w) / 2))
        grid_y = top
        grid_x = left + meter_w + beside
        meter = (left, grid_y, meter_w, 4 * cell)
        table_x = grid_x + 4 * cell + beside
        table = (table_x, grid_y, table_w, 4 * cell)
        arrows_y = grid_y + 4 * cell + under
        pucks = (grid_x + 2 * cell - 110.0, arrows_y + arrow + gap * 0.5, 220.0, pucks_h)
        foot = arrows_y
        half = (table_w - gap) / 2
        under = min(h - margin - MIN_TARGET, foot + MIN_TARGET + gap)
        howto, rules_r, speed, sound = two_by_two(table_x, foot, under, half, gap)
        centre, lo, hi = grid_x + 2 * cell, left, table_x - gap  # clear of the buttons
    span = min(hi - lo, max(4 * cell, ARROWS * (arrow + 6.0)))
    centre = min(max(centre, lo + span / 2), hi - span / 2)
    step = span / ARROWS
    arrows = tuple(
        (centre - span / 2 + k * step + (step - arrow) / 2, arrows_y, arrow, arrow)
        for k in range(ARROWS)
    )
    pot = (float(margin), 4.0, min(w * 0.42, 260.0), header_h - 8.0)
    return Layout(
        w, h, portrait, cell, (0.0, 0.0, w, header_h), grid_x, grid_y, meter, table, arrows,
        pucks, pot, howto, rules_r, speed, sound,
    )  # fmt: skip
