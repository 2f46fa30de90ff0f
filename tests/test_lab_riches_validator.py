"""The independent validator passes real books and catches hand-broken ones."""

import copy
import json
from typing import Any

from engine.lab_riches import rules
from engine.lab_riches.generator import build_book
from engine.lab_riches.validator import validate
from engine.outcome import Composition, Part

MODEL = "lab-riches/2"


def book_where(composition: Composition, wanted: str) -> dict[str, Any]:
    """The first book (over seeds 0, 1, ...) that has an event of type wanted."""
    for n in range(500):
        data = json.loads(build_book(MODEL, composition, n.to_bytes(16, "big")).to_json())
        if any(e["type"] == wanted for e in data["events"]):
            assert validate(data) == []
            return data
    raise AssertionError(f"no book with a {wanted} event")


def reindex(data: dict[str, Any]) -> dict[str, Any]:
    for i, event in enumerate(data["events"]):
        event["index"] = i
    return data


def first(data: dict[str, Any], kind: str) -> int:
    return next(i for i, e in enumerate(data["events"]) if e["type"] == kind)


def test_an_unplanned_row_win_is_caught() -> None:
    data = book_where(Composition.of([Part("row", 500)]), "row_win")
    broken = copy.deepcopy(data)
    broken["composition"], broken["prize_pence"] = [], 0
    assert any("composition" in f for f in validate(broken))
    inserted = copy.deepcopy(data)
    at = first(inserted, "row_win")
    inserted["events"].insert(at, {"type": "row_win", "row": 4, "pence": 300})
    assert validate(reindex(inserted))


def test_a_lock_without_a_match_is_caught() -> None:
    data = book_where(Composition(), "lock")
    at = first(data, "lock")
    data["events"][at]["row"] = (data["events"][at]["row"] + 1) % rules.ROWS
    faults = validate(data)
    assert any(f"event {at}" in f for f in faults)


def test_a_changed_locked_symbol_is_caught() -> None:
    data = book_where(Composition(), "lock")
    lock = data["events"][first(data, "lock")]
    later = [e for e in data["events"][lock["index"] + 1 :] if e["type"] == "go"]
    square = later[0]["grid"][lock["row"]]
    square[lock["col"]] = next(s for s in rules.SYMBOLS if s != square[lock["col"]])
    assert any("Locked Symbol" in f for f in validate(data))


def test_a_wrong_meter_box_is_caught() -> None:
    data = book_where(Composition.of([Part("meter", 400)]), "meter_box")
    boxes = [e for e in data["events"] if e["type"] == "meter_box"]
    boxes[-1]["box"] += 1
    assert validate(data)
    data = book_where(Composition.of([Part("meter", 400)]), "meter_box")
    data["events"][-1]["meter_pence"] = 600
    assert validate(data)


def test_a_go_too_many_is_caught() -> None:
    data = book_where(Composition(), "go")
    events = data["events"]
    last_go = max(i for i, e in enumerate(events) if e["type"] == "go")
    extra = copy.deepcopy(events[last_go])
    extra["go"] += 1
    extra["goes_left"] -= 1
    events.insert(len(events) - 1, extra)
    faults = validate(reindex(data))
    assert any("no goes left" in f for f in faults)


def test_missing_extra_goes_is_caught() -> None:
    data = book_where(Composition(), "extra_goes")
    del data["events"][first(data, "extra_goes")]
    assert validate(reindex(data))


def test_a_bonus_game_without_three_bonus_motifs_is_caught() -> None:
    data = book_where(Composition.of([Part("instant", 500)]), "bonus_activated")
    go = data["events"][first(data, "bonus_activated")]["go"]
    go_event = next(e for e in data["events"] if e["type"] == "go" and e["go"] == go)
    column = go_event["top"].index(rules.BONUS)
    go_event["top"][column] = next(s for s in rules.SYMBOLS if s not in go_event["grid"][0])
    faults = validate(data)
    assert faults
    assert any("bonus" in f for f in faults)


def test_a_bonus_row_that_is_not_in_the_layout_is_caught() -> None:
    data = book_where(Composition.of([Part("instant", 500)]), "bonus_row")
    row = data["events"][first(data, "bonus_row")]
    row["value"] = 999
    assert validate(data)


def test_header_and_totals_are_checked() -> None:
    data = book_where(Composition.of([Part("row", 500)]), "row_win")
    data["prize_pence"] = 600
    data["game"] = "power-puck-shot"
    data["seed"] = "xyz"
    faults = validate(data)
    assert any("Prize Amount" in f for f in faults)
    assert any("Lab Riches book" in f for f in faults)
    assert any("seed" in f for f in faults)
    assert validate({"events": []})
