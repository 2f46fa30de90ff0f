"""The Main Game window's layout at common screen sizes: every part inside the window, no two
overlapping, every control at least 44 × 44 px and every label big enough to read.

The parts are the layout's rectangles, as main.py, paint.py, meter.py and bonus.py draw them;
the last tests check that the scene's controls are those rectangles and render two 4:3 sizes
and a phone held sideways as PNGs.
"""

from __future__ import annotations

import itertools

import pytest

from backends.native import render_frames
from engine.lab_riches import rules
from engine.ui.games import first_scene
from engine.ui.input import Activate
from engine.ui.lab_riches import bonus
from engine.ui.lab_riches.layout import MIN_TARGET, Layout, Rect, layout
from tests.test_ui_lab_riches import ARTIFACTS, CASES, SCREENS, Shell, _png_steps, payload

LANDSCAPE = [(800, 600), (1024, 768), (1280, 720), (1280, 800), (1366, 768), (1440, 900),
             (1920, 1080), (2560, 1440), (844, 390), (740, 360), (667, 375)]  # fmt: skip
PORTRAIT = [(360, 640), (375, 667), (390, 844), (414, 896), (768, 1024), (820, 1180)]
VIEWPORTS = [pytest.param(size, id=f"{size[0]}x{size[1]}") for size in LANDSCAPE + PORTRAIT]
CONTROLS = {  # each control's longest label
    "go": "GO",
    "reveal": "REVEAL ALL",
    "howto": "HOW TO PLAY",
    "rules": "Rules and Prizes",
    "speed": "Faster animations: off",
    "sound": "Sound: off",
}
BOXES = {"goes": "GOES", "total_won": "TOTAL WON", "instant_wins": "INSTANT WINS"}
MIN_CELL = 40.0  # a grid square: its symbol, and the Prize Box beside its row
MIN_TEXT = 10.0  # px, a label's font once shrunk to fit its box
# Width of a character in em, a little over the fonts' own averages (Fredoka 700 mixed case
# about 0.46, Nunito 700 capitals about 0.65), so a label that passes here fits on screen.
EM_BUTTON, EM_TITLE = 0.5, 0.7
EM_AMOUNT = 0.57  # Fredoka 700's "£250K" (2.85 em), the widest a character of the meter's amounts


def parts(lay: Layout) -> dict[str, Rect]:
    """Every part of the Main Game window that must not overlap another."""
    grid_h = lay.grid_y + rules.ROWS * lay.cell - lay.top_row_y
    return {
        "header": lay.header,
        "meter": lay.meter,
        "top row and grid": (lay.grid_x, lay.top_row_y, rules.COLUMNS * lay.cell, grid_h),
        **{f"prize box {row + 1}": lay.prize_box(row) for row in range(rules.ROWS)},
        **{name: getattr(lay, name) for name in [*CONTROLS, *BOXES]},
    }


def inside(rect: Rect, width: float, height: float) -> bool:
    """True when the rectangle lies within the window."""
    x, y, w, h = rect
    return x >= 0 and y >= 0 and x + w <= width and y + h <= height


def apart(a: Rect, b: Rect) -> bool:
    """True when two rectangles do not overlap (touching edges are apart)."""
    return a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]


@pytest.mark.parametrize("size", VIEWPORTS)
def test_every_part_is_inside_the_window_and_overlaps_no_other(size: tuple[int, int]) -> None:
    lay = layout(*size)
    found = parts(lay)
    assert [n for n, r in found.items() if not inside(r, *size)] == [], f"outside at {size}"
    pairs = itertools.combinations(found.items(), 2)
    assert [(a, b) for (a, ra), (b, rb) in pairs if not apart(ra, rb)] == [], f"overlap at {size}"


@pytest.mark.parametrize("size", VIEWPORTS)
def test_controls_are_big_enough_to_press_and_labels_to_read(size: tuple[int, int]) -> None:
    lay = layout(*size)
    assert lay.cell >= MIN_CELL
    for name, label in CONTROLS.items():
        _x, _y, w, h = getattr(lay, name)
        assert w >= MIN_TARGET and h >= MIN_TARGET, name
        assert w * 0.85 / (len(label) * EM_BUTTON) >= MIN_TEXT, name  # as widgets.button fits it
    for name, title in BOXES.items():
        _x, _y, w, h = getattr(lay, name)
        assert h >= MIN_TARGET, name
        assert w * 0.9 / (len(title) * EM_TITLE) >= MIN_TEXT, name  # as common.label_box fits it


@pytest.mark.parametrize("size", VIEWPORTS)
def test_the_bonus_game_window_and_the_power_cable_fit(size: tuple[int, int]) -> None:
    lay = layout(*size)
    x, y, w, h = bonus.area(lay)
    drawn = (x - 6, y - 6, w + 12, h + 12)  # with its panel's edge, as bonus.draw draws it
    assert inside(drawn, *size)
    others = {n: r for n, r in parts(lay).items() if n in ("header", *CONTROLS, *BOXES)}
    assert [n for n, r in others.items() if not apart(drawn, r)] == [], f"Bonus Game at {size}"
    header_h = lay.header[3]
    assert all(0 <= px <= size[0] and header_h <= py <= size[1] for px, py in lay.cable)


