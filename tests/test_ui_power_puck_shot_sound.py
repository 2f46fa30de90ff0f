"""Power Puck Shot's sound cues: none while sound is off; with it on, one 'shoot' a shot, a pip
or bumper sound for every symbol revealed, and the Bonus Game, Power Puck, Prize Game and end
cues at their events, every cue a known one (engine/ui/power_puck_shot/sounds.py)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.ui.app import FrameResult
from engine.ui.games import sounds
from engine.ui.input import Event
from tests.test_ui_power_puck_shot import CASES, Shell

SIZE = (1280, 720)


class Heard(Shell):
    """The test shell, keeping every cue its frames carried."""

    def __init__(self, composition: list[dict[str, Any]], params: dict[str, str]) -> None:
        super().__init__(SIZE, composition, params)
        self.cues: list[str] = []

    def frame(self, *events: Event) -> FrameResult:
        result = super().frame(*events)
        self.cues += result.sounds
        return result


def heard(case: str, sound: bool) -> tuple[Heard, Counter[str]]:
    shell = Heard(CASES[case], {"sound": "1"} if sound else {})
    shell.start()
    for _ in shell.shots():
        pass
    return shell, Counter(shell.cues)


def reveals(shell: Heard) -> tuple[int, int]:
    """The play's shots and symbols revealed, from its book."""
    assert shell.main is not None and shell.main.player.replay is not None
    shots = [e for e in shell.main.player.replay.events if e["type"] == "shot"]
    return len(shots), sum(len(e["reveals"]) for e in shots)


def test_a_play_is_silent_with_sound_off() -> None:
    _shell, cues = heard("power-puck", sound=False)
    assert cues == Counter()


def test_a_play_sounds_every_shot_and_every_reveal_with_sound_on() -> None:
    shell, cues = heard("power-puck", sound=True)
    assert set(cues) <= set(sounds())
    shots, symbols = reveals(shell)
    assert cues["shoot"] == shots
    # The same cue twice in one frame sounds once (engine/ui/app.py): at most one a reveal.
    assert 0 < cues["pip"] + cues["bumper"] <= symbols
    assert 0 < cues["drop"] <= shots
    assert cues["bonus-game"] == 1 and cues["power"] == 1
    assert cues["puck"] == 2  # the Power Puck lands beside the counter, then joins it
    assert cues["fill"] > 0 and cues["full"] == 1 and cues["win"] == 1


def test_the_prize_game_sounds_its_pot() -> None:
    _shell, cues = heard("prize-game-5", sound=True)
    # £250 is 50 times the price: the big win's fanfare (engine/ui/celebration.py)
    assert cues["prize-game"] == 1 and cues["pot"] == 5 and cues["bigwin"] == 1
