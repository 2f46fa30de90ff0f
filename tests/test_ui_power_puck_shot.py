"""£500K Power Puck Shot screens natively: whole plays driven by books with the Directional
Arrows, replies fed as the browser shell would, every composition of the table to its prize,
and the screens rendered through pygame as PNGs (test-artifacts/). The layout and the Main Game's
keys have their own tests (test_ui_power_puck_shot_layout.py, test_ui_power_puck_shot_main.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from backends.native import render_frames
from engine.games import get, load_table
from engine.money import format_pounds
from engine.outcome import Composition
from engine.power_puck_shot import rules
from engine.power_puck_shot.generator import build_book
from engine.ui.app import FrameResult
from engine.ui.games import first_scene
from engine.ui.input import Activate, Event
from engine.ui.power_puck_shot import paint
from engine.ui.power_puck_shot.layout import ARROWS, MIN_TARGET
from engine.ui.power_puck_shot.main import MainScene
from tests.test_ui_lab_riches import ARTIFACTS, payload
from tests.test_ui_lab_riches import Shell as LabRichesShell

GAME = "power-puck-shot"
MODEL = get(GAME).table.model  # plays are sold under the table's current model
PLAY_SIZES = [(390, 844), (360, 640), (1280, 720), (1024, 768), (844, 390)]
LAYOUT_SIZES = [*PLAY_SIZES, (800, 600), (667, 375)]
SIZE_IDS = {size: f"{size[0]}x{size[1]}" for size in LAYOUT_SIZES}
BONUS = {"feature": "bonus", "pence": 0, "games": 1, "pucks": 1}
CASES: dict[str, list[dict[str, Any]]] = {
    "losing": [],
    "row": [{"feature": "row", "pence": 1000, "boosts": 0, "colour": "orange"}],
    "boosted-row": [
        {**BONUS, "boosters": "purple"},
        {"feature": "row", "pence": 800, "boosts": 1, "colour": "purple"},
    ],
    "extra-puck": [
        {**BONUS, "extra_pucks": 1},
        {"feature": "row", "pence": 500, "boosts": 0, "colour": "dark-blue"},
    ],
    "power-puck": [
        {**BONUS, "power_pucks": 1},
        {"feature": "row", "pence": 600, "boosts": 0, "colour": "purple"},
    ],
    "prize-game-5": [{"feature": "pot", "pence": 25000, "pucks": 5}],
    "top": [{"feature": "row", "pence": 50_000_000, "boosts": 0, "colour": "yellow"}],
}
# Every screen in one play: a Bonus Game (an extra Puck), a row and a Prize Game.
EVERYTHING = [
    {**BONUS, "extra_pucks": 1},
    {"feature": "pot", "pence": 1500, "pucks": 2},
    {"feature": "row", "pence": 1500, "boosts": 0, "colour": "light-blue"},
]
TABLE = [comp.to_json() for tier in load_table(GAME).tiers for comp, _ in tier.compositions]


class Shell(LabRichesShell):
    """The Lab Riches test shell opening Power Puck Shot, its frames step_ms apart; it keeps
    the events it fed each frame (`steps`) for render_frames to replay."""

    def __init__(
        self,
        size: tuple[int, int],
        composition: list[dict[str, Any]],
        params: dict[str, str] | None = None,
        seed: int = 7,
    ) -> None:
        body = {"play_number": 100_000_042, "payload": payload(composition, seed, GAME)}
        super().__init__(size, body, {"game": GAME, "fast": "1", **(params or {})})
        self.size = size
        self.step_ms = 1000 / 60  # a frame's time
        self.now = -self.step_ms  # the first frame at 0 ms, as render_frames runs them
        self.steps: list[list[Event]] = []  # the events fed to each frame
        self.main: MainScene | None = None  # the Main Game, kept after the outcome shows

    def frame(self, *events: Event) -> FrameResult:
        fed = [*self.pending, *events]
        self.steps.append(fed)
        self.now += self.step_ms
        result = self.app.frame(self.now, fed, self.canvas)
        self.canvas.flush()
        self.pending = [self.answer(r) for r in result.requests]
        self.said += result.narration
        return result

    @property
    def scene(self) -> MainScene:
        scene = self.app.scene
        assert isinstance(scene, MainScene), scene.name
        return scene

    def enabled(self) -> list[str]:
        return [c.id for c in self.app.scene.controls() if c.enabled]

    def start(self) -> None:
        """The splash, then PLAY: the Main Game at its start."""
        self.frame()
        self.press("play")
        self.frame()
        self.main = self.scene

    def shots(self, arrow: Callable[[int], int] = lambda k: k % ARROWS) -> Iterator[None]:
        """From the Main Game's start, a frame at a time until FINISH shows: an enabled arrow
        (arrow(k) for the k-th shot) pressed as soon as the arrows are enabled."""
        k = 0
        for _ in range(20_000):
            if "finish" in self.controls():
                return
            enabled = self.enabled()
            if f"shoot-{arrow(k)}" in enabled:
                self.frame(Activate(f"shoot-{arrow(k)}"))
                k += 1
            else:
                assert not any(c.startswith("shoot-") for c in enabled), enabled
                self.frame()
            yield
        raise AssertionError("the play never reached FINISH")

    def check_controls(self) -> None:
        """Every control at least 44 × 44 px and inside the window."""
        width, height = self.size
        for control in self.app.scene.controls():
            assert control.w >= MIN_TARGET and control.h >= MIN_TARGET, control
            assert control.x >= 0 and control.x + control.w <= width + 0.5, control
            assert control.y >= 0 and control.y + control.h <= height + 0.5, control

    def moment(self) -> paint.Moment:
        """What the Main Game draws now, as MainScene.draw builds it."""
        scene = self.scene
        player = scene.player
        event = player.event()
        return paint.Moment(
            player.state(), player.before(), event, player.progress(),
            scene.flow.motion(event), scene.clock, scene._last_shot(),
        )  # fmt: skip


def play(
    size: tuple[int, int],
    composition: list[dict[str, Any]],
    params: dict[str, str] | None = None,
    seed: int = 7,
    arrow: Callable[[int], int] = lambda k: k % ARROWS,
    step_ms: float = 1000 / 60,
) -> Shell:
    """A whole play bought, played with the arrows, finished; the controls checked each frame
    (step_ms apart: the App takes at most 100 ms a frame, as on a slow device)."""
    shell = Shell(size, composition, params, seed)
    shell.step_ms = step_ms
    shell.start()
    for _ in shell.shots(arrow):
        shell.check_controls()
    shell.check_controls()
    shell.press("finish")
    shell.frame()
    return shell


def prize_of(composition: list[dict[str, Any]], seed: int = 7) -> int:
    """The book's prize."""
    book = build_book(MODEL, Composition.from_json(composition), seed.to_bytes(16, "big"))
    return book.prize_pence


