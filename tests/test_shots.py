"""`build.py shots` (tools/shots/): the plays chosen from each game's prize table, the contact
sheet's grid and labels, and one real shot in headless Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser

from engine import games
from engine.outcome import Composition, Part
from tools.shots import camera, sheet
from tools.shots.plan import DURING, LABELS, SHOTS, SIZES, GamePlan, Play, cover, end_shot, plan


@pytest.mark.parametrize("game", [g.id for g in games.on_sale()])
def test_each_game_s_plays_give_its_shots_from_its_own_prize_table(game: str) -> None:
    spec = games.get(game)
    table = spec.table
    chosen = plan(spec)
    features = spec.load_statistics().FEATURES
    during = {shot for shot, (feature, _) in DURING.items() if feature in features}
    assert chosen.shots == tuple(
        s for s in SHOTS if s not in DURING or s in during
    )  # every end, and each feature the game's statistics count
    in_table = {c for tier in table.tiers for c, _ in tier.compositions}
    for play in chosen.plays:
        assert play.composition in in_table
        assert play.prize_pence == play.composition.total
        assert play.end == end_shot(play.prize_pence, table.price_pence, table.top_prize_pence)
    by_end = {play.end: play.prize_pence for play in chosen.plays if play.end}
    assert by_end["money-back"] == table.price_pence
    assert 10 * table.price_pence <= by_end["big-win"] < table.top_prize_pence
    assert by_end["top-prize"] == table.top_prize_pence
    assert len(chosen.plays) <= 4  # the features ride along with an end where one allows


def test_end_shot() -> None:
    assert end_shot(300, 300, 9000) == "money-back"
    assert end_shot(2999, 300, 9000) is None
    assert end_shot(3000, 300, 9000) == "big-win"
    assert end_shot(9000, 300, 9000) == "top-prize"
    assert end_shot(0, 300, 9000) is None


def test_cover_takes_the_play_giving_most_then_the_smallest_prize() -> None:
    a, b, c = (Composition((Part("row", pence),)) for pence in (300, 500, 5000))
    found = [
        (a, 300, frozenset({"money-back"})),
        (b, 500, frozenset({"bonus"})),
        (c, 5000, frozenset({"bonus", "big-win"})),
    ]
    plays = cover(found)
    assert [p.composition for p in plays] == [c, a]
    assert plays[0].shots == ("bonus", "big-win") and plays[0].end == "big-win"
    assert plays[0].phrases() == (("bonus", "BONUS GAME"),)
    assert cover([]) == ()


def test_the_grid_gives_each_size_its_own_ratio_in_order_without_overlap() -> None:
    layout = sheet.grid(SIZES, 7)
    for width, size in zip(layout.widths, SIZES, strict=True):
        assert abs(width / sheet.CELL_HEIGHT - size.width / size.height) < 0.01
    ends = [left + width for left, width in zip(layout.lefts, layout.widths, strict=True)]
    assert layout.lefts[0] >= sheet.LABEL_WIDTH
    assert all(end < left for end, left in zip(ends, layout.lefts[1:], strict=False))
    steps = zip(layout.tops, layout.tops[1:], strict=False)
    assert all(b - a >= sheet.CELL_HEIGHT for a, b in steps)
    assert layout.width > ends[-1] and layout.height > layout.tops[-1] + sheet.CELL_HEIGHT


def test_the_sheet_puts_each_shot_in_its_cell_and_fits_the_budget(tmp_path: Path) -> None:
    colours = {"desktop": (200, 30, 30), "phone": (30, 200, 30), "landscape": (30, 30, 200)}
    rows: dict[str, dict[str, Path]] = {"splash": {}, "top-prize": {}}
    for name, colour in colours.items():
        size = next(s for s in SIZES if s.name == name)
        path = tmp_path / f"{name}.png"
        Image.new("RGB", (size.width * size.scale, size.height * size.scale), colour).save(path)
        rows["top-prize"][name] = path
    drawn = sheet.draw("Test - abc", SIZES, rows)
    layout = sheet.grid(SIZES, 2)
    assert drawn.size == (layout.width, layout.height)
    for left, width, size in zip(layout.lefts, layout.widths, SIZES, strict=True):
        middle = (left + width // 2, layout.tops[1] + sheet.CELL_HEIGHT // 2)
        assert drawn.getpixel(middle) == colours.get(size.name, sheet.BACKGROUND)
        splash = (left + width // 2, layout.tops[0] + sheet.CELL_HEIGHT // 2)
        assert drawn.getpixel(splash) == sheet.BACKGROUND  # not shot: an empty frame
    label = drawn.crop((0, layout.tops[1], sheet.LABEL_WIDTH, layout.tops[1] + sheet.CELL_HEIGHT))
    assert len(label.getcolors(1_000_000) or []) > 1  # the row's label ("Top prize") is written
    assert LABELS["top-prize"] == "Top prize"
    out = tmp_path / "sheet.webp"
    weight = sheet.save(drawn, out)
    assert weight == out.stat().st_size <= sheet.BUDGET
    with Image.open(out) as read:
        assert read.format == "WEBP" and read.size == drawn.size


def test_one_real_shot_at_the_phone_size(browser: Browser, server: str, tmp_path: Path) -> None:
    game = games.on_sale()[0]
    phone = next(s for s in SIZES if s.name == "phone")
    chosen = GamePlan(game, (Play(Composition(), 0, ()),))
    out = tmp_path / "splash.png"
    taken = camera.photograph(browser, server, chosen, phone, {"splash": out})
    assert taken == {"splash": out}
    with Image.open(out) as shot:
        assert shot.size == (phone.width * phone.scale, phone.height * phone.scale)
        assert len(shot.convert("RGB").getcolors(1_000_000) or []) > 50  # a drawn splash
