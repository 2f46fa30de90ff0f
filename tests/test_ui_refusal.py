"""A purchase refused for a spend limit (engine/ui/scenes/refusal.py): both games show which
limit, what is left and when it resets, large, with a way to Limits; a purchase refused for
limits not yet chosen says so and leads there too."""

from __future__ import annotations

from typing import Any

import pytest

from backends.canvas import BatchReader, CommandCanvas
from backends.layout import text_boxes
from engine.ui import lab_riches, power_puck_shot
from engine.ui.app import App
from engine.ui.flow import Flow
from engine.ui.input import Activate, Event, Reply
from engine.ui.presentation import Presentation
from engine.ui.scenes.refusal import RefusalScene
from engine.ui.settings import Settings
from tests.test_ui_scroll import measure

GAMES = [lab_riches.PRESENTATION, power_puck_shot.PRESENTATION]
SIZES = [(1280, 720), (390, 844), (360, 640), (844, 390)]
REACHED = {
    "code": "limit_reached",
    "message": "Your weekly limit is reached: £2.00 left. Nothing was charged.",
    "period": "weekly",
    "left_pence": 200,
    "resets_at": "2026-12-06T23:00:00Z",  # midnight in the player's zone, an hour east of UTC
}
REQUIRED = {"code": "limits_required", "message": "Choose limits.", "missing": ["daily", "weekly"]}


def frame(app: App, *events: Event) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A frame drawn on its own canvas: the requests made and the text shown."""
    canvas = CommandCanvas(app.width, app.height, measure)
    app._dirty = True  # drawn even when nothing changed
    result = app.frame(app.clock_s * 1000 + 1000 / 60, list(events), canvas)
    return list(result.requests), text_boxes(BatchReader().read(canvas.flush()), measure)


def rest(app: App) -> None:
    """Frames until the screen has changed (the transition over: engine/ui/transition.py)."""
    while app.changing():
        frame(app)


def refused_purchase(
    shown: Presentation, body: dict[str, Any], size: tuple[int, int] = (390, 844)
) -> tuple[App, Flow]:
    """A game's page whose PLAY the endpoint refuses with `body`."""
    flow = Flow(shown, Settings.from_params({"fast": "1", "tz": "60"}))
    app = App(shown.start(flow), *size)
    asked, _ = frame(app)
    for _ in range(5):  # the session, then the look for an unfinished play...
        answers = [Reply(r["id"], True, {"balance_pence": 5_000, "found": False}) for r in asked]
        buying = [r for r in asked if r["op"] == "purchase"]
        if buying:
            frame(app, Reply(buying[0]["id"], False, body))
            rest(app)
            return app, flow
        if not asked:
            flow.purchase()
        asked, _ = frame(app, *answers)
    raise AssertionError("no purchase was asked for")


@pytest.mark.parametrize("shown", GAMES, ids=lambda p: p.cover.game.id)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_limit_reached_says_which_what_is_left_and_when_large(
    shown: Presentation, size: tuple[int, int]
) -> None:
    app, _flow = refused_purchase(shown, REACHED, size)
    assert isinstance(app.scene, RefusalScene)
    _, texts = frame(app)
    said = {t["text"]: t for t in texts}
    assert said["WEEKLY LIMIT REACHED"]["size"] >= 24
    top = app.scene.controls()[0].y
    above = [t for t in texts if t["box"][1] + t["box"][3] <= top]
    words = " ".join(t["text"] for t in above if t["text"] != "WEEKLY LIMIT REACHED")
    for line in (
        "You have £2.00 left to spend this week.",
        "Your weekly limit resets on 7 Dec 2026, 00:00.",
        "Nothing was charged.",
    ):
        assert line in words
    assert min(t["size"] for t in above) >= 18  # not the old 10 px under TRY AGAIN
    w, h = size
    for c in app.scene.controls():
        assert c.w >= 44 and c.h >= 44 and c.x >= 0 and c.y + c.h <= h and c.x + c.w <= w


