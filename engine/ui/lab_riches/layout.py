"""Where everything goes on the Main Game and Bonus Game windows, from the canvas size.

Landscape (desktop, 1280 × 720 and up): meter | Top Row over the grid | Prize Boxes | GO
column: GO, GOES and INSTANT WINS, then the settings at the foot of that column, one under
another (HOW TO PLAY, Faster animations, Sound, Rules and Prizes) where the column is tall
enough, else two by two (HOW TO PLAY beside Rules and Prizes over Faster animations beside
Sound: a phone held sideways), the column then wide enough for two. Portrait (phone,
390 × 844): the same row of meter, grid and Prize Boxes, with the totals, GO and GOES stacked
below, then the settings two by two. Every control is at least 44 px on each side, down to a
phone held sideways (844 × 390); a window under 320 px either way is laid out as 320 px.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.lab_riches import rules
from engine.ui.widgets import MIN_TARGET, two_by_two

GRID_ROWS = rules.ROWS  # (inside layout(), `rules` is the Rules button)
METER_W = 72.0  # the meter beside a landscape grid at its narrowest: "£250K" at 12 px
REVEAL_W = 64.0  # REVEAL ALL at its narrowest: its label at 10 px or more
SETTING_W = 130.0  # a setting's button at its narrowest: 'Faster animations: off' at 10 px

__all__ = ["MIN_TARGET", "Layout", "Rect", "layout"]

Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class Layout:
    """Rectangles (x, y, w, h) and sizes of one window size."""

    width: float
    height: float
    portrait: bool
    cell: float
    header: Rect
    top_row_y: float
    grid_x: float
    grid_y: float
    meter: Rect
    prize_x: float
    prize_w: float
    go: Rect
    reveal: Rect  # REVEAL ALL: beside GO, or under it where GO is tall
    goes: Rect
    total_won: Rect
    instant_wins: Rect
    howto: Rect
    rules: Rect
    speed: Rect
    sound: Rect
    cable: tuple[tuple[float, float], ...]

    def square(self, row: int, col: int) -> tuple[float, float]:
        """Centre of a grid square."""
        return self.grid_x + (col + 0.5) * self.cell, self.grid_y + (row + 0.5) * self.cell

    def top(self, col: int) -> tuple[float, float]:
        """Centre of a Top Row square."""
        return self.grid_x + (col + 0.5) * self.cell, self.top_row_y + self.cell / 2

    def prize_box(self, row: int) -> Rect:
        """A row's Prize Box."""
        pad = float(round(self.cell * 0.08))
        return (self.prize_x, self.grid_y + row * self.cell + pad, self.prize_w,
                self.cell - 2 * pad)  # fmt: skip

    def meter_box(self, box: int) -> Rect:
        """One of the meter's 7 boxes; box 0 is at the bottom."""
        x, y, w, h = self.meter
        bh = h / len(rules.METER_BOXES)
        return x, float(round(y + h - (box + 1) * bh)), w, float(round(bh))


