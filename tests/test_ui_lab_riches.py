"""Lab Riches screens natively: whole plays driven by books, replies fed as a shell would, PNGs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backends.canvas import BatchReader, CommandCanvas
from backends.native import render_frames
from engine.games import get
from engine.money import format_pounds
from engine.outcome import Composition
from engine.ui.app import App, FrameResult
from engine.ui.flow import TokenRejected, book_from_payload
from engine.ui.games import first_scene
from engine.ui.input import Activate, Event, Key, Reply
from engine.ui.lab_riches.layout import MIN_TARGET

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
SIZES = {"desktop": (1280, 720), "phone": (390, 844)}
CASES = {
    "losing": [],
    "meter": [{"feature": "meter", "pence": 400}],
    "row": [{"feature": "row", "pence": 300}],
    "instant": [{"feature": "instant", "pence": 500}],
    "top": [{"feature": "meter", "pence": 25_000_000}],
}


def payload(
    composition: list[dict[str, Any]], seed: int = 7, game: str = "lab-riches"
) -> dict[str, Any]:
    """A token payload of the game's current model, as the shell hands it over after checking
    its signature."""
    model = get(game).table.model
    book = get(game).book(model, Composition.from_json(composition), seed.to_bytes(16, "big"))
    return {
        "account": "a1b2c3",
        "game": game,
        "model": model,
        "pool": "0123456789abcdef",
        "index": 41,
        "composition": composition,
        "seed": book.seed,
        "prize_pence": book.prize_pence,
        "play_number": 100_000_042,
        "iat": 1_790_000_000,
    }


def faded(commands: list[list[Any]]) -> Iterator[tuple[float, list[Any]]]:
    """Each drawing command of a batch with the opacity it is drawn at (the product of the
    `alpha`s in force, as `save` and `restore` keep and bring them back)."""
    alpha, stack = 1.0, []
    for command in commands:
        if command[0] == "save":
            stack.append(alpha)
        elif command[0] == "restore":
            alpha = stack.pop()
        elif command[0] == "alpha":
            alpha *= command[1]
        yield alpha, command


class Shell:
    """Answers the frame's requests the way web/shell/js/bridge.js does, from fixed data."""

    def __init__(
        self, size: tuple[int, int], body: dict[str, Any], params: dict[str, str] | None = None
    ) -> None:
        self.app = App(first_scene({"game": "lab-riches", **(params or {"fast": "1"})}), *size)
        self.canvas = CommandCanvas(size[0], size[1], lambda s, px, f, b: len(s) * px * 0.55)
        self.body = body
        self.now = 0.0
        self.pending: list[Event] = []
        self.said: list[str] = []
        self.results: list[FrameResult] = []
        self.saved: list[int] = []
        self.last: FrameResult | None = None

    def answer(self, request: dict[str, Any]) -> Reply:
        op = request["op"]
        if op == "session":
            return Reply(request["id"], True, {"balance_pence": 5_000})
        if op == "resume":
            return Reply(request["id"], True, {"found": False})
        if op == "purchase":
            return Reply(request["id"], True, {"balance_pence": 4_700, "token": "t", **self.body})
        if op == "save":
            self.saved.append(request["index"])
        if op == "finish":
            prize = self.body["payload"]["prize_pence"]
            body = {"prize_pence": prize, "balance_pence": 4_700 + prize}
            return Reply(request["id"], True, body)
        return Reply(request["id"], True, {})

    def frame(self, *events: Event) -> FrameResult:
        self.now += 1000 / 60
        result = self.app.frame(self.now, [*self.pending, *events], self.canvas)
        self.canvas.flush()
        self.pending = [self.answer(r) for r in result.requests]
        self.said += result.narration
        self.results.append(result)
        self.last = result
        return result

    def rest(self) -> None:
        """Frames until a screen change is over (engine/ui/transition.py): one screen shows."""
        while self.app.changing():
            self.frame()

    def press(self, control: str) -> None:
        for _ in range(3000):
            enabled = {c.id for c in self.app.scene.controls() if c.enabled}
            if control in enabled:
                self.frame(Activate(control))
                return
            self.frame()
        raise AssertionError(f"{control} never became enabled")

    def controls(self) -> set[str]:
        return {c.id for c in self.app.scene.controls()}

    def goes(self) -> Iterator[None]:
        """PLAY, then a frame at a time (GO as soon as it is enabled) until FINISH shows; the
        caller looks at each frame as it is yielded."""
        self.frame()
        self.press("play")
        for _ in range(20_000):
            if "finish" in self.controls():
                return
            enabled = {c.id for c in self.app.scene.controls() if c.enabled}
            self.frame(*([Activate("go")] if "go" in enabled else []))
            yield
        raise AssertionError("the play never reached FINISH")