@pytest.mark.parametrize("size", VIEWPORTS)
def test_the_main_scene_places_its_controls_by_the_layout(size: tuple[int, int]) -> None:
    shell = Shell(size, {"play_number": 1, "payload": payload([])})
    shell.frame()
    shell.press("play")
    shell.frame()
    assert shell.app.scene.name == "main"
    placed = {c.id: (c.x, c.y, c.w, c.h) for c in shell.app.scene.controls()}
    assert placed == {name: getattr(layout(*size), name) for name in CONTROLS}


@pytest.mark.parametrize(
    "size", [(1024, 768), (800, 600), (844, 390)], ids=["1024x768", "800x600", "844x390"]
)
@pytest.mark.parametrize("screen", ["main-start", "main-rest"])
def test_4_3_and_phone_landscape_screens_render_through_pygame(
    size: tuple[int, int], screen: str
) -> None:
    out = ARTIFACTS / f"native-{size[0]}x{size[1]}-{screen}.png"
    render_frames(
        first_scene({"game": "lab-riches"}),
        size,
        out,
        steps=_png_steps(CASES["instant"], SCREENS[screen]),
    )
    assert out.stat().st_size > 10_000  # a drawn scene, not a blank frame


@pytest.mark.parametrize("size", VIEWPORTS)
def test_the_rules_pages_back_is_not_where_next_was(size: tuple[int, int]) -> None:
    """A double tap on Next must not land on Back and turn the page back."""
    shell = Shell(size, {"play_number": 1, "payload": payload([])})
    shell.frame()
    shell.press("rules")
    (forward,) = [c for c in shell.app.scene.controls() if c.id == "next"]
    shell.frame(Activate("next"))
    (back,) = [c for c in shell.app.scene.controls() if c.id == "back"]
    assert apart((forward.x, forward.y, forward.w, forward.h), (back.x, back.y, back.w, back.h))


def test_a_meter_box_that_pays_nothing_does_not_glow_gold() -> None:
    from backends.canvas import BatchReader, CommandCanvas
    from engine.ui.lab_riches import art
    from engine.ui.lab_riches.meter import meter as draw_meter
    from engine.ui.motion import Motion

    lay = layout(1280, 720)
    boxes = {box: lay.meter_box(box) for box in range(len(rules.METER_BOXES))}
    for meter, paying in ((rules.METER_BOXES[0][0], False), (rules.METER_BOXES[1][0], True)):
        canvas = CommandCanvas(1280, 720, lambda s, px, f, b: len(s) * px * 0.55)
        state = type("S", (), {"meter": meter, "meter_box": 0 if not paying else 1})()
        draw_meter(canvas, lay, state, None, 1.0, Motion())  # type: ignore[arg-type]
        rects = [c for c in BatchReader().read(canvas.flush()) if c[0] == "rect"]
        lit = 1 if paying else 0
        x, y = boxes[lit][:2]
        box = next(r for r in rects if (r[1], r[2]) == (x + 1, y + 1))
        gold = getattr(box[5], "stops", ())  # a paying box is lit bright gold, not dark
        assert (art.GOLD in dict(gold).values()) is paying, (meter, box)


@pytest.mark.parametrize("size", VIEWPORTS)
def test_the_meter_s_amounts_are_big_enough_to_read(size: tuple[int, int]) -> None:
    from backends.canvas import BatchReader, CommandCanvas
    from engine.ui.lab_riches.meter import meter as draw_meter
    from engine.ui.motion import Motion

    canvas = CommandCanvas(*size, lambda s, px, f, b: len(s) * px * EM_AMOUNT)
    state = type("S", (), {"meter": 0, "meter_box": None})()
    draw_meter(canvas, layout(*size), state, None, 1.0, Motion())  # type: ignore[arg-type]
    texts = {c[1]: c[4] for c in BatchReader().read(canvas.flush()) if c[0] == "text"}
    assert len(texts) == len(rules.METER_BOXES) and any(
        t.endswith("K") or t == "£250,000" for t in texts
    )
    assert {t: px for t, px in texts.items() if px < MIN_TEXT} == {}


OVERLAY_SIZES = [(360, 640), (390, 844), (844, 390), (1280, 720), (800, 600)]


@pytest.mark.parametrize("size", OVERLAY_SIZES)
def test_the_messages_that_pause_the_play_lie_over_everything(size: tuple[int, int]) -> None:
    """'BONUS GAME ACTIVATED' and a Bonus Game's 'YOU HAVE WON' are drawn last: no counter, box
    or control is painted over them (on a phone the result lay under TOTAL WON and GO)."""
    from tests.test_ui_lab_riches import ReadingShell

    shell = ReadingShell(size, {"play_number": 1, "payload": payload(CASES["instant"])})
    seen = set()
    banner = "BONUSGAMEACTIVATED"  # the banner's letters, drawn one by one (letter spacing)
    for _ in shell.goes():
        texts = shell.texts
        if "ACTIVATED" in "".join(texts):
            assert "".join(texts).endswith(banner), texts[-len(banner) - 4 :]
            seen.add("banner")
        if "YOU HAVE WON" in texts:
            assert texts[-1] == "YOU HAVE WON", texts[-6:]
            drawn = shell.drawn
            at = next(i for i, c in enumerate(drawn) if c[0] == "text" and c[1] == "YOU HAVE WON")
            assert all(c[0] != "rect" for c in drawn[at:])  # nothing painted over it
            seen.add("result")
    assert seen == {"banner", "result"}
