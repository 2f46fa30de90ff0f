"""The celebration grade (engine/ui/celebration.py) of every tier of both prize tables, derived
from the tables themselves: a losing play none, a total no bigger than the price the price back,
then a win, a big win from 10 times the price, the top prize; a free TRY never celebrates."""

from __future__ import annotations

import pytest

from engine.game import Game
from engine.games import GAMES
from engine.money import format_pounds
from engine.ui.celebration import (
    BIG_WIN_TIMES,
    COUNTED,
    CUES,
    FREE,
    SECONDS,
    Grade,
    counted,
    end_cue,
    end_seconds,
    grade,
    headline,
    of_end,
    total_line,
    total_words,
    won_words,
)
from engine.ui.motion import Motion
from engine.ui.sound import SHARED

TIERS = [(game, tier.prize_pence) for game in GAMES for tier in game.table.tiers]


def expected(game: Game, pence: int) -> Grade:
    """The grade a tier should get, from the game's table alone."""
    table = game.table
    if pence == 0:
        return Grade.NONE
    if pence <= table.price_pence:
        return Grade.PRICE_BACK
    if pence == table.top_prize_pence:
        return Grade.TOP_PRIZE
    if pence >= BIG_WIN_TIMES * table.price_pence:
        return Grade.BIG_WIN
    return Grade.WIN


@pytest.mark.parametrize(("game", "pence"), TIERS, ids=[f"{g.id}-{p}" for g, p in TIERS])
def test_every_tier_of_both_tables_is_graded(game: Game, pence: int) -> None:
    g = grade(pence, game)
    assert g == expected(game, pence)
    assert grade(pence, game, free=True) == Grade.NONE  # a TRY never celebrates money
    end = {"type": "end", "total": pence}
    assert of_end(end, game) == g and of_end({**end, FREE: True}, game) == Grade.NONE
    # what the end shows, says and sounds follows the grade
    assert end_cue(game)(end, Motion()) == ((0.0 if g >= Grade.WIN else COUNTED, CUES[g]),)
    assert end_cue(game)({**end, FREE: True}, Motion()) == ((COUNTED, "priceback"),)  # no fanfare
    assert end_seconds(game)(end) == SECONDS[g]
    if g == Grade.PRICE_BACK:
        back = f"YOUR {format_pounds(pence)} BACK"
        assert headline(g, pence) == back and "WON" not in total_line(g, pence)
        assert total_words(g, pence) == f"Your {format_pounds(pence)} back"
        assert CUES[g] not in ("win", "bigwin", "topwin")
    elif g >= Grade.WIN:
        assert total_words(g, pence) == f"Total won {format_pounds(pence)}"


def test_every_grade_is_met_by_a_tier_of_each_game() -> None:
    for game in GAMES:
        grades = {grade(tier.prize_pence, game) for tier in game.table.tiers}
        assert grades == set(Grade), (game.id, grades)


def test_the_price_back_of_each_game() -> None:
    for game in GAMES:
        price = game.table.price_pence
        assert grade(price, game) == Grade.PRICE_BACK
        assert grade(price + 1, game) == Grade.WIN
        assert grade(BIG_WIN_TIMES * price - 1, game) == Grade.WIN
        assert grade(BIG_WIN_TIMES * price, game) == Grade.BIG_WIN
        assert grade(game.table.top_prize_pence - 1, game) == Grade.BIG_WIN


def test_the_cues_of_every_grade_are_shared_sounds() -> None:
    assert set(CUES.values()) <= set(SHARED)


def test_a_celebrated_amount_counts_up_and_lands_by_counted() -> None:
    seen = [counted(250_000_00, Grade.TOP_PRIZE, k / 100) for k in range(101)]
    assert seen[0] == 0 and seen == sorted(seen) and seen[-1] == 250_000_00
    assert counted(250_000_00, Grade.TOP_PRIZE, COUNTED) == 250_000_00
    assert counted(300, Grade.PRICE_BACK, 0.0) == 300  # not celebrated: shown at once


def test_a_row_is_said_as_its_badge_shows_it() -> None:
    assert won_words("£5", Grade.PRICE_BACK) == ": your £5 back"
    assert won_words("£10", Grade.WIN) == ": you win £10"
    assert won_words("£10", Grade.NONE) == ""
