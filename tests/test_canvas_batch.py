"""The browser canvas's batch format: decoded back, it must be exactly the calls made."""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any

import pytest

from backends import canvas as batch_format
from backends.canvas import Batch, BatchReader, CommandCanvas
from engine.ui.app import App
from engine.ui.draw import Align, Baseline, Font, LinearGradient, Paint, Point
from engine.ui.games import first_scene
from engine.ui.input import Activate
from tests.test_ui_lab_riches import Shell, payload

GOLD = LinearGradient(0, 0, 0, 100, ((0.0, "#ffd54a"), (1.0, "#c78a00")))


def measure(s: str, px: float, family: str, bold: bool) -> float:
    """A stand-in for the browser's text measurement."""
    return len(s) * px * 0.55


class Recorder:
    """A Canvas that keeps each call as [name, *args], in the form BatchReader gives back."""

    def __init__(self, inner: CommandCanvas) -> None:
        self.inner = inner
        self.calls: list[list[Any]] = []

    @property
    def width(self) -> float:
        """Logical width."""
        return self.inner.width

    @property
    def height(self) -> float:
        """Logical height."""
        return self.inner.height

    def clear(self, paint: Paint) -> None:
        """Record, then draw."""
        self.calls.append(["clear", paint])
        self.inner.clear(paint)

    def rect(self, x: float, y: float, w: float, h: float, **kw: Any) -> None:
        """Record, then draw."""
        args = [kw.get("fill"), kw.get("stroke"), kw.get("line_width", 1.0), kw.get("radius", 0.0)]
        self.calls.append(["rect", x, y, w, h, *args])
        self.inner.rect(x, y, w, h, **kw)

    def circle(self, cx: float, cy: float, r: float, **kw: Any) -> None:
        """Record, then draw."""
        args = [kw.get("fill"), kw.get("stroke"), kw.get("line_width", 1.0)]
        self.calls.append(["circle", cx, cy, r, *args])
        self.inner.circle(cx, cy, r, **kw)

    def path(self, points: Sequence[Point], **kw: Any) -> None:
        """Record, then draw."""
        args = [kw.get("fill"), kw.get("stroke"), kw.get("line_width", 1.0)]
        pts = [(float(x), float(y)) for x, y in points]
        self.calls.append(["path", pts, *args, kw.get("closed", True)])
        self.inner.path(points, **kw)

    def text(self, s: str, x: float, y: float, font: Font, **kw: Any) -> None:
        """Record, then draw."""
        fill, align, base = kw.get("fill", "#ffffff"), kw.get("align", "center"), kw.get("baseline")
        look = [font.size, font.family, font.bold, fill, align, base or "middle"]
        self.calls.append(["text", s, x, y, *look])
        self.inner.text(s, x, y, font, **kw)

    def measure(self, s: str, font: Font) -> float:
        """Not drawing: not recorded."""
        return self.inner.measure(s, font)

    def save(self) -> None:
        """Record, then draw."""
        self.calls.append(["save"])
        self.inner.save()

    def restore(self) -> None:
        """Record, then draw."""
        self.calls.append(["restore"])
        self.inner.restore()

    def translate(self, dx: float, dy: float) -> None:
        """Record, then draw."""
        self.calls.append(["translate", dx, dy])
        self.inner.translate(dx, dy)

    def scale(self, sx: float, sy: float) -> None:
        """Record, then draw."""
        self.calls.append(["scale", sx, sy])
        self.inner.scale(sx, sy)

    def rotate(self, radians: float) -> None:
        """Record, then draw."""
        self.calls.append(["rotate", radians])
        self.inner.rotate(radians)

    def alpha(self, a: float) -> None:
        """Record, then draw."""
        self.calls.append(["alpha", a])
        self.inner.alpha(a)

    def clip(self, x: float, y: float, w: float, h: float) -> None:
        """Record, then draw."""
        self.calls.append(["clip", x, y, w, h])
        self.inner.clip(x, y, w, h)

    def image(self, key: str, x: float, y: float, w: float, h: float) -> None:
        """Record, then draw."""
        self.calls.append(["image", key, x, y, w, h])
        self.inner.image(key, x, y, w, h)


