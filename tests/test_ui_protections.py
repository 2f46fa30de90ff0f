"""The player's protections on screen: Account's way to Breaks and my data
(engine/ui/scenes/protect.py: a break, self-exclusion after its plain words, play asked back,
the data download, closing the account), the refusal of PLAY and TRY during a break or an
exclusion (engine/ui/scenes/refusal.py), and each game's header in paid play showing the
session's net position and minutes (Flow.header_figures), at every size the site supports."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from backends.canvas import BatchReader, CommandCanvas
from backends.layout import text_boxes
from engine.ui.app import App
from engine.ui.games import first_scene
from engine.ui.input import Activate, Reply
from engine.ui.scenes.protect import PLAIN_WORDS, ProtectScene
from engine.ui.scenes.refusal import RefusalScene, refusal_lines
from engine.ui.widgets import READABLE_PX
from tests.test_ui_lab_riches import CASES as LAB_CASES
from tests.test_ui_lab_riches import ReadingShell, payload
from tests.test_ui_power_puck_shot import EVERYTHING, GAME
from tests.test_ui_scenes import SIZES

STATE = {"on_break": False, "excluded": False, "can_ask_back": False, "play_resumes_at": None,
         "excluded_until": None, "closed": False}  # fmt: skip
RESUMES = "2026-12-14T09:30:00.000Z"


def measure(s: str, size: float, family: str, bold: bool) -> float:
    return len(s) * size * 0.55


class Page:
    """The lobby's Account page, then Breaks and my data, its requests answered from `answers`
    (op -> body, or (ok, body)), every frame's texts read."""

    def __init__(self, size: tuple[int, int], answers: dict[str, Any] | None = None) -> None:
        self.w, self.h = size
        self.answers = {"protections": STATE, **(answers or {})}
        self.app = App(first_scene({}), *size, {"session": (True, {"balance_pence": 5_000})})
        self.asked: list[dict[str, Any]] = []
        self.said: list[str] = []
        self.boxes: list[dict[str, Any]] = []
        self.reader = BatchReader()
        self.pending: list[Any] = []
        self.now = 0.0
        self.frame()
        self.frame(Activate("account"))
        self.frame(Activate("protect"))
        self.rest()

    def frame(self, *events: Any) -> None:
        canvas = CommandCanvas(self.w, self.h, measure)
        self.now += 1000 / 60
        result = self.app.frame(self.now, [*self.pending, *events], canvas)
        if result.drew:  # (a page at rest draws nothing new: the last frame stands)
            self.boxes = text_boxes(BatchReader().read(canvas.flush()), measure)
        self.said += result.narration
        self.pending = []
        for request in result.requests:
            self.asked.append(request)
            answer = self.answers.get(request["op"], {})
            ok, body = answer if isinstance(answer, tuple) else (True, answer)
            self.pending.append(Reply(request["id"], ok, body))

    def rest(self) -> None:
        """Frames until a screen change is over and every answer is in."""
        self.frame()
        for _ in range(600):
            if not self.app.changing() and not self.pending:
                return
            self.frame()
        raise AssertionError("the page never came to rest")

    def press(self, control: str) -> None:
        self.frame(Activate(control))
        self.rest()

    @property
    def scene(self) -> ProtectScene:
        scene = self.app.scene
        assert isinstance(scene, ProtectScene)
        return scene

    def texts(self) -> list[str]:
        return [b["text"] for b in self.boxes]

    def shown(self) -> str:
        """The words on screen, rows joined (a sentence may wrap)."""
        return " ".join(self.texts())

    def ops(self) -> list[tuple[str, dict[str, Any]]]:
        keep = ("what", "length", "understood")
        return [(r["op"], {k: r[k] for k in keep if k in r}) for r in self.asked]


def fits(page: Page) -> None:
    """Every button is a finger's size, inside the window and clear of the others; every line
    of words is inside the window, legible, and clear of the buttons."""
    w, h = page.w, page.h
    controls = page.scene.controls()
    for c in controls:
        assert c.w >= 44 and c.h >= 44, c
        assert c.x >= 0 and c.y >= 0 and c.x + c.w <= w + 0.5 and c.y + c.h <= h + 0.5, c
    for a, b in itertools.combinations(controls, 2):
        assert a.y + a.h <= b.y or b.y + b.h <= a.y or a.x + a.w <= b.x or b.x + b.w <= a.x
    labels = {c.label for c in controls}
    words = [b for b in page.boxes if b["text"] not in labels and b["text"] != "×"]
    assert words, page.texts()
    for box in words:
        x, y, bw, bh = box["box"]
        assert x >= -0.5 and x + bw <= w + 0.5 and y >= -0.5 and y + bh <= h + 0.5, box
        if box["text"] in " ".join(PLAIN_WORDS) or y > 150:  # the page's own words
            assert box["size"] >= 12, box
            for c in controls[1:]:
                clear = y + bh <= c.y or c.y + c.h <= y or x + bw <= c.x or c.x + c.w <= x
                assert clear, (box, c)


