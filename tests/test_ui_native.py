"""The native backend's shell against the real endpoint app: a whole play, a forged token."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from backends.canvas import CommandCanvas
from backends.endpoint_shell import EndpointShell
from engine.ui.app import App
from engine.ui.flow import Flow
from engine.ui.games import first_scene
from engine.ui.input import Activate, Event, Key
from engine.ui.scenes.verify import run_steps
from engine.ui.scenes.verify_log import signature_items, signature_request
from tests.endpoint.conftest import Clock
from web.endpoint.app import create_app
from web.endpoint.settings import Settings


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    var: Path = tmp_path_factory.mktemp("var")
    return TestClient(create_app(Settings(var_dir=var, test_mode=True, limits_required=False)))


def run(
    shell: EndpointShell, presses: list[str], frames: int = 20_000, page: str = "lab-riches"
) -> tuple[App, list[str]]:
    """Frames at 60 fps; each named control is pressed as soon as it is enabled, in order, then
    the game's own controls (as its presentation declares them) or FINISH. A request to open
    another page switches to its first scene, as the native window does."""
    app = App(first_scene({"fast": "1", "game": page}), 1280, 720)
    canvas = CommandCanvas(1280, 720, lambda s, px, f, b: len(s) * px * 0.55)
    said: list[str] = []
    pending: list[Event] = []
    for i in range(frames):
        enabled = {c.id for c in app.scene.controls() if c.enabled}
        events = list(pending)
        if i and presses and presses[0] in enabled:  # once the app has shown its controls
            events.append(Activate(presses.pop(0)))
        elif not presses and (acting := {c for c in enabled if c == "finish" or acts(app, c)}):
            events.append(Activate(min(acting)))
        result = app.frame(i * 1000 / 60, events, canvas)
        canvas.flush()
        said += result.narration
        pending = shell.answer(result.requests)
        for request in result.requests:
            if request["op"] == "open":
                app.switch(first_scene({"fast": "1", **request["params"]}))
        if app.scene.name == "outcome":
            break
    return app, said


def acts(app: App, control: str) -> bool:
    """True for a control that acts on the book of the game the scene shows."""
    flow = getattr(app.scene, "flow", None)
    return isinstance(flow, Flow) and flow.presentation.controls.acts(control)


def test_a_native_play_is_bought_verified_played_and_finished(client: TestClient) -> None:
    shell = EndpointShell(client)
    shell.perform({"op": "session"})
    reserve = {"game": "lab-riches", "composition": [{"feature": "row", "pence": 500}]}
    assert client.post("/api/test/next-entry", json=reserve).status_code == 200
    app, said = run(shell, ["play"])
    assert "Total won £5.00" in said
    assert app.scene.name == "outcome"
    assert client.get("/api/wallet").json()["balance_pence"] == 5_000 - 300 + 500


def test_the_lobby_opens_a_game_and_my_games_lists_its_finished_play(
    client: TestClient,
) -> None:
    shell = EndpointShell(client)
    shell.perform({"op": "session"})
    reserve = {"game": "lab-riches", "composition": [{"feature": "row", "pence": 500}]}
    assert client.post("/api/test/next-entry", json=reserve).status_code == 200
    app, said = run(shell, ["play:lab-riches", "play"], page="")  # from the lobby
    assert app.scene.name == "outcome"
    assert "Total won £5.00" in said
    number = app.scene.flow.play.play_number  # type: ignore[attr-defined]
    app, said = run(shell, ["my-games"], page="", frames=30)
    assert app.scene.name == "my-games"
    assert any(f"Play {number}, Lab Riches" in line and "won £5.00" in line for line in said)


def test_a_forged_token_is_refused(client: TestClient) -> None:
    shell = EndpointShell(client)
    shell.perform({"op": "session"})
    token = client.post("/api/plays", json={"game": "lab-riches"}, headers={"Idempotency-Key": "x"})
    head, body, signature = token.json()["token"].split(".")
    with pytest.raises(ValueError, match="could not be verified"):
        shell.verify(f"{head}.{body[:-2]}AA.{signature}")


def test_a_native_verify_checks_a_paid_play_from_a_pool_of_paid_plays(client: TestClient) -> None:
    shell = EndpointShell(client)
    shell.perform({"op": "session"})
    bought = client.post(
        "/api/plays", json={"game": "lab-riches"}, headers={"Idempotency-Key": "v"}
    )
    found = shell.perform({"op": "verify_play", "play_number": bought.json()["play_number"]})
    items = signature_items(found)  # the checkpoint's signatures, checked as the page's shell does
    answers = shell.perform({"op": "check_signatures", **signature_request(items)})["ok"]
    steps = run_steps({**found, "checked": dict(zip(items, answers, strict=True))})
    assert [s.ok for s in steps[:5]] == [True] * 5, steps
    assert "a paid play's" in steps[1].detail and "pool of paid plays" in steps[4].detail
    # the sale is in the public log once a checkpoint covers it; until then it waits
    assert steps[5].name == "In the public log"
    assert (steps[5].waiting and len(steps) == 6) or [s.ok for s in steps] == [True] * 9, steps


def test_a_native_window_signs_in_with_a_code_from_another_device(client: TestClient) -> None:
    phone_client = TestClient(client.app)
    phone = EndpointShell(phone_client)
    phone.perform({"op": "session"})
    reserve = {"game": "lab-riches", "composition": [{"feature": "row", "pence": 500}]}
    assert phone_client.post("/api/test/next-entry", json=reserve).status_code == 200
    run(phone, ["play"])  # the phone's account: 5,000 - 300 + 500
    assert phone.perform({"op": "session"})["balance_pence"] == 5_200
    code = phone.perform({"op": "code"})["code"]
    desk = EndpointShell(TestClient(client.app), lambda prompt: f" {code.lower()} ")
    began = desk.perform({"op": "session"})  # the window's own new account first
    assert began["balance_pence"] == 5_000
    assert desk.perform({"op": "signin", "balance_pence": 5_000}) == {
        "balance_pence": 5_200,
        "session": {"elapsed_ms": ANY_MS, "start_balance_pence": 5_200},
    }
    assert desk.perform({"op": "session"})["balance_pence"] == 5_200  # the phone's account
    again = EndpointShell(TestClient(client.app), lambda prompt: code)
    again.perform({"op": "session"})
    with pytest.raises(ValueError):  # a code signs in once
        again.perform({"op": "signin", "balance_pence": 5_000})
    quiet = EndpointShell(TestClient(client.app), lambda prompt: "  ")
    assert quiet.perform({"op": "signin"}) == {"cancelled": True}
    with pytest.raises(ValueError, match="in the browser"):  # no way to ask: as before
        EndpointShell(TestClient(client.app)).perform({"op": "signin"})


def test_a_native_window_logs_out_and_goes_on_as_a_new_guest(client: TestClient) -> None:
    window = EndpointShell(TestClient(client.app))
    window.perform({"op": "session"})
    old = window.client.headers["Authorization"]
    out = window.perform({"op": "logout", "every": True})
    assert out["ended"] == 1 and out["every"] is True and out["balance_pence"] == 5_000
    assert (
        TestClient(client.app).get("/api/wallet", headers={"Authorization": old}).status_code == 401
    )
    assert window.client.headers["Authorization"] != old
    assert window.perform({"op": "session"})["balance_pence"] == 5_000


class _AnyMs(int):
    """Equal to any whole number of milliseconds (the session's elapsed time)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, int) and other >= 0

    __hash__ = int.__hash__


ANY_MS = _AnyMs()


def test_a_native_window_is_led_to_limits_types_them_with_keys_and_then_buys(
    tmp_path: Path,
) -> None:
    """Limits required (the endpoint's default): PLAY is refused on its own screen, Limits
    opens the lobby's page, the amounts are typed with the keys, and then PLAY buys."""
    import pygame

    from backends.native import translate_event
    from engine.ui.scenes.limits import LimitsScene
    from engine.ui.scenes.refusal import RefusalScene

    backspace = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, unicode="\b")
    assert translate_event(backspace, (1280, 720)) == Key("Backspace")
    required = TestClient(create_app(Settings(var_dir=tmp_path / "var", test_mode=True)))
    shell = EndpointShell(required)
    app = App(first_scene({"fast": "1", "game": "lab-riches"}), 1280, 720)
    canvas = CommandCanvas(1280, 720, lambda s, px, f, b: len(s) * px * 0.55)
    pending: list[Event] = []

    def frames(n: int, *events: Event) -> None:
        nonlocal pending
        for i in range(n):
            result = app.frame(i * 1000 / 60, [*pending, *(events if i == 0 else ())], canvas)
            canvas.flush()
            pending = shell.answer(result.requests)
            for request in result.requests:
                if request["op"] == "open":
                    app.switch(first_scene({"fast": "1", **request["params"]}))

    frames(30)
    frames(30, Activate("play"))
    assert isinstance(app.scene, RefusalScene) and app.scene.title == "CHOOSE YOUR LIMITS"
    frames(30, Activate("limits"))
    assert isinstance(app.scene, LimitsScene)
    for key, typed in (("daily", "20"), ("weekly", "5x0.5")):
        frames(2, Activate(f"amount:{key}"))
        frames(30, *(Key(k) for k in [*typed, "Backspace", "5", "Enter"]))
    assert {k: v["limit_pence"] for k, v in app.scene.limits.items()} == {
        "daily": 2_500,
        "weekly": 5_050,
    }  # fmt: skip  ("20" then Backspace, "5": £25; "5x0.5": x ignored, then "5": £50.50)
    frames(30, Activate("close"))
    frames(30, Activate("play:lab-riches"))
    frames(60, Activate("play"))
    assert shell.client.get("/api/wallet").json()["balance_pence"] == 5_000 - 300


