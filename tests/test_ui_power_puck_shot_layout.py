"""£500K Power Puck Shot's layout (engine/ui/power_puck_shot/layout.py) at common sizes: every
part inside the window and apart from the others, no band left empty on a tall phone, controls
big enough and text readable, the header's words and the meter's labels fitting."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import partial
from types import SimpleNamespace
from typing import Any

import pytest

from backends.canvas import BatchReader, CommandCanvas
from engine.outcome import Composition
from engine.power_puck_shot import rules
from engine.power_puck_shot.generator import build_book
from engine.power_puck_shot.replay import Replay
from engine.ui.flow import Flow
from engine.ui.motion import Motion
from engine.ui.power_puck_shot import meter, paint
from engine.ui.power_puck_shot.layout import MIN_TARGET, TALL_ROW, Layout, Rect, layout
from engine.ui.power_puck_shot.narrate import ARROW_NAMES
from tests.test_ui_power_puck_shot import LAYOUT_SIZES, MODEL, SIZE_IDS, Shell


# ---- 2. layout -------------------------------------------------------------------------------
def grown(rect: Rect, by: float) -> Rect:
    x, y, w, h = rect
    return x - by, y - by, w + 2 * by, h + 2 * by


def parts(lay: Layout) -> dict[str, Rect]:
    """Every part of the Main Game window that must not overlap another, as paint.py draws it:
    the grid with its cushions (10 px, and half the Bonus Game's 4 px stroke), the meter and the
    Prize Table with their frames (4 px, and half a 2 px stroke)."""
    cell = lay.cell
    return {
        "grid": grown((lay.grid_x, lay.grid_y, 4 * cell, 4 * cell), 12),
        "meter": grown(lay.meter, 5),
        "prize table": grown(lay.table, 5),
        **{f"arrow {k + 1}": rect for k, rect in enumerate(lay.arrows)},
        "pucks counter": lay.pucks,
        "howto": lay.howto,
        "rules": lay.rules,
        "sound": lay.sound,
        "speed": lay.speed,
    }


def inside(rect: Rect, width: float, height: float) -> bool:
    x, y, w, h = rect
    return x >= 0 and y >= 0 and x + w <= width and y + h <= height


def apart(a: Rect, b: Rect) -> bool:
    """True when two rectangles do not overlap (touching edges are apart)."""
    return a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=SIZE_IDS.get)
def test_every_part_is_inside_the_window_and_overlaps_no_other(size: tuple[int, int]) -> None:
    lay = layout(*size)
    found = parts(lay)
    assert [n for n, r in found.items() if not inside(r, *size)] == [], f"outside at {size}"
    pairs = itertools.combinations(found.items(), 2)
    assert [(a, b) for (a, ra), (b, rb) in pairs if not apart(ra, rb)] == [], f"overlap at {size}"
    below_header = [n for n in ("grid", "meter", "prize table") if not apart(lay.header, found[n])]
    assert below_header == [], f"under the header at {size}"


@pytest.mark.parametrize("size", [(390, 844), (412, 915), (360, 780), (360, 640)])
def test_a_tall_phone_leaves_no_band_empty_at_the_bottom(size: tuple[int, int]) -> None:
    """The grid of a phone in portrait is bound by its width: the height left over goes to the
    Prize Table's rows and the spaces between the parts, not to a band under the settings."""
    lay = layout(*size)
    lowest = max(y + h for _n, (_x, y, _w, h) in parts(lay).items())
    assert size[1] - lowest <= 12, f"{size[1] - lowest:.0f} px left at the bottom"
    assert lay.row("yellow")[3] >= min(TALL_ROW, size[1] * 0.032)


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=SIZE_IDS.get)
def test_controls_are_big_enough_and_text_readable(size: tuple[int, int]) -> None:
    lay = layout(*size)
    for name in ("howto", "rules", "sound", "speed", "pucks"):
        _x, _y, w, h = getattr(lay, name)
        assert w >= MIN_TARGET and h >= MIN_TARGET, name
    assert lay.speed[2] * 0.85 / (len("Faster animations: off") * 0.5) >= 10  # its label's px
    assert all(w >= MIN_TARGET and h >= MIN_TARGET for _x, _y, w, h in lay.arrows)
    assert all(lay.row(colour)[3] >= 16 for colour in rules.COLOURS)  # the Prize Table's rows
    _x, _y, _w, ah = lay.amount("yellow")
    assert ah * 0.62 >= 9  # the amounts' font (paint.table)
    assert lay.segment(0)[3] >= 16  # a meter segment holds '5 PRIZE PUCKS'
    assert lay.cell >= 40
    squares = [lay.slot(colour, k) for colour in rules.COLOURS for k in (0, 11)]
    assert all(s[2] >= 8 for s in squares)
    x, _y, w, _h = lay.table
    assert all(s[0] >= x and s[0] + s[2] <= x + w for s in squares)


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=SIZE_IDS.get)
def test_the_main_scene_places_its_controls_by_the_layout(size: tuple[int, int]) -> None:
    shell = Shell(size, [])
    shell.start()
    placed = {c.id: (c.x, c.y, c.w, c.h) for c in shell.app.scene.controls()}
    lay = layout(*size)
    expected = {f"shoot-{k}": rect for k, rect in enumerate(lay.arrows)}
    expected |= {"howto": lay.howto, "rules": lay.rules, "speed": lay.speed, "sound": lay.sound}
    assert placed == expected
    labels = [c.label for c in shell.app.scene.controls() if c.id.startswith("shoot-")]
    assert labels == [f"Shoot {name}" for name in ARROW_NAMES]
    assert labels[0] == "Shoot steep left" and labels[-1] == "Shoot steep right"


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=SIZE_IDS.get)
def test_a_bonus_game_s_awarded_pucks_wait_inside_the_window(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Model 3's Bonus Games can award several Pucks at once (seed 2138: 3 extra and 2 Power
    Pucks): those waiting beside the counter, or their '+N', stay inside the window."""
    book = build_book(MODEL, Composition(), (2138).to_bytes(16, "big"))
    replay = Replay(book)
    state = max(
        (replay.state_at(i) for i in range(len(book.events))),
        key=lambda s: (s.stage == "bonus", s.pending_extra + s.pending_power),
    )
    assert state.stage == "bonus" and state.pending_extra + state.pending_power == 5
    drawn: list[tuple[float, float]] = []  # (centre x, radius) of each puck icon
    texts: list[str] = []
    monkeypatch.setattr(paint.art, "puck", lambda _c, x, _y, s, _p=False: drawn.append((x, s / 2)))
    label = paint.art.label

    def labelled(c: Any, text: str, *args: Any, **kwargs: Any) -> None:
        texts.append(text)
        label(c, text, *args, **kwargs)

    monkeypatch.setattr(paint.art, "label", labelled)
    lay = layout(*size)
    moment = paint.Moment(state, state, None, 1.0, Motion(), 0.0, None)
    paint.counter(CommandCanvas(*size, lambda s, px, _f, _b: len(s) * px * EM), lay, moment)
    assert all(x - r >= 0 and x + r <= lay.width for x, r in drawn), (drawn, lay.width)
    waiting = [x for x, _ in drawn if x > lay.pucks[0] + lay.pucks[2]]
    shown = len(waiting) + sum(int(t[1:]) for t in texts if t.startswith("+"))
    assert shown == 5 + max(0, state.bonus_pucks_left - 6)


EM = 0.65  # Nunito 700 capitals, about


def text_boxes(draw: Callable[[CommandCanvas], None], size: tuple[int, int]) -> list[Rect]:
    """The boxes of the texts a painter draws, measured (and fitted by fit_text) at EM a
    character, as wide as the fonts' capitals, so words apart here are apart on screen."""
    canvas = CommandCanvas(*size, lambda s, px, _f, _b: len(s) * px * EM)
    draw(canvas)
    boxes = []
    for command in BatchReader().read(canvas.flush()):
        if command[0] == "text":
            text, x, y, px, align = command[1], command[2], command[3], command[4], command[8]
            w = len(text) * px * EM
            left = {"left": x, "center": x - w / 2, "right": x - w}[align]
            boxes.append((left, y - px / 2, w, px))
    return boxes


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=SIZE_IDS.get)
@pytest.mark.parametrize("pence", [0, 1500, 50_000])
def test_the_header_words_and_the_prize_pot_fit_apart(size: tuple[int, int], pence: int) -> None:
    """The title or the PRIZE POT panel, and the balance: each inside the header, apart."""
    lay = layout(*size)
    flow: Any = SimpleNamespace(balance=1_234_56, mode="play")
    flow.header_figures = partial(Flow.header_figures, flow)  # the session's, long ones
    flow.net_spend, flow.run_s = lambda: 1_234_56, lambda: 125 * 60.0
    state: Any = SimpleNamespace(stage="prize", pot=pence)  # what the header reads of a state
    prize_game = paint.Moment(state, state, None, 1.0, Motion(), 0.0, None)
    for mo in (None, prize_game):
        words = text_boxes(partial(paint.header, lay=lay, flow=flow, mo=mo), size)
        assert len(words) == (4 if mo else 3)
        assert all(inside(b, *lay.header[2:]) for b in words), (size, words)
        assert all(apart(a, b) for a, b in itertools.combinations(words, 2)), (size, words)
        assert all(b[3] >= 10 for b in words), (size, words)  # readable, once fitted
        if mo is not None:  # the PRIZE POT panel's words inside it
            x, y, w, h = lay.pot
            assert all(inside((bx - x, by - y, bw, bh), w, h) for bx, by, bw, bh in words[:2])


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=SIZE_IDS.get)
def test_the_meter_labels_fit_their_segments_and_can_be_read(size: tuple[int, int]) -> None:
    """'1 PRIZE PUCK' ... '5 PRIZE PUCKS' on the top five segments, each inside its segment, in
    one line, all at one size of 9 px or more (the Prize Table's rows are checked above)."""
    lay = layout(*size)
    state: Any = SimpleNamespace(meter=7)
    mo = paint.Moment(state, state, None, 1.0, Motion(), 0.0, None)
    words = text_boxes(lambda c: meter.meter(c, lay, mo), size)
    assert words
    assert all(b[3] >= 9 for b in words), (size, [round(b[3], 1) for b in words])
    assert len(words) == 5 and len({b[3] for b in words}) == 1  # one line each, all alike
    x, y, w, h = lay.meter
    assert all(inside((bx - x, by - y, bw, bh), w, h) for bx, by, bw, bh in words)
