"""The Main Game window every game shares (engine/ui/scenes/play.py): HOW TO PLAY opens over a
play in the middle of an animation and closes back to it at the same point, the book player
unmoved, the rest of the play the same as without it; and the settings stand together with
HOW TO PLAY and Rules and Prizes, none of them alone in a corner."""

from __future__ import annotations

from typing import Any

import pytest

from backends.layout import text_boxes
from engine.ui.flow import MODE_LABELS
from engine.ui.input import Activate, Reply
from engine.ui.presentation import REPLAY_BADGE
from tests.test_ui_lab_riches import CASES, ReadingShell, Shell, payload
from tests.test_ui_power_puck_shot import EVERYTHING, GAME

SIZES = [(1280, 720), (390, 844), (844, 390)]


def shell(game: str, size: tuple[int, int]) -> Shell:
    if game == "lab-riches":
        return Shell(size, {"play_number": 7, "payload": payload(CASES["row"])})
    body = {"play_number": 7, "payload": payload(EVERYTHING, 7, GAME)}
    return Shell(size, body, {"game": GAME, "fast": "1"})


def action(s: Shell) -> str | None:
    return next((c.id for c in s.app.scene.controls() if c.enabled and c.id in ("go", "shoot-0")),
                None)  # fmt: skip


def to_the_end(s: Shell, detour: bool) -> list[Any]:
    """From the splash, PLAY, act as soon as the play waits; with detour, open HOW TO PLAY in
    the middle of the first action's animation, read its pages and close it. Returns the
    narration of the play (without How To Play's) and checks the play resumed where it was."""
    s.frame()
    s.press("play")
    s.frame()
    s.press(action(s) or "go")
    for _ in range(5):
        s.frame()
    main = s.app.scene
    if detour:
        player = main.player  # type: ignore[attr-defined]
        at = (player.shown, player.current, player.t)
        assert at[1] is not None, "not in the middle of an animation"
        assert "howto" in s.controls()
        s.press("howto")
        assert s.app.scene.name == "howto"
        for _ in range(60):  # time passes on How To Play: the play does not move
            s.frame()
        s.press("next")
        s.app.scene.handle(Activate("close"))  # as a frame routes it, before the frame's update
        assert s.app.scene is main
        assert (player.shown, player.current, player.t) == at
    said_from = len(s.said)
    for _ in range(40_000):
        if "finish" in s.controls():
            break
        go = action(s)
        s.frame(*([Activate(go)] if go else []))
    return [line for line in s.said[said_from:] if not line.startswith("How to play")]


@pytest.mark.parametrize("game", ["lab-riches", "power-puck-shot"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_how_to_play_opens_over_a_play_and_closes_back_to_the_same_point(
    game: str, size: tuple[int, int]
) -> None:
    plain = to_the_end(shell(game, size), detour=False)
    s = shell(game, size)
    told = to_the_end(s, detour=True)
    assert told == plain  # the same play, told the same way, from where it was
    assert "finish" in s.controls()


@pytest.mark.parametrize("game", ["lab-riches", "power-puck-shot"])
@pytest.mark.parametrize("size", [(1280, 720), (1024, 768), (844, 390), (390, 844), (360, 640)],
                         ids=lambda s: f"{s[0]}x{s[1]}")  # fmt: skip
def test_the_settings_stand_together(game: str, size: tuple[int, int]) -> None:
    """HOW TO PLAY, Rules and Prizes, Faster animations and Sound stand together: each has
    another of them within 16 px (Faster animations stood alone in Lab Riches' bottom-left
    corner)."""
    s = shell(game, size)
    s.frame()
    s.press("play")
    s.frame()
    rects = {c.id: (c.x, c.y, c.w, c.h) for c in s.app.scene.controls()}
    group = [rects[i] for i in ("howto", "rules", "speed", "sound") if i in rects]
    assert len(group) >= 3, rects

    def near(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        dx = max(0.0, b[0] - (a[0] + a[2]), a[0] - (b[0] + b[2]))
        dy = max(0.0, b[1] - (a[1] + a[3]), a[1] - (b[1] + b[3]))
        return max(dx, dy) <= 16

    for i, r in enumerate(group):
        assert any(near(r, o) for j, o in enumerate(group) if j != i), (r, group)


class ReplayShell(ReadingShell):
    """The test shell on a REPLAY page: 'recall' is answered with the finished play."""

    def answer(self, request: dict[str, Any]) -> Reply:
        if request["op"] == "recall":
            return Reply(request["id"], True, {"token": "t", **self.body})
        return super().answer(request)


def measure(s: str, size: float, family: str, bold: bool) -> float:
    return len(s) * size * 0.55


@pytest.mark.parametrize("game", ["lab-riches", "power-puck-shot"])
@pytest.mark.parametrize("size", [(390, 844), (360, 640), (412, 915), (1280, 720)],
                         ids=lambda s: f"{s[0]}x{s[1]}")  # fmt: skip
def test_a_replay_says_so_in_the_header_not_over_it(game: str, size: tuple[int, int]) -> None:
    """A REPLAY's Main Game says REPLAY_BADGE where the balance stands, clear of the game's
    name, and no badge lies over the header (on a phone it covered the name and the balance:
    the layout test found it)."""
    composition = CASES["row"] if game == "lab-riches" else EVERYTHING
    body = {"play_number": 42, "payload": payload(composition, 7, game)}
    s = ReplayShell(size, body, {"game": game, "fast": "1", "replay": "42"})
    for _ in range(5):
        s.frame()
    s.rest()
    assert s.app.scene.name == "main"
    boxes = text_boxes(s.drawn, measure)
    title = "LAB RICHES" if game == "lab-riches" else "£500K POWER PUCK SHOT"
    name = next(b for b in boxes if b["text"] == title)
    said = next(b for b in boxes if b["text"] == REPLAY_BADGE)
    assert said["size"] >= 10 and said["box"][0] >= name["box"][0] + name["box"][2], (said, name)
    assert not any(b["text"] == MODE_LABELS["replay"] or "Balance" in b["text"] for b in boxes)
