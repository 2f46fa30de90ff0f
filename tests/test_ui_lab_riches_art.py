"""Lab Riches' art (engine/ui/lab_riches/art.py), drawn by pygame: the laboratory backdrop, under
every Lab Riches screen, reaches the window's edges in its own gradient, with no band of
another colour along the bottom (a translucent gold strip there read as a thin grey line); the
extra-goes symbol's GOES reads at 10 px or more in the grid, inside its ribbon."""

from __future__ import annotations

import os

import pygame
import pytest

from backends.pygame_backend import PygameCanvas
from engine.ui.lab_riches import art

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

SIZES = [(1280, 720), (390, 844), (360, 640), (844, 390), (412, 915), (1024, 768)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("density", [1.0, 3.0])
def test_the_backdrop_has_no_band_along_the_bottom(size: tuple[int, int], density: float) -> None:
    w, h = size
    surface = pygame.Surface((round(w * density), round(h * density)))
    art.backdrop(PygameCanvas(surface, density), w, h)
    last = surface.get_height() - 1
    for x in (1, surface.get_width() - 2):  # the edges: clear of the bubbles
        above = surface.get_at((x, last - round(16 * density)))
        for y in range(last - round(12 * density), last + 1):
            here = surface.get_at((x, y))
            jump = max(abs(here[k] - above[k]) for k in range(3))
            assert jump <= 4, (x, y, tuple(here), tuple(above))


@pytest.mark.parametrize("size", [*SIZES, (740, 360)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_extra_goes_reads_goes_at_10_px_within_its_ribbon_in_the_grid(
    size: tuple[int, int],
) -> None:
    from backends.canvas import BatchReader, CommandCanvas
    from backends.layout import text_boxes
    from engine.ui.lab_riches.layout import layout

    def measure(s: str, px: float, family: str, bold: bool) -> float:
        """0.65 em a character: Fredoka 700's "GOES" is 2.59 em (its hmtx table)."""
        return len(s) * px * 0.65

    side = layout(*size).cell * 0.8  # a grid square's symbol, as paint.py draws it
    canvas = CommandCanvas(*size, measure)
    art.draw_square(canvas, "extra-goes/3", 100, 100, side)
    commands = BatchReader().read(canvas.flush())
    goes = next(t for t in text_boxes(commands, measure) if t["text"] == "GOES")
    assert goes["size"] >= 10.0
    ribbon = next(c for c in commands if c[0] == "rect")  # in the icon's 10 x 10 units
    x, y, w, h = goes["box"]
    left, width = 100 + ribbon[1] * side / 10, ribbon[3] * side / 10
    top, height = 100 + ribbon[2] * side / 10, ribbon[4] * side / 10
    assert left < x and x + w < left + width  # GOES stays inside its ribbon, on its green only
    assert top < y and y + h < top + height
