"""£500K Power Puck Shot screens natively: whole plays driven by books with the Directional
Arrows, replies fed as the browser shell would; the layout at common sizes; the keys; the
choice of arrow changing only the path drawn; counters that change as symbols land; reduced
motion; and the screens rendered through pygame as PNGs (test-artifacts/)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from types import SimpleNamespace
from typing import Any

import pytest

from backends.canvas import BatchReader, CommandCanvas
from backends.native import render_frames
from engine.games import get, load_table
from engine.money import format_pounds
from engine.outcome import Composition
from engine.power_puck_shot import rules
from engine.power_puck_shot.generator import build_book
from engine.power_puck_shot.replay import Replay
from engine.ui.app import App, FrameResult
from engine.ui.flow import Flow
from engine.ui.games import first_scene
from engine.ui.input import Activate, Event, Key
from engine.ui.motion import Motion
from engine.ui.power_puck_shot import PRESENTATION, paint
from engine.ui.power_puck_shot.layout import ARROWS, MIN_TARGET, TALL_ROW, Layout, Rect, layout
from engine.ui.power_puck_shot.main import MainScene
from engine.ui.power_puck_shot.narrate import ARROW_NAMES
from engine.ui.settings import Settings
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


# ---- 2. layout -------------------------------------------------------------------------------
def grown(rect: Rect, by: float) -> Rect:
    x, y, w, h = rect
    return x - by, y - by, w + 2 * by, h + 2 * by


def parts(lay: Layout) -> dict[str, Rect]:
    """Every part of the Main Game window that must not overlap another, as paint.py draws it:
    the grid with its cushions (10 px, and half the Bonus Game's 4 px stroke), the meter and the
    Prize Table with their frames (4 px, and half a 2 px stroke)."""
    cell = lay.cell
    return {
        "grid": grown((lay.grid_x, lay.grid_y, 4 * cell, 4 * cell), 12),
        "meter": grown(lay.meter, 5),
        "prize table": grown(lay.table, 5),
        **{f"arrow {k + 1}": rect for k, rect in enumerate(lay.arrows)},
        "pucks counter": lay.pucks,
        "howto": lay.howto,
        "rules": lay.rules,
        "sound": lay.sound,
        "speed": lay.speed,
    }


def inside(rect: Rect, width: float, height: float) -> bool:
    x, y, w, h = rect
    return x >= 0 and y >= 0 and x + w <= width and y + h <= height


def apart(a: Rect, b: Rect) -> bool:
    """True when two rectangles do not overlap (touching edges are apart)."""
    return a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=SIZE_IDS.get)
def test_every_part_is_inside_the_window_and_overlaps_no_other(size: tuple[int, int]) -> None:
    lay = layout(*size)
    found = parts(lay)
    assert [n for n, r in found.items() if not inside(r, *size)] == [], f"outside at {size}"
    pairs = itertools.combinations(found.items(), 2)
    assert [(a, b) for (a, ra), (b, rb) in pairs if not apart(ra, rb)] == [], f"overlap at {size}"
    below_header = [n for n in ("grid", "meter", "prize table") if not apart(lay.header, found[n])]
    assert below_header == [], f"under the header at {size}"


@pytest.mark.parametrize("size", [(390, 844), (412, 915), (360, 780), (360, 640)])
def test_a_tall_phone_leaves_no_band_empty_at_the_bottom(size: tuple[int, int]) -> None:
    """The grid of a phone in portrait is bound by its width: the height left over goes to the
    Prize Table's rows and the spaces between the parts, not to a band under the settings."""
    lay = layout(*size)
    lowest = max(y + h for _n, (_x, y, _w, h) in parts(lay).items())
    assert size[1] - lowest <= 12, f"{size[1] - lowest:.0f} px left at the bottom"
    assert lay.row("yellow")[3] >= min(TALL_ROW, size[1] * 0.032)


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=SIZE_IDS.get)
def test_controls_are_big_enough_and_text_readable(size: tuple[int, int]) -> None:
    lay = layout(*size)
    for name in ("howto", "rules", "sound", "speed", "pucks"):
        _x, _y, w, h = getattr(lay, name)
        assert w >= MIN_TARGET and h >= MIN_TARGET, name
    assert lay.speed[2] * 0.85 / (len("Faster animations: off") * 0.5) >= 10  # its label's px
    assert all(w >= MIN_TARGET and h >= MIN_TARGET for _x, _y, w, h in lay.arrows)
    assert all(lay.row(colour)[3] >= 16 for colour in rules.COLOURS)  # the Prize Table's rows
    _x, _y, _w, ah = lay.amount("yellow")
    assert ah * 0.62 >= 9  # the amounts' font (paint.table)
    assert lay.segment(0)[3] >= 16  # a meter segment holds '5 PRIZE PUCKS'
    assert lay.cell >= 40
    squares = [lay.slot(colour, k) for colour in rules.COLOURS for k in (0, 11)]
    assert all(s[2] >= 8 for s in squares)
    x, _y, w, _h = lay.table
    assert all(s[0] >= x and s[0] + s[2] <= x + w for s in squares)


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=SIZE_IDS.get)
def test_the_main_scene_places_its_controls_by_the_layout(size: tuple[int, int]) -> None:
    shell = Shell(size, [])
    shell.start()
    placed = {c.id: (c.x, c.y, c.w, c.h) for c in shell.app.scene.controls()}
    lay = layout(*size)
    expected = {f"shoot-{k}": rect for k, rect in enumerate(lay.arrows)}
    expected |= {"howto": lay.howto, "rules": lay.rules, "speed": lay.speed, "sound": lay.sound}
    assert placed == expected
    labels = [c.label for c in shell.app.scene.controls() if c.id.startswith("shoot-")]
    assert labels == [f"Shoot {name}" for name in ARROW_NAMES]
    assert labels[0] == "Shoot steep left" and labels[-1] == "Shoot steep right"


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=SIZE_IDS.get)
def test_a_bonus_game_s_awarded_pucks_wait_inside_the_window(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Model 3's Bonus Games can award several Pucks at once (seed 2138: 3 extra and 2 Power
    Pucks): those waiting beside the counter, or their '+N', stay inside the window."""
    book = build_book(MODEL, Composition(), (2138).to_bytes(16, "big"))
    replay = Replay(book)
    state = max(
        (replay.state_at(i) for i in range(len(book.events))),
        key=lambda s: (s.stage == "bonus", s.pending_extra + s.pending_power),
    )
    assert state.stage == "bonus" and state.pending_extra + state.pending_power == 5
    drawn: list[tuple[float, float]] = []  # (centre x, radius) of each puck icon
    texts: list[str] = []
    monkeypatch.setattr(paint.art, "puck", lambda _c, x, _y, s, _p=False: drawn.append((x, s / 2)))
    label = paint.art.label

    def labelled(c: Any, text: str, *args: Any, **kwargs: Any) -> None:
        texts.append(text)
        label(c, text, *args, **kwargs)

    monkeypatch.setattr(paint.art, "label", labelled)
    lay = layout(*size)
    moment = paint.Moment(state, state, None, 1.0, Motion(), 0.0, None)
    paint.counter(CommandCanvas(*size, lambda s, px, _f, _b: len(s) * px * EM), lay, moment)
    assert all(x - r >= 0 and x + r <= lay.width for x, r in drawn), (drawn, lay.width)
    waiting = [x for x, _ in drawn if x > lay.pucks[0] + lay.pucks[2]]
    shown = len(waiting) + sum(int(t[1:]) for t in texts if t.startswith("+"))
    assert shown == 5 + max(0, state.bonus_pucks_left - 6)


EM = 0.65  # Nunito 700 capitals, about


def text_boxes(draw: Callable[[CommandCanvas], None], size: tuple[int, int]) -> list[Rect]:
    """The boxes of the texts a painter draws, measured (and fitted by fit_text) at EM a
    character, as wide as the fonts' capitals, so words apart here are apart on screen."""
    canvas = CommandCanvas(*size, lambda s, px, _f, _b: len(s) * px * EM)
    draw(canvas)
    boxes = []
    for command in BatchReader().read(canvas.flush()):
        if command[0] == "text":
            text, x, y, px, align = command[1], command[2], command[3], command[4], command[8]
            w = len(text) * px * EM
            left = {"left": x, "center": x - w / 2, "right": x - w}[align]
            boxes.append((left, y - px / 2, w, px))
    return boxes


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=SIZE_IDS.get)
@pytest.mark.parametrize("pence", [0, 1500, 50_000])
def test_the_header_words_and_the_prize_pot_fit_apart(size: tuple[int, int], pence: int) -> None:
    """The title or the PRIZE POT panel, and the balance: each inside the header, apart."""
    lay = layout(*size)
    flow: Any = SimpleNamespace(balance=1_234_56, mode="play")  # a long balance
    state: Any = SimpleNamespace(stage="prize", pot=pence)  # what the header reads of a state
    prize_game = paint.Moment(state, state, None, 1.0, Motion(), 0.0, None)
    for mo in (None, prize_game):
        words = text_boxes(partial(paint.header, lay=lay, flow=flow, mo=mo), size)
        assert len(words) == (3 if mo else 2)
        assert all(inside(b, *lay.header[2:]) for b in words), (size, words)
        assert all(apart(a, b) for a, b in itertools.combinations(words, 2)), (size, words)
        assert all(b[3] >= 10 for b in words), (size, words)  # readable, once fitted
        if mo is not None:  # the PRIZE POT panel's words inside it
            x, y, w, h = lay.pot
            assert all(inside((bx - x, by - y, bw, bh), w, h) for bx, by, bw, bh in words[:2])


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=SIZE_IDS.get)
def test_the_meter_labels_fit_their_segments_and_can_be_read(size: tuple[int, int]) -> None:
    """'1 PRIZE PUCK' ... '5 PRIZE PUCKS' on the top five segments, each inside its segment, in
    one line, all at one size of 9 px or more (the Prize Table's rows are checked above)."""
    lay = layout(*size)
    state: Any = SimpleNamespace(meter=7)
    mo = paint.Moment(state, state, None, 1.0, Motion(), 0.0, None)
    words = text_boxes(lambda c: paint.meter(c, lay, mo), size)
    assert words
    assert all(b[3] >= 9 for b in words), (size, [round(b[3], 1) for b in words])
    assert len(words) == 5 and len({b[3] for b in words}) == 1  # one line each, all alike
    x, y, w, h = lay.meter
    assert all(inside((bx - x, by - y, bw, bh), w, h) for bx, by, bw, bh in words)


