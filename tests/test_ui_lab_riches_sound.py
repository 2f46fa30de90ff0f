"""Sound: the cues Lab Riches emits at the book's events while sound is on, none while it is off.

Plays are driven natively as in test_ui_lab_riches.py (the shell's replies fed back); the
pygame player is checked with SDL's dummy audio driver and with no audio device at all.
"""

from __future__ import annotations

from collections import Counter

import pytest

from backends.canvas import CommandCanvas
from engine.games import get
from engine.ui.app import App
from engine.ui.flow import book_from_payload
from engine.ui.games import first_scene, sounds
from engine.ui.input import Activate
from engine.ui.lab_riches import cues, narrate
from engine.ui.motion import Motion
from tests.test_ui_lab_riches import CASES, SIZES, Shell, payload, play

CUES = sounds()
SOUND_ON = {"fast": "1", "sound": "1"}


def heard(shell: Shell) -> list[str]:
    """Every cue the play's frames carried, in order."""
    return [cue for result in shell.results for cue in result.sounds]


def heard_with(shell: Shell, words: str) -> list[str]:
    """The cues of the frames whose narration says `words`."""
    return [
        c for r in shell.results if any(words in line for line in r.narration) for c in r.sounds
    ]


def heard_leading_to(shell: Shell, words: str) -> list[str]:
    """The cues of the frames after the last one narrating anything, up to and including the
    first whose narration says `words` (a sentence waits for the picture it tells of: the cue
    of its event's start may come a few frames before it)."""
    since: list[str] = []
    for r in shell.results:
        if any(words in line for line in r.narration):
            return since + r.sounds
        since = [] if r.narration else since + r.sounds
    return []


def events(shell: Shell) -> Counter[str]:
    """How many events of each type the play's book has after its start."""
    assert shell.app.scene.name == "outcome"
    return Counter(
        e["type"] for e in book_from_payload(shell.body["payload"], get("lab-riches")).events[1:]
    )


def test_sound_is_off_by_default_and_a_play_is_silent() -> None:
    shell = play(SIZES["desktop"], CASES["row"])
    assert heard(shell) == []
    shell = Shell(SIZES["phone"], {"play_number": 1, "payload": payload([])})
    shell.frame()
    shell.press("play")
    shell.frame()
    labels = {c.id: c.label for c in shell.app.scene.controls()}
    assert labels["sound"] == "Sound: off"


def test_a_row_win_sounds_each_go_column_lock_and_the_row() -> None:
    shell = play(SIZES["desktop"], [{"feature": "row", "pence": 1000}], SOUND_ON)
    cues_heard, count = heard(shell), events(shell)
    tally = Counter(cues_heard)
    assert tally["go"] == count["go"] + count["bonus_row"]
    assert tally["column"] == 4 * count["go"]
    assert tally["lock"] == count["lock"]
    assert tally["row"] >= count["row_win"] == 1
    assert heard_with(shell, "complete: you win £10.00") == ["row"]
    assert "lock" in heard_with(shell, "locked in row")
    assert cues_heard[0] == "press" and cues_heard[1] == "go"  # PLAY, then the first GO
    assert cues_heard[-2:] == ["win", "press"]  # the end message, then FINISH
    assert "nowin" not in tally


def test_the_price_back_sounds_no_win() -> None:
    """A row of the price (£3) is the price back: a plain chime for the row and a plain end,
    never the prize chime or the win fanfare (engine/ui/celebration.py)."""
    shell = play(SIZES["desktop"], CASES["row"], SOUND_ON)
    tally = Counter(heard(shell))
    assert heard_with(shell, "complete: your £3.00 back") == ["priceback"]
    assert heard(shell)[-2:] == ["priceback", "press"]  # the end message, then FINISH
    assert tally["row"] == tally["win"] == tally["nowin"] == 0


def test_a_bonus_game_sounds_its_activation_the_light_and_the_rest() -> None:
    shell = play(SIZES["phone"], CASES["instant"], SOUND_ON)
    tally, count = Counter(heard(shell)), events(shell)
    assert heard_leading_to(shell, "BONUS GAME ACTIVATED") == ["bonus"]
    assert tally["rest"] == count["bonus_row"] >= 1
    assert tally["tick"] > 10 * count["bonus_row"]
    assert {"go", "rest"} <= set(heard_leading_to(shell, "the light lands on"))
    assert tally["win"] == 1


def test_a_losing_play_closes_softly_and_a_meter_win_charges_the_meter() -> None:
    losing = Counter(heard(play(SIZES["desktop"], CASES["losing"], SOUND_ON)))
    assert losing["nowin"] == 1 and losing["win"] == 0
    shell = play(SIZES["desktop"], CASES["meter"], SOUND_ON)
    assert Counter(heard(shell))["meter"] >= 1
    assert heard_with(shell, "Meter box lit: £4.00") == ["row"]


def test_the_sound_setting_turns_cues_on_and_off_and_is_kept_by_the_shell() -> None:
    shell = Shell(SIZES["desktop"], {"play_number": 1, "payload": payload(CASES["row"])})
    shell.frame()
    shell.press("play")
    shell.frame()
    assert heard(shell) == []
    result = shell.frame(Activate("sound"))
    assert result.sounds == ["press"] and "Sound on" in result.narration
    assert [r["sound"] for r in result.requests if r["op"] == "pref"] == [True]
    assert {c.id: c.label for c in shell.app.scene.controls()}["sound"] == "Sound: on"
    shell.press("go")
    assert shell.last is not None and shell.last.sounds == ["go"]
    result = shell.frame(Activate("sound"))
    assert result.sounds == [] and "Sound off" in result.narration
    assert [r["sound"] for r in result.requests if r["op"] == "pref"] == [False]
    before = len(heard(shell))
    for _ in range(600):
        shell.frame()
    assert len(heard(shell)) == before


def test_without_audio_there_is_no_sound_setting() -> None:
    shell = Shell(
        SIZES["desktop"], {"play_number": 1, "payload": payload([])}, {"sound": "1", "audio": "0"}
    )
    shell.frame()
    shell.press("play")
    shell.frame()
    assert "sound" not in shell.controls()
    assert "speed" in shell.controls()


def test_every_event_type_has_a_timeline_of_known_cues() -> None:
    assert set(cues.HANDLERS) == set(narrate.HANDLERS)
    sample = {"pence": 0, "total": 0, "row": 0}
    for kind, handler in cues.HANDLERS.items():
        for motion in (Motion(), Motion(seconds=0.2), Motion(reduced=True, seconds=3.0)):
            for at, cue in handler({"type": kind, **sample}, motion):
                assert cue in CUES and 0.0 <= at <= 1.0, (kind, at, cue)


def test_the_app_plays_a_cue_once_a_frame_and_refuses_unknown_ones() -> None:
    app = App(first_scene({"sound": "1", "game": "lab-riches"}), 1280, 720)
    flow = app.scene.flow  # type: ignore[attr-defined]
    flow.cue("tick")
    flow.cue("tick")
    flow.cue("rest")
    with pytest.raises(ValueError, match="unknown sound cue"):
        flow.cue("boom")
    canvas = CommandCanvas(1280, 720, lambda s, px, f, b: len(s) * px * 0.55)
    assert app.frame(0.0, [], canvas).sounds == ["tick", "rest"]
    assert app.frame(16.7, [], canvas).sounds == []
