"""£500K Power Puck Shot's Main Game screen (engine/ui/power_puck_shot/main.py) natively: the
keys that pick and shoot an arrow, presses while a shot animates, the arrow changing only the
path drawn, counters that change as symbols land, and reduced motion."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from engine.ui.app import App
from engine.ui.flow import Flow
from engine.ui.input import Activate, Key
from engine.ui.power_puck_shot import PRESENTATION, paint
from engine.ui.power_puck_shot.layout import ARROWS
from engine.ui.power_puck_shot.narrate import ARROW_NAMES
from engine.ui.settings import Settings
from tests.test_ui_power_puck_shot import CASES, EVERYTHING, Shell, check_finished, play, prize_of


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