def layout(width: float, height: float) -> Layout:
    """The layout for a canvas of this size."""
    w, h = max(width, 320.0), max(height, 320.0)
    portrait = w < h * 1.1
    margin = max(8.0, min(w, h) * 0.02)
    header_h = max(52.0, h * (0.075 if portrait else 0.1))
    if portrait:
        # the last term leaves short phones room for the boxes and buttons of fixed height
        cell = min((w - 2 * margin) / 6.5, (h - header_h) * 0.55 / 6.3,
                   (h - header_h - 2 * margin - 4 * MIN_TARGET) / 8.65)  # fmt: skip
        meter_w, prize_w = cell * 0.95, cell * 1.2
    else:
        cell = min((h - header_h - 2 * margin) / 7.2, (w - 2 * margin) / 10.5)
        meter_w, prize_w = max(cell * 1.25, METER_W), cell * 1.4
    cell = float(int(cell))  # whole pixels: crisp edges, and short numbers in every frame's batch
    margin, header_h = float(round(margin)), float(round(header_h))
    gap = float(round(cell * 0.15))
    if portrait:  # as wide as METER_W where the centred row leaves the room (a phone tall for
        # its width), the Power Cable's included (0.6 of a gap right of the Prize Boxes, and
        # its flash)
        room = w - 2 * (0.6 * gap + 4) - 2 * gap - 4 * cell - prize_w
        meter_w = max(meter_w, min(METER_W, room))
    row_w = meter_w + gap + 4 * cell + gap + prize_w
    boxes_h = max(MIN_TARGET, cell * 0.8)
    go_h = max(MIN_TARGET, cell * 1.2)
    # The GO column's height (from the Top Row to under TOTAL WON), and what it needs to hold
    # its four settings one under another; else they stand two by two, the column two wide.
    column_h = float(round(cell * 1.15)) + 5 * cell + gap + boxes_h
    stacked = column_h >= go_h + boxes_h * 2.2 + 4 * MIN_TARGET + 7 * gap
    side = 2.6 * cell if stacked else 2 * SETTING_W + gap + cell * 0.5
    left = float(round((w - row_w) / 2 if portrait else max(margin, (w - row_w - side) / 2)))
    top_row_y = header_h + margin
    grid_y = top_row_y + float(round(cell * 1.15))
    grid_x = left + meter_w + gap
    meter = (left, top_row_y, meter_w, grid_y + 5 * cell - top_row_y)
    prize_x = grid_x + 4 * cell + gap
    below = grid_y + 5 * cell + gap
    if portrait:
        half = (row_w - gap) / 2
        total_won = (left, below, half, boxes_h)
        instant = (left + half + gap, below, half, boxes_h)
        go_size = max(MIN_TARGET, min(cell * 1.45, (h - below - boxes_h) * 0.35))
        go = (w / 2 - go_size, below + boxes_h + gap * 2, go_size * 2, go_size)
        reveal_x = go[0] + go[2] + gap  # in the room right of GO, its middle level with GO's
        reveal_h = max(MIN_TARGET, go_size * 0.6)
        reveal = (reveal_x, go[1] + (go_size - reveal_h) / 2,
                  min(go_size * 1.6, w - margin - reveal_x), reveal_h)  # fmt: skip
        goes = (w / 2 - go_size * 0.75, go[1] + go_size + gap, go_size * 1.5, boxes_h)
        foot_y = min(h - margin - 2 * MIN_TARGET - gap, goes[1] + boxes_h + gap * 2)
        howto, rules, speed, sound = two_by_two(left, foot_y, foot_y + MIN_TARGET + gap, half, gap)
    else:
        total_won = (grid_x, below, 4 * cell, boxes_h)
        side_x = prize_x + prize_w + cell * 0.5
        if stacked:  # its labels at 10 px or more
            side_w = max(SETTING_W, min(cell * 2.2, w - side_x - margin))
            rules = (side_x, below + boxes_h - MIN_TARGET, side_w, MIN_TARGET)
            sound, speed, howto = (
                (side_x, rules[1] - k * (gap + MIN_TARGET), side_w, MIN_TARGET) for k in (1, 2, 3)
            )
        else:
            half = max(SETTING_W, min(cell * 2.2, (w - side_x - margin - gap) / 2))
            side_w = 2 * half + gap
            top_y = below + boxes_h - 2 * MIN_TARGET - gap
            howto, rules, speed, sound = two_by_two(
                side_x, top_y, top_y + MIN_TARGET + gap, half, gap
            )
        foot = howto[1]  # the top of the buttons at the foot of the GO column
        fixed = go_h + gap + boxes_h * 2.2  # GO, the gap under it, GOES and INSTANT WINS
        room = foot - gap - grid_y - cell * 0.2 - fixed  # left for the space above INSTANT WINS
        space = max(gap, min(cell * 0.6, room))
        go_y = max(top_row_y, min(grid_y + cell * 0.2, foot - gap - fixed - space))
        go, reveal = _share(side_x, go_y, side_w, go_h, gap)
        goes = (side_x, go_y + go_h + gap, side_w, boxes_h)
        instant = (side_x, goes[1] + boxes_h + space, side_w, boxes_h * 1.2)
    if portrait:  # share the height left over: the play area sits lower, nearer the thumb
        dy = float(round(max(0.0, h - margin - (sound[1] + sound[3])) * 0.4))
        top_row_y, grid_y = top_row_y + dy, grid_y + dy
        meter, go, reveal, goes, total_won, instant, howto, rules, speed, sound = (
            (r[0], r[1] + dy, r[2], r[3])
            for r in (meter, go, reveal, goes, total_won, instant, howto, rules, speed, sound)
        )
    cx = meter[0] + meter_w / 2
    cable_y = top_row_y - margin * 0.6
    cable_x = prize_x + prize_w + gap * 0.6
    # From under the last Prize Box (where a number from the Bonus Game reaches it, having
    # passed under the boxes), up the right of the boxes, over the top to the meter.
    cable = (
        (cable_x, grid_y + (GRID_ROWS + 0.4) * cell),
        (cable_x, top_row_y + cell / 2),
        (cable_x, cable_y),
        (cx, cable_y),
        (cx, meter[1]),
    )
    return Layout(
        w, h, portrait, cell, (0.0, 0.0, w, header_h), top_row_y, grid_x, grid_y, meter,
        prize_x, prize_w, go, reveal, goes, total_won, instant, howto, rules, speed, sound, cable,
    )  # fmt: skip


def _share(x: float, y: float, w: float, h: float, gap: float) -> tuple[Rect, Rect]:
    """GO's place in a landscape column shared with REVEAL ALL: GO over it where the place is
    tall enough for both (a desktop), else GO at its left and REVEAL ALL at its right."""
    if h >= 2 * MIN_TARGET + gap:
        return (x, y, w, h - MIN_TARGET - gap), (x, y + h - MIN_TARGET, w, MIN_TARGET)
    go_w = float(min(round(w * 0.58), round(w - gap - REVEAL_W)))
    return (x, y, go_w, h), (x + go_w + gap, y, w - go_w - gap, h)
