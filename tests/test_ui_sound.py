"""Sound design: the voices, cues and music beds of engine/ui/sound.py, the mix a page asks for
(engine/ui/visit.py, engine/ui/settings.py), the splash's offer of sound
(engine/ui/scenes/sound_offer.py), and the pygame backend's synthesis of the same data
(backends/pygame_sound.py)."""

from __future__ import annotations

import json
import time
from collections import Counter
from functools import cache
from itertools import pairwise

import pygame
import pytest

from backends import browser
from backends.canvas import CommandCanvas
from backends.pygame_sound import RATE, SoundPlayer, loop_samples, samples, voice
from engine.ui.app import App
from engine.ui.games import beds, first_scene, sounds
from engine.ui.input import Activate
from engine.ui.settings import LEVELS, Settings
from engine.ui.sound import MASTER, SHARED, WAVES, Bed, Note
from tests.test_ui_lab_riches import SIZES, Shell, payload
from tests.test_ui_power_puck_shot_layout import apart
from tests.test_ui_power_puck_shot_screens import shapes

CUES, BEDS = sounds(), beds()
CELEBRATIONS = ("priceback", "smallwin", "win", "bigwin", "topwin")


def length(notes: tuple[Note, ...]) -> float:
    return max(n.at + n.length for n in notes)


def crossings(pcm: list[float] | tuple[int, ...]) -> int:
    """How often a signal changes sign: twice its frequency a second, roughly."""
    return sum(1 for a, b in pairwise(pcm) if (a < 0) != (b < 0))


def test_the_shell_reads_every_cue_and_every_bed() -> None:
    book = json.loads(browser.sound_notes())
    assert book["master"] == MASTER == 0.2
    assert set(book["cues"]) == set(CUES)
    assert set(book["beds"]) == {"lab-riches", "power-puck-shot"} == set(BEDS)
    for notes in [*book["cues"].values(), *(b["notes"] for b in book["beds"].values())]:
        assert notes and all(n["wave"] in WAVES and n["attack"] > 0 for n in notes)
    for name, bed in book["beds"].items():
        assert bed["notes"] == [n.to_json() for n in BEDS[name].notes]
    # made once an interpreter: a returning visit's restored one hands the same text back
    assert browser.sound_notes() is browser.sound_notes()


def test_each_game_s_bed_is_its_own_layered_loop() -> None:
    lab, arena = BEDS["lab-riches"], BEDS["power-puck-shot"]
    assert lab.period == 8.0 and arena.period == pytest.approx(7.5)  # 120 and 128 beats a minute
    for bed in (lab, arena):
        waves = Counter(n.wave for n in bed.notes)
        assert waves["noise"] >= 8 and waves["sine"] >= 8 and waves["sawtooth"] >= 8, waves
        assert any(n.cutoff for n in bed.notes) and any(n.to for n in bed.notes)
        assert all(n.gain <= 0.4 for n in bed.notes)  # a bed stays under the effects
    # the lab bubbles over a triangle arpeggio; the arena claps more and has an organ's call
    assert Counter(n.wave for n in lab.notes)["triangle"] >= 32
    assert Counter(n.wave for n in arena.notes)["square"] >= 6
    claps = [n for n in arena.notes if n.wave == "noise" and n.freq == 1800.0]
    assert len(claps) == 8
    assert lab.notes != arena.notes


def test_celebrations_are_shared_and_grow_with_the_win() -> None:
    assert set(CELEBRATIONS) | {"countup", "burst", "nowin", "press"} <= set(SHARED)
    lengths = [length(SHARED[name]) for name in CELEBRATIONS]
    voices = [len(SHARED[name]) for name in CELEBRATIONS]
    assert lengths == sorted(lengths) and voices == sorted(voices), (lengths, voices)
    assert len(SHARED["priceback"]) == 1  # the price back is a tone, never a fanfare
    for name in ("win", "bigwin", "topwin"):  # layered: oscillators of several kinds and noise
        assert len({n.wave for n in SHARED[name]}) >= 3, name
    assert {"noise"} <= {n.wave for n in SHARED["bigwin"]}
    assert length(SHARED["countup"]) < 0.1  # a tick a step of the count-up