def test_every_primitive_round_trips() -> None:
    canvas = CommandCanvas(320, 200, measure)
    canvas.clear(GOLD)
    canvas.rect(1, 2.5, 30, 40, fill="#102030", stroke="#ffffff", line_width=2, radius=6)
    canvas.rect(0, 0, 5, 5, stroke="rgba(0,0,0,0.5)")
    canvas.circle(10, 20, 7.25, fill=GOLD)
    canvas.path([(0, 0), (10, 0), (5, 8.5)], fill="#ff0000", closed=True)
    canvas.path([(1, 1), (2, 3)], stroke="#00ff00", line_width=3, closed=False)
    canvas.save()
    canvas.translate(3, -4)
    canvas.scale(0.5, 2)
    canvas.rotate(1.25)
    canvas.alpha(0.4)
    canvas.clip(0, 0, 100, 50)
    canvas.text("£1,000", 50, 60, Font(24.32, "display", True), fill="#ffd54a", align="left")
    canvas.image("lab-riches/flask", 4, 5.5, 64, 48.25)
    canvas.restore()
    assert BatchReader().read(canvas.flush()) == [
        ["clear", GOLD],
        ["rect", 1, 2.5, 30, 40, "#102030", "#ffffff", 2, 6],
        ["rect", 0, 0, 5, 5, None, "rgba(0,0,0,0.5)", 1, 0],
        ["circle", 10, 20, 7.25, GOLD, None, 1],
        ["path", [(0, 0), (10, 0), (5, 8.5)], "#ff0000", None, 1, True],
        ["path", [(1, 1), (2, 3)], None, "#00ff00", 3, False],
        ["save"],
        ["translate", 3, -4],
        ["scale", 0.5, 2],
        ["rotate", 1.25],
        ["alpha", 0.4],
        ["clip", 0, 0, 100, 50],
        ["text", "£1,000", 50, 60, 24.32, "display", True, "#ffd54a", "left", "middle"],
        ["image", "lab-riches/flask", 4, 5.5, 64, 48.25],
        ["restore"],
    ]


def test_the_table_sends_each_entry_once_and_restarts_when_full(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    canvas, reader = CommandCanvas(100, 100, measure), BatchReader()
    canvas.rect(0, 0, 1, 1, fill="#111111", stroke="#222222")
    first = canvas.flush()
    assert (first.base, first.added) == (0, ["#111111", "#222222"])
    assert first.table_json() == {"base": 0, "add": ["#111111", "#222222"]}
    reader.read(first)
    canvas.clear(GOLD)
    canvas.rect(0, 0, 1, 1, fill="#222222")
    second = canvas.flush()
    assert (second.base, second.added) == (2, [GOLD])
    assert second.table_json()["add"] == [
        {"g": [0, 0, 0, 100, [[0.0, "#ffd54a"], [1.0, "#c78a00"]]]}
    ]
    assert reader.read(second) == [["clear", GOLD], ["rect", 0, 0, 1, 1, "#222222", None, 1, 0]]
    with pytest.raises(ValueError, match="out of step"):
        BatchReader().read(second)  # a reader that missed the first frame
    monkeypatch.setattr(batch_format, "TABLE_LIMIT", 2)
    canvas.rect(0, 0, 1, 1, fill="#333333")
    assert canvas.flush().base == 3  # the frame that overflows is still whole
    canvas.rect(0, 0, 1, 1, fill="#111111")
    restarted = canvas.flush()
    assert (restarted.base, restarted.added) == (0, ["#111111"])
    assert reader.read(restarted) == [["rect", 0, 0, 1, 1, "#111111", None, 1, 0]]


@pytest.mark.parametrize(
    ("numbers", "error"),
    [
        ([99.0], "unknown drawing opcode 99.0 at 0"),
        ([7.0, 2.5], "unknown drawing opcode 2.5 at 1"),
        ([float("nan")], "unknown drawing opcode nan"),
        ([2.0, 1, 2, 3], "last command \\(rect\\) is cut short"),
        ([4.0, 3, -1, -1, 1, 1, 0, 0, 1, 1], "last path is cut short"),
    ],
)
def test_a_malformed_batch_is_an_error(numbers: list[float], error: str) -> None:
    with pytest.raises(ValueError, match=error):
        BatchReader().read(Batch(array("d", numbers), 0, []))


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)])
def test_real_frames_decode_to_the_calls_the_scenes_made(size: tuple[int, int]) -> None:
    shell = Shell(
        size, {"play_number": 1, "payload": payload([{"feature": "instant", "pence": 500}])}
    )
    recorder, reader = Recorder(shell.canvas), BatchReader()
    shell.app = App(first_scene({"fast": "1", "game": "lab-riches"}), *size)
    checked = 0
    for i in range(240):
        enabled = {c.id for c in shell.app.scene.controls() if c.enabled}
        press = [Activate(c) for c in ("play", "go") if c in enabled][:1]
        shell.now += 1000 / 60
        recorder.calls = []
        result = shell.app.frame(shell.now, [*shell.pending, *press], recorder)  # type: ignore[arg-type]
        shell.pending = [shell.answer(r) for r in result.requests]
        if result.drew:
            assert reader.read(shell.canvas.flush()) == recorder.calls, f"frame {i}"
            checked += len(recorder.calls)
    assert checked > 50_000  # whole busy frames, not a blank screen


def test_text_defaults_and_types_survive() -> None:
    canvas = CommandCanvas(10, 10, measure)
    align: Align = "right"
    baseline: Baseline = "top"
    canvas.text("a", 1, 2, Font(10), align=align, baseline=baseline)
    canvas.text("b", 1, 2, Font(12, "display"))
    assert BatchReader().read(canvas.flush()) == [
        ["text", "a", 1, 2, 10, "body", False, "#ffffff", "right", "top"],
        ["text", "b", 1, 2, 12, "display", False, "#ffffff", "center", "middle"],
    ]
