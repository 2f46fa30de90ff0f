"""The site as an installable app (tools/build/webapp.py): the manifest a browser needs to
install it, the icons drawn at build time, and the offline page's files in the build."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pygame

from tools.build.webapp import BACKGROUND, GLASS, icon_png, manifest


def image(data: bytes) -> pygame.Surface:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return pygame.image.load(io.BytesIO(data), "icon.png")


def close(colour: pygame.Color, rgb: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 8 for a, b in zip(colour[:3], rgb, strict=True))


def test_an_icon_is_the_flask_on_the_sites_blue() -> None:
    icon = image(icon_png(192, maskable=False))
    assert icon.get_size() == (192, 192)
    assert close(icon.get_at((96, 40)), GLASS)  # the flask's neck
    assert close(icon.get_at((96, 182)), BACKGROUND)  # below the flask
    assert icon.get_at((1, 1)).a == 0  # rounded corners: transparent


def test_a_maskable_icon_fills_its_square_and_keeps_the_flask_in_the_safe_zone() -> None:
    size = 512
    icon = image(icon_png(size, maskable=True))
    assert icon.get_size() == (size, size)
    assert close(icon.get_at((0, 0)), BACKGROUND) and icon.get_at((0, 0)).a == 255
    # Everything not background lies inside the central circle of 40 % radius (the safe zone).
    centre, radius = size / 2, 0.4 * size
    for y in range(0, size, 4):
        for x in range(0, size, 4):
            if not close(icon.get_at((x, y)), BACKGROUND):
                assert (x - centre) ** 2 + (y - centre) ** 2 <= radius**2, (x, y)


def test_the_manifest_opens_the_lobby_standalone() -> None:
    icons = [{"src": "/i.png", "sizes": "512x512", "type": "image/png", "purpose": "any"}]
    found = manifest(icons)
    assert found["start_url"] == "/" and found["scope"] == "/"
    assert found["display"] == "standalone"
    assert found["theme_color"] == found["background_color"] == "#0b2a4a"
    assert found["name"] and found["short_name"] and found["icons"] == icons


def test_the_build_links_the_manifest_and_ships_its_icons_and_the_offline_page(
    dist_dir: Path,
) -> None:
    html = (dist_dir / "index.html").read_text()
    link = re.search(r'<link rel="manifest" href="(/app\.[0-9a-f]{10}\.webmanifest)">', html)
    assert link, "index.html links no manifest"
    shipped = json.loads((dist_dir / link.group(1).lstrip("/")).read_text())
    sizes = {(icon["sizes"], icon["purpose"]) for icon in shipped["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in shipped["icons"]:
        drawn = image((dist_dir / icon["src"].lstrip("/")).read_bytes())
        assert f"{drawn.get_width()}x{drawn.get_height()}" == icon["sizes"]
    for page in ("offline.html", "offline.css", "offline.js"):
        assert (dist_dir / page).is_file(), page