STEPS = [
    [],
    ["break"],
    ["break", "break:6w"],
    ["exclusion"],
    ["exclusion", "understood"],
    ["exclusion", "understood", "exclude:5y"],
    ["close-step"],
]


@pytest.mark.parametrize("size", [pytest.param(s, id=f"{s[0]}x{s[1]}") for s in SIZES])
def test_every_step_of_breaks_and_my_data_fits_every_size(size: tuple[int, int]) -> None:
    for steps in STEPS:
        page = Page(size)
        for control in steps:
            page.press(control)
        fits(page)


def test_account_leads_to_breaks_and_my_data_which_reads_the_account_s_state() -> None:
    page = Page((390, 844), {"protections": {**STATE, "on_break": True,
                                             "play_resumes_at": RESUMES}})  # fmt: skip
    assert page.ops()[-1] == ("protections", {})
    assert [c.id for c in page.scene.controls()] == [
        "close", "break", "exclusion", "data", "close-step"
    ]  # fmt: skip
    standing = "You are taking a break until 14 Dec 2026, 09:30."  # the player's time (UTC here)
    assert standing in page.said and standing in page.shown()
    page.press("close")
    assert page.app.scene.name == "account"


def test_a_break_is_asked_for_only_once_its_length_is_confirmed() -> None:
    page = Page((1280, 720), {"protect": {**STATE, "on_break": True, "play_resumes_at": RESUMES}})
    page.press("break")
    assert [c.label for c in page.scene.controls()[1:]] == [
        "24 hours", "1 week", "1 month", "6 weeks", "Back"
    ]  # fmt: skip
    page.press("break:1w")
    assert any("break of 1 week" in line for line in page.said)
    page.press("back")  # changed its mind: back to the lengths, nothing asked
    page.press("break:1m")
    asked = [op for op, _ in page.ops() if op != "remaining"]  # (the lobby's prizes remaining)
    assert asked == ["protections"]  # (the session: answered early)
    page.press("take-break")
    assert page.ops()[-1] == ("protect", {"what": "break", "length": "1m"})
    assert "You are taking a break until 14 Dec 2026, 09:30." in page.shown()


def test_self_exclusion_says_plainly_what_it_means_before_any_length() -> None:
    page = Page((360, 640), {"protect": {**STATE, "excluded": True, "excluded_until": RESUMES}})
    page.press("exclusion")
    said = " ".join(page.said)
    assert all(words in said for words in PLAIN_WORDS)  # the screen reader hears them whole
    assert "cannot be shortened" in page.shown() and "GamCare" in page.shown()
    assert "exclude:6m" not in page.scene.controls()  # no length before the words are read
    page.press("understood")
    page.press("exclude:6m")
    assert not any(op == "protect" for op, _ in page.ops())
    page.press("exclude")
    assert page.ops()[-1] == (
        "protect", {"what": "exclusion", "length": "6m", "understood": True}
    )  # fmt: skip
    assert "You are self-excluded until 14 Dec 2026, 09:30." in page.said
    assert "break" not in {c.id for c in page.scene.controls() if c.enabled}  # adds nothing


def test_after_an_exclusion_s_term_play_is_asked_back() -> None:
    over = {**STATE, "excluded": True, "can_ask_back": True, "excluded_until": RESUMES}
    page = Page(
        (844, 390),
        {
            "protections": over,
            "protect": {**over, "can_ask_back": False, "play_resumes_at": RESUMES},
        },
    )
    page.press("ask-back")
    assert page.ops()[-1] == ("protect", {"what": "return"})
    assert "Play comes back on 14 Dec 2026, 09:30." in page.shown()


def test_a_refused_request_is_said_and_changes_nothing_on_screen() -> None:
    message = "You are already on a break until 14 Dec 2026 (UTC); it cannot be shortened."
    page = Page((390, 844), {"protect": (False, {"code": "break_running", "message": message})})
    page.press("break")
    page.press("break:24h")
    page.press("take-break")
    assert message in page.said and message in page.shown()
    assert [c.id for c in page.scene.controls()][1] == "break"  # back at the page's start


def test_the_data_download_and_closing_the_account_ask_the_shell() -> None:
    closed = {"closed_at": RESUMES, "plays_settled": 1, "prizes_pence": 500,
              "paid_out_pence": 5_500}  # fmt: skip
    page = Page((390, 844), {"my_data": {"saved": True, "name": "lottery-account-ab.json"},
                             "close_account": closed})  # fmt: skip
    page.press("data")
    assert page.ops()[-1] == ("my_data", {})
    assert "Your data is saved as lottery-account-ab.json." in page.shown()
    page.press("close-step")
    assert any("balance (£50.00 now) is paid out" in line for line in [page.shown(), *page.said])
    assert page.ops()[-1] == ("my_data", {})  # nothing closed before it is confirmed
    page.press("close-account")
    assert [op for op, _ in page.ops()][-2:] == ["close_account", "open"]
    assert "Your account is closed. £55.00 was paid out." in page.said


