"""Lab Riches books: the total is the prize, the validator finds nothing, same inputs same bytes."""

import hashlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games import load_table
from engine.lab_riches import rules
from engine.lab_riches.generator import MODELS, build_book
from engine.lab_riches.validator import validate
from engine.outcome import Composition, Part

MODEL = "lab-riches/3"  # the table's model; every model still builds (MODELS)
LOSING = 2_000
METER_PRIZES = [pence for _first, _last, pence in rules.METER_BOXES if pence]


@st.composite
def compositions(draw: st.DrawFn) -> Composition:
    """Any composition the rules can show."""
    rows = draw(st.lists(st.sampled_from(rules.PRIZE_BOX_AMOUNTS), max_size=rules.MAX_ROW_WINS))
    meter = draw(st.lists(st.sampled_from(METER_PRIZES), max_size=1))
    instants = draw(
        st.lists(st.sampled_from(rules.INSTANT_PRIZE_AMOUNTS), max_size=rules.MAX_BONUS_GAMES)
    )
    parts = [Part("row", p) for p in rows] + [Part("meter", p) for p in meter]
    return Composition.of(parts + [Part("instant", p) for p in instants])


seeds = st.binary(min_size=16, max_size=16)


def check(composition: Composition, seed: bytes) -> dict:
    """Books of every model (plays sold under an older one replay from it) are faithful."""
    for model in MODELS:
        book = build_book(model, composition, seed)
        data = json.loads(book.to_json())
        assert data["model"] == model
        assert data["events"][-1]["total"] == composition.total == book.prize_pence
        assert validate(data) == []
    return data


@settings(max_examples=300, deadline=None)
@given(compositions(), seeds)
def test_any_composition_any_seed_is_a_faithful_play(composition: Composition, seed: bytes) -> None:
    check(composition, seed)


@settings(max_examples=50, deadline=None)
@given(compositions(), seeds)
def test_same_inputs_same_bytes(composition: Composition, seed: bytes) -> None:
    assert (
        build_book(MODEL, composition, seed).to_json()
        == build_book(MODEL, composition, seed).to_json()
    )


def test_every_composition_of_the_prize_table() -> None:
    table = load_table("lab-riches")
    assert table.model == MODEL
    for tier in table.tiers:
        for composition, _weight in tier.compositions:
            assert composition.total == tier.prize_pence
            for n in range(40):
                check(composition, hashlib.sha256(f"{tier.prize_pence}/{n}".encode()).digest()[:16])


def test_extreme_outcomes_are_shown() -> None:
    top = Composition.of(
        [Part("row", 50_000)] * 3 + [Part("meter", 25_000_000)] + [Part("instant", 5_000)] * 2
    )
    for n in range(100):
        data = check(top, n.to_bytes(16, "big"))
        assert sum(1 for e in data["events"] if e["type"] == "bonus_activated") == 2


def test_losing_plays_show_no_win_but_do_show_features() -> None:
    kinds: set[str] = set()
    near_rows = meter_seven = 0
    for n in range(LOSING):  # a losing play shows a Bonus Game about 3 times in 1,000
        data = check(Composition(), n.to_bytes(16, "big"))
        events = data["events"]
        kinds |= {e["type"] for e in events}
        assert not any(e["type"] in {"row_win", "instant"} for e in events)
        assert events[-1]["meter"] <= 7
        meter_seven += events[-1]["meter"] == 7
        locks = [0] * rules.ROWS
        for e in events:
            if e["type"] == "lock":
                locks[e["row"]] += 1
        near_rows += sum(1 for n_locks in locks if n_locks == 3)
    assert {"segments", "extra_goes", "bonus_activated", "bonus_row", "meter_box"} <= kinds
    assert 0 < meter_seven < LOSING
    assert near_rows > 0


def test_refuses_what_the_rules_cannot_show() -> None:
    with pytest.raises(ValueError):
        build_book(MODEL, Composition.of([Part("row", 123)]), bytes(16))
    with pytest.raises(ValueError):
        build_book(MODEL, Composition.of([Part("row", 300)] * 4), bytes(16))
    with pytest.raises(ValueError):
        build_book(MODEL, Composition.of([Part("meter", 400)] * 2), bytes(16))
    with pytest.raises(ValueError):
        build_book("lab-riches/0", Composition(), bytes(16))
    with pytest.raises(ValueError):
        build_book(MODEL, Composition(), bytes(8))
