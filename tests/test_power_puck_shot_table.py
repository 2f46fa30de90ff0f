"""£500K Power Puck Shot's prize table, model 3: complete, and every Bonus Game award bounded.

Every amount the Prize Table can show is won by some composition, every PRIZE POT size 1-5
occurs and the £100 Prize Game amount is shown, each winning composition says what Bonus Game
awards its win needs, a losing play is left to chance, and the check refuses awards the rules
cannot show.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.games import load_table
from engine.outcome import Composition
from engine.power_puck_shot import rules
from engine.power_puck_shot.compositions import BonusAwards, bonus_awards, check

TABLE = load_table("power-puck-shot")


def compositions() -> list[tuple[int, Composition, int]]:
    """(prize, composition, plays in a base pool) for every composition of the table."""
    return [
        (tier.prize_pence, comp, count)
        for tier in TABLE.tiers
        for comp, count in tier.composition_counts()
    ]


def awards_of(comp: Composition) -> BonusAwards:
    parts = [part for part in comp.parts if part.feature == "bonus"]
    return bonus_awards(parts[0]) if parts else BonusAwards()


def test_every_amount_of_the_prize_table_is_won_by_some_composition() -> None:
    won = {
        (part.get("colour"), part.get("boosts"))
        for _, comp, _ in compositions()
        for part in comp.parts
        if part.feature == "row"
    }
    for colour, ladder in rules.BOOST_LADDERS.items():
        steps = range(1) if colour in rules.UNBOOSTED else range(rules.MAX_BOOSTS + 1)
        for boosts in steps:
            assert (colour, boosts) in won, f"{colour} after {boosts} boosts ({ladder[boosts]})"


def test_every_pot_size_occurs() -> None:
    sizes = {
        part.get("pucks") for _, comp, _ in compositions() for part in comp.parts
        if part.feature == "pot"
    }  # fmt: skip
    assert sizes == set(range(rules.MIN_PRIZE_PUCKS, rules.MAX_PRIZE_PUCKS + 1))


def test_every_boost_is_a_bonus_game_award_and_the_awards_are_bounded() -> None:
    shown: Counter[str] = Counter()
    for prize, comp, count in compositions():
        assert comp.total == prize and check(comp) is None, comp.to_json()
        awards = awards_of(comp)
        for part in comp.parts:
            if part.feature == "row":
                assert awards.boosts(str(part.get("colour"))) == part.get("boosts")
        if awards.games:
            shown["bonus"] += count
            shown["booster"] += count * bool(awards.boosters)
            shown["extra puck"] += count * bool(awards.extra_pucks)
            shown["power puck"] += count * bool(awards.power_pucks)
            shown["squares"] += count * bool(awards.squares)
            shown["symbols"] += count * bool(awards.symbols)
    # Winning compositions name the awards their win shows (a boosted row's boosters above
    # all); every other Bonus Game is chance's (tests/test_power_puck_shot_simulate.py).
    assert all(shown[kind] > 0 for kind in ("booster", "extra puck", "power puck", "squares"))
    assert 0.01 < shown["bonus"] / TABLE.base_pool_size < 0.25


def test_a_losing_play_is_left_to_chance() -> None:
    """Model 3: one losing composition with no parts, so a losing play shows what a random play
    that lost shows (engine/power_puck_shot/overlay.py), Bonus Games included."""
    assert TABLE.model == "power-puck-shot/3"
    assert TABLE.tier(0).compositions == ((Composition(), 1),)


def test_the_100_pound_prize_game_amount_is_shown() -> None:
    one_puck = {
        comp
        for _, comp, count in compositions()
        for part in comp.parts
        if count and part.feature == "pot" and part.pence == 10_000 and part.get("pucks") == 1
    }
    assert one_puck, "a one-puck £100 PRIZE POT: its one amount is £100"


def test_the_shape_is_believable() -> None:
    paid = {tier.prize_pence: tier.prize_pence * tier.count for tier in TABLE.tiers}
    small = sum(pence for prize, pence in paid.items() if 0 < prize <= 20 * TABLE.price_pence)
    assert small > 0.75 * TABLE.total_prizes_pence  # most of the payout in prizes up to £100
    # Every winning play wins at least the stake (the cheapest prize is the £5 dark blue row).
    assert min(prize for prize in paid if prize) == TABLE.price_pence


def bonus(**fields: Any) -> dict[str, Any]:
    return {"feature": "bonus", "pence": 0, **fields}


def row(colour: str, boosts: int = 0) -> dict[str, Any]:
    pence = rules.row_amount(colour, boosts)
    return {"feature": "row", "pence": pence, "colour": colour, "boosts": boosts}


@pytest.mark.parametrize(
    ("parts", "words"),
    [
        ([row("red", 1)], "Bonus Games award 0 red boosters"),
        ([row("red", 1), bonus(games=1, pucks=1, boosters="red,red")], "award 2 red boosters"),
        ([bonus(games=1, pucks=1, boosters="yellow")], "yellow row takes no booster"),
        ([bonus(games=1, pucks=2, boosters="red,red,red,red")], "boosted at most 3 times"),
        ([bonus(games=1, pucks=1, extra_pucks=4)], "reveal 1-3 awards, not 4"),
        ([bonus(games=1, pucks=4, extra_pucks=4)], "give 1-3 Bonus Pucks, not 4"),
        ([bonus(games=3, pucks=3, extra_pucks=3)], "1-2 Bonus Games, got 3"),
        ([bonus(games=1, pucks=2, symbols=6)], "would unlock the Prize Game"),
        ([bonus(games=1, pucks=1, squares="green:4")], "no '+4' green squares"),
        ([bonus(games=1, pucks=1, boosters="green,red")], "Prize Table order"),
        ([bonus(games=1, pucks=1, extra_pucks=0, power_pucks=1)], "leave out zeros"),
        ([bonus(games=1, pucks=1, spins=1)], "unknown bonus fields"),
        ([bonus(games=1, pucks=1, boosters="teal")], "unknown colour"),
        ([row("dark-blue"), {**bonus(games=1, pucks=1, extra_pucks=1), "pence": 100}], "nothing"),
        (
            [bonus(games=1, pucks=1, extra_pucks=1), bonus(games=1, pucks=1, power_pucks=1)],
            "one bonus part",
        ),
    ],
)
def test_the_check_refuses_awards_the_rules_cannot_show(
    parts: list[dict[str, Any]], words: str
) -> None:
    problem = check(Composition.from_json(parts))
    assert problem is not None and words in problem, problem


def test_a_pot_allows_the_symbols_that_unlocked_it() -> None:
    pot: dict[str, Any] = {"feature": "pot", "pence": 1_000, "pucks": 2}
    assert check(Composition.from_json([pot, bonus(games=1, pucks=3, symbols=7)])) is None
    assert check(Composition.from_json([pot, bonus(games=2, pucks=3, symbols=8)])) is not None
