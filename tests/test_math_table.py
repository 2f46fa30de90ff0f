"""The registered games' prize tables: exact figures, and every validation refusing a bad table."""

from __future__ import annotations

import copy
import tomllib
from fractions import Fraction
from typing import Any

import pytest

from engine import games
from engine.games import UnknownGame, ids, load_table
from engine.math.figures import feature_payout, feature_share, round2, show2, tier_odds
from engine.math.table import TableError, parse_table
from engine.outcome import Composition, Part


def data(game: str) -> dict[str, Any]:
    return tomllib.loads(games.get(game).table_text())


def test_lab_riches_exact_figures() -> None:
    table = load_table("lab-riches")
    assert table.model == "lab-riches/3"
    assert table.price_pence == 300
    assert table.base_pool_size == 2_000_000
    assert table.winning_plays == 729_929
    assert table.total_prizes_pence == 425_999_000
    assert table.odds_one_in == Fraction(2_000_000, 729_929)
    assert table.rtp == Fraction(425_999_000, 600_000_000)
    assert show2(table.odds_one_in) == "2.74"
    assert show2(table.rtp * 100) == "71.00"
    assert table.top_prize_pence == 25_000_000
    assert table.tier(25_000_000).count == 1


def test_power_puck_shot_exact_figures() -> None:
    table = load_table("power-puck-shot")
    assert table.model == "power-puck-shot/3"
    assert table.price_pence == 500
    assert table.winning_plays == 784_000
    assert table.total_prizes_pence == 730_000_000
    assert table.odds_one_in == Fraction(2_000_000, 784_000)
    assert table.rtp == Fraction(73, 100)
    assert show2(table.odds_one_in) == "2.55"
    assert show2(table.rtp * 100) == "73.00"
    assert table.tier(50_000_000).compositions[0][0].parts[0].get("colour") == "yellow"


def test_as_json_is_the_published_shape() -> None:
    for game in ids():
        out = load_table(game).as_json()
        keys = {"id", "name", "model", "price_pence", "pool_size", "tiers"}
        assert keys | {"odds_one_in", "rtp_percent", "top_prize_pence"} == set(out)
        assert out["id"] == game
        assert sum(t["count"] for t in out["tiers"]) == out["pool_size"]
    assert load_table("lab-riches").as_json()["odds_one_in"] == 2.74
    assert load_table("lab-riches").as_json()["rtp_percent"] == 71.0
    assert load_table("power-puck-shot").as_json()["odds_one_in"] == 2.55
    assert load_table("power-puck-shot").as_json()["rtp_percent"] == 73.0


def test_tier_odds_and_feature_shares_are_exact() -> None:
    table = load_table("lab-riches")
    assert tier_odds(table)[300] == Fraction(2_000_000, 235_830)
    paid = feature_payout(table)
    assert set(paid) == {"row", "meter", "instant"}
    assert sum(paid.values()) == table.total_prizes_pence
    assert sum(feature_share(table).values()) == 1
    puck = load_table("power-puck-shot")
    assert set(feature_payout(puck)) == {"row", "pot"}
    assert sum(feature_payout(puck).values()) == puck.total_prizes_pence


def test_small_tiers_carry_most_winning_plays() -> None:
    for game in ids():
        table = load_table(game)
        small = sum(t.count for t in table.tiers if 0 < t.prize_pence <= 2 * table.price_pence)
        assert small * 2 > table.winning_plays
        assert table.tiers[1].prize_pence == table.price_pence
        assert table.tiers[-1].count == 1


def test_round2_rounds_halves_up() -> None:
    assert round2(Fraction(2745, 1000)) == Fraction(275, 100)
    assert round2(Fraction(27449, 10000)) == Fraction(274, 100)
    assert show2(Fraction(123456789, 100)) == "1,234,567.89"


def test_composition_counts_split_exactly() -> None:
    tier = load_table("lab-riches").tier(600)
    counts = dict(tier.composition_counts(scale=5))
    assert sum(counts.values()) == tier.count * 5
    meter = Composition.of([Part("meter", 600)])
    assert counts[meter] == tier.count * 5 * 5 // 10


def refuse(game: str, change: Any, words: str) -> None:
    broken = copy.deepcopy(data(game))
    change(broken)
    with pytest.raises(TableError, match=words):
        parse_table(broken, games.get(game))


def tier_of(table: dict[str, Any], prize: int) -> dict[str, Any]:
    return next(t for t in table["tiers"] if t["prize_pence"] == prize)


def test_refuses_compositions_that_do_not_add_up() -> None:
    def change(t: dict[str, Any]) -> None:
        tier_of(t, 500)["compositions"][0]["parts"] = [{"feature": "row", "pence": 300}]

    refuse("lab-riches", change, r"tier 500 pence: composition .* adds up to 300, not 500")


def test_refuses_a_row_amount_no_prize_box_shows() -> None:
    def change(t: dict[str, Any]) -> None:
        tier_of(t, 600)["compositions"][1]["parts"] = [{"feature": "row", "pence": 600}]

    refuse("lab-riches", change, r"tier 600 pence: .* 600 pence is not a row amount")