def play(
    size: tuple[int, int], composition: list[dict[str, Any]], params: dict[str, str] | None = None
) -> Shell:
    """A whole play bought, played (GO as soon as it is enabled) and finished."""
    shell = Shell(size, {"play_number": 100_000_042, "payload": payload(composition)}, params)
    for _ in shell.goes():
        for control in shell.app.scene.controls():
            assert control.w >= MIN_TARGET and control.h >= MIN_TARGET, control
            assert control.x >= 0 and control.x + control.w <= size[0] + 0.5, control
            assert control.y >= 0 and control.y + control.h <= size[1] + 0.5, control
    shell.press("finish")
    shell.frame()
    return shell


@pytest.mark.parametrize("view", SIZES)
@pytest.mark.parametrize("case", CASES)
def test_a_whole_play_narrates_its_prize_and_finishes(view: str, case: str) -> None:
    shell = play(SIZES[view], CASES[case])
    prize = sum(int(str(p["pence"])) for p in CASES[case])
    totals = [line for line in shell.said if line.startswith(("Total won", "Your £"))]
    # the price back is said as such (engine/ui/celebration.py), never as a win
    back = prize == 300
    assert totals == [
        f"Your {format_pounds(prize)} back" if back else f"Total won {format_pounds(prize)}"
    ]
    assert shell.app.scene.name == "outcome"
    assert f"Balance {format_pounds(4_700 + prize)}" in shell.said
    assert shell.saved and shell.saved == sorted(shell.saved)


def test_a_bonus_game_says_what_it_won() -> None:
    shell = play(SIZES["phone"], CASES["instant"])
    at = shell.said.index("BONUS GAME ACTIVATED.")
    assert "Press GO for the Bonus Game." in shell.said[at:]
    assert any("YOU HAVE WON" in line for line in shell.said)
    assert "Instant Prize £5.00 added to INSTANT WINS." in shell.said


def test_keys_press_go() -> None:
    shell = Shell(SIZES["desktop"], {"play_number": 1, "payload": payload([])})
    shell.frame()
    shell.press("play")
    shell.frame()
    shell.frame(Key(" "))
    assert shell.app.scene.player.current == 1  # type: ignore[attr-defined]
    for _ in range(60):  # said once the Top Row has turned over
        shell.frame()
    assert any(line.startswith("Go 1:") for line in shell.said)


def test_a_payload_that_does_not_add_up_is_refused() -> None:
    forged = {**payload([]), "prize_pence": 25_000_000}
    with pytest.raises(TokenRejected):
        book_from_payload(forged, get("lab-riches"))
    with pytest.raises(TokenRejected):
        book_from_payload({**payload([]), "game": "power-puck-shot"}, get("lab-riches"))
    with pytest.raises(TokenRejected):
        book_from_payload({**payload([]), "seed": "not hex"}, get("lab-riches"))
    shell = Shell(SIZES["desktop"], {"play_number": 1, "payload": forged})
    shell.frame()
    shell.press("play")
    shell.frame()
    assert "This play could not be verified, so it cannot be shown." in shell.said
    assert shell.app.scene.name == "splash"


def _png_steps(composition: list[dict[str, Any]], presses: list[str]) -> list[list[Event]]:
    """Frames for render_frames: the session and resume replies, then one press (or '') each."""
    body = {"play_number": 100_000_042, "token": "t", "payload": payload(composition)}
    steps: list[list[Event]] = [
        [],
        [Reply("r1", True, {"balance_pence": 5_000})],
        [Reply("r2", True, {"found": False})],
    ]
    for press in presses:
        steps.append([Activate(press)] if press else [])
        if press == "play":
            steps.append([Reply("r3", True, {"balance_pence": 4_700, **body})])
    return steps