# ---- 3. keys ---------------------------------------------------------------------------------
def wait_for_arrows(shell: Shell) -> None:
    for _ in range(3000):
        if "shoot-0" in shell.enabled():
            return
        shell.frame()
    raise AssertionError("the arrows never became enabled")


@pytest.mark.parametrize("key", "123456")
def test_a_number_key_shoots_that_arrow(key: str) -> None:
    shell = Shell((1280, 720), [])
    shell.start()
    wait_for_arrows(shell)
    shell.frame(Key(key))
    play = shell.scene.flow.play
    assert play is not None
    assert list(play.choices.values()) == [int(key) - 1]
    index = shell.scene.player.current
    assert index is not None and play.choices == {index: int(key) - 1}
    assert shell.scene.player.prepared(index)["arrow"] == int(key) - 1
    assert any(f"shot, {ARROW_NAMES[int(key) - 1]}." in line for line in shell.said)


def test_left_and_right_pick_an_arrow_and_enter_shoots_it_and_finishes() -> None:
    shell = Shell((390, 844), [])
    shell.start()
    wait_for_arrows(shell)
    play = shell.scene.flow.play
    assert play is not None
    shell.frame(Key("ArrowLeft"))
    shell.frame(Key("ArrowLeft"))
    shell.frame(Key("ArrowLeft"))  # stops at the first arrow
    assert shell.said[-1] == "Arrow 1: steep left."
    shell.frame(Key("ArrowRight"))
    assert shell.said[-1] == "Arrow 2: left."
    shell.frame(Key("Enter"))
    assert list(play.choices.values()) == [1]
    for _ in range(8):
        shell.frame(Key("ArrowRight"))
    assert shell.scene.selected == ARROWS - 1
    wait_for_arrows(shell)
    shell.frame(Key(" "))
    assert list(play.choices.values()) == [1, 5]
    for _ in range(20_000):  # Enter whenever the player may move, until the end
        if shell.scene.ended():
            break
        shell.frame(*([Key("Enter")] if "shoot-0" in shell.enabled() else []))
    assert set(list(play.choices.values())[2:]) == {5}
    shell.frame()
    assert "finish" in shell.enabled()
    shell.frame(Key("Enter"))
    shell.frame()
    shell.frame()
    assert shell.app.scene.name == "outcome"


