"""Lab Riches' art (engine/ui/lab_riches/art.py), drawn by pygame: the laboratory backdrop, under
every Lab Riches screen, reaches the window's edges in its own gradient, with no band of
another colour along the bottom (a translucent gold strip there read as a thin grey line)."""

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
