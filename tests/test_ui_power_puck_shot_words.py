"""£500K Power Puck Shot's words: the Rules and Prizes text says what the game does."""

from __future__ import annotations

import re

from engine.power_puck_shot.simulate import bonus_pucks
from engine.ui.power_puck_shot.words import HOW_TO_PLAY, RULES_TEXT


def test_the_rules_give_the_bonus_pucks_of_every_count_a_shot_can_collect() -> None:
    """From model 3 a Power Puck's shot collects each Bonus symbol twice, so more than five
    can be collected in one shot: the rules say what that gives (3, as five), beside the
    procedure's own list, which How To Play keeps word for word."""
    (text,) = [t for t in RULES_TEXT if "Bonus Puck" in t and "start the Bonus Game" in t]
    said = {int(n): int(p) for n, p in re.findall(r"(\d+) give (\d+)", text)}
    more = re.findall(r"(\d+) or more give (\d+)", text)
    assert said and len(more) == 1
    least, pucks = map(int, more[0])
    for motifs in range(3, 17):  # a shot crosses at most 16 Pips
        expected = said.get(motifs, pucks if motifs >= least else None)
        assert expected == bonus_pucks(motifs), motifs
    page = " ".join(HOW_TO_PLAY[3][1])
    assert "REVEAL 5 BONUS GAME SYMBOLS TO BE AWARDED 3 BONUS GAME PUCKS" in page