def test_a_press_while_a_shot_animates_does_nothing() -> None:
    shell = Shell((1280, 720), [])
    shell.start()
    wait_for_arrows(shell)
    shell.frame(Activate("shoot-1"))
    player = shell.scene.player
    play = shell.scene.flow.play
    assert play is not None and player.current is not None
    index, choices = player.current, dict(play.choices)
    for _ in range(5):
        shell.frame()
        assert not [c for c in shell.enabled() if c.startswith("shoot-")]
        for press in (Activate("shoot-4"), Key("5"), Key("Enter"), Key(" ")):
            shell.frame(press)
            assert player.current == index and play.choices == choices
        assert shell.scene.player.press("shoot", 3) is False
    assert player.prepared(index)["arrow"] == 1


# ---- 4. the choice never changes the book ----------------------------------------------------
def test_the_arrow_picks_the_path_only() -> None:
    composition = CASES["boosted-row"]
    left = play((1280, 720), composition, arrow=lambda k: 0)
    right = play((1280, 720), composition, arrow=lambda k: ARROWS - 1)

    def plain(said: list[str], arrow: int) -> list[str]:
        return [line.replace(f", {ARROW_NAMES[arrow]}.", ".") for line in said]

    # The same words (a row's count may come before or after a pip: it is said as its symbols
    # land, and another path reaches its pips at other moments), the same pips in order.
    assert sorted(plain(left.said, 0)) == sorted(plain(right.said, ARROWS - 1))
    pips = [[line for line in shell.said if line.startswith("Pip ")] for shell in (left, right)]
    assert pips[0] == pips[1] and pips[0]
    assert left.said != right.said
    assert any(", steep left." in line for line in left.said)
    assert not any(", steep right." in line for line in left.said)
    assert left.main is not None and right.main is not None
    players = left.main.player, right.main.player
    assert players[0].replay is not None
    shots = [i for i, e in enumerate(players[0].replay.events) if e["type"] == "shot"]
    assert shots
    for i in shots:
        a, b = (p.prepared(i) for p in players)
        assert (a["arrow"], b["arrow"]) == (0, ARROWS - 1)
        assert a["reveals"] == b["reveals"]
        assert a["path"] != b["path"] and a["path"].points != b["path"].points


