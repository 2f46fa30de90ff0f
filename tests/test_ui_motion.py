"""Flashing and motion on screen: never more than 3 flashes a second, in any mode; with reduced
motion, nothing travels and nothing flashes.

Whole Lab Riches plays (and Power Puck Shot's Main Game, `puck_frames`) are drawn frame by
frame at 60 frames a second, as the browser runs them, and every frame's batch is decoded
(backends/canvas.py) and laid out on the screen (translate and scale applied). A *flash* is
counted as WCAG 2.3.1 counts one: a pair of opposing changes. Each filled or outlined
rectangle is followed by where it stands on the screen; a change of its colours, or its
appearing or vanishing, is one change. Stricter than WCAG's general flash, which counts only
changes over a quarter of a 10° field of view (about 341 x 256 px at 1024 x 768), any
rectangle of 1,000 px² or more counts here.
"""

from __future__ import annotations

import math
from collections import defaultdict
from itertools import pairwise
from typing import Any

import pytest

from backends.canvas import BatchReader, CommandCanvas
from engine.ui.draw import IDENTITY, Matrix, rotation, scaling, then, transform, translation
from engine.ui.input import Activate, ReducedMotion
from engine.ui.motion import MAX_FLASHES_PER_SECOND, Motion, flashes
from tests.test_ui_lab_riches import SIZES, Shell, payload
from tests.test_ui_power_puck_shot import CASES, EVERYTHING
from tests.test_ui_power_puck_shot import Shell as PuckShell

FPS = 60
MIN_AREA = 1_000.0  # px²
REACTION = 0.4  # s from a control coming on to the player's press
# Plays with everything a Lab Riches screen animates: reveals, locks, row wins and their Prize
# Boxes, the meter's segments and boxes, extra goes, Instant Prizes, the Bonus Game.
PLAYS = {
    "row and meter": [{"feature": "row", "pence": 300}, {"feature": "meter", "pence": 400}],
    "bonus": [{"feature": "instant", "pence": 500}],
    "losing": [],
}
MODES = {
    "normal": {"fast": "0"},
    "fast": {"fast": "1"},
    "reduced": {"reducedMotion": "1", "fast": "0"},
    "reduced and fast": {"reducedMotion": "1", "fast": "1"},
}


class Screen:
    """What one decoded frame shows: rectangles by place, texts and circles with positions."""

    def __init__(self, calls: list[list[Any]]) -> None:
        self.rects: dict[tuple[int, int, int, int], tuple[Any, ...]] = {}
        self.texts: list[tuple[str, float, float]] = []
        self.circles: list[tuple[float, float, float]] = []
        self.scaled = 0  # scale() calls that squash or stretch (a turning symbol)
        m = IDENTITY
        alpha = 1.0
        stack: list[tuple[Matrix, float]] = []
        for call in calls:
            name, args = call[0], call[1:]
            if name == "save":
                stack.append((m, alpha))
            elif name == "restore":
                m, alpha = stack.pop()
            elif name == "translate":
                m = then(m, translation(args[0], args[1]))
            elif name == "scale":
                m = then(m, scaling(args[0], args[1]))
                self.scaled += abs(args[0] - args[1]) > 1e-6
            elif name == "rotate":
                m = then(m, rotation(args[0]))
            elif name == "alpha":
                alpha *= args[0]
            elif name == "rect":
                x, y, w, h, fill, stroke, width = args[:7]
                (x0, y0), (x1, y1) = transform(m, x, y), transform(m, x + w, y + h)
                if alpha > 0 and abs(x1 - x0) * abs(y1 - y0) >= MIN_AREA:
                    key = (round(x0), round(y0), round(x1), round(y1))
                    self.rects[key] = (fill, stroke if width > 0 else None)
            elif name == "text":
                x, y = transform(m, args[1], args[2])
                if alpha > 0:
                    self.texts.append((str(args[0]), x, y))
            elif name == "circle":
                x, y = transform(m, args[0], args[1])
                if alpha > 0:
                    self.circles.append((x, y, args[2]))


