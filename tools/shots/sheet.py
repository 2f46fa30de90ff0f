"""A contact sheet: one game's shots of one build in a labelled grid (rows are the shots,
columns the window sizes), every cell the same height, saved as WebP under a byte budget."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from tools.shots.plan import LABELS, Size

CELL_HEIGHT = 200  # px of every cell: each shot scaled to it, its width by its window's ratio
LABEL_WIDTH = 190  # the rows' labels, left
TITLE_HEIGHT = 34
HEADER_HEIGHT = 26  # the columns' labels, under the title
GAP = 8
BUDGET = 400_000  # bytes a sheet may weigh
QUALITIES = (82, 72, 62, 52, 42)  # WebP qualities tried in turn until the sheet fits
BACKGROUND = (24, 24, 28)
INK = (235, 235, 240)
FAINT = (150, 150, 160)
LANCZOS = Image.Resampling.LANCZOS


@dataclass(frozen=True)
class Grid:
    """Where the cells of a sheet go: each column's left edge and width, each row's top."""

    lefts: tuple[int, ...]
    widths: tuple[int, ...]
    tops: tuple[int, ...]
    width: int
    height: int


def grid(sizes: tuple[Size, ...], rows: int) -> Grid:
    """The layout of a sheet of `rows` shots at these sizes."""
    widths = tuple(round(CELL_HEIGHT * size.width / size.height) for size in sizes)
    lefts, x = [], LABEL_WIDTH + GAP
    for width in widths:
        lefts.append(x)
        x += width + GAP
    first = TITLE_HEIGHT + HEADER_HEIGHT + GAP
    tops = tuple(first + row * (CELL_HEIGHT + GAP) for row in range(rows))
    return Grid(tuple(lefts), widths, tops, x, first + rows * (CELL_HEIGHT + GAP))


def draw(title: str, sizes: tuple[Size, ...], rows: dict[str, dict[str, Path]]) -> Image.Image:
    """The sheet: `rows` maps each shot (in order) to its PNG by size name; a missing one is a
    cell saying so."""
    layout = grid(sizes, len(rows))
    sheet = Image.new("RGB", (layout.width, layout.height), BACKGROUND)
    pen = ImageDraw.Draw(sheet)
    pen.text((GAP, 7), title, fill=INK, font=ImageFont.load_default(size=20))
    small = ImageFont.load_default(size=14)
    for left, size in zip(layout.lefts, sizes, strict=True):
        pen.text((left, TITLE_HEIGHT + 4), size.label, fill=FAINT, font=small)
    for top, (shot, cells) in zip(layout.tops, rows.items(), strict=True):
        pen.text((GAP, top + CELL_HEIGHT // 2 - 8), LABELS[shot], fill=INK, font=small)
        for left, width, size in zip(layout.lefts, layout.widths, sizes, strict=True):
            path = cells.get(size.name)
            if path is None:
                pen.rectangle((left, top, left + width - 1, top + CELL_HEIGHT - 1), outline=FAINT)
                pen.text((left + 6, top + 6), "not shot", fill=FAINT, font=small)
                continue
            with Image.open(path) as shot_image:
                cell = shot_image.convert("RGB").resize((width, CELL_HEIGHT), LANCZOS)
            sheet.paste(cell, (left, top))
    return sheet


def save(sheet: Image.Image, out: Path) -> int:
    """Write the sheet as WebP at the best quality of QUALITIES within BUDGET (the lowest if
    none fits); its size in bytes."""
    for quality in QUALITIES:
        data = io.BytesIO()
        sheet.save(data, "WEBP", quality=quality, method=6)
        if data.tell() <= BUDGET:
            break
    out.write_bytes(data.getvalue())
    return len(data.getvalue())