@pytest.mark.parametrize("shown", GAMES, ids=lambda p: p.cover.game.id)
def test_limits_opens_the_limits_page_and_back_returns(shown: Presentation) -> None:
    app, _flow = refused_purchase(shown, REACHED)
    before = app.scene.back  # type: ignore[attr-defined]
    (opened,) = frame(app, Activate("limits"))[0]
    assert opened["op"] == "open" and opened["params"] == {"page": "limits"}
    frame(app, Activate("return"))
    assert app.scene is before


@pytest.mark.parametrize("shown", GAMES, ids=lambda p: p.cover.game.id)
def test_limits_not_chosen_say_so_and_lead_to_limits(shown: Presentation) -> None:
    app, _flow = refused_purchase(shown, REQUIRED)
    _, texts = frame(app)
    lines = " ".join(t["text"] for t in texts)
    assert lines.startswith("CHOOSE YOUR LIMITS Before a paid play, choose a daily and a weekly")
    (opened,) = frame(app, Activate("limits"))[0]
    assert opened["params"] == {"page": "limits"}


def test_the_lobby_opens_at_limits_when_asked() -> None:
    from engine.ui.games import first_scene
    from engine.ui.scenes.limits import LimitsScene

    assert isinstance(first_scene({"page": "limits"}), LimitsScene)
    assert not isinstance(first_scene({"page": "nowhere"}), LimitsScene)


COOLING = {
    "code": "cooling_off",
    "message": "Your play session has ended: take a break. Nothing was charged; an unfinished "
    "play can still be finished.",
    "resumes_at": "2026-12-03T08:21:00Z",
}


@pytest.mark.parametrize("shown", GAMES, ids=lambda p: p.cover.game.id)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_cooling_off_says_when_play_resumes_large_with_only_back(
    shown: Presentation, size: tuple[int, int]
) -> None:
    app, _flow = refused_purchase(shown, COOLING, size)
    assert isinstance(app.scene, RefusalScene)  # its own screen, not a line under TRY AGAIN
    _, texts = frame(app)
    top = app.scene.controls()[0].y
    above = [t for t in texts if t["box"][1] + t["box"][3] <= top]
    assert above[0]["text"] == "TAKE A BREAK" and above[0]["size"] >= 24
    words = " ".join(t["text"] for t in above[1:])
    assert words == (
        "Your play session has ended: take a break. You can buy plays again at 3 Dec 2026, "
        "09:21. Nothing was charged; an unfinished play can still be finished."
    )
    assert min(t["size"] for t in above) >= 18
    assert [c.label for c in app.scene.controls()] == ["Back to the game"]
    before = app.scene.back
    frame(app, Activate("return"))
    assert app.scene is before


@pytest.mark.parametrize("body", [REACHED, REQUIRED, COOLING], ids=lambda b: b["code"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_panel_ends_above_the_buttons(body: dict[str, Any], size: tuple[int, int]) -> None:
    app, _flow = refused_purchase(GAMES[0], body, size)
    assert isinstance(app.scene, RefusalScene)
    (_x, y, _w, h), _big, text, _rows = app.scene.panel(CommandCanvas(*size, measure))
    assert y + h <= app.scene.controls()[0].y - 8 and text.size >= 18


def test_the_shell_writes_no_time_the_game_writes_every_time_one_way() -> None:
    """A time is written by one function (Visit.when), in the player's zone: the shell's
    scripts pass the endpoint's times on and format none (they wrote 'Dec 7, 2026, 12:00 AM'
    where the game writes '7 Dec 2026, 00:00')."""
    from pathlib import Path

    shell = Path(__file__).parent.parent / "web" / "shell"
    for script in sorted(shell.rglob("*.js")):
        text = script.read_text(encoding="utf-8")
        assert "toLocale" not in text and "DateTimeFormat" not in text, script
    flow = Flow(lab_riches.PRESENTATION, Settings.from_params({"tz": "-300"}))  # New York
    assert flow.when("2026-12-07T05:00:00Z") == "7 Dec 2026, 00:00"
    assert flow.when(1_796_619_600_000) == flow.when("2026-12-07T05:00:00Z")
    assert flow.when("not a time") == flow.when(None) == ""
