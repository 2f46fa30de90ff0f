"""The shared book player and flow (engine/ui/player.py, flow.py) with a player's choice.

No game on sale asks for a choice yet (Power Puck Shot's arrows will), so these tests play
real Lab Riches books through a copy of its Game whose GO events wait for one of six choices:
the book is the same, only what the player does to advance it differs.
"""

from dataclasses import replace
from typing import Any

from backends.canvas import CommandCanvas
from engine.game import Action
from engine.lab_riches import GAME
from engine.ui.app import App
from engine.ui.flow import Flow, read_choices
from engine.ui.input import Reply
from engine.ui.lab_riches import PRESENTATION
from engine.ui.player import BookPlayer
from tests.test_ui_lab_riches import payload

ARROWS = replace(GAME, waits={"go": Action("arrow", choices=6), "bonus_row": Action("go")})


def flow_with_play(index: int = 0, choices: object = None) -> tuple[Flow, list[dict[str, Any]]]:
    """A flow attached to an app, with a bought (or resumed) play; the requests it made."""
    flow = Flow(replace(PRESENTATION, game=ARROWS))
    app = App(PRESENTATION.start(flow), 1280, 720)
    app.frame(0.0, [], CommandCanvas(1280, 720, lambda s, px, f, b: len(s) * px * 0.55))
    flow._begin({"play_number": 9, "payload": payload([]), "choices": choices}, index)
    requests: list[dict[str, Any]] = []
    original = app.request

    def record(op: str, data: dict[str, Any], on_reply: Any) -> str:
        requests.append({"op": op, **data})
        return original(op, data, on_reply)

    app.request = record  # type: ignore[method-assign]
    return flow, requests


def test_an_event_that_waits_for_a_choice_needs_one_in_range() -> None:
    flow, requests = flow_with_play()
    player = BookPlayer(flow)
    assert player.load()
    player.announce()
    assert player.waiting() == Action("arrow", 6)
    assert not player.press("go")  # the wrong action
    assert not player.press("arrow")  # no choice
    assert not player.press("arrow", 6)  # out of range
    assert flow.play is not None and flow.play.choices == {}
    assert player.press("arrow", 4)
    assert flow.play.choices == {1: 4} and player.choice(1) == 4
    while player.update(0.5):
        pass
    saves = [r for r in requests if r["op"] == "save"]
    assert saves[-1] == {"op": "save", "game": "lab-riches", "play_number": 9,
                         "index": player.shown, "choices": {"1": 4}}  # fmt: skip


def test_choices_come_back_with_a_resumed_play() -> None:
    flow, _requests = flow_with_play(index=5, choices={"1": 4, "x": 2, "3": True, "2": 0})
    assert flow.play is not None
    assert flow.play.resume_index == 5
    assert flow.play.choices == {1: 4, 2: 0}  # malformed entries are dropped


def test_read_choices_keeps_only_index_to_integer_pairs() -> None:
    assert read_choices(None) == {}
    assert read_choices([1, 2]) == {}
    assert read_choices({"12": 3, "-1": 2, "1.5": 1, "7": "2"}) == {12: 3}


def test_the_player_acts_only_through_the_game_s_declared_action() -> None:
    flow = Flow(PRESENTATION)
    App(PRESENTATION.start(flow), 1280, 720)
    flow._on_session(Reply("r", True, {"balance_pence": 500}))
    flow._begin({"play_number": 9, "payload": payload([])}, 0)
    player = BookPlayer(flow)
    player.load()
    assert player.waiting() == Action("go")
    assert not player.press("arrow", 1)
    assert player.press("go")
    assert flow.play is not None and flow.play.choices == {}
