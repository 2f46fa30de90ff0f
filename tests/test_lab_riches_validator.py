"""The independent validator passes real books and catches hand-broken ones."""

import copy
import json
from typing import Any

from engine.lab_riches import rules
from engine.lab_riches.generator import build_book
from engine.lab_riches.validator import validate
from engine.outcome import Composition, Part

MODEL = "lab-riches/3"  # the table's model


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


def _books(model: str, composition: Composition, count: int) -> list[dict[str, Any]]:
    return [
        json.loads(build_book(model, composition, n.to_bytes(16, "big")).to_json())
        for n in range(count)
    ]


def test_model_3_plays_the_bonus_game_before_the_locks() -> None:
    """On a GO that starts a Bonus Game, bonus_activated follows the go (and prize_boxes) at
    once; the GO's locks come after bonus_end. Model 2's order is wrong for a model 3 book."""
    checked = 0
    for data in _books(MODEL, Composition.of([Part("instant", 500)]), 60):
        events = data["events"]
        at = first(data, "bonus_activated")
        go = max(i for i in range(at) if events[i]["type"] == "go")
        assert [e["type"] for e in events[go + 1 : at]] in ([], ["prize_boxes"])
        end = next(i for i in range(at, len(events)) if events[i]["type"] == "bonus_end")
        locks = [i for i in range(end, len(events)) if events[i]["type"] == "lock"]
        next_go = next((i for i in range(at, len(events)) if events[i]["type"] == "go"), None)
        if locks and (next_go is None or locks[0] < next_go):
            checked += 1
            moved = copy.deepcopy(data)
            block = moved["events"][at : end + 1]
            del moved["events"][at : end + 1]
            types = [e["type"] for e in moved["events"]]
            later = next(i for i in range(at, len(types)) if types[i] in {"go", "end"})
            moved["events"][later:later] = block  # the Bonus Game last, as model 2 had it
            assert any("the rules give" in f for f in validate(reindex(moved)))
            as_model_2 = {**reindex(moved), "model": "lab-riches/2"}
            assert not [f for f in validate(as_model_2) if "the rules give" in f]
    assert checked > 0, "no Bonus Game GO with locks in these books"


def test_model_3_lights_every_meter_box_crossed() -> None:
    crossings = 0
    for data in _books(MODEL, Composition.of([Part("meter", 1_000)]), 200):
        assert validate(data) == []
        events = data["events"]
        for i, e in enumerate(events):
            if e["type"] == "meter_box" and events[i - 1]["type"] == "meter_box":
                crossings += 1
                assert e["box"] == events[i - 1]["box"] + 1
                dropped = copy.deepcopy(data)
                del dropped["events"][i - 1]
                assert validate(reindex(dropped))
                break
    assert crossings > 0, "no award crossed two meter boxes"


def test_model_3_start_row_shows_motifs_but_never_three_bonus() -> None:
    books = _books(MODEL, Composition(), 300)
    specials = [
        b for b in books if any("/" in s or s == rules.BONUS for s in b["events"][0]["top"])
    ]
    assert specials, "no start row with a motif"
    data = copy.deepcopy(specials[0])
    data["events"][0]["top"] = [rules.BONUS] * 3 + [rules.SYMBOLS[0]]
    assert any("start Top Row" in f for f in validate(data))
    data = copy.deepcopy(specials[0])
    data["model"] = "lab-riches/2"  # models 1 and 2 show symbols only
    assert any("start Top Row shows a motif" in f for f in validate(data))


def test_model_3_has_no_cap_on_goes() -> None:
    """A play may pass 15 goes in model 3 (the procedure has no cap); a model 2 book may not."""
    long_play = None
    for n in range(3000):
        data = json.loads(build_book(MODEL, Composition(), n.to_bytes(16, "big")).to_json())
        if sum(e["type"] == "go" for e in data["events"]) > rules.MAX_GOES:
            long_play = data
            break
    assert long_play is not None, "no play of more than 15 goes in 3,000 losing books"
    assert validate(long_play) == []
    assert any("at most 15" in f for f in validate({**long_play, "model": "lab-riches/2"}))
