"""The art's atlases: assets/ SVG sources rasterised into one WebP atlas a page and pixel ratio.

The key of `assets/<group>/<name>.svg` is `group/name`. A page loads one atlas before its first
screen (docs/drawing.md, "Pictures"): the lobby's holds `lobby/*` and each game's card and logo,
a game's holds its own folder (named by its id). An SVG's width and height are its logical size
(the largest it is drawn at on a 1× screen); each ratio's atlas has every frame at that many
pixels a logical px. resvg (resvg-py) renders, Pillow encodes the WebP.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

import resvg_py
from PIL import Image

from tools.build.sources import ROOT

ASSETS = ROOT / "assets"
LOBBY = "lobby"
SHARED_WITH_LOBBY = ("card", "logo")  # a game's pictures the lobby shows too
RATIOS = (1, 2)  # a screen with a ratio over 1 takes the 2 (docs/drawing.md)
PAD = 2  # logical px around each frame: a scaled picture never samples its neighbour
ROW = 1024  # an atlas's width in logical px at most
# WebP's lossy quality and its alpha's, by ratio: illustrated art shows no loss by eye at 80 at
# ratio 1, nor at 60 at ratio 2, whose pixels are a quarter the size (the lobby's 2× atlas
# 38.0 kB at 80 and 50, 27.2 kB at 60 and 35: a phone's first visit within 3.6 MB).
QUALITY = {1: (80, 50), 2: (60, 35)}
SIZE = re.compile(r'<svg[^>]*?\swidth="([\d.]+)"[^>]*?\sheight="([\d.]+)"', re.DOTALL)


@dataclass(frozen=True)
class Atlas:
    """One page's pictures: each key's frame [x, y, w, h] in logical px, and its images."""

    page: str
    frames: dict[str, list[int]]
    webp: dict[int, bytes]  # by ratio


def sources() -> dict[str, Path]:
    """Every SVG of assets/ by key ('group/name')."""
    return {f"{p.parent.name}/{p.stem}": p for p in sorted(ASSETS.glob("*/*.svg"))}


def pages(keys: list[str]) -> dict[str, list[str]]:
    """The keys each page's atlas holds: the lobby's, and each game's (its group)."""
    groups = sorted({key.split("/")[0] for key in keys} - {LOBBY})
    lobby = [k for k in keys if k.startswith(f"{LOBBY}/") or k.split("/")[1] in SHARED_WITH_LOBBY]
    return {LOBBY: lobby, **{g: [k for k in keys if k.startswith(f"{g}/")] for g in groups}}


def logical_size(svg: Path) -> tuple[int, int]:
    """The SVG's width and height attributes: its size in logical px."""
    found = SIZE.search(svg.read_text())
    if found is None:
        raise ValueError(f"{svg}: the <svg> needs width and height (its size in logical px)")
    return round(float(found[1])), round(float(found[2]))


def pack(sizes: dict[str, tuple[int, int]]) -> dict[str, list[int]]:
    """Shelf packing, tallest first: each key's [x, y, w, h] in logical px."""
    frames: dict[str, list[int]] = {}
    x = y = shelf = 0
    for key, (w, h) in sorted(sizes.items(), key=lambda item: (-item[1][1], item[0])):
        if x and x + w + 2 * PAD > ROW:
            x, y, shelf = 0, y + shelf, 0
        frames[key] = [x + PAD, y + PAD, w, h]
        x += w + 2 * PAD
        shelf = max(shelf, h + 2 * PAD)
    return frames


def render(svg: Path, w: int, h: int) -> Image.Image:
    """The SVG rasterised at w × h device pixels."""
    png = resvg_py.svg_to_bytes(svg_path=str(svg), width=w, height=h)
    return Image.open(BytesIO(bytes(png))).convert("RGBA")


def build_page(page: str, keys: list[str], found: dict[str, Path]) -> Atlas:
    """A page's atlas at every ratio."""
    frames = pack({key: logical_size(found[key]) for key in keys})
    right = max(x + w + PAD for x, _, w, _ in frames.values())
    bottom = max(y + h + PAD for _, y, _, h in frames.values())
    webp: dict[int, bytes] = {}
    for ratio in RATIOS:
        sheet = Image.new("RGBA", (right * ratio, bottom * ratio), (0, 0, 0, 0))
        for key, (x, y, w, h) in frames.items():
            sheet.alpha_composite(render(found[key], w * ratio, h * ratio), (x * ratio, y * ratio))
        out = BytesIO()
        quality, alpha_quality = QUALITY[ratio]
        sheet.save(out, "WEBP", quality=quality, method=6, alpha_quality=alpha_quality)
        webp[ratio] = out.getvalue()
    return Atlas(page, frames, webp)


def build() -> list[Atlas]:
    """Every page's atlas."""
    found = sources()
    return [build_page(page, keys, found) for page, keys in pages(list(found)).items() if keys]


def fingerprint() -> str:
    """A hash of the SVG sources and of this module."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for key, path in sources().items():
        digest.update(key.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def write(atlases: list[Atlas], folder: Path) -> dict[str, dict[str, object]]:
    """The atlases as files in folder (`<page>@<ratio>x.webp`), and their entries by page."""
    folder.mkdir(parents=True, exist_ok=True)
    entries: dict[str, dict[str, object]] = {}
    for atlas in atlases:
        files = {}
        for ratio, data in atlas.webp.items():
            name = f"{atlas.page}@{ratio}x.webp"
            (folder / name).write_bytes(data)
            files[str(ratio)] = name
        entries[atlas.page] = {"frames": atlas.frames, "files": files}
    (folder / "atlases.json").write_text(json.dumps(entries, indent=1))
    return entries


def native_folder() -> Path:
    """The atlases for pygame (.cache/art/<fingerprint>/), built when missing."""
    folder = ROOT / ".cache" / "art" / fingerprint()
    if not (folder / "atlases.json").exists():
        write(build(), folder)
    return folder
