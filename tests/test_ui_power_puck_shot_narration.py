"""£500K Power Puck Shot narration: every event of books built for every composition of the
prize table, in words a screen-reader user can follow, each reveal said, the prize last."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

from engine.book import Book
from engine.games import get, load_table
from engine.money import format_pounds
from engine.power_puck_shot import EVENT_TYPES, rules
from engine.power_puck_shot.generator import MODEL, build_book
from engine.power_puck_shot.replay import Replay, State
from engine.ui.lab_riches.sounds import SOUNDS as LAB_RICHES_SOUNDS
from engine.ui.power_puck_shot import narrate
from engine.ui.power_puck_shot.narrate import ARROW_NAMES, HANDLERS, prompt
from engine.ui.power_puck_shot.sounds import SOUNDS
from engine.ui.sound import SHARED, merge

GAME = get("power-puck-shot")
COMPOSITIONS = [comp for tier in load_table(GAME.id).tiers for comp, _ in tier.compositions]
SEEDS = (0, 1, 2)
BOOKS = [
    build_book(MODEL, comp, seed.to_bytes(16, "big")) for comp in COMPOSITIONS for seed in SEEDS
]
Event = Mapping[str, Any]


def with_arrow(event: Event) -> dict[str, Any]:
    """The event as the screen plays it: a shot carries the arrow the player picked."""
    if event["type"] != "shot":
        return dict(event)
    return {**event, "arrow": int(event["shot"]) % rules.DIRECTIONAL_ARROWS}


def narration(book: Book, arrows: bool = True) -> list[tuple[Event, State, list[str]]]:
    """Each event (with its arrow), the state after it and its sentences."""
    said = []
    for event, state in Replay(book):
        shown = with_arrow(event) if arrows else event
        lines = HANDLERS[str(event["type"])](shown, state)
        assert all(0.0 <= at <= 1.0 for at, _ in lines)
        said.append((shown, state, [line for _, line in sorted(lines, key=lambda x: x[0])]))
    return said


def item_count(words: str) -> tuple[int, str]:
    """'a red square' -> (1, 'red square'); '3 Bonus symbols' -> (3, 'Bonus symbol')."""
    number, noun = words.split(" ", 1)
    if number in ("a", "an"):
        return 1, noun
    return int(number), noun.removesuffix("s")


def expected_main(reveals: list[str]) -> Counter[str]:
    names = Counter[str]()
    for reveal in reveals:
        if reveal.startswith("square:"):
            names[f"{reveal.split(':')[1].replace('-', ' ')} square"] += 1
        else:
            names["Bonus symbol" if reveal == "bonus" else "Prize Game symbol"] += 1
    return names


def colour_said(colour: str) -> str:
    return colour.replace("-", " ")


def test_every_event_type_has_a_handler_and_the_compositions_show_them_all() -> None:
    assert set(HANDLERS) == set(EVENT_TYPES)
    seen = {str(e["type"]) for book in BOOKS for e in book.events}
    assert seen == set(EVENT_TYPES)
    awards = {str(r).split(":")[0] for book in BOOKS for e in book.events
              if e.get("game") == "bonus" for r in e["reveals"]}  # fmt: skip
    assert awards == {"booster", "squares", "extra", "power", "prize"}
    assert any(e.get("power") for book in BOOKS for e in book.events)


@pytest.mark.parametrize("arrows", [True, False])
def test_every_book_is_narrated_in_full_and_ends_with_its_prize(arrows: bool) -> None:
    for book in BOOKS:
        said = narration(book, arrows)
        for event, _state, sentences in said:
            assert sentences and all(isinstance(s, str) and s.strip() for s in sentences)
            if event["type"] == "shot":  # 'Main Game shot, steep left.' only with an arrow
                assert ("," in sentences[0]) == arrows
        total = format_pounds(book.prize_pence)  # the price back is not called a win
        back = book.prize_pence == rules.PRICE_PENCE
        assert said[-1][2][-1] == (f"Your {total} back" if back else f"Total won {total}")
        assert narration(book, arrows) == said  # deterministic


def test_every_reveal_of_every_shot_is_said() -> None:
    for book in BOOKS:
        boosts: Counter[str] = Counter()
        for event, state, sentences in narration(book):
            if event["type"] != "shot":
                continue
            reveals = [str(r) for r in event["reveals"]]
            first = sentences[0]
            arrow = ARROW_NAMES[int(event["arrow"])]
            pips = [s for s in sentences if s.startswith("Pip ")]
            if event["game"] != "prize":  # each pip in turn, what it reveals
                assert [int(s.split(":")[0][4:]) for s in pips] == list(range(1, len(reveals) + 1))
            if event["game"] == "main":
                said: Counter[str] = Counter()
                for words in pips:
                    n, noun = item_count(words.split(": ", 1)[1].removesuffix("."))
                    said[noun] += n
                assert said == expected_main(reveals), sentences
                if event["power"]:
                    assert "Power Puck: all symbols count twice." in sentences
                for colour in {r.split(":")[1] for r in reveals if r.startswith("square:")}:
                    n = state.squares[rules.COLOURS.index(colour)]
                    row = f"{colour_said(colour).capitalize()} row {n} of 12 squares."
                    assert row in sentences
                if "prize" in reveals:
                    assert any(
                        s.startswith(f"Prize Game meter {state.meter} of 10") for s in sentences
                    )
                assert sentences[-1].endswith(("left.", "Power Puck.", "Power Pucks."))
            elif event["game"] == "bonus":
                told = [s for s in sentences[1:-1] if not s.startswith("Pip ")]
                assert len(told) == len(reveals)
                for award, sentence in zip(reveals, told, strict=True):
                    kind = award.split(":")
                    if kind[0] == "booster":
                        boosts[kind[1]] += 1
                        amount = rules.row_amount(kind[1], boosts[kind[1]])
                        pounds = format_pounds(amount, always_pence=False)
                        assert sentence == (
                            f"Prize booster: the {colour_said(kind[1])} row rises to {pounds}."
                        )
                    elif kind[0] == "squares":
                        name = colour_said(kind[1])
                        noun = "square" if kind[2] == "1" else "squares"
                        assert sentence.startswith(f"{kind[2]} extra {name} {noun}: {name} row ")
                    elif award == "extra":
                        assert sentence.startswith("An extra Puck")
                    elif award == "power":
                        assert sentence.startswith("A Power Puck")
                    else:
                        assert award == "prize" and sentence.startswith("A Prize Game symbol")
                assert sentences[-1].endswith("Bonus Puck left.") or sentences[-1].endswith(
                    "Bonus Pucks left."
                )
            else:
                (reveal,) = reveals
                pounds = format_pounds(int(reveal.split(":")[1]), always_pence=False)
                assert f"The Prize Puck reveals {pounds}." in sentences
                assert f"PRIZE POT {format_pounds(state.pot, always_pence=False)}." in sentences
            named = re.match(r"[A-Za-z ]+, ([a-z ]+)\.$", first)
            assert named and named[1] == arrow, first


def test_the_other_events_say_what_the_screen_shows() -> None:
    for book in BOOKS:
        for event, state, sentences in narration(book):
            kind = event["type"]
            if kind == "row_won":
                colour = colour_said(str(event["colour"])).capitalize()
                pounds = format_pounds(int(event["pence"]), always_pence=False)
                back = int(event["pence"]) == rules.PRICE_PENCE  # said as its badge shows it
                won = f"your {pounds} back" if back else f"you win {pounds}"
                assert sentences[0] == f"{colour} row complete: {won}."
            elif kind == "bonus_start":
                assert sentences[0].startswith("BONUS GAME!")
                assert f"{event['pucks']} Bonus Puck" in sentences[0]
            elif kind == "bonus_end":
                assert sentences[0] == "Back to the main game."
                assert ("POWER PUCK ALL SYMBOLS X2" in sentences) == (state.power_pucks > 0)
                if event["power_pucks"]:
                    assert f"{event['power_pucks']} Power Puck" in sentences[1]
                if event["extra_pucks"]:
                    assert f"{event['extra_pucks']} extra Puck" in sentences[1]
            elif kind == "prize_start":
                assert sentences[0].startswith("RESULT! PRIZE GAME UNLOCKED!")
                assert f"{event['pucks']} Prize Puck" in sentences[0]
            elif kind == "start":
                assert sentences == [
                    "Main game. You have 4 pucks. Pick a Directional Arrow to shoot."
                ]


def test_the_words_for_a_hand_made_shot() -> None:
    state = Replay(BOOKS[0]).state_at(0)
    reveals = ["square:dark-blue", "square:dark-blue", "square:red", "bonus", "prize"]
    shot = {"index": 1, "type": "shot", "game": "main", "shot": 0, "power": False, "arrow": 0,
            "reveals": reveals}  # fmt: skip
    said = [line for _, line in sorted(HANDLERS["shot"](shot, state), key=lambda x: x[0])]
    assert [line for line in said if line.startswith(("Main", "Pip"))] == [
        "Main Game shot, steep left.",
        "Pip 1: a dark blue square.",
        "Pip 2: a dark blue square.",
        "Pip 3: a red square.",
        "Pip 4: a Bonus symbol.",
        "Pip 5: a Prize Game symbol.",
    ]
    assert said.index("Red row 0 of 12 squares.") > said.index("Pip 3: a red square.")
    assert narrate.pip_words("squares:red:3") == "3 extra red squares"
    assert narrate.pip_words("extra") == "an extra Puck"
    assert narrate.counted(1, "puck", "pucks") == "1 puck"
    assert narrate.colour_words("light-blue") == "light blue"


def test_the_prompt_names_the_next_puck() -> None:
    assert prompt(None) == "Press FINISH to complete your play."
    assert prompt({"type": "shot", "game": "main", "power": False}) == (
        "Pick a Directional Arrow to shoot your next puck."
    )
    assert prompt({"type": "shot", "game": "bonus"}).endswith("your Bonus Puck.")
    assert prompt({"type": "shot", "game": "prize"}).endswith("your Prize Puck.")
    assert prompt({"type": "shot", "game": "main", "power": True}).endswith("your Power Puck.")


def test_the_sound_cues_merge_with_the_shared_and_lab_riches_ones() -> None:
    merged = merge(SHARED, LAB_RICHES_SOUNDS, SOUNDS)
    assert set(SOUNDS) == {"shoot", "pip", "bumper", "drop", "fill", "full", "bonus-game",
                           "award", "boost", "puck", "prize-game", "pot", "power"}  # fmt: skip
    assert not set(SOUNDS) & (set(SHARED) | set(LAB_RICHES_SOUNDS))
    assert len(merged) == len(SHARED) + len(LAB_RICHES_SOUNDS) + len(SOUNDS)
    for notes in SOUNDS.values():
        assert notes and all(0 < n.gain <= 1 and 0 < n.length <= 1 for n in notes)


@pytest.mark.parametrize("seed", [7, 531])
def test_each_shot_is_asked_for_once(seed: int) -> None:
    """A whole play's narration asks 'Pick a Directional Arrow…' once before each shot: not
    again when a Bonus Game starts (it said it twice there)."""
    from tests.test_ui_power_puck_shot import EVERYTHING, play

    shell = play((390, 844), EVERYTHING if seed == 7 else [], seed=seed)
    asks = [line for line in shell.said if "Pick a Directional Arrow" in line or "shot," in line]
    doubled = [(a, b) for a, b in itertools.pairwise(asks)
               if "Pick a Directional Arrow" in a and "Pick a Directional Arrow" in b]  # fmt: skip
    assert any(line.startswith("BONUS GAME!") for line in shell.said)
    assert doubled == []