def check_finished(shell: Shell, prize: int) -> None:
    """The play's narration ends with its prize, then FINISH took it to the outcome."""
    totals = [line for line in shell.said if line.startswith(("Total won", "Your £"))]
    back = prize == rules.PRICE_PENCE  # the price back is said so (engine/ui/celebration.py)
    assert totals == [
        f"Your {format_pounds(prize)} back" if back else f"Total won {format_pounds(prize)}"
    ]
    at = shell.said.index(totals[0])
    assert at > max(i for i, line in enumerate(shell.said) if "shot" in line)  # after every shot
    assert shell.said[at + 1] == "Press FINISH to complete your play."  # the last of the play
    assert shell.app.scene.name == "outcome"
    assert f"Balance {format_pounds(4_700 + prize)}" in shell.said
    assert shell.saved and shell.saved == sorted(shell.saved)


# ---- 1. whole plays ------------------------------------------------------------------------
def test_the_cases_are_compositions_of_the_table() -> None:
    table = [sorted(map(str, comp)) for comp in TABLE]
    for case in [*CASES.values(), EVERYTHING]:
        assert sorted(map(str, Composition.from_json(case).to_json())) in table, case


@pytest.mark.parametrize("size", PLAY_SIZES, ids=SIZE_IDS.get)
@pytest.mark.parametrize("case", CASES)
def test_a_whole_play_narrates_its_prize_and_finishes(size: tuple[int, int], case: str) -> None:
    shell = play(size, CASES[case])
    prize = prize_of(CASES[case])
    assert prize == sum(int(part["pence"]) for part in CASES[case])
    check_finished(shell, prize)
    said = " ".join(shell.said)
    if case in ("boosted-row", "extra-puck", "power-puck"):
        assert "Bonus Game" in said
    if case == "prize-game-5":
        assert "RESULT! PRIZE GAME UNLOCKED! 10 Prize Game symbols: 5 Prize Pucks." in said


# Losing model 3 plays (random plays that lost) with what model 2 never showed: the seed of a
# Power Puck whose doubled Bonus motifs start a Bonus Game, and of five Bonus motifs in one shot.
CHANCE_SEEDS = {
    "power-puck-bonus-game": (53, "BONUS GAME! 4 Bonus symbols in one shot: 2 Bonus Pucks."),
    "five-bonus-motifs": (531, "BONUS GAME! 5 Bonus symbols in one shot: 3 Bonus Pucks."),
}