def test_notes_and_beds_refuse_what_cannot_sound() -> None:
    with pytest.raises(ValueError, match="length > attack"):
        Note(0.0, 0.003, 440.0)
    with pytest.raises(ValueError, match="unknown wave"):
        Note(0.0, 0.1, 440.0, "organ")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="within its period"):
        Bed(1.0, (Note(1.0, 0.1, 440.0),))


def test_cues_synthesise_short_and_quiet() -> None:
    for name, notes in CUES.items():
        pcm = samples(notes)
        assert 0.02 * RATE < len(pcm) < 4.0 * RATE, name
        assert 0 < max(abs(v) for v in pcm) <= 32767 * MASTER * 1.5, name


def test_the_voices_filter_as_the_browser_s_do() -> None:
    low, high = voice(Note(0.0, 0.5, 200.0, "noise")), voice(Note(0.0, 0.5, 6000.0, "noise"))
    assert low == voice(Note(0.0, 0.5, 200.0, "noise"))  # the same noise every time
    assert crossings(high) > 5 * crossings(low)  # the band follows the note's frequency
    raw, soft = (
        voice(Note(0.0, 0.3, 220.0, "sawtooth")),
        voice(Note(0.0, 0.3, 220.0, "sawtooth", cutoff=500.0)),
    )
    steep = [sum((b - a) ** 2 for a, b in pairwise(x)) for x in (raw, soft)]
    assert steep[1] < steep[0] / 4  # the low-pass takes the sawtooth's edge off
    slide = voice(Note(0.0, 0.4, 200.0, "sine", to=800.0))
    assert crossings(slide[-2000:]) > 2.5 * crossings(slide[:2000])  # 800 Hz at its end


@cache
def arena_loop() -> tuple[int, ...]:
    return tuple(loop_samples(BEDS["power-puck-shot"]))


def test_a_bed_renders_one_seamless_loop() -> None:
    pcm = arena_loop()
    assert len(pcm) == round(BEDS["power-puck-shot"].period * RATE)
    peak = max(abs(v) for v in pcm)
    assert 0.05 * 32767 * MASTER < peak <= 32767 * MASTER
    jumps = [abs(b - a) for a, b in pairwise(pcm)]
    assert abs(pcm[0] - pcm[-1]) <= max(jumps)  # the end runs into the start like any step


def test_volumes_are_kept_apart_and_turn_down_a_step_at_a_time() -> None:
    settings = Settings.from_params({"sound": "1", "music": "25", "effects": "75"})
    assert settings.volumes() == (0.25, 0.75)
    assert Settings.from_params({"sound": "1", "music": "30"}).music == 50  # not a step
    assert Settings.from_params({"music": "100"}).volumes() == (0.0, 0.0)  # sound off
    steps = [settings.turn_down("effects") for _ in LEVELS]
    assert steps == [50, 25, 0, 100, 75] and settings.music == 25
    assert Settings.from_params({"sound": "1", "audio": "0"}).choose("sound", True) is False


def test_a_game_s_page_loops_its_bed_only_while_sound_is_on() -> None:
    canvas = CommandCanvas(1280, 720, lambda s, px, f, b: len(s) * px * 0.55)
    for game in ("lab-riches", "power-puck-shot"):
        on = App(first_scene({"game": game, "sound": "1", "music": "75"}), 1280, 720)
        assert (on.frame(0.0, [], canvas).music, on.frame(16.0, [], canvas).volumes) == (
            game,
            (0.75, 1.0),
        )
        off = App(first_scene({"game": game}), 1280, 720).frame(0.0, [], canvas)
        assert (off.music, off.volumes) == ("", (0.0, 0.0))
    lobby = App(first_scene({"sound": "1"}), 1280, 720).frame(0.0, [], canvas)
    assert lobby.music == ""


