"""The art for pygame: the build's WebP atlases (tools/build/atlas.py) as one surface per key."""

from __future__ import annotations

import json
from pathlib import Path

import pygame


def load_art(folder: Path, ratio: int = 2) -> dict[str, pygame.Surface]:
    """Every page's pictures in folder's atlases at ratio, by key (subsurfaces of the atlas)."""
    entries = json.loads((folder / "atlases.json").read_text())
    art: dict[str, pygame.Surface] = {}
    for entry in entries.values():
        sheet = pygame.image.load(str(folder / entry["files"][str(ratio)]))
        for key, (x, y, w, h) in entry["frames"].items():
            art[key] = sheet.subsurface(pygame.Rect(x * ratio, y * ratio, w * ratio, h * ratio))
    return art