# ---- 5. counters change on landing -----------------------------------------------------------
@pytest.mark.parametrize("case", ["row", "power-puck"])
def test_the_prize_table_counts_a_square_when_it_lands(case: str) -> None:
    shell = Shell((1280, 720), CASES[case])
    shell.start()
    seen: dict[int, list[tuple[int, ...]]] = {}
    moments: dict[int, paint.Moment] = {}
    for _ in shell.shots():
        mo = shell.moment()
        if mo.kind == "shot" and mo.event["game"] == "main":
            index = shell.scene.player.current
            assert index is not None
            seen.setdefault(index, []).append(tuple(paint.landed(mo).squares))
            moments[index] = mo
    assert seen
    growing = 0
    for index, drawn in seen.items():
        mo = moments[index]
        after, before = tuple(mo.state.squares), tuple(mo.before.squares)
        for counts in drawn:  # never more than after the shot, never less than before it
            assert all(b <= c <= a for b, c, a in zip(before, counts, after, strict=True))
        for earlier, later in itertools.pairwise(drawn):
            assert all(e <= n for e, n in zip(earlier, later, strict=True))  # never goes back
        assert drawn[0] == before  # nothing has landed at the press
        assert drawn[-1] == after  # everything has landed by the shot's last frame
        assert tuple(paint.landed(replace(mo, p=1.0)).squares) == after
        growing += len(set(drawn)) > 2  # the squares landed one flight at a time
    assert growing


# ---- 6. reduced motion ---------------------------------------------------------------------
def test_reduced_motion_plays_to_the_end() -> None:
    shell = play((390, 844), EVERYTHING, {"reducedMotion": "1"})
    check_finished(shell, prize_of(EVERYTHING))
    assert shell.main is not None and shell.main.flow.settings.reduced_motion
    flow = Flow(PRESENTATION, Settings(fast=True, reduced_motion=True))  # made directly
    direct = Shell((844, 390), CASES["power-puck"])
    direct.app = App(PRESENTATION.start(flow), 844, 390)
    direct.start()
    assert direct.scene.flow.motion(None).reduced
    for _ in direct.shots():
        direct.check_controls()
    direct.press("finish")
    direct.frame()
    check_finished(direct, prize_of(CASES["power-puck"]))


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