def test_a_native_window_shows_the_refusal_screens_the_page_shows(tmp_path: Path) -> None:
    """After an hour of play the endpoint refuses paid plays for the cooling-off (403
    cooling_off): the window shows TAKE A BREAK with when play resumes in the player's time
    zone (play-native gives this computer's) and Back only, as the page does, not a line under
    TRY AGAIN; a spend limit reached shows its own screen (which limit, what is left, when it
    resets) with Limits."""
    from engine.ui.scenes.refusal import RefusalScene

    clock = Clock()
    settings = Settings(var_dir=tmp_path / "var", test_mode=True, limits_required=False)
    endpoint = TestClient(create_app(settings, clock=clock))
    canvas = CommandCanvas(1280, 720, lambda s, px, f, b: len(s) * px * 0.55)

    def buy_and_finish(shell: EndpointShell) -> None:
        """A paid play, finished (so the game's page opens at PLAY, not at a play to resume)."""
        bought = shell.perform({"op": "purchase", "game": "lab-riches"})
        shell.perform({"op": "finish", "play_number": bought["play_number"]})

    def refused(shell: EndpointShell) -> RefusalScene:
        """PLAY on a fresh game page; the screen the refusal brought."""
        app = App(first_scene({"fast": "1", "game": "lab-riches", "tz": "60"}), 1280, 720)
        pending: list[Event] = []
        pressed = False
        for i in range(600):  # PLAY once it is enabled, then the answer
            enabled = {c.id for c in app.scene.controls() if c.enabled}
            press = not pressed and i > 0 and "play" in enabled
            pressed = pressed or press
            events = [*pending, *([Activate("play")] if press else [])]
            pending = shell.answer(app.frame(i * 1000 / 60, events, canvas).requests)
            canvas.flush()
            if isinstance(app.scene, RefusalScene):
                return app.scene
        raise AssertionError(f"no refusal screen: {app.scene.name}, PLAY pressed: {pressed}")

    limited = EndpointShell(endpoint)
    limited.perform({"op": "session"})
    limited.perform({"op": "set_limits", "daily_pence": 500})
    buy_and_finish(limited)
    limit = refused(limited)  # £2 of the day's £5 left: the next £3 play is refused
    assert limit.title == "DAILY LIMIT REACHED"
    assert limit.lines[0] == "You have £2.00 left to spend today."
    assert [c.id for c in limit.controls()] == ["limits", "return"]
    player = EndpointShell(TestClient(endpoint.app))  # another account: no limit
    player.perform({"op": "session"})
    buy_and_finish(player)  # its run of play begins
    logout = player.perform({"op": "session"})["play_time"]["logout_at"]
    for _ in range(6):  # a play every 9 minutes: one run of play
        clock.advance(9 * 60)
        buy_and_finish(player)
    clock.advance(6 * 60)  # an hour since the run began: logged out of play
    brk = refused(player)
    resumes = datetime.fromisoformat(logout.replace("Z", "+00:00")) + timedelta(seconds=600)
    assert brk.title == "TAKE A BREAK"
    at = resumes.astimezone(timezone(timedelta(minutes=60)))
    assert brk.lines[1] == f"You can buy plays again at {at.day} {at:%b %Y, %H:%M}."
    assert [c.label for c in brk.controls()] == ["Back to the game"]
