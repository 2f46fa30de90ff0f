"""REVEAL ALL in Lab Riches (engine/ui/scenes/play.py, engine/ui/lab_riches/main.py): after it is
pressed the screen presses GO for the player at each rest to the end, at the normal pace (every
event whole, no faster), said, not to be stopped; the book and the outcome are the same."""

from __future__ import annotations

from engine.ui.input import Activate
from engine.ui.lab_riches.main import MainScene
from engine.ui.scenes.play import REPLAY_REST
from tests.test_ui_lab_riches import SIZES, Shell, payload

PLAIN = {"fast": ""}  # the normal pace: no faster animations


def test_reveal_all_plays_the_rest_at_the_normal_pace_and_cannot_be_stopped() -> None:
    bonus = [{"feature": "instant", "pence": 500}]  # with a Bonus Game to play too
    shell = Shell(SIZES["phone"], {"play_number": 7, "payload": payload(bonus)}, PLAIN)
    shell.frame()
    shell.press("play")
    shell.press("go")  # one go by hand, to its rest
    while not any(c.id == "go" and c.enabled for c in shell.app.scene.controls()):
        shell.frame()
    scene = shell.app.scene
    assert isinstance(scene, MainScene)
    player = scene.player
    replay = player.replay
    assert replay is not None
    waits = lambda k: scene.flow.game.action_for(replay.events[k]) is not None  # noqa: E731
    shell.press("reveal")
    started, first = shell.now, player.shown + 1
    assert "Revealing all: the rest of your play is revealed for you." in shell.said
    heard = len(shell.said)
    for _ in range(60 * 120):
        if "finish" in shell.controls():
            break
        enabled = {c.id for c in scene.controls() if c.enabled}
        assert "go" not in enabled and "reveal" not in enabled  # nothing to press, nor stop
        shell.frame(Activate("reveal"), Activate("go"))  # neither does anything now
    assert "finish" in shell.controls()
    events = replay.events
    rest = range(first, len(events))
    presses = sum(1 for k in rest if waits(k))
    assert presses > 1
    # Each remaining event played whole at normal speed, and a rest before each press (the
    # first press came at once): never sooner, and later by no more than the frames a press
    # waits on (the rest's last, the event's last, and the frame it starts in).
    length = sum(scene.flow.presentation.duration(player.prepared(k)) for k in rest)
    expected = length + (presses - 1) * REPLAY_REST
    late = (shell.now - started) / 1000 - expected
    assert -0.01 <= late <= presses * 3 / 60 + 0.05
    later = shell.said[heard:]
    assert not [s for s in later if "Press GO" in s]  # it is not the player's turn
    assert later[-1] == "Press FINISH to complete your play."
    assert player.shown == len(events) - 1


def test_a_replay_has_no_reveal_all() -> None:
    from engine.ui.flow import Flow
    from engine.ui.lab_riches import PRESENTATION
    from engine.ui.settings import Settings

    scene = PRESENTATION.start(Flow(PRESENTATION, Settings(), "replay", 7))
    assert "reveal" not in {c.id for c in scene.controls()}