SCREENS: dict[str, list[str]] = {
    "splash": [""],
    "how-to-play-1": ["howto", ""],
    "how-to-play-5": ["howto", "next", "next", "next", "next", ""],
    "rules": ["rules", ""],
    "prizes": ["rules", "next", ""],
    "main-start": ["play", ""],
    "main-go-1": ["play", "", "go", *[""] * 30],
    "main-rest": ["play", "", "go", *[""] * 400],
}


@pytest.mark.parametrize("view", SIZES)
@pytest.mark.parametrize("screen", SCREENS)
def test_screens_render_through_pygame(view: str, screen: str) -> None:
    out = ARTIFACTS / f"native-{view}-{screen}.png"
    render_frames(
        first_scene({"game": "lab-riches"}),
        SIZES[view],
        out,
        steps=_png_steps(CASES["instant"], SCREENS[screen]),
    )
    assert out.stat().st_size > 10_000  # a drawn scene, not a blank frame


def test_the_narration_counts_and_names_in_good_english() -> None:
    from types import SimpleNamespace

    from engine.ui.lab_riches import narrate

    one = SimpleNamespace(goes_left=1, top=("dna", "atom", "flask", "magnet"))
    said = narrate.HANDLERS["go"]({"type": "go", "go": 5}, one)  # type: ignore[arg-type]
    assert said[0][1].startswith("Go 5: 1 go left. Top Row: DNA")
    lock = {"type": "lock", "symbol": "dna", "row": 0, "col": 2}
    assert narrate.HANDLERS["lock"](lock, one)[0][1].startswith("DNA locked")  # type: ignore[arg-type]
    extra = {"type": "extra_goes", "count": 1, "goes_left": 1}
    assert narrate.HANDLERS["extra_goes"](extra, one)[0][1] == "1 extra go: 1 go left."  # type: ignore[arg-type]
    assert narrate.award_words("segments", 1) == "1 meter segment"
    assert narrate.award_words("segments", 3) == "3 meter segments"


class ReadingShell(Shell):
    """A Shell that decodes every frame it draws and keeps the texts of the last one."""

    texts: tuple[str, ...] = ()
    drawn: tuple[list[Any], ...] = ()  # the last drawn frame's commands

    def frame(self, *events: Event) -> FrameResult:
        if not hasattr(self, "reader"):
            self.reader = BatchReader()
        self.now += 1000 / 60
        result = self.app.frame(self.now, [*self.pending, *events], self.canvas)
        if result.drew:  # every frame read, so the string table stays in step
            self.drawn = tuple(self.reader.read(self.canvas.flush()))
            self.texts = tuple(str(c[1]) for c in self.drawn if c[0] == "text")
        self.pending = [self.answer(r) for r in result.requests]
        self.said += result.narration
        return result

    def box(self, title: str) -> str:
        """The value a titled box (GOES, TOTAL WON, INSTANT WINS) shows now."""
        return self.texts[self.texts.index(title) + 1]


def test_a_finish_that_fails_says_so_on_screen_and_is_tried_again() -> None:
    lost = "The connection failed. Check your connection and try again."

    class Flaky(ReadingShell):
        failures = 1

        def answer(self, request: dict[str, Any]) -> Reply:
            if request["op"] == "finish" and self.failures:
                self.failures -= 1
                return Reply(request["id"], False, {"code": "network", "message": lost})
            return super().answer(request)

    shell = Flaky(SIZES["phone"], {"play_number": 7, "payload": payload([])})
    for _ in shell.goes():
        pass
    shell.press("finish")
    shell.frame()
    control = next(c for c in shell.app.scene.controls() if c.id == "finish")
    assert (control.label, control.enabled) == ("TRY AGAIN", True)
    shell.frame()
    assert lost in shell.texts  # on screen, not only in the narration
    shell.press("finish")
    shell.frame()
    assert shell.app.scene.name == "outcome"


def test_a_counter_changes_when_its_animation_lands() -> None:
    from engine.ui.lab_riches.paint import LAND

    shell = ReadingShell(SIZES["desktop"], {"play_number": 7, "payload": payload(CASES["instant"])})
    seen: list[tuple[float, str, str]] = []
    for _ in shell.goes():
        player = shell.app.scene.player  # type: ignore[attr-defined]
        event = player.event()
        if event is not None and event["type"] == "instant":
            seen.append((player.progress(), shell.box("INSTANT WINS"), shell.box("TOTAL WON")))
    assert seen, "the play showed no Instant Prize"
    before = [(wins, total) for p, wins, total in seen if p < LAND]
    after = [(wins, total) for p, wins, total in seen if p >= LAND]
    assert before and set(before) == {("£0.00", "£0.00")}  # still flying
    assert after and set(after) == {("£5.00", "£5.00")}  # landed