def frames(mode: dict[str, str], composition: list[dict[str, Any]]) -> list[tuple[Screen, str]]:
    """Every frame of a whole play at 60 fps (GO soon after it comes on), decoded, with the
    type of the event animating ('' at rest, '<screen>' on another screen than the game's)."""
    shell = Shell(SIZES["desktop"], {"play_number": 1, "payload": payload(composition)}, mode)
    reader = BatchReader()
    shown: list[tuple[Screen, str]] = []
    waited = 0
    for _ in range(30_000):
        controls = {c.id for c in shell.app.scene.controls() if c.enabled}
        if "finish" in controls:
            return shown
        # A quick player presses PLAY or GO 0.4 s after it comes on (not the very next frame).
        ready = [c for c in ("play", "go") if c in controls][:1]
        waited = waited + 1 if ready else 0
        press = [Activate(c) for c in ready] if waited > REACTION * FPS else []
        waited = 0 if press else waited
        shell.now += 1000 / FPS
        result = shell.app.frame(shell.now, [*shell.pending, *press], shell.canvas)
        shell.pending = [shell.answer(r) for r in result.requests]
        player = getattr(shell.app.scene, "player", None)
        event = player.event() if player is not None else None
        kind = str(event["type"]) if event is not None else ""
        if shell.app.scene.name != "main":
            kind = f"<{shell.app.scene.name}>"
        if result.drew:
            shown.append((Screen(reader.read(shell.canvas.flush())), kind))
        elif shown:
            shown.append((shown[-1][0], kind))
    raise AssertionError("the play never reached FINISH")


def fastest_flash(shown: list[tuple[Screen, str]]) -> tuple[float, Any]:
    """The shortest time (s) from one flash of a rectangle to its next, and where. A rectangle
    flashes when its look goes back and forth (A, B, A, B: appearing and vanishing count as
    looks); one flash to the next is from a change to the change after next."""
    looks: dict[Any, list[tuple[int, Any]]] = defaultdict(list)  # key -> (frame, look after)
    before: dict[Any, Any] = {}
    for i, (screen, _kind) in enumerate(shown):
        for key in before.keys() | screen.rects.keys():
            if before.get(key) != screen.rects.get(key):
                looks[key].append((i, screen.rects.get(key)))
        before = screen.rects
    fastest: tuple[float, Any] = (math.inf, None)
    for key, seen in looks.items():
        runs = zip(seen, seen[1:], seen[2:], seen[3:], strict=False)
        for (_, a), (t1, b), (_, a2), (t3, b2) in runs:
            if a == a2 and b == b2 and (t3 - t1) / FPS < fastest[0]:
                fastest = ((t3 - t1) / FPS, key)
    return fastest


# At most 3 flashes a second: a flash starts a third of a second or more after the last one
# started (one frame's leeway: the changes fall on frame boundaries).
SLOWEST_ALLOWED = 1 / MAX_FLASHES_PER_SECOND - 1 / FPS


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("play", PLAYS)
def test_nothing_flashes_more_than_three_times_a_second(mode: str, play: str) -> None:
    seconds, where = fastest_flash(frames(MODES[mode], PLAYS[play]))
    assert seconds >= SLOWEST_ALLOWED, f"flashes {seconds:.3f} s apart at {where}"


@pytest.mark.parametrize("mode", ["reduced", "reduced and fast"])
@pytest.mark.parametrize("play", PLAYS)
def test_with_reduced_motion_nothing_travels_or_turns(mode: str, play: str) -> None:
    shown = frames(MODES[mode], PLAYS[play])
    moved = []
    for (before, was_kind), (after, kind) in pairwise(shown):
        if kind.startswith("<") or was_kind.startswith("<"):
            continue  # another screen comes: things are not moving, the screen changes
        assert after.scaled == 0, f"a symbol turns over during {kind}"
        # A text or a circle drawn in both frames stands where it stood. (Drawn once in each
        # frame and a little way off: moved. Far off, it is another of the same: "1" on the
        # GOES counter vanishing as a "1" in the meter lights.)
        once = {t for t, _, _ in before.texts if sum(u == t for u, _, _ in before.texts) == 1}
        was = {text: (x, y) for text, x, y in before.texts if text in once}
        for text, x, y in after.texts:
            alone = sum(t == text for t, _, _ in after.texts) == 1
            if text in was and alone and 0.5 < math.dist(was[text], (x, y)) < 40:
                moved.append((kind, text, was[text], (x, y)))
        radii = {r: (x, y) for x, y, r in before.circles}
        for x, y, r in after.circles:
            if r in radii and 0.5 < math.dist(radii[r], (x, y)) < 40:
                moved.append((kind, "circle", radii[r], (x, y)))
    assert moved == []


