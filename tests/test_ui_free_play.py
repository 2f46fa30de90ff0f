"""A free TRY never reads like money (engine/ui/presentation.py `free_play`, the splash, the
end messages and the outcome screen in TRY): whole winning TRYs of both games, driven through
the real screens, show no price, no amount won and no celebration, and say in words that a free
play wins nothing; the TRY badge stays clear of the splash's picture and name, and the Main
Game's header says it in place of the balance rather than under a badge over the game's name."""

from __future__ import annotations

from typing import Any

import pytest

from backends.layout import text_boxes
from engine.ui.input import Reply
from engine.ui.presentation import FREE_BADGE, FREE_COUNTER, FREE_END, FREE_RESULT
from tests.test_ui_lab_riches import CASES as LAB_CASES
from tests.test_ui_lab_riches import ReadingShell, payload
from tests.test_ui_power_puck_shot import EVERYTHING, GAME

SIZES = [(1280, 720), (390, 844), (844, 390)]


def measure(s: str, size: float, family: str, bold: bool) -> float:
    return len(s) * size * 0.55


class TryShell(ReadingShell):
    """The test shell on a game's TRY page: 'try' is answered as the endpoint's free play."""

    def answer(self, request: dict[str, Any]) -> Reply:
        if request["op"] == "try":
            return Reply(request["id"], True, {"token": "t", **self.body})
        return super().answer(request)


def shell(game: str, size: tuple[int, int]) -> TryShell:
    if game == "lab-riches":
        composition, params = LAB_CASES["row"], {"game": game}
    else:
        composition, params = EVERYTHING, {"game": GAME}
    body = {"play_number": 42, "payload": payload(composition, 7, params["game"])}
    return TryShell(size, body, {**params, "fast": "1", "mode": "try"})


COUNTERS = ("TOTAL WON", "INSTANT WINS", "PRIZE POT")  # the boards' counters of money won


def money(texts: tuple[str, ...] | list[str]) -> list[str]:
    """The lines that read like money won or paid: a price, a total, 'YOU WON', a row's 'WIN
    £X', or an amount in one of the boards' counters (the text drawn after its title)."""
    starts = ("Prize(s)", "Rows won", "Instant Prizes", "TOTAL WON ", "WIN £")
    words = (" a play", "YOU WON", "Total won")
    counted = [texts[i + 1] for i, t in enumerate(texts[:-1]) if t in COUNTERS]
    return [t for t in texts if any(w in t for w in words) or t.startswith(starts)] + [
        t for t in counted if "£" in t
    ]


@pytest.mark.parametrize("game", ["lab-riches", "power-puck-shot"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_winning_try_shows_and_says_that_it_wins_nothing(
    game: str, size: tuple[int, int]
) -> None:
    s = shell(game, size)
    s.frame()
    s.frame()
    assert money(s.texts) == [], s.texts  # the splash: no price
    assert any("no money is staked or won" in t.lower() for t in s.texts), s.texts
    boxes = text_boxes(s.drawn, measure)
    badge = [b for b in boxes if "no money" in b["text"].lower()]
    title = "LAB RICHES" if game == "lab-riches" else "£500K POWER PUCK SHOT"
    name = next(b for b in boxes if b["text"] == title)
    for b in badge:  # clear of the game's name
        assert b["box"][1] + b["box"][3] <= name["box"][1] or b["box"][1] >= sum(name["box"][1::2])
    s.press("play")
    for _ in range(3):
        s.frame()
    s.rest()
    boxes = text_boxes(s.drawn, measure)  # the Main Game: the header says it, no badge over it
    said = next(b for b in boxes if b["text"] == FREE_BADGE)
    name = next(b for b in boxes if b["text"] == title)
    assert said["size"] >= 10 and said["box"][0] >= name["box"][0] + name["box"][2], (said, name)
    assert not any("no money" in b["text"].lower() or "Balance" in b["text"] for b in boxes)
    seen: list[str] = []  # every counter drawn on the way: in TRY none shows an amount
    for _ in range(40_000):
        seen += money(s.texts)
        if "finish" in s.controls():
            break
        go = next((c.id for c in s.app.scene.controls() if c.enabled and c.id in
                   ("go", "shoot-0")), None)  # fmt: skip
        s.press(go) if go else s.frame()
    assert seen == [], seen
    for _ in range(120):  # the end message, whole
        s.frame()
    assert money(s.texts) == [], s.texts
    s.press("board")  # the final board: its counters say the try won nothing
    s.frame()
    assert money(s.texts) == [] and FREE_COUNTER in s.texts, s.texts
    s.press("board")
    s.frame()
    assert FREE_RESULT.upper() in s.texts or FREE_RESULT in s.texts, s.texts
    assert FREE_END in s.said and not any("Total won" in line for line in s.said)
    # a row it completes is said as its badge shows it, COMPLETE: not 'you win £15'
    assert any("row" in line.lower() and line.endswith(" complete.") for line in s.said), s.said
    assert not any(w in line.lower() for line in s.said for w in ("you win", "your £"))
    s.press("finish")
    for _ in range(5):
        s.frame()
    s.rest()
    assert s.app.scene.name == "outcome"
    assert money(s.texts) == [] and FREE_RESULT in s.texts, s.texts
    assert not any(t.startswith("£") for t in s.texts), s.texts
