"""The replay state machine: every event in order with the visible state, restorable anywhere."""

import json

import pytest

from engine.book import Book
from engine.lab_riches.generator import build_book
from engine.lab_riches.replay import Replay
from engine.outcome import Composition, Part

COMPOSITION = Composition.of([Part("row", 500), Part("meter", 400), Part("instant", 300)])


def test_states_follow_the_events_to_the_prize() -> None:
    book = build_book("lab-riches/1", COMPOSITION, bytes(range(16)))
    replay = Replay(book)
    seen = list(replay)
    assert len(seen) == len(book.events) == len(replay)
    first_event, first_state = seen[0]
    assert first_event["type"] == "start" and first_state.goes_left == 6
    assert not first_state.top_active and first_state.prize_boxes is None
    for event, state in seen:
        assert state.index == event["index"]
        if event["type"] == "go":
            assert state.goes_left == event["goes_left"]
            assert [list(row) for row in state.grid] == event["grid"]
        if event["type"] == "lock":
            assert (event["row"], event["col"]) in state.locks
        if event["type"] == "bonus_row":
            assert state.bonus is not None and state.bonus.row == event["row"]
    last = seen[-1][1]
    assert last.finished and last.goes_left == 0
    assert last.total == book.prize_pence == 1_200
    assert last.won_rows and last.meter_pence == 400 and last.instant_pence == 300
    assert last.bonus is None


def test_restore_to_any_index_matches_stepping() -> None:
    book = build_book("lab-riches/1", COMPOSITION, bytes(16))
    stepped = Replay(book)
    states = []
    while (item := stepped.step()) is not None:
        states.append(item[1])
    resumed = Replay(json.loads(book.to_json()))
    for index in (0, 5, len(states) // 2, len(states) - 1):
        assert resumed.restore(index) == states[index] == resumed.state_at(index)
        assert resumed.position == index
    assert resumed.step() is None
    with pytest.raises(IndexError):
        resumed.state_at(len(states))


def test_a_book_read_back_replays_the_same() -> None:
    book = build_book("lab-riches/1", Composition(), bytes(16))
    again = Book.from_json(book.to_json())
    assert list(Replay(again)) == list(Replay(book))
    assert Replay(book).state_at(len(book.events) - 1).total == 0
