"""What makes the site installable as an app: its web app manifest, its icons and its offline page.

The icons are drawn here, at build time, with pygame-ce (the flask of favicon.svg on the site's
dark blue), so nothing is fetched or kept as a binary in the repository. The manifest names the
lobby as the start and opens standalone, like an installed app; `sw.js` serves `offline.html`
to a navigation the network cannot answer (docs/deployment.md, "Installing the site as an app").
"""

from __future__ import annotations

import io
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

from tools.build.sources import SHELL

NAME = "Instant Win Games"
SHORT_NAME = "Instant Win"
BACKGROUND = (0x0B, 0x2A, 0x4A)  # the page's background and theme colour (index.html)
GLASS = (0x7F, 0xD4, 0xFF)
LIQUID = (0xFF, 0xD5, 0x4A)
SIZES = (192, 512)
OVERSAMPLE = 4  # drawn this many times larger, then smoothed down: anti-aliased edges
# The flask of favicon.svg on its 64-unit grid, the curves as short straight runs.
FLASK = [
    (26, 10), (38, 10), (38, 14), (36, 14), (36, 28), (50, 50), (50.6, 52.5), (49.8, 54.6),
    (48.2, 55.8), (46.6, 56), (17.4, 56), (15.8, 55.8), (14.2, 54.6), (13.4, 52.5), (14, 50),
    (28, 28), (28, 14), (26, 14),
]  # fmt: skip
LIQUID_SHAPE = [
    (20, 44), (44, 44), (48, 50), (48.2, 51.5), (47.4, 52.7), (46.3, 53), (17.7, 53), (16.6, 52.7),
    (15.8, 51.5), (16, 50),
]  # fmt: skip


def icon_png(size: int, *, maskable: bool) -> bytes:
    """The app icon as a PNG of size × size pixels. A maskable icon fills its square (the
    platform cuts its own shape) and keeps the flask inside the central 80 % safe zone; the
    other has the favicon's rounded corners."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    big = size * OVERSAMPLE
    surface = pygame.Surface((big, big), pygame.SRCALPHA)
    if maskable:
        surface.fill(BACKGROUND)
    else:
        pygame.draw.rect(surface, BACKGROUND, (0, 0, big, big), border_radius=big * 14 // 64)
    scale = big / 64 * (0.72 if maskable else 1.0)  # the flask spans 46 of 64 units
    offset = (big - 64 * scale) / 2

    def placed(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(offset + x * scale, offset + y * scale) for x, y in points]

    pygame.draw.polygon(surface, GLASS, placed(FLASK))
    pygame.draw.polygon(surface, LIQUID, placed(LIQUID_SHAPE))
    small = pygame.transform.smoothscale(surface, (size, size))
    out = io.BytesIO()
    pygame.image.save(small, out, "icon.png")
    return out.getvalue()


def manifest(icons: list[dict[str, str]]) -> dict[str, object]:
    """The web app manifest: the lobby as the start, standalone, the page's colours."""
    colour = "#{:02x}{:02x}{:02x}".format(*BACKGROUND)
    return {
        "id": "/",
        "name": NAME,
        "short_name": SHORT_NAME,
        "description": "Lab Riches and £500K Power Puck Shot, instant-win games.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": colour,
        "theme_color": colour,
        "lang": "en-GB",
        "icons": icons,
    }


def write(out: Path, hashed_name: Callable[[str, bytes], str]) -> str:
    """Write the icons (content-hashed names), the manifest and the offline page into out;
    returns the manifest's path on the site."""
    icons = []
    for size in SIZES:
        for maskable in (False, True) if size == max(SIZES) else (False,):
            data = icon_png(size, maskable=maskable)
            purpose = "maskable" if maskable else "any"
            name = hashed_name(f"icon-{size}-{purpose}.png", data)
            (out / name).write_bytes(data)
            icon = {"src": f"/{name}", "sizes": f"{size}x{size}", "type": "image/png"}
            icons.append({**icon, "purpose": purpose})
    text = json.dumps(manifest(icons), indent=1, ensure_ascii=False)
    name = hashed_name("app.webmanifest", text.encode())
    (out / name).write_text(text)
    for page in ("offline.html", "offline.css", "offline.js"):
        shutil.copyfile(SHELL / page, out / page)
    return f"/{name}"