def when(moment: object) -> str:
    return "14 Dec 2026, 09:30" if moment == RESUMES else ""


def test_play_and_try_refused_for_a_break_or_an_exclusion_say_why_and_until_when() -> None:
    title, lines = refusal_lines({"code": "break_taken", "until": RESUMES}, when)
    assert title == "YOU ARE TAKING A BREAK"
    assert "Play comes back on 14 Dec 2026, 09:30." in lines
    assert any("Nothing was charged" in line for line in lines)
    title, lines = refusal_lines({"code": "self_excluded", "until": RESUMES}, when)
    assert title == "YOU ARE SELF-EXCLUDED"
    assert lines[0] == "You have excluded yourself from play until 14 Dec 2026, 09:30."
    _, lines = refusal_lines({"code": "self_excluded", "until": None}, when)
    assert "ask for it in Account" in lines[0]


@pytest.mark.parametrize("code", ["break_taken", "self_excluded"])
def test_the_refusal_of_a_break_offers_back_only(code: str) -> None:
    shell = ReadingShell((390, 844), {"play_number": 7, "payload": payload([])})

    class Refusing(ReadingShell):
        def answer(self, request: dict[str, Any]) -> Reply:
            if request["op"] == "purchase":
                body = {"code": code, "message": "No.", "until": RESUMES}
                return Reply(request["id"], False, body)
            return super().answer(request)

    shell = Refusing((390, 844), {"play_number": 7, "payload": payload([])})
    shell.frame()
    shell.press("play")
    for _ in range(5):
        shell.frame()
    shell.rest()
    assert isinstance(shell.app.scene, RefusalScene)
    assert [c.id for c in shell.app.scene.controls()] == ["return"]
    assert any("14 Dec 2026" in line for line in shell.said)


class Session(ReadingShell):
    """A game's page whose session began 12 minutes ago with £53.00 (the shell's clock)."""

    def answer(self, request: dict[str, Any]) -> Reply:
        if request["op"] == "session":
            clock = {"elapsed_ms": 12 * 60_000, "start_balance_pence": 5_300}
            return Reply(request["id"], True, {"balance_pence": 5_000, "session": clock})
        if request["op"] == "try":
            return Reply(request["id"], True, {"token": "t", **self.body})
        return super().answer(request)


@pytest.mark.parametrize("game", ["lab-riches", "power-puck-shot"])
@pytest.mark.parametrize("size", [(1280, 720), (390, 844), (360, 640), (844, 390)],
                         ids=lambda s: f"{s[0]}x{s[1]}")  # fmt: skip
def test_paid_play_s_header_shows_the_session_s_net_position_and_minutes_try_s_does_not(
    game: str, size: tuple[int, int]
) -> None:
    composition = LAB_CASES["row"] if game == "lab-riches" else EVERYTHING
    title = "LAB RICHES" if game == "lab-riches" else "£500K POWER PUCK SHOT"
    for mode in ("play", "try"):
        params = {"game": game if game == "lab-riches" else GAME, "fast": "1"}
        if mode == "try":
            params["mode"] = "try"
        body = {"play_number": 42, "payload": payload(composition, 7, params["game"])}
        shell = Session(size, body, params)
        shell.frame()
        shell.frame()
        shell.press("play")
        for _ in range(3):
            shell.frame()
        shell.rest()
        boxes = text_boxes(shell.drawn, lambda s, px, f, b: len(s) * px * 0.55)
        # the long form where it fits at READABLE_PX, else the short (widgets.session_figures)
        figures = [b for b in boxes if b["text"] in ("Net -£6.00 · 12 min", "-£6.00 · 12m")]
        if mode == "try":
            assert figures == [] and not any("Balance" in b["text"] for b in boxes)
            assert not any(line.startswith("This session") for line in shell.said)
            continue
        # bought at £3.00 from £50.00: £6.00 down since the session's £53.00, 12 minutes in
        assert len(figures) == 1, figures
        assert "This session: down £6.00, 12 minutes played." in shell.said  # and heard
        balance = next(b for b in boxes if b["text"] == "Balance £47.00")
        name = next(b for b in boxes if b["text"] == title)
        shown = figures[0]
        assert shown["size"] >= READABLE_PX, shown
        x, y, w, _ = shown["box"]
        assert y >= balance["box"][1] + balance["box"][3] - 0.5  # under the balance
        assert x >= name["box"][0] + name["box"][2] and x + w <= size[0] + 0.5  # clear of it