def test_the_flash_measure_sees_flashing() -> None:
    """The measure above is not blind: the blinking of before (a meter box lit on and off
    every eighth of its 0.8 s, here at normal speed: 48 frames) flashes too fast, and a
    highlight on and off at 3 a second does not."""
    on, off = ("#3a2a00", "#ffd54a"), ("#0b2340", "#2d5a85")

    def blinking(lit: list[bool]) -> list[tuple[Screen, str]]:
        shown = []
        for state in lit:
            screen = Screen([])
            screen.rects[(0, 0, 100, 100)] = on if state else off
            shown.append((screen, "meter_box"))
        return shown

    before = [int(i / 48 * 8) % 2 == 0 or i > 38 for i in range(48)]
    assert fastest_flash(blinking(before))[0] == pytest.approx(12 / FPS)  # 5 a second
    once = [10 <= i < 20 for i in range(FPS)]  # one highlight, on and off: no flashing
    assert fastest_flash(blinking(once))[0] == math.inf
    thrice = [i % 20 < 10 for i in range(FPS)]
    assert fastest_flash(blinking(thrice))[0] >= SLOWEST_ALLOWED


@pytest.mark.parametrize("seconds", [0.1, 0.2, 0.27, 0.5, 0.8, 1.4, 2.0, 5.0])
@pytest.mark.parametrize("times", [1, 2, 3, 4, 8])
def test_a_blink_keeps_to_three_flashes_a_second(seconds: float, times: int) -> None:
    m = Motion(reduced=False, seconds=seconds)
    steps = 600
    states = [m.blink(k / steps, times) for k in range(steps + 1)]
    offs = sum(1 for a, b in pairwise(states) if a and not b)
    assert offs == flashes(times, seconds) <= max(0, seconds * MAX_FLASHES_PER_SECOND)
    assert states[-1]  # a highlight ends lit
    steady = Motion(reduced=True, seconds=seconds)
    assert all(steady.blink(k / steps, times) for k in range(steps + 1))
    assert steady.pulse(0.3, times) == 1.0
    assert steady.travel(0.25) == (1.0, 0.25) and m.travel(0.25) == (0.25, 1.0)


def test_reduced_motion_follows_the_system_setting_live() -> None:
    shell = Shell(SIZES["phone"], {"play_number": 1, "payload": payload([])}, {"fast": "0"})
    shell.frame()
    shell.press("play")
    settings = shell.app.scene.flow.settings  # type: ignore[attr-defined]
    assert not settings.reduced_motion and settings.speed == 1.0
    shell.frame(ReducedMotion(True))
    assert settings.reduced_motion and settings.speed == 1.0  # less motion, not faster
    shell.frame(ReducedMotion(True))  # no change: nothing said twice
    shell.frame(ReducedMotion(False))
    assert not settings.reduced_motion
    assert [s for s in shell.said if "Reduced motion" in s] == [
        "Reduced motion on",
        "Reduced motion off",
    ]


def puck_frames(case: str, params: dict[str, str]) -> list[tuple[Screen, str]]:
    """Every Main Game frame of a whole Power Puck Shot play at 1280 x 720 ("power-puck": a
    Bonus Game and a Power Puck's shot; "everything": a Bonus Game, a row and a Prize Game),
    an arrow pressed as soon as the arrows are on, decoded, with the event animating."""
    size = SIZES["desktop"]
    shell = PuckShell(size, {**CASES, "everything": EVERYTHING}[case], params)
    shell.start()
    shown = []
    for _ in shell.shots():
        canvas = CommandCanvas(*size, lambda s, px, _f, _b: len(s) * px * 0.55)
        shell.scene.draw(canvas)
        shown.append((Screen(BatchReader().read(canvas.flush())), shell.moment().kind))
    assert len(shown) > 500
    return shown


@pytest.mark.parametrize("fast", ["0", "1"])
@pytest.mark.parametrize("case", ["power-puck", "everything"])
def test_power_puck_shot_flashes_no_more_than_three_times_a_second(case: str, fast: str) -> None:
    """The trail, the pops, the highlights' pulses, the meter's light and the window's dip
    included (a symbol landing bigger and settling, never through its size and back)."""
    seconds, where = fastest_flash(puck_frames(case, {"fast": fast}))
    assert seconds >= SLOWEST_ALLOWED, f"flashes {seconds:.3f} s apart at {where}"