@pytest.mark.parametrize("size", [(390, 844), (1280, 720)], ids=SIZE_IDS.get)
@pytest.mark.parametrize("case", CHANCE_SEEDS)
def test_chance_s_bonus_games_play_through(size: tuple[int, int], case: str) -> None:
    seed, words = CHANCE_SEEDS[case]
    book = build_book(MODEL, Composition(), seed.to_bytes(16, "big"))
    starts = [e for e in book.events if e["type"] == "bonus_start"]
    if case == "power-puck-bonus-game":
        powered = [e for e in book.events if e["type"] == "shot" and e.get("power")]
        assert any(book.events[e["index"] + 1]["type"] == "bonus_start" for e in powered)
    else:
        assert any(e["pucks"] == 3 and e["motifs"] == 5 for e in starts)
    shell = play(size, [], seed=seed)
    check_finished(shell, 0)
    assert words in shell.said


def from_arrow(first: int) -> Callable[[int], int]:
    """The arrows in turn from `first`."""
    return lambda shot: (first + shot) % ARROWS


def test_every_composition_of_the_table_plays_to_its_prize() -> None:
    """Once each, at 10 frames a second to keep it quick, a different seed and first arrow."""
    for k, composition in enumerate(TABLE):
        seed = 1_000 + k
        shell = play((390, 844), composition, seed=seed, arrow=from_arrow(k), step_ms=100.0)
        check_finished(shell, prize_of(composition, seed))


# ---- 7. the screens through pygame ---------------------------------------------------------
Until = Callable[[Shell], bool]


def _stage(shell: Shell) -> str:
    if not isinstance(shell.app.scene, MainScene):
        return ""
    state = shell.scene.player.state()
    return "" if state is None else str(state.stage)


def _at_rest_in(stage: str) -> Until:
    return lambda s: _stage(s) == stage and s.scene.player.waiting() is not None


def _mid_shot(s: Shell) -> bool:
    if not isinstance(s.app.scene, MainScene):
        return False
    mo = s.moment()
    return mo.kind == "shot" and mo.p >= 0.45


SCREENS: dict[str, tuple[list[str], Until | None]] = {
    "splash": ([], None),
    "how-to-play-1": (["howto"], None),
    "how-to-play-7": (["howto", *["next"] * 6], None),
    "rules": (["rules"], None),
    "prizes": (["rules", "next"], None),
    "main-start": (["play"], lambda s: "shoot-0" in s.enabled()),
    "main-mid-shot": (["play"], _mid_shot),
    "bonus-game": (["play"], _at_rest_in("bonus")),
    "prize-game": (["play"], _at_rest_in("prize")),
    "end-message": (["play"], lambda s: "finish" in s.enabled()),
    "outcome": (["play"], lambda s: s.app.scene.name == "outcome"),
}
VIEWS = {"desktop": (1280, 720), "phone": (390, 844)}


def brought_up(size: tuple[int, int], presses: list[str], until: Until | None) -> Shell:
    """A shell showing the screen: the presses (each once enabled), then, for the Main Game,
    the arrows pressed in turn until `until` holds (FINISH pressed on the way to the outcome)."""
    shell = Shell(size, EVERYTHING)
    shell.frame()
    for press in presses:
        shell.press(press)
    if until is not None:
        shots = shell.shots()
        while not until(shell):
            if "finish" in shell.enabled():
                shell.frame(Activate("finish"))
            elif next(shots, "done") == "done":
                shell.frame()
    shell.frame()
    return shell


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("screen", SCREENS)
def test_screens_render_through_pygame(view: str, screen: str) -> None:
    """The screens before PLAY replayed frame by frame through pygame (render_frames); the
    Main Game's brought up with the quick test canvas and then drawn through pygame, its scene
    entered in a new App (drawing every frame of a play through pygame takes minutes)."""
    out = ARTIFACTS / f"native-power-puck-shot-{view}-{screen}.png"
    presses, until = SCREENS[screen]
    shell = brought_up(VIEWS[view], presses, until)
    if until is None:
        first = first_scene({"game": GAME, "fast": "1"})
        results = render_frames(first, VIEWS[view], out, steps=shell.steps)
        assert [line for r in results for line in r.narration] == shell.said  # the same screens
    else:
        assert until(shell), screen  # still showing it
        (result,) = render_frames(shell.app.scene, VIEWS[view], out)
        assert result.drew
    assert out.stat().st_size > 10_000  # a drawn scene, not a blank frame
