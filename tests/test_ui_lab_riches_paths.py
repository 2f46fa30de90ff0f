"""The ways things fly on the Main Game window: extra goes to GOES and an Instant Prize to
INSTANT WINS never pass over a Prize Box (the flier would seem to show that box's amount) nor
over the Top Row (but the square the extra goes come from), at the phone and desktop sizes.

Each flight is drawn by paint.flying at many moments of its event, decoded from the batch
(backends/canvas.py) and laid out on the screen (translate and scale applied), and every shape
drawn, its outline included, is checked against the layout's rectangles (layout.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from backends.canvas import BatchReader, CommandCanvas
from engine.lab_riches import rules
from engine.ui.draw import IDENTITY, Matrix, scaling, then, transform, translation
from engine.ui.lab_riches import paint
from engine.ui.lab_riches.layout import Layout, Rect, layout
from engine.ui.motion import Motion
from tests.test_ui_lab_riches_layout import LANDSCAPE, PORTRAIT, apart, inside

REQUIRED = [(390, 844), (360, 640), (1280, 720), (1024, 768)]  # phones and desktops
SIZES = [pytest.param(size, id=f"{size[0]}x{size[1]}") for size in LANDSCAPE + PORTRAIT]
FLIGHTS: dict[str, dict[str, Any]] = {
    "instant": {"type": "instant", "pence": 500, "index": 8},
    "extra goes from the bonus game": {"type": "extra_goes", "source": "bonus", "count": 3},
    **{
        f"extra goes from top row square {col + 1}": {
            "type": "extra_goes", "source": "top", "col": col, "count": 1,
        }
        for col in range(rules.COLUMNS)
    },
}  # fmt: skip
STEPS = 240  # moments drawn over an event


def shapes(lay: Layout, event: dict[str, Any], p: float, m: Motion) -> list[tuple[Rect, float]]:
    """The rectangles on the screen (and their opacity) of what paint.flying draws at p."""
    canvas = CommandCanvas(lay.width, lay.height, lambda s, px, _f, _b: len(s) * px * 0.55)
    paint.flying(canvas, lay, None, event, p, m)  # type: ignore[arg-type]  # (no state read)
    out: list[tuple[Rect, float]] = []
    matrix: Matrix = IDENTITY
    alpha = 1.0
    stack: list[tuple[Matrix, float]] = []
    for name, *args in BatchReader().read(canvas.flush()):
        if name == "save":
            stack.append((matrix, alpha))
        elif name == "restore":
            matrix, alpha = stack.pop()
        elif name == "translate":
            matrix = then(matrix, translation(args[0], args[1]))
        elif name == "scale":
            matrix = then(matrix, scaling(args[0], args[1]))
        elif name == "alpha":
            alpha *= args[0]
        elif name in ("rect", "circle"):
            if name == "rect":
                x, y, w, h, _fill, stroke, width = args[:7]
            else:
                cx, cy, r, _fill, stroke, width = args[:6]
                x, y, w, h = cx - r, cy - r, 2 * r, 2 * r
            pad = width / 2 if stroke else 0.0  # the outline, half outside the shape
            x0, y0 = transform(matrix, x - pad, y - pad)
            x1, y1 = transform(matrix, x + w + pad, y + h + pad)
            out.append(((min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0)), alpha))
    return out


def forbidden(lay: Layout, event: dict[str, Any]) -> dict[str, Rect]:
    """The Prize Boxes and the Top Row's squares (all but the one the extra goes come from)."""
    found = {f"prize box {row + 1}": lay.prize_box(row) for row in range(rules.ROWS)}
    for col in range(rules.COLUMNS):
        if not (event.get("source") == "top" and event.get("col") == col):
            x = lay.grid_x + col * lay.cell
            found[f"top row square {col + 1}"] = (x, lay.top_row_y, lay.cell, lay.cell)
    return found


def crossings(lay: Layout, event: dict[str, Any]) -> list[tuple[float, str]]:
    """(progress, what) wherever the flier, drawn over its whole event, lies over a Prize Box
    or the Top Row."""
    found = forbidden(lay, event)
    hits = []
    for k in range(STEPS + 1):
        p = k / STEPS
        for rect, _alpha in shapes(lay, event, p, Motion(reduced=False, seconds=1.0)):
            hits += [(p, name) for name, box in found.items() if not apart(rect, box)]
    return hits


def test_the_sizes_asked_for_are_checked() -> None:
    assert all(size in LANDSCAPE + PORTRAIT for size in REQUIRED)