def still(cs: list[tuple[Any, float, float]]) -> dict[Any, tuple[float, float]]:
    """Where each text or circle radius drawn once in a frame stands: (x, y) by its key."""
    keys = [k for k, _, _ in cs]
    return {k: (x, y) for k, x, y in cs if keys.count(k) == 1}


@pytest.mark.parametrize(("case", "fast"), [("power-puck", "1"), ("everything", "0")])
def test_power_puck_shot_with_reduced_motion_nothing_travels(case: str, fast: str) -> None:
    """Every frame of a whole play with reduced motion: no text or circle moves (the puck fades
    in where it drops and leaves no trail, no sparks fly, no light runs up the meter)."""
    shown = [still(screen.texts) | still([(r, x, y) for x, y, r in screen.circles])
             for screen, _ in puck_frames(case, {"reducedMotion": "1", "fast": fast})]  # fmt: skip
    moved = [(key, a[key], b[key]) for a, b in pairwise(shown) for key in a.keys() & b.keys()
             if 0.5 < math.dist(a[key], b[key]) < 40]  # fmt: skip
    assert moved == []


# ---- the banner every game's feature messages use (engine/ui/widgets.py) ----------------------
def test_a_banner_s_band_opens_holds_and_closes() -> None:
    from engine.ui.widgets import BAND_OPENS, BANNER_CLOSES, banner_band

    m = Motion()
    heights = [banner_band(k / 200, m)[0] for k in range(201)]
    assert heights[0] == 0.0 and heights[-1] == 0.0  # shut at both ends
    opening = heights[: int(BAND_OPENS * 200) + 1]
    assert all(a < b for a, b in pairwise(opening)) and opening[-1] == 1.0  # never past it
    held = heights[int(BAND_OPENS * 200) : int(BANNER_CLOSES * 200) + 1]
    assert set(held) == {1.0}
    closing = heights[int(BANNER_CLOSES * 200) :]
    assert all(a > b for a, b in pairwise(closing))
    assert all(banner_band(k / 200, m)[1] == 1.0 for k in range(201))  # opaque: it moves


def test_with_reduced_motion_a_banner_only_fades() -> None:
    from engine.ui.widgets import BANNER_OPENS, banner_band, banner_line

    m = Motion(reduced=True)
    assert all(banner_band(k / 100, m)[0] == 1.0 for k in range(101))  # no opening or closing
    fades = [banner_band(k / 100, m)[1] for k in range(101)]
    assert fades[0] == 0.0 and fades[-1] == 0.0 and max(fades) == 1.0
    assert all(banner_line(k / 100, line, m)[0] == 1.0 for k in range(101) for line in range(3))
    assert all(banner_line(BANNER_OPENS, line, m)[1] == 1.0 for line in range(3))


def test_a_banner_s_lines_drop_in_one_after_another_and_are_in_place_when_said() -> None:
    from engine.ui.widgets import BANNER_OPENS, banner_line

    m = Motion()
    starts = [
        next(k for k in range(101) if banner_line(k / 100, line, m)[1] > 0) for line in (0, 1, 2)
    ]
    assert 0 < starts[0] < starts[1] < starts[2]
    assert max(banner_line(k / 100, 0, m)[0] for k in range(101)) > 1.3  # from large...
    for line in range(3):  # ...to its size, whole, by the time the narration says it
        assert banner_line(BANNER_OPENS, line, m) == (1.0, 1.0)
    assert banner_line(1.0, 0, m)[1] == 0.0


@pytest.mark.parametrize("reduced", [False, True])
def test_a_drawn_banner_sweeps_a_light_across_unless_motion_is_reduced(reduced: bool) -> None:
    from backends.canvas import CommandCanvas
    from engine.ui.widgets import SHEEN, banner

    canvas = CommandCanvas(390, 844, lambda s, px, f, b: len(s) * px * 0.55)
    banner(canvas, 390, 844, ("BONUS GAME!",), (SHEEN[0] + SHEEN[1]) / 2, Motion(reduced),
           gold="#ffd54a", band="#06182cf5", height=0.2)  # fmt: skip
    calls = BatchReader().read(canvas.flush())
    assert any(c[0] == "text" for c in calls)
    assert any(c[0] == "path" for c in calls) is not reduced
    scaled = {round(c[1], 3) for c in calls if c[0] == "scale"}
    assert scaled <= {1.0}
