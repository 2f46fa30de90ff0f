"""docs/books.md states the Lab Riches constants a checker needs by value; they must be the
engine's (an outsider rebuilds and checks books from the document alone)."""

import re
from pathlib import Path

from engine.games import get
from engine.lab_riches import rules

BOOKS = (Path(__file__).resolve().parent.parent / "docs" / "books.md").read_text(encoding="utf-8")


def test_the_prize_box_amounts_are_the_engine_s() -> None:
    found = re.search(r"a Prize\s+Box shows one of ([\d, or]+) pence", BOOKS)
    assert found, "docs/books.md no longer lists the Prize Box amounts"
    amounts = tuple(int(n) for n in re.findall(r"\d+", found[1]))
    assert amounts == rules.PRIZE_BOX_AMOUNTS


def test_the_meter_boxes_are_the_engine_s() -> None:
    rows = re.findall(r"^  \| (\d) \| (\d+)(?:–(\d+))? \| (\d+) \|$", BOOKS, re.M)
    boxes = tuple((int(a), int(b or a), int(p)) for _box, a, b, p in rows)
    assert boxes == rules.METER_BOXES


def test_the_bonus_row_layouts_are_the_engine_s() -> None:
    rows = re.findall(r"^  \| (\d)(?: \((?:bottom|top)\))? \| ([a-z0-9, -]+) \|$", BOOKS, re.M)
    layouts = []
    for _row, cells in rows:
        layout = []
        for cell in cells.split(", "):
            kind, _, value = cell.partition(" ")
            layout.append((kind, int(value or 0)))
        layouts.append(tuple(layout))
    assert tuple(layouts) == rules.BONUS_ROW_LAYOUTS


def test_the_power_puck_shot_events_are_the_game_s() -> None:
    section = BOOKS[BOOKS.index("## £500K Power Puck Shot events") :]
    section = section[: section.index("\n## ", 1)]
    listed = re.findall(r"^\| `(\w+)` \|", section, flags=re.MULTILINE)
    assert tuple(listed) == get("power-puck-shot").event_types
