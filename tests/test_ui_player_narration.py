"""The narration keeps step with the picture (engine/ui/player.py saying each game's timed
sentences, engine/ui/<game>/narrate.py): whole plays of both games driven through the real
screens frame by frame (60 a second), at normal and fast speeds; every sentence announced in a
frame must say what that very frame draws: a pip's symbol only once the puck has reached the
pip, a row's count or the meter only once the symbols have landed there, the light's prize only
once the light rests and 'YOU HAVE WON' shows, the total only once the end message shows."""

from __future__ import annotations

import re
from typing import Any

import pytest

from backends.canvas import BatchReader
from engine.money import format_pounds
from engine.power_puck_shot import rules as puck_rules
from engine.ui.app import FrameResult
from engine.ui.input import Event
from engine.ui.lab_riches import bonus
from engine.ui.lab_riches import paint as lab_paint
from engine.ui.power_puck_shot.paint import Moment
from engine.ui.power_puck_shot.timing import path_of
from tests.test_ui_lab_riches import CASES as LAB_CASES
from tests.test_ui_lab_riches import ReadingShell, payload
from tests.test_ui_power_puck_shot import EVERYTHING, Shell

SPEEDS = {"normal": "0", "fast": "1"}
PUCK_CASES = {
    "everything": EVERYTHING,
    "power-puck": [
        {"feature": "bonus", "pence": 0, "games": 1, "pucks": 1, "power_pucks": 1},
        {"feature": "row", "pence": 600, "boosts": 0, "colour": "purple"},
    ],
    "boosted-row": [
        {"feature": "bonus", "pence": 0, "games": 1, "pucks": 1, "boosters": "purple"},
        {"feature": "row", "pence": 800, "boosts": 1, "colour": "purple"},
    ],
}


class PuckShell(Shell):
    """The Power Puck Shot shell, reading the texts of each frame it draws."""

    texts: tuple[str, ...] = ()

    def frame(self, *events: Event) -> FrameResult:
        if not hasattr(self, "reader"):
            self.reader = BatchReader()
        self.now += self.step_ms
        result = self.app.frame(self.now, [*self.pending, *events], self.canvas)
        if result.drew:  # every frame read, so the string table stays in step
            drawn = self.reader.read(self.canvas.flush())
            self.texts = tuple(str(c[1]) for c in drawn if c[0] == "text")
        self.pending = [self.answer(r) for r in result.requests]
        self.said += result.narration
        self.heard = result.narration
        return result


def _pip_shown(mo: Moment, k: int) -> bool:
    """Whether the frame's puck has reached pip k of its shot and the pip shows its symbol (a
    shot that has finished shows all of them)."""
    timed = mo.timed
    if timed is None:
        return True
    clock, t = timed
    path = path_of(mo.event)
    assert path is not None
    reached = clock.moved(t) * path.length >= path.reveals[k].at - 1e-9
    return reached and clock.reveals[k] <= t


def _puck_line_shown(line: str, mo: Moment, texts: tuple[str, ...]) -> bool:
    """Whether what the sentence says is on the frame drawn (mo, and its texts)."""
    shown = mo.shown  # what the counters, the Prize Table and the meter show
    if found := re.match(r"Pip (\d+): ", line):
        return _pip_shown(mo, int(found[1]) - 1)
    if found := re.search(r"(\w[\w ]*?) row (\d+) of 12", line):
        colour = found[1].removeprefix("Prize booster: the ").lower().replace(" ", "-")
        if colour.split("-", 2)[-1] in puck_rules.COLOURS:  # '2 extra red squares: red row 5'
            colour = colour.split("-", 2)[-1]
        return shown.squares[puck_rules.COLOURS.index(colour)] == int(found[2])
    if found := re.search(r"meter (\d+) of 10", line):
        return shown.meter == int(found[1])
    if found := re.match(r"Prize booster: the ([a-z ]+) row rises to (.+)\.$", line):
        colour = found[1].replace(" ", "-")
        boosts = shown.boosts[puck_rules.COLOURS.index(colour)]
        return format_pounds(puck_rules.row_amount(colour, boosts), always_pence=False) == found[2]
    if line.startswith(("An extra Puck", "A Power Puck")):
        return shown.pending_extra + shown.pending_power > 0
    if found := re.match(r"PRIZE POT (.+)\.$", line):
        return format_pounds(shown.pot, always_pence=False) == found[1]
    if found := re.search(r"(\d+) (Bonus |Prize )?[Pp]ucks? left", line):
        counts = {None: shown.pucks_left, "Bonus ": shown.bonus_pucks_left,
                  "Prize ": shown.prize_pucks_left}  # fmt: skip
        return counts[found[2]] == int(found[1])
    if line.startswith(("Total won", "Rows won", "No row complete")):
        return any(t.startswith(("TOTAL WON", "NO PRIZE")) for t in texts)
    if line == "POWER PUCK ALL SYMBOLS X2":
        return "POWER PUCK" in texts
    if line.startswith("BONUS GAME!"):
        return "BONUS GAME!" in texts
    if line.startswith("RESULT!"):
        return "PRIZE GAME UNLOCKED!" in texts
    return True  # the shot's opening, prompts, purchase and balance: nothing to wait for