def test_the_end_message_can_be_put_aside_and_the_top_prize_is_celebrated() -> None:
    shell = ReadingShell(SIZES["phone"], {"play_number": 7, "payload": payload(CASES["top"])})
    for _ in shell.goes():
        pass
    shell.frame()
    assert "TOP PRIZE!" in shell.texts and "TOTAL WON £250,000.00" in shell.texts
    assert [c.id for c in shell.app.scene.controls()] == ["finish", "board"]
    shell.press("board")  # the message put aside: the final board, FINISH still there
    shell.frame()
    assert "TOTAL WON £250,000.00" not in shell.texts and "FINISH" in shell.texts
    assert "See the message" in [c.label for c in shell.app.scene.controls()]
    shell.press("board")
    shell.frame()
    assert "TOTAL WON £250,000.00" in shell.texts


def test_answers_the_page_already_has_make_the_first_frame_playable() -> None:
    """The page asks for the session and the unfinished play as it starts (docs/build.md):
    given to Python with its start, no request goes out for them and PLAY is enabled in the
    first frame; without them it takes the frames their round trips need."""
    canvas = CommandCanvas(390, 844, lambda s, px, f, b: len(s) * px * 0.55)
    answered: dict[str, tuple[bool, dict[str, Any]]] = {
        "session": (True, {"balance_pence": 5_000}),
        "resume": (True, {"found": False}),
    }
    app = App(first_scene({"game": "lab-riches"}), 390, 844, answered)
    first = app.frame(16.0, [], canvas)
    assert first.requests == []
    assert first.controls is not None
    assert any(c.id == "play" and c.enabled for c in first.controls)
    assert any("£50.00" in line for line in first.narration)

    shell = Shell((390, 844), {})
    frames = 1
    shell.frame()
    while not any(c.id == "play" and c.enabled for c in shell.app.scene.controls()):
        shell.frame()
        frames += 1
    assert frames == 3  # the session's answer, then the unfinished play's


def test_an_answer_the_page_had_is_used_once_and_an_error_is_said() -> None:
    canvas = CommandCanvas(390, 844, lambda s, px, f, b: len(s) * px * 0.55)
    failed = (False, {"code": "unavailable", "message": "The wallet is resting."})
    app = App(first_scene({"game": "lab-riches"}), 390, 844, {"session": failed})
    first = app.frame(16.0, [], canvas)
    assert first.requests == []  # the answer was there: nothing asked, no look for a play
    assert any("The wallet is resting." in line for line in first.narration)
    retry = app.frame(32.0, [Activate("retry")], canvas)
    assert [r["op"] for r in retry.requests] == ["session"]  # the retry asks afresh


def test_the_dimmed_top_row_keeps_its_numbers_at_full_contrast() -> None:
    """Before the Top Row is in play its squares are drawn dimmed, but what a player reads on
    them (a lightning's number, '+3 GOES') is drawn again at full opacity over them: at 0.45 a
    lightning's ink '4' on its blue badge fell to about 2.7:1 (the layout test's fault)."""
    import dataclasses

    from engine.lab_riches.replay import Replay
    from engine.ui.lab_riches import paint
    from engine.ui.lab_riches.layout import layout
    from engine.ui.motion import Motion

    game = get("lab-riches")
    book = game.book(game.table.model, Composition.from_json([]), (7).to_bytes(16, "big"))
    state = dataclasses.replace(
        Replay(book).state_at(0), top=("lightning/4", "extra-goes/3", "flask", "atom"),
        top_active=False,
    )  # fmt: skip
    lay = layout(1280, 720)
    canvas = CommandCanvas(1280, 720, lambda s, px, _f, _b: len(s) * px * 0.55)
    paint.grid(canvas, lay, state, None, 1.0, Motion(reduced=False, seconds=1.0))
    shown: dict[str, float] = {}
    for alpha, (name, *args) in faded(BatchReader().read(canvas.flush())):
        if name == "text":
            shown[args[0]] = max(shown.get(args[0], 0.0), alpha)
    assert shown["4"] == 1.0 and shown["+3"] == 1.0 and shown["GOES"] == 1.0