def test_the_splash_offers_sound_and_its_volumes_and_has_the_shell_keep_them() -> None:
    shell = Shell(SIZES["phone"], {"play_number": 1, "payload": payload([])})
    shell.frame()
    labels = {c.id: c.label for c in shell.app.scene.controls()}
    assert labels["sound-on"] == "Sound on" and labels["sound-off"] == "Sound off"
    assert "music" not in labels and "effects" not in labels
    result = shell.frame(Activate("sound-on"))
    assert result.sounds == ["press"] and "Sound on" in result.narration
    assert [r["sound"] for r in result.requests if r["op"] == "pref"] == [True]
    assert (result.music, result.volumes) == ("lab-riches", (0.5, 1.0))
    labels = {c.id: c.label for c in shell.app.scene.controls()}
    assert (labels["music"], labels["effects"]) == ("Music 50%", "Effects 100%")
    result = shell.frame(Activate("music"))
    assert "Music volume 25%" in result.narration
    assert [r["music"] for r in result.requests if r["op"] == "pref"] == [25]
    assert result.volumes == (0.25, 1.0)
    result = shell.frame(Activate("effects"))
    assert result.volumes == (0.25, 0.75) and result.sounds == ["press"]
    result = shell.frame(Activate("sound-off"))
    assert result.sounds == [] and "Sound off" in result.narration
    assert (result.music, result.volumes) == ("", (0.0, 0.0))
    assert [r["sound"] for r in result.requests if r["op"] == "pref"] == [False]
    shell.press("play")  # and the game's own Sound setting says what the splash chose
    shell.frame()
    assert {c.id: c.label for c in shell.app.scene.controls()}["sound"] == "Sound: off"


def test_without_audio_the_splash_offers_no_sound() -> None:
    shell = Shell(SIZES["phone"], {"play_number": 1, "payload": payload([])}, {"audio": "0"})
    shell.frame()
    assert not {"sound-on", "sound-off", "music", "effects"} & shell.controls()


@pytest.mark.parametrize("game", ["lab-riches", "power-puck-shot"])
@pytest.mark.parametrize(
    "size", [(360, 640), (390, 844), (1280, 720), (1024, 768), (844, 390), (667, 375)]
)
def test_the_sound_controls_fit_the_corner_clear_of_everything_else(
    game: str, size: tuple[int, int]
) -> None:
    w, h = size
    app = App(first_scene({"game": game, "sound": "1"}), w, h)
    painted = shapes(app.scene.draw, size)  # drawing lays out the corner (one row or two)
    controls = app.scene.controls()
    corner = [c for c in controls if c.id in ("sound-on", "sound-off", "music", "effects")]
    assert len(corner) == 4
    # one row where the long name would otherwise push the picture down under two
    rows = 1 if (w, h) == (667, 375) or (game, w) == ("power-puck-shot", 844) else 2
    assert len({c.y for c in corner}) == rows
    for c in controls:
        assert c.w >= 44 and c.h >= 44 and c.x >= 0 and c.y >= 0, c
        assert c.x + c.w <= w and c.y + c.h <= h, c
    boxes = [(c.x, c.y, c.w, c.h) for c in controls]
    for k, a in enumerate(boxes):
        assert all(apart(a, b) for b in boxes[k + 1 :]), (controls[k], boxes)
    labels = {c.label for c in controls}
    drawn = [s for s in painted if s.text and s.text not in labels]
    for shape in drawn:  # the name, WIN UP TO, the price and the messages
        assert all(apart(shape.box, (c.x, c.y, c.w, c.h)) for c in corner), shape
    win = next(s for s in drawn if s.text.startswith("WIN UP TO"))
    price = next(s for s in drawn if s.text.endswith(" a play"))
    assert apart(win.box, price.box), (win, price)  # the picture pushed down, still above it


@pytest.mark.parametrize("driver", ["dummy", "no-such-driver"])
def test_the_pygame_player_plays_and_loops_with_a_mixer_and_is_silent_without(
    driver: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", driver)  # SDL's silent driver, or no audio device
    pygame.mixer.quit()
    player = SoundPlayer(CUES, BEDS)
    if driver == "dummy" and not player.available:
        pytest.skip("pygame.mixer does not start here, even with SDL's dummy driver")
    player.mix("power-puck-shot", (0.5, 0.25))
    player.play(["go", "win", "go"])
    assert player.available == (driver == "dummy")
    assert player.played == (3 if player.available else 0)
    if player.available:
        for _ in range(600):  # the bed renders on a thread, then loops on channel 0
            player.mix("power-puck-shot", (0.5, 0.25))
            if pygame.mixer.Channel(0).get_busy():
                break
            time.sleep(0.1)
        assert pygame.mixer.Channel(0).get_busy()
        assert pygame.mixer.Channel(0).get_volume() == pytest.approx(0.5, abs=0.01)
        player.mix("", (0.0, 0.0))
        assert player.music == ""
    pygame.mixer.quit()
