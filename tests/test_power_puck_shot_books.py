"""£500K Power Puck Shot books: built from any composition and seed, replayed, and checked by the
independent validator, paths included, for any arrows; tampered books are refused."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games import get, load_table
from engine.outcome import Composition
from engine.power_puck_shot import rules
from engine.power_puck_shot.generator import MODEL, build_book
from engine.power_puck_shot.replay import Replay
from engine.power_puck_shot.validator import validate

GAME = get("power-puck-shot")
COMPOSITIONS = [comp for tier in load_table(GAME.id).tiers for comp, _ in tier.compositions]


def book_of(parts: list[dict[str, Any]], seed: int = 1) -> dict[str, Any]:
    book = build_book(MODEL, Composition.from_json(parts), seed.to_bytes(16, "big"))
    data: dict[str, Any] = json.loads(book.to_json())
    return data


@settings(max_examples=150, deadline=None)
@given(
    comp=st.sampled_from(COMPOSITIONS),
    seed=st.binary(min_size=16, max_size=16),
    arrows=st.lists(st.integers(0, rules.DIRECTIONAL_ARROWS - 1), min_size=1, max_size=40),
)
def test_any_play_with_any_arrows_is_sound(
    comp: Composition, seed: bytes, arrows: list[int]
) -> None:
    book = build_book(MODEL, comp, seed)
    data = json.loads(book.to_json())
    shots = [e["index"] for e in book.events if e["type"] == "shot"]
    chosen = {index: arrows[k % len(arrows)] for k, index in enumerate(shots)}
    assert validate(data, chosen) == []  # every path legal, over exactly its pips
    final = Replay(book).state_at(len(book.events) - 1)
    assert final.finished and final.total == book.prize_pence == comp.total
    assert final.pucks_left == 0 and final.bonus_pucks_left == 0 and final.prize_pucks_left == 0
    assert dict(final.won) == {
        str(p.get("colour")): p.pence for p in comp.parts if p.feature == "row"
    }


def test_the_same_inputs_give_the_same_book() -> None:
    comp = COMPOSITIONS[len(COMPOSITIONS) // 2]
    assert build_book(MODEL, comp, bytes(16)) == build_book(MODEL, comp, bytes(16))
    assert build_book(MODEL, comp, bytes(16)) != build_book(MODEL, comp, b"\x01" * 16)


def test_the_builder_refuses_another_model_and_a_composition_the_rules_cannot_show() -> None:
    with pytest.raises(ValueError, match="model"):
        build_book("power-puck-shot/1", Composition(), bytes(16))
    boosted: list[dict[str, Any]] = [
        {"feature": "row", "pence": 3000, "colour": "red", "boosts": 1}
    ]
    with pytest.raises(ValueError, match="cannot be shown"):
        build_book(MODEL, Composition.from_json(boosted), bytes(16))


BOOSTED = [
    {"feature": "row", "pence": 3000, "colour": "red", "boosts": 1},
    {"feature": "bonus", "pence": 0, "games": 1, "pucks": 1, "boosters": "red", "power_pucks": 1},
]


def test_a_power_puck_collects_double_and_comes_first() -> None:
    book = book_of(BOOSTED)
    assert validate(book) == []
    events = book["events"]
    end = next(e["index"] for e in events if e["type"] == "bonus_end")
    assert events[end] == {"index": end, "type": "bonus_end", "extra_pucks": 0, "power_pucks": 1}
    assert events[end + 1]["type"] == "shot" and events[end + 1]["power"] is True
    replay = Replay(book)
    before, after = replay.state_at(end), replay.state_at(end + 1)
    squares = [r for r in events[end + 1]["reveals"] if r.startswith("square:")]
    assert sum(after.squares) - sum(before.squares) == 2 * len(squares)


def tampered(change: Any, parts: list[dict[str, Any]] | None = None) -> list[str]:
    book = copy.deepcopy(book_of(parts or BOOSTED, seed=3))
    change(book["events"], book)
    return validate(book)


def first(events: list[dict[str, Any]], kind: str, game: str | None = None) -> dict[str, Any]:
    return next(e for e in events if e["type"] == kind and (game is None or e["game"] == game))


def test_the_validator_refuses_tampered_books() -> None:
    def extra_square(events: list[dict[str, Any]], _book: dict[str, Any]) -> None:
        first(events, "shot", "main")["reveals"].append("square:red")

    assert any("red" in fault for fault in tampered(extra_square))

    def no_booster(events: list[dict[str, Any]], _book: dict[str, Any]) -> None:
        first(events, "shot", "bonus")["reveals"] = ["extra"]

    assert tampered(no_booster) != []

    def wrong_amount(events: list[dict[str, Any]], _book: dict[str, Any]) -> None:
        first(events, "row_won")["pence"] = 2500

    assert any("pays 3000" in fault for fault in tampered(wrong_amount))

    def not_power(events: list[dict[str, Any]], _book: dict[str, Any]) -> None:
        for event in events:
            if event.get("power"):
                event["power"] = False

    assert any("Power Puck" in fault for fault in tampered(not_power))

    def unknown_pip(events: list[dict[str, Any]], _book: dict[str, Any]) -> None:
        first(events, "shot", "main")["reveals"][0] = "square:teal"

    assert any("cannot reveal" in fault for fault in tampered(unknown_pip))

    def renumbered(events: list[dict[str, Any]], _book: dict[str, Any]) -> None:
        first(events, "shot", "main")["shot"] = 7

    assert any("shot number" in fault for fault in tampered(renumbered))


def test_the_validator_checks_the_prize_game_and_the_paths() -> None:
    pot = [{"feature": "pot", "pence": 2500, "pucks": 3}]
    book = book_of(pot)
    start = first(book["events"], "prize_start")
    assert (start["pucks"], start["symbols"]) == (3, 8)
    shots = [e["index"] for e in book["events"] if e["type"] == "shot"]
    assert validate(book, dict.fromkeys(shots, 2)) == []
    assert any("no arrow" in fault for fault in validate(book, {}))

    def richer(events: list[dict[str, Any]], _book: dict[str, Any]) -> None:
        first(events, "shot", "prize")["reveals"] = ["pot:10000"]

    assert tampered(richer, pot) != []


def test_a_model_3_book_shows_every_award_its_composition_names() -> None:
    """Model 3: chance may add Bonus Game awards, but every award the composition names is shown
    and a model the validator does not know is refused."""
    book = book_of(BOOSTED, seed=3)
    assert book["model"] == "power-puck-shot/3" and validate(book) == []
    awards = [a for e in book["events"] if e.get("game") == "bonus" for a in e["reveals"]]
    assert {"booster:red", "power"} <= set(awards)

    def no_power(events: list[dict[str, Any]], _book: dict[str, Any]) -> None:
        for event in events:
            if event.get("game") == "bonus" and "power" in event["reveals"]:
                event["reveals"][event["reveals"].index("power")] = "prize"
            if event["type"] == "bonus_end" and event["power_pucks"]:
                event["power_pucks"] -= 1

    assert any("not all shown" in fault for fault in tampered(no_power))
    assert validate({**book, "model": "power-puck-shot/9"}) != []
