"""The drawing opcodes, one set in three places: backends/canvas.py (the source of truth),
web/shell/js/canvas.js (which replays them) and docs/drawing.md's table. An op gained, lost
or renumbered on one side, or an argument count changed, fails here."""

from __future__ import annotations

import json
import math
import re
import subprocess
from pathlib import Path
from typing import Any

from backends import canvas as batch_format
from backends.canvas import NAMES, BatchReader, CommandCanvas
from engine.ui.draw import Canvas, Font, LinearGradient
from tests.node import node as node_binary

ROOT = Path(__file__).resolve().parent.parent
SHELL_CANVAS = ROOT / "web" / "shell" / "js" / "canvas.js"
GOLD = LinearGradient(0, 0, 0, 100, ((0.0, "#ffd54a"), (1.0, "#c78a00")))
PYTHON_OPS = {name: op for op, (name, _count) in NAMES.items()}


def test_python_s_opcodes_are_the_drawing_interface_s_primitives() -> None:
    primitives = {
        name
        for name, value in vars(Canvas).items()
        if callable(value) and not name.startswith("_") and name != "measure"
    }
    assert set(PYTHON_OPS) == primitives
    assert {getattr(batch_format, name.upper()) for name in PYTHON_OPS} == set(NAMES)


def test_the_shell_numbers_every_opcode_as_python_does() -> None:
    declared = re.search(r"\nconst (CLEAR = .*?);", SHELL_CANVAS.read_text(), re.DOTALL)
    assert declared, "canvas.js declares its opcodes in one `const CLEAR = 1, ...;`"
    shell = {name.lower(): int(n) for name, n in re.findall(r"([A-Z]+) = (\d+)", declared[1])}
    assert shell == PYTHON_OPS


def test_the_docs_table_numbers_every_opcode_as_python_does() -> None:
    text = (ROOT / "docs" / "drawing.md").read_text()
    documented: dict[str, int] = {}
    for numbers, names in re.findall(r"^\| ([\d, ]+) \| ([a-z, ]+) \|", text, re.MULTILINE):
        for n, name in zip(numbers.split(", "), names.split(", "), strict=True):
            documented[name] = int(n)
    assert documented == PYTHON_OPS


def every_op(canvas: CommandCanvas) -> None:
    """One call of each primitive (a rect and a path both ways), every number distinct."""
    canvas.clear("#102030")
    canvas.rect(1, 2, 3, 4, fill=GOLD, stroke="#ff0000", line_width=2, radius=5)
    canvas.rect(6, 7, 8, 9, fill="#00ff00")
    canvas.circle(10, 11, 12, stroke="#0000ff", line_width=3)
    canvas.path([(13, 14), (15, 16), (17, 18)], fill="#123456")
    canvas.path([(19, 20), (21, 22)], stroke="#654321", line_width=4, closed=False)
    canvas.text("GO", 23, 24, Font(25, "display", True), fill="#abcdef", align="left",
                baseline="top")  # fmt: skip
    canvas.save()
    canvas.translate(30, 31)
    canvas.scale(2, 3)
    canvas.rotate(0.5)
    canvas.alpha(0.25)
    canvas.clip(32, 33, 34, 35)
    canvas.image("lobby/card", 39, 40, 41, 42)
    canvas.image("not/loaded", 43, 44, 45, 46)  # a key the shell has no picture for: nothing
    canvas.restore()
    canvas.text("1", 36, 37, Font(38, "body", False))


