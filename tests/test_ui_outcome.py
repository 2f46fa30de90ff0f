"""The outcome screen (engine/ui/scenes/outcome.py) of both games: after FINISH it offers Rules
and Prizes beside the Play Number, PLAY AGAIN and ALL GAMES, every button inside the window at
the six sizes the layout test covers, and closing Rules and Prizes comes back to it."""

from __future__ import annotations

import pytest

from tests.test_ui_lab_riches import CASES
from tests.test_ui_lab_riches import play as play_lab_riches
from tests.test_ui_power_puck_shot import EVERYTHING
from tests.test_ui_power_puck_shot import play as play_power_puck_shot

SIZES = [(1280, 720), (390, 844), (360, 640), (844, 390), (412, 915), (1024, 768)]


def apart(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]


@pytest.mark.parametrize("game", ["lab-riches", "power-puck-shot"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_outcome_screen_opens_rules_and_prizes_and_comes_back(
    game: str, size: tuple[int, int]
) -> None:
    if game == "lab-riches":
        shell = play_lab_riches(size, CASES["row"])
    else:
        shell = play_power_puck_shot(size, EVERYTHING)
    for _ in range(3):
        shell.frame()
    assert shell.app.scene.name == "outcome"
    controls = shell.app.scene.controls()
    assert [c.id for c in controls] == ["again", "lobby", "rules"]
    boxes = [(c.x, c.y, c.w, c.h) for c in controls]
    for c in controls:
        assert c.w >= 44 and c.h >= 44, c
        assert c.x >= 0 and c.y >= 0 and c.x + c.w <= size[0] + 0.5 and c.y + c.h <= size[1] + 0.5
    assert all(apart(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :]), boxes
    shell.press("rules")
    shell.frame()
    assert shell.app.scene.name == "rules"
    assert any(line.startswith("Rules and Prizes.") for line in shell.said)
    shell.press("close")
    shell.frame()
    assert shell.app.scene.name == "outcome"  # not the Main Game of the play just finished
