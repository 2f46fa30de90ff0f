"""Screen changes are transitions (engine/ui/transition.py): Lab Riches' splash giving way to
its Main Game through the real App, frame by frame at 60 frames a second."""

from __future__ import annotations

from itertools import pairwise

import pytest

from engine.ui import transition
from engine.ui.transition import Transition
from tests.test_ui_lab_riches import SIZES, ReadingShell, payload

SPLASH_WORDS = "WIN UP TO £250,000"


def after_play(params: dict[str, str]) -> tuple[ReadingShell, list[tuple[bool, float | None]]]:
    """PLAY pressed on the splash; then each frame until the Main Game rests: whether it drew
    and the splash's opacity over it (None once no transition is under way)."""
    shell = ReadingShell(SIZES["phone"], {"play_number": 1, "payload": payload([])}, params)
    shell.frame()
    assert SPLASH_WORDS in shell.texts
    shell.press("play")
    while shell.app.scene.name != "main":
        shell.frame()
    seen = []
    for _ in range(40):
        result = shell.frame()
        t = shell.app.transition
        seen.append((result.drew, None if t is None else t.opacity()))
    return shell, seen


def test_the_old_screen_fades_away_over_the_new_one_then_nothing_is_drawn() -> None:
    shell, seen = after_play({"fast": "0"})
    fading = [o for _, o in seen if o is not None]
    assert fading and fading[0] > 0.7  # the splash is still mostly there at the switch
    assert all(a > b for a, b in pairwise(fading))  # then fades steadily away
    frames = len(fading) + 1  # and the frame that ends it draws the Main Game alone
    assert frames == pytest.approx(transition.SECONDS * 60, abs=2)
    assert all(drew for drew, _ in seen[:frames])  # every frame of it drawn
    assert not any(drew for drew, _ in seen[frames + 1 :])  # then, at rest, none
    assert SPLASH_WORDS not in shell.texts and "GO" in shell.texts


def test_the_new_screen_takes_over_at_once() -> None:
    """Its controls and its words from the first frame of the transition: nothing waits."""
    shell = ReadingShell(SIZES["phone"], {"play_number": 1, "payload": payload([])}, {"fast": "0"})
    shell.frame()
    shell.press("play")
    while shell.app.scene.name != "main":
        shell.frame()
    assert shell.app.transition is not None
    assert "go" in {c.id for c in shell.app.scene.controls() if c.enabled}
    shell.frame()
    texts = shell.texts
    assert "GO" in texts and SPLASH_WORDS in texts  # both show: the new under the old
    assert texts.index("GO") < texts.index(SPLASH_WORDS)  # the old one is drawn over it


def test_with_reduced_motion_the_old_screen_only_fades_and_sooner() -> None:
    _shell, seen = after_play({"fast": "0", "reducedMotion": "1"})
    fading = [o for _, o in seen if o is not None]
    assert len(fading) + 1 == pytest.approx(transition.REDUCED_SECONDS * 60, abs=2)
    assert transition.REDUCED_SECONDS < transition.SECONDS


def test_only_a_moving_transition_scales_the_old_screen() -> None:
    from backends.canvas import BatchReader, CommandCanvas
    from engine.ui.scenes.check import CheckScene

    for reduced in (False, True):
        t = Transition(CheckScene(), reduced=reduced)
        t.advance(0.05)
        canvas = CommandCanvas(390, 844, lambda s, px, f, b: len(s) * px * 0.55)
        t.draw_outgoing(canvas)
        calls = BatchReader().read(canvas.flush())
        scaled = [c for c in calls if c[0] == "scale"]
        assert bool(scaled) is not reduced
        assert calls[1] == ["alpha", pytest.approx(t.opacity())] and 0 < t.opacity() < 1
    t = Transition(CheckScene())
    assert not t.advance(transition.SECONDS) and t.opacity() == 0.0