GOLD_SEEN = {"gradient": 0, "stops": [[0.0, "#ffd54a"], [1.0, "#c78a00"]]}
# What canvas.js does on a 2D context for each command of every_op, in order.
EXPECTED: list[list[Any]] = [
    ["createLinearGradient", 0, 0, 0, 100],  # the table's gradient, made once
    ["setTransform", 1, 0, 0, 1, 0, 0], ["set", "globalAlpha", 1],
    ["set", "fillStyle", "#102030"], ["fillRect", 0, 0, 320, 200],
    ["beginPath"], ["roundRect", 1, 2, 3, 4, 5], ["set", "fillStyle", GOLD_SEEN], ["fill"],
    ["set", "strokeStyle", "#ff0000"], ["set", "lineWidth", 2], ["stroke"],
    ["beginPath"], ["rect", 6, 7, 8, 9], ["set", "fillStyle", "#00ff00"], ["fill"],
    ["beginPath"], ["arc", 10, 11, 12, 0, 2 * math.pi],
    ["set", "strokeStyle", "#0000ff"], ["set", "lineWidth", 3], ["stroke"],
    ["beginPath"], ["moveTo", 13, 14], ["lineTo", 15, 16], ["lineTo", 17, 18], ["closePath"],
    ["set", "fillStyle", "#123456"], ["fill"],
    ["beginPath"], ["moveTo", 19, 20], ["lineTo", 21, 22],
    ["set", "strokeStyle", "#654321"], ["set", "lineWidth", 4], ["stroke"],
    ["set", "font", ["700 ", "25", "Lab Display"]], ["set", "fillStyle", "#abcdef"],
    ["set", "textAlign", "left"], ["set", "textBaseline", "top"], ["fillText", "GO", 23, 24],
    ["save"], ["translate", 30, 31], ["scale", 2, 3], ["rotate", 0.5],
    ["set", "globalAlpha", 0.25],
    ["beginPath"], ["rect", 32, 33, 34, 35], ["clip"],
    ["drawImage", {"atlas": "lobby"}, 2 * 3, 2 * 4, 2 * 5, 2 * 6, 39, 40, 41, 42], ["restore"],
    ["set", "font", ["", "38", "Lab Body"]], ["set", "fillStyle", "#ffffff"],
    ["set", "textAlign", "center"], ["set", "textBaseline", "middle"], ["fillText", "1", 36, 37],
]  # fmt: skip


def font_seen(value: str) -> list[str]:
    """A CSS font as (weight, size, first family): the rest is the shell's fallback list."""
    match = re.match(r"(700 )?([\d.]+)px '([^']+)'", value)
    assert match, value
    return [match[1] or "", match[2], match[3]]


def replay_in_the_shell(numbers: list[float], table: dict[str, Any]) -> dict[str, Any]:
    """Run canvas.js's drawFrame on the batch in Node; its context's calls, and any error."""
    node = node_binary()
    # One atlas at 2 px a logical px: "lobby/card" is its frame (3, 4, 5, 6) in logical px.
    pictures = {"atlas": "lobby", "frames": {"lobby/card": [3, 4, 5, 6]}, "ratio": 2}
    request = {"width": 320, "height": 200, "table": table, "numbers": numbers, **pictures}
    done = subprocess.run(
        [node, str(ROOT / "tests" / "canvas_replay.mjs")],
        input=json.dumps(request), capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    for call in out["calls"]:
        if call[:2] == ["set", "font"]:
            call[2] = font_seen(call[2])
    return out


def test_the_shell_replays_every_opcode_as_python_records_it() -> None:
    canvas = CommandCanvas(320, 200, lambda s, px, family, bold: len(s) * px)
    every_op(canvas)
    batch = canvas.flush()
    assert {command[0] for command in BatchReader().read(batch)} == set(PYTHON_OPS)
    seen = replay_in_the_shell(list(batch.numbers), batch.table_json())
    assert seen.get("error") is None
    assert seen["calls"] == EXPECTED


def test_the_shell_refuses_an_opcode_python_does_not_have() -> None:
    canvas = CommandCanvas(320, 200, lambda s, px, family, bold: len(s) * px)
    canvas.clear("#000000")
    batch = canvas.flush()
    unknown = max(NAMES) + 1
    seen = replay_in_the_shell([*batch.numbers, unknown], batch.table_json())
    assert seen["error"] == f"Error: unknown drawing opcode {unknown} at 2"
