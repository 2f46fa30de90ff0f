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
from engine.ui.input import Activate, Reply
from engine.ui.lab_riches import PRESENTATION
from engine.ui.player import BookPlayer
from tests.test_ui_lab_riches import payload

ARROWS = replace(GAME, waits={"go": Action("arrow", choices=6), "bonus_row": Action("go")})
WITH_ARROWS = replace(PRESENTATION, cover=replace(PRESENTATION.cover, game=ARROWS))


def flow_with_play(index: int = 0, choices: object = None) -> tuple[Flow, list[dict[str, Any]]]:
    """A flow attached to an app, with a bought (or resumed) play; the requests it made."""
    flow = Flow(WITH_ARROWS)
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
                         "index": player.shown, "choices": [4]}  # fmt: skip


def test_choices_recorded_as_a_list_belong_to_the_events_that_wait_for_one() -> None:
    flow, _requests = flow_with_play(choices=[4, 1])
    assert flow.play is not None
    waiting = [i for i, e in enumerate(flow.play.replay.events) if e["type"] == "go"]
    assert flow.play.choices == dict(zip(waiting, [4, 1], strict=False))
    assert flow.choice_list() == [4, 1]


def test_a_replay_takes_no_press_but_its_own_with_the_recorded_choices() -> None:
    flow = Flow(WITH_ARROWS, mode="replay", recall=9)
    app = App(PRESENTATION.start(flow), 1280, 720)
    canvas = CommandCanvas(1280, 720, lambda s, px, f, b: len(s) * px * 0.55)
    app.frame(0.0, [], canvas)
    flow._begin({"play_number": 9, "payload": payload([]), "choices": [3, 5, 0, 2]}, 0)
    assert app.scene.name == "main"
    player = app.scene.player  # type: ignore[attr-defined]
    app.frame(16.0, [], canvas)
    assert not player.press("arrow", 1)  # the viewer cannot act in a replay
    ids = [c.id for c in app.scene.controls()]
    assert ids[:2] == ["pause", "step"] and "go" not in ids
    for k in range(1, 4000):  # it plays by itself to the end
        app.frame(16.0 + k * 50.0, [], canvas)
        if player.finished():
            break
    assert player.finished()
    recorded = [3, 5, 0, 2]
    assert flow.choice_list()[: len(recorded)] == recorded[: len(flow.choice_list())]
    assert next(c.label for c in app.scene.controls()) == "ALL GAMES"


def test_choices_come_back_with_a_resumed_play() -> None:
    flow, _requests = flow_with_play(index=5, choices=[4, 0, True, 2])
    assert flow.play is not None
    assert flow.play.resume_index == 5
    waiting = sorted(flow.play.choices)
    assert [flow.play.choices[i] for i in waiting] == [4, 0]  # up to the malformed one
    assert flow.choice_list() == [4, 0]


def test_read_choices_takes_only_a_list_of_choices_in_order() -> None:
    assert read_choices(None, [3, 8]) == {}
    assert read_choices({"3": 1}, [3, 8]) == {}  # the shell converts an old record, not Python
    assert read_choices([1, 2, 5], [3, 8]) == {3: 1, 8: 2}  # no event left for the third
    assert read_choices([1, -1, 2], [3, 8, 9]) == {3: 1}
    assert read_choices(["2", 1], [3, 8]) == {}


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


def test_a_reality_check_stops_the_play_at_a_rest_after_each_interval() -> None:
    from engine.ui.settings import Settings

    flow = Flow(PRESENTATION, Settings(reality_check_s=30.0))
    app = App(PRESENTATION.start(flow), 1280, 720)
    canvas = CommandCanvas(1280, 720, lambda s, px, f, b: len(s) * px * 0.55)
    app.frame(0.0, [], canvas)
    session = {"elapsed_ms": 25_000, "start_balance_pence": 5_000}  # 25 s into the session
    flow._on_session(Reply("r", True, {"balance_pence": 4_400, "session": session}))
    flow._begin({"play_number": 9, "payload": payload([])}, 0)
    assert app.scene.name == "main"
    said: list[str] = []
    for ms in range(16, 6_000, 16):  # 6 s of frames: the check comes at 30 s of play
        said += app.frame(ms, [], canvas).narration
    assert app.scene.name == "reality"
    assert any("You have played for 30 seconds in this session." in s for s in said), said
    assert any("Net spend in this session: £6.00." in s for s in said)
    assert [c.label for c in app.scene.controls()] == ["Keep playing", "Stop"]
    app.frame(6_100, [Activate("keep")], canvas)
    assert app.scene.name == "main"  # back where the play was, at the same event
    for ms in range(6_200, 30_000, 50):  # not again until 60 s
        app.frame(ms, [], canvas)
        assert app.scene.name == "main"
    app.frame(40_000, [], canvas)
    assert app.scene.name == "reality"
    requests = app.frame(40_100, [Activate("stop")], canvas).requests
    assert {"op": "open", "params": {}} in [{k: r[k] for k in ("op", "params")} for r in requests]


def test_the_endpoint_s_reality_check_comes_when_it_is_due_and_is_acknowledged() -> None:
    """The account's run of play (every device's) is the endpoint's: its check is due when the
    wallet or a purchase says, not after this tab's hour, and showing it is acknowledged."""
    flow = Flow(PRESENTATION)  # the page's own check only after each hour
    app = App(PRESENTATION.start(flow), 1280, 720)
    canvas = CommandCanvas(1280, 720, lambda s, px, f, b: len(s) * px * 0.55)
    app.frame(0.0, [], canvas)
    session = {"elapsed_ms": 5_000, "start_balance_pence": 5_000}  # a new tab
    play_time = {  # another device began the run 19 min 50 s ago: a check is due in 10 s
        "run_started_at": "2026-05-12T09:00:00.000Z",
        "reality_check_at": "2026-05-12T09:20:00.000Z",
        "now": "2026-05-12T09:19:50.000Z",
    }
    body = {"balance_pence": 4_400, "session": session, "play_time": play_time}
    flow._on_session(Reply("r", True, body))
    flow._begin({"play_number": 9, "payload": payload([])}, 0)
    said: list[str] = []
    requests: list[dict[str, Any]] = []
    for ms in range(16, 9_000, 16):
        said += app.frame(ms, [], canvas).narration
        assert app.scene.name == "main"
    for ms in range(9_000, 12_000, 16):  # the check comes at the first rest after 10 s
        frame = app.frame(ms, [], canvas)
        said, requests = said + frame.narration, requests + frame.requests
    assert app.scene.name == "reality"
    assert any("You have played for 20 minutes in this session." in s for s in said), said
    assert [r["op"] for r in requests].count("reality_seen") == 1  # acknowledged once
    seen = {**play_time, "now": "2026-05-12T09:20:01.000Z",
            "reality_check_at": "2026-05-12T09:40:01.000Z"}  # fmt: skip
    flow._on_reality_seen(Reply("s", True, seen))
    app.frame(12_100, [Activate("keep")], canvas)
    for ms in range(12_200, 60_000, 50):  # the next is 20 minutes on: not again now
        assert "reality_seen" not in [r["op"] for r in app.frame(ms, [], canvas).requests]
        assert app.scene.name == "main"
