"""The Limits page (engine/ui/scenes/limits.py): amounts typed in pounds, in the browser's
mirrored field or with a native window's keys, set as pence; what cannot be a limit is said."""

from __future__ import annotations

from typing import Any

import pytest

from backends.canvas import BatchReader, CommandCanvas
from backends.layout import text_boxes
from engine.ui.app import App
from engine.ui.input import Activate, Event, Focus, Key, Reply, Typed, event_from_json
from engine.ui.scenes.limits import LimitsScene
from engine.ui.scenes.lobby import LobbyScene
from tests.test_ui_scroll import lobby, measure

NONE = {"limit_pence": None, "spent_pence": 0, "pending": None}


def opened(w: int = 390, h: int = 844) -> tuple[App, LimitsScene, CommandCanvas]:
    """The Limits page with no limits set, its first frame drawn."""
    visit = lobby()
    LobbyScene(visit)
    scene = visit.scene("limits")
    assert isinstance(scene, LimitsScene)
    app = App(scene, w, h)
    canvas = CommandCanvas(w, h, measure)
    asked = app.frame(0, [], canvas).requests  # the session and the limits
    answers: dict[str, dict[str, Any]] = {
        "limits": {"daily": NONE, "weekly": NONE},
        "session": {"balance_pence": 5_000},
    }
    app.frame(16, [Reply(r["id"], True, answers[r["op"]]) for r in asked], canvas)
    return app, scene, canvas


SHOWN: list[str] = []  # the text of the last frame `step` drew


def step(app: App, _canvas: CommandCanvas, *events: Event) -> list[dict[str, Any]]:
    """A frame with these events (drawn on a canvas of its own); the requests it made."""
    canvas = CommandCanvas(app.width, app.height, measure)
    requests = list(app.frame(32, list(events), canvas).requests)
    SHOWN[:] = [t["text"] for t in text_boxes(BatchReader().read(canvas.flush()), measure)]
    return requests


def shown(_canvas: CommandCanvas) -> list[str]:
    return SHOWN


def test_each_period_has_an_amount_field_the_mirror_shows_as_a_decimal_input() -> None:
    app, scene, canvas = opened()
    field = next(c for c in scene.controls() if c.id == "amount:daily")
    assert field.to_json()["input"] == "decimal" and field.h >= 44
    assert [c.id for c in scene.controls()][1:] == [
        f"{kind}:{key}" for key in ("daily", "weekly") for kind in ("amount", "set", "none")
    ]
    typed = event_from_json({"type": "input", "control": "amount:daily", "value": "12.50"})
    assert typed == Typed("amount:daily", "12.50")
    step(app, canvas, typed)
    assert next(c for c in scene.controls() if c.id == "amount:daily").to_json()["value"] == "12.50"


@pytest.mark.parametrize(("typed", "pence"), [("20", 2_000), ("12.50", 1_250), ("£7.5", 750)])
def test_an_amount_typed_in_pounds_is_set_as_pence(typed: str, pence: int) -> None:
    app, _scene, canvas = opened()
    step(app, canvas, Typed("amount:weekly", typed))
    (asked,) = step(app, canvas, Activate("set:weekly"))
    assert asked["op"] == "set_limits" and asked["weekly_pence"] == pence
    assert "daily_pence" not in asked


@pytest.mark.parametrize(
    ("typed", "says"),
    [("", "Type an amount in pounds"), ("five", "Type an amount in pounds"),
     ("-5", "cannot be below £0.00"), ("2.555", "two places"),
     ("999999999", "at most £100,000,000")],
)  # fmt: skip
def test_what_cannot_be_a_limit_is_said_on_the_page_and_nothing_is_asked(
    typed: str, says: str
) -> None:
    app, _scene, canvas = opened()
    step(app, canvas, Typed("amount:daily", typed))
    assert step(app, canvas, Activate("set:daily")) == []
    assert any(says in line for line in shown(canvas))
    step(app, canvas, Typed("amount:daily", "5"))  # typing again clears the message
    assert not any(says in line for line in shown(canvas))


def test_lowering_from_no_limit_sets_what_was_typed_not_fifty_pounds() -> None:
    """The old '−£5' with no limit set gave £50; now the amount is the player's."""
    app, _scene, canvas = opened()
    step(app, canvas, Typed("amount:daily", "3"))
    (asked,) = step(app, canvas, Activate("set:daily"))
    assert asked["daily_pence"] == 300


def test_a_native_window_types_with_its_keys_and_enter_sets() -> None:
    app, scene, canvas = opened(844, 390)
    step(app, canvas, Activate("amount:daily"))  # a click on the field
    assert next(c for c in scene.controls() if c.id == "amount:daily").focused
    keys = [Key(k) for k in ("1", "5", "x", ".", "2", "5", "9", "Backspace")]
    assert step(app, canvas, *keys) == []
    assert scene.typed["daily"] == "15.25"
    (asked,) = step(app, canvas, Key("Enter"))
    assert asked["daily_pence"] == 1_525
    step(app, canvas, Focus("none:weekly"))  # Tab away: keys act as on any page again
    assert scene.editing == ""


def test_no_limit_asks_for_none() -> None:
    app, _scene, canvas = opened()
    (asked,) = step(app, canvas, Activate("none:weekly"))
    assert asked == {"id": asked["id"], "op": "set_limits", "weekly_pence": None}