def test_refuses_a_meter_amount_the_meter_cannot_show() -> None:
    def change(t: dict[str, Any]) -> None:
        tier_of(t, 2_000)["compositions"][0]["parts"] = [{"feature": "meter", "pence": 2_000}]

    refuse("lab-riches", change, r"tier 2000 pence: .* not a meter amount")


def test_refuses_two_meter_boxes_and_too_many_rows() -> None:
    def two_meters(t: dict[str, Any]) -> None:
        tier_of(t, 1_000)["compositions"][0]["parts"] = [
            {"feature": "meter", "pence": 400},
            {"feature": "meter", "pence": 600},
        ]

    refuse("lab-riches", two_meters, r"tier 1000 pence: .* one meter box")

    def four_rows(t: dict[str, Any]) -> None:
        rows = [{"feature": "row", "pence": 500}] * 4
        tier_of(t, 2_000)["compositions"][0]["parts"] = rows

    refuse("lab-riches", four_rows, r"tier 2000 pence: .* 4 rows won, at most 3")


def test_refuses_a_power_puck_row_off_its_ladder() -> None:
    def change(t: dict[str, Any]) -> None:
        part = {"feature": "row", "pence": 1_000, "colour": "purple", "boosts": 1}
        tier_of(t, 1_000)["compositions"][0]["parts"] = [part]

    refuse("power-puck-shot", change, r"tier 1000 pence: .* purple row after 1 boosts pays 800")


def test_refuses_a_colour_won_twice_and_an_impossible_pot() -> None:
    def twice(t: dict[str, Any]) -> None:
        part = {"feature": "row", "pence": 500, "colour": "dark-blue", "boosts": 0}
        tier_of(t, 1_000)["compositions"][0]["parts"] = [part, part]

    refuse("power-puck-shot", twice, r"tier 1000 pence: .* only once")

    def pot(t: dict[str, Any]) -> None:
        tier_of(t, 500)["compositions"][2]["parts"] = [{"feature": "pot", "pence": 500, "pucks": 6}]

    refuse("power-puck-shot", pot, r"tier 500 pence: .* 6 Prize Game Pucks")


def test_refuses_odds_off_the_published_figure() -> None:
    def change(t: dict[str, Any]) -> None:
        tier_of(t, 0)["count"] += 10_000
        t["base_pool_size"] += 10_000

    refuse("lab-riches", change, r"lab-riches: overall odds 1 in 2.75 do not round to 1 in 2.74")


def test_refuses_payout_off_the_published_figure() -> None:
    def change(t: dict[str, Any]) -> None:
        tier_of(t, 500)["count"] -= 10_000
        tier_of(t, 600)["count"] += 10_000

    refuse("power-puck-shot", change, r"power-puck-shot: payout 73.10% does not round to 73.00%")


def test_refuses_counts_that_miss_the_pool_and_bad_weights() -> None:
    def pool(t: dict[str, Any]) -> None:
        t["base_pool_size"] += 1

    refuse("lab-riches", pool, r"counts add up to 2000000, not 2000001")

    def weights(t: dict[str, Any]) -> None:
        tier_of(t, 300)["count"] += 1
        tier_of(t, 0)["count"] -= 1

    refuse("lab-riches", weights, r"tier 300 pence: count 235831 is not a multiple of")


def test_refuses_a_bad_losing_tier_and_wrong_top_prize() -> None:
    def losing(t: dict[str, Any]) -> None:
        tier_of(t, 0)["compositions"] = [{"weight": 1, "parts": [{"feature": "row", "pence": 300}]}]

    refuse("lab-riches", losing, r"tier 0 pence: .* adds up to 300, not 0")

    def no_plain_loss(t: dict[str, Any]) -> None:
        bonus = {"feature": "bonus", "pence": 0, "games": 1, "pucks": 1, "extra_pucks": 1}
        tier_of(t, 0)["compositions"] = [{"weight": 1, "parts": [bonus]}]

    refuse("power-puck-shot", no_plain_loss, r"tier 0 pence: the losing tier needs the empty")

    def top(t: dict[str, Any]) -> None:
        t["tiers"] = t["tiers"][:-1]

    refuse("lab-riches", top, r"tier 100000 pence: the top tier must be 25000000")


def test_refuses_another_game_and_a_wrong_model() -> None:
    refuse("lab-riches", lambda t: t.update(game="roulette"), r"names the game 'roulette'")
    pps = data("power-puck-shot")
    refuse("lab-riches", lambda t: t.update(pps), r"lab-riches: the table file names the game")
    refuse("lab-riches", lambda t: t.update(model="lab-riches/9"), r"model 'lab-riches/9'")
    refuse("lab-riches", lambda t: t.update(price_pence=400), r"differ from the game's rules")
    with pytest.raises(UnknownGame, match="unknown game 'roulette'"):
        load_table("roulette")


def test_every_registered_game_loads_its_own_table() -> None:
    assert ids() == ("lab-riches", "power-puck-shot")
    for game in games.GAMES:
        table = load_table(game.id)
        assert table is game.table
        assert table == parse_table(data(game.id), game)
        assert (table.game, table.name) == (game.id, game.name)
        assert table.price_pence == game.price_pence
        assert table.top_prize_pence == game.top_prize_pence
