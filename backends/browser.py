"""The browser entry point, run inside Pyodide by the shell: scenes to canvas batches.

The shell calls `start(width, height, params_json, answered_json, fonts)` once and then
`frame(now_ms, events_json)` each animation frame; `frame` returns one JSON string
{"cmds": {"base", "add"} | null, "controls": [...] | null, "screen": {"id", "game"} | null,
"say": [...], "requests": [...], "ms": python_ms} ("screen", with "controls", when they
change: the mirror's heading). When "cmds" is not null the frame drew: "cmds" is the string
table's update and `batch()` returns the frame's numbers (an array.array('d'), read zero-copy
by the shell; format in docs/drawing.md).
`requests` are operations the shell performs for Python (network, signature check, storage:
docs/drawing.md); their answers come back as {"type": "reply", "id", "ok", "body"} events.
`sounds` are the cues to play now (only while the player has sound on); the shell synthesises
them from `sound_notes()` (engine/ui/sound.py).
The query parameters choose the first scene (engine/ui/games.py).
"""

from __future__ import annotations

import gc
import json
import time
from array import array
from typing import Any

from backends.canvas import BatchReader, CommandCanvas
from engine.ui.app import App
from engine.ui.draw import Font
from engine.ui.games import beds, first_scene, present, sounds
from engine.ui.input import Event, Resize, event_from_json
from engine.ui.sound import notes_json

# A page imports what its first frame shows when `start` makes its first scene: a game's page
# its game's screens, the lobby every game's cover (engine/ui/games.py). The shell takes the
# interpreter snapshot once the page is playable, so a returning visit restores them.

_app: App | None = None
_canvas: CommandCanvas | None = None
_numbers: array[float] = array("d")
_layout: BatchReader | None = None  # ?layout=1: each frame that drew reports its text boxes
_fonts: str | None = None  # the fonts the canvas's text widths were measured with (start)
_notes: tuple[tuple[str, ...], str] | None = None  # sound_notes(): (games present, its JSON)


def _measure_with_js(s: str, size: float, family: str, bold: bool) -> float:
    import js  # type: ignore[import-not-found]  # only inside Pyodide

    return float(js.lotteryMeasureText(s, size, family, bold))


def start(
    width: float,
    height: float,
    params_json: str = "{}",
    answered_json: str = "{}",
    fonts: str = "",
) -> None:
    """Create the app at the given logical size with the page's query parameters and the
    answers the page already has for Python's first requests ({op: {ok, body}}: App).

    `fonts` names the fonts text is measured with (the worker's: each web font's status). An
    interpreter restored from a snapshot (docs/build.md) has the text widths it measured
    before: kept when they were measured with the same fonts, so a returning visit's first
    frame asks the browser only for texts it has not measured yet."""
    global _app, _canvas, _numbers, _layout, _fonts
    _numbers = array("d")
    params = json.loads(params_json)
    _layout = BatchReader() if isinstance(params, dict) and params.get("layout") == "1" else None
    answered = {
        str(op): (
            answer.get("ok") is True,
            answer["body"] if isinstance(answer.get("body"), dict) else {},
        )
        for op, answer in dict(json.loads(answered_json) or {}).items()
        if isinstance(answer, dict)
    }
    measured = _canvas.widths if _canvas is not None and fonts and fonts == _fonts else None
    _canvas = CommandCanvas(width, height, _measure_with_js, measured)
    _fonts = fonts
    _app = App(first_scene(params if isinstance(params, dict) else {}), width, height, answered)
    # Long-lived objects (modules, prize table, scenes) need no more scanning; a frame makes
    # thousands of short-lived lists, so collect the young generation less often.
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


def frame(now_ms: float, events_json: str = "[]") -> str:
    """Run one frame and return what the shell must draw and mirror."""
    global _numbers
    if _app is None or _canvas is None:
        raise RuntimeError("start() must be called before frame()")
    began = time.perf_counter()
    events: list[Event] = []
    for raw in json.loads(events_json):
        event = event_from_json(raw)
        if event is None:
            continue
        if isinstance(event, Resize):
            _canvas.resize(event.width, event.height)
        events.append(event)
    result = _app.frame(now_ms, events, _canvas)
    cmds = None
    layout = None
    if result.drew:
        drawn = _canvas.flush()
        _numbers, cmds = drawn.numbers, drawn.table_json()
        if _layout is not None:  # none of a screen change: two screens show (docs/drawing.md)
            commands = _layout.read(drawn)
            layout = {"changing": True} if _app.changing() else _layout_of(_app, _canvas, commands)
    controls = None if result.controls is None else [c.to_json() for c in result.controls]
    tail = json.dumps(
        {
            "cmds": cmds,
            "controls": controls,
            "screen": None if controls is None else _screen(_app),
            "say": result.narration,
            "requests": result.requests,
            "sounds": result.sounds,
            "music": result.music,
            "volumes": result.volumes,
            **({} if layout is None else {"layout": layout}),
        },
        separators=(",", ":"),
    )
    ms = (time.perf_counter() - began) * 1000.0
    return f'{{"ms":{ms:.3f},{tail[1:]}'


def redraw() -> None:
    """Draw the next frame whole (the shell calls it when pictures arrive after the start)."""
    if _app is not None:
        _app.invalidate()


def _screen(app: App) -> dict[str, str]:
    """The screen showing (its scene's name) and its game's name, for the mirror's heading."""
    flow = getattr(app.scene, "flow", None)
    game = str(getattr(getattr(flow, "game", None), "name", ""))
    mode = getattr(flow, "mode", "play")
    return {"id": app.scene.name, "game": f"{game} ({mode.upper()})" if mode != "play" else game}


def _layout_of(app: App, canvas: CommandCanvas, commands: list[list[Any]]) -> dict[str, Any]:
    """What the layout test measures of a frame: the screen's size, its text boxes, and the
    scene's scrolling area ([top, bottom, offset, content height]) when it has one."""
    from backends.layout import text_boxes  # only with ?layout=1: not in a player's frames

    scroller = getattr(app.scene, "scroll_area", None)
    return {
        "w": canvas.width,
        "h": canvas.height,
        "screen": app.scene.name,
        "texts": text_boxes(
            commands, lambda s, size, family, bold: canvas.measure(s, Font(size, family, bold))
        ),
        "scroll": scroller() if scroller is not None else None,
    }


def sound_notes() -> str:
    """Every sound cue's notes and every music bed, as JSON (the shell reads them once, before
    the first frame). Made once an interpreter for the games present (about 60 kB): a returning
    visit's restored interpreter (docs/build.md) has it already, off its first frame's path."""
    global _notes
    key = tuple(game.id for game in present())
    if _notes is None or _notes[0] != key:
        _notes = (key, notes_json(sounds(), beds()))
    return _notes[1]


def batch() -> array[float]:
    """The numbers of the last frame that drew (the shell reads them through a buffer)."""
    return _numbers