@pytest.mark.parametrize("speed", SPEEDS)
@pytest.mark.parametrize("case", PUCK_CASES)
def test_power_puck_shot_says_each_thing_as_the_puck_shows_it(case: str, speed: str) -> None:
    shell = PuckShell((390, 844), PUCK_CASES[case], {"fast": SPEEDS[speed]})
    shell.start()
    early: list[tuple[str, str]] = []
    pips = 0
    for _ in shell.shots():
        mo = shell.scene.moment()
        assert mo is not None
        for line in shell.heard:
            pips += line.startswith("Pip ")
            if not _puck_line_shown(line, mo, shell.texts):
                early.append((line, f"{mo.kind} at {mo.p:.3f}"))
    assert early == []
    shots = [e for e in shell.scene.player.replay.events if e["type"] == "shot"]  # type: ignore[union-attr]
    assert pips == sum(len(e["reveals"]) for e in shots if e["game"] != "prize")
    assert any(line.startswith("Total won") for line in shell.said)


def _lab_line_shown(line: str, shell: ReadingShell) -> bool:
    """Whether what the sentence says is on the frame the Lab Riches shell drew last."""
    player = shell.app.scene.player  # type: ignore[attr-defined]
    event: dict[str, Any] | None = player.event()
    kind, p = (event["type"], player.progress()) if event is not None else ("", 1.0)
    texts = shell.texts
    if line.startswith("Go "):  # the Top Row has turned over
        return kind != "go" or p >= lab_paint.REVEAL
    if line.startswith("Prize Boxes revealed"):
        return kind != "prize_boxes" or p >= lab_paint.TURNED
    if "Power Surge Prize Meter" in line:
        return kind != "segments" or p >= lab_paint.ARRIVE
    if found := re.search(r"extra goes?: (\d+) goes? left", line):
        total = texts.index("TOTAL WON")  # GOES then its count, before TOTAL WON (an extra-goes
        assert texts[total - 2] == "GOES"  # square on the board says GOES too)
        return texts[total - 1] == found[1]
    if line.startswith("Instant Prize"):
        return shell.box("INSTANT WINS") == format_pounds(player.state().instant_pence)
    if "YOU HAVE WON" in line:
        return "YOU HAVE WON" in texts
    if "lands on an up arrow" in line:
        return kind != "bonus_row" or p >= bonus.REST_AT
    if found := re.match(r"Total won (.+)$", line):
        return f"TOTAL WON {found[1]}" in texts
    if found := re.match(r"Your (.+) back$", line):  # the price back (engine/ui/celebration.py)
        return f"YOUR {found[1]} BACK" in texts and f"TOTAL {found[1]}" in texts
    if line.startswith("No goes left"):
        return any(t.startswith("TOTAL WON") for t in texts)
    return True


@pytest.mark.parametrize("speed", SPEEDS)
@pytest.mark.parametrize("case", ["instant", "meter", "row"])
def test_lab_riches_says_each_thing_as_the_window_shows_it(case: str, speed: str) -> None:
    body = {"play_number": 100_000_042, "payload": payload(LAB_CASES[case])}
    shell = ReadingShell((390, 844), body, {"fast": SPEEDS[speed]})
    early: list[tuple[str, str]] = []
    seen = 0
    for _ in shell.goes():
        for line in shell.said[seen:]:
            if not _lab_line_shown(line, shell):
                player = shell.app.scene.player  # type: ignore[attr-defined]
                early.append((line, f"{player.event()} at {player.progress():.3f}"))
        seen = len(shell.said)
    assert early == []
    assert any(line.startswith(("Total won", "Your £")) for line in shell.said)
    if case == "instant":
        assert any("YOU HAVE WON" in line for line in shell.said)