@pytest.mark.parametrize("flight", FLIGHTS)
@pytest.mark.parametrize("size", SIZES)
def test_nothing_flies_over_a_prize_box_or_the_top_row(size: tuple[int, int], flight: str) -> None:
    lay = layout(*size)
    event = FLIGHTS[flight]
    assert crossings(lay, event) == [], f"{flight} at {size}"
    # ... and it does fly: from where it starts, inside the window, to its box.
    box = lay.goes if event["type"] == "extra_goes" else lay.instant_wins
    end = (box[0] + box[2] / 2, box[1] + box[3] / 2)
    route = paint.flight_route(lay, event)
    assert route[-1] == end and paint.flight(lay, event, 1.0) == pytest.approx(end)
    for k in range(STEPS + 1):
        for rect, _alpha in shapes(lay, event, k / STEPS, Motion(False, 1.0)):
            assert inside(rect, lay.width, lay.height), (k / STEPS, rect)


@pytest.mark.parametrize("flight", ["instant", "extra goes from the bonus game"])
@pytest.mark.parametrize("size", REQUIRED, ids=str)
def test_the_check_is_not_blind(
    size: tuple[int, int], flight: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The straight way from the middle of the window to the box, as things flew before, passes
    over a Prize Box on a desktop: the check above finds it."""
    lay = layout(*size)
    event = FLIGHTS[flight]
    box = lay.goes if event["type"] == "extra_goes" else lay.instant_wins
    straight = ((lay.width / 2, lay.height / 2), (box[0] + box[2] / 2, box[1] + box[3] / 2))
    monkeypatch.setattr(paint, "flight_route", lambda _lay, _event: straight)
    hits = crossings(lay, event)
    assert bool(hits) == (not lay.portrait), hits[:3]
    assert all(name.startswith("prize box") for _p, name in hits)


@pytest.mark.parametrize("flight", FLIGHTS)
@pytest.mark.parametrize("size", REQUIRED, ids=str)
def test_with_reduced_motion_it_fades_in_at_its_box(size: tuple[int, int], flight: str) -> None:
    lay = layout(*size)
    event = FLIGHTS[flight]
    reduced = Motion(reduced=True, seconds=1.0)
    at_rest = [rect for rect, _a in shapes(lay, event, 1.0, reduced)]
    fades = []
    for k in range(STEPS + 1):
        drawn = shapes(lay, event, k / STEPS, reduced)
        assert [rect for rect, _a in drawn] == at_rest  # it stays where it lands
        fades.append(drawn[0][1])
    assert fades[0] == 0.0 and fades[-1] == 1.0 and fades == sorted(fades)


SEGMENTS: dict[str, dict[str, Any]] = {
    "segments from the bonus game": {"type": "segments", "source": "bonus", "count": 3},
    **{
        f"segments from top row square {col + 1}": {
            "type": "segments", "source": "top", "col": col, "count": 2,
        }
        for col in range(rules.COLUMNS)
    },
}  # fmt: skip


@pytest.mark.parametrize("flight", SEGMENTS)
@pytest.mark.parametrize("size", SIZES)
def test_segments_go_by_the_power_cable_over_no_prize_box_or_top_row(
    size: tuple[int, int], flight: str
) -> None:
    """A number of segments moves to the Power Cable, right of the Play Window (the
    procedure), then a flash runs along the cable to the meter: from the Bonus Game it passes
    under the Prize Boxes to the cable's foot, from the Top Row straight up to its run over the
    top; neither the number nor the flash lies over a Prize Box or another Top Row square."""
    lay = layout(*size)
    event = SEGMENTS[flight]
    assert crossings(lay, event) == [], f"{flight} at {size}"
    route, joined = paint.cable_route(lay, event)
    assert 0 < joined < 1
    assert route[-1] == (lay.meter[0] + lay.meter[2] / 2, lay.meter[1] + lay.meter[3])
    assert all(point in route for point in lay.cable[3:])  # along the cable to the meter
    for k in range(STEPS + 1):
        for rect, _alpha in shapes(lay, event, k / STEPS, Motion(False, 1.0)):
            assert inside(rect, lay.width, lay.height), (k / STEPS, rect)


@pytest.mark.parametrize("size", REQUIRED, ids=str)
def test_the_segments_check_is_not_blind(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As segments from the Bonus Game went before (the number straight from the middle of the
    window to the cable's top, then along it), they passed over Prize Boxes at every size."""
    lay = layout(*size)
    event = SEGMENTS["segments from the bonus game"]
    end = (lay.meter[0] + lay.meter[2] / 2, lay.meter[1] + lay.meter[3])
    before = ((lay.width / 2, lay.height / 2), *lay.cable[1:], end)
    monkeypatch.setattr(paint, "cable_route", lambda _lay, _event: (before, 1.0))
    hits = crossings(lay, event)
    assert any(name.startswith("prize box") for _p, name in hits), hits[:3]
