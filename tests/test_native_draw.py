"""The same scenes through the pygame-ce backend, headless, to PNG."""

from __future__ import annotations

import os
from pathlib import Path

import pygame

from backends.native import render_frames
from engine.ui.input import Activate, Pointer
from engine.ui.scenes.check import CheckScene

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def colours(path: Path) -> set[tuple[int, int, int]]:
    image = pygame.image.load(str(path))
    w, h = image.get_size()
    return {tuple(image.get_at((x, y)))[:3] for x in range(0, w, 7) for y in range(0, h, 7)}  # type: ignore[misc]


def test_check_scene_draws_to_png(tmp_path: Path) -> None:
    out = tmp_path / "check.png"
    render_frames(CheckScene(), (1280, 720), out)
    image = pygame.image.load(str(out))
    assert image.get_size() == (1280, 720)
    seen = colours(out)
    assert len(seen) > 50  # a gradient, text, shapes: not a blank frame
    gold = [c for c in seen if c[0] > 230 and 190 < c[1] < 225 and c[2] < 110]
    assert gold, "the gold title and button are drawn"


def test_phone_density_doubles_the_pixels(tmp_path: Path) -> None:
    out = tmp_path / "phone.png"
    render_frames(CheckScene(), (390, 844), out, density=2)
    assert pygame.image.load(str(out)).get_size() == (780, 1688)


def test_input_reaches_python_the_same_way(tmp_path: Path) -> None:
    scene = CheckScene()
    steps: list[list[object]] = [[], [Activate("tap")], []]
    results = render_frames(scene, (1280, 720), tmp_path / "a.png", steps=steps)  # type: ignore[arg-type]
    control = results[0].controls[0]  # type: ignore[index]
    cx, cy = control.x + control.w / 2, control.y + control.h / 2
    tap = [Pointer("down", cx, cy), Pointer("up", cx, cy)]
    more = render_frames(scene, (1280, 720), tmp_path / "b.png", steps=[[], tap])
    assert scene.taps == 2
    assert "Tapped 1 time" in results[1].narration
    assert "Tapped 2 times" in more[1].narration
