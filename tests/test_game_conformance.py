"""The game contract: every registered game passes the same checks (engine/game.py).

A new game is added by one line in engine/games.py; this file then holds it to what every
game provides, reading what each declares (engine/game.py). A game on sale must declare golden
books and a winning entry (Game.examples), an independent validator that
accepts books of every composition of its table, and a presentation that handles every event
type it can write; a game not on sale must be refused by every door that sells or shows it.
"""

import hashlib
import importlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine import games
from engine.book import Book
from engine.game import Game
from engine.outcome import Composition
from engine.payload import Payload, PayloadError
from engine.ui.app import App
from engine.ui.flow import book_from_payload
from engine.ui.games import cover, first_scene, playable, presentation
from engine.ui.sound import SHARED
from tests import fixtures

ROOT = Path(__file__).resolve().parent.parent
SEEDS_PER_COMPOSITION = 12
# The registry's games (the browser's: engine/games.py), and every game the suite holds to the
# contract: those and the games only the tests register (tests/fixtures/), each registered
# for every test here (the `test_games` fixture) as the edge registers a game.
BUILT_IN = games.GAMES
GAMES = (*BUILT_IN, *(importlib.import_module(name).GAME for name in fixtures.PACKAGES))
ON_SALE = [game for game in GAMES if game.on_sale]
# Games whose engine is whole (book builder, replay, validator, statistics), on sale or not yet.
WITH_BOOKS = [game for game in GAMES if game.build_book is not None]


@pytest.fixture(autouse=True)
def registered(test_games: tuple[Game, ...]) -> tuple[Game, ...]:
    """The tests' own games in the registry for each test (tests/conftest.py)."""
    return test_games


def ids(game: Game) -> str:
    return game.id


def golden(game: Game) -> tuple[tuple[list[dict[str, Any]], str, str], ...]:
    """The game's golden books, as its examples declare them (engine.game.Examples: literal
    bytes that pin its published model); fails, naming the game, when it declares none."""
    if game.examples is None or not game.load_examples().GOLDEN:
        pytest.fail(f"{game.id} builds books but declares no golden books (Game.examples)")
    return game.load_examples().GOLDEN


def books(game: Game) -> list[Book]:
    """SEEDS_PER_COMPOSITION books of every composition of the game's table."""
    model = game.table.model
    out = []
    for tier in game.table.tiers:
        for composition, _weight in tier.compositions:
            for k in range(SEEDS_PER_COMPOSITION):
                seed = hashlib.sha256(f"{game.id}/{composition.to_json()}/{k}".encode()).digest()
                out.append(game.book(model, composition, seed[:16]))
    return out


def test_the_registry_holds_each_game_once() -> None:
    assert len(set(games.ids())) == len(games.GAMES)
    for game in games.GAMES:
        assert games.get(game.id) is game
        assert game.id == game.rules.GAME_ID and game.table.game == game.id
    with pytest.raises(KeyError):
        games.get("no-such-game")


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_every_composition_of_the_table_is_one_the_rules_can_show(game: Game) -> None:
    table = game.table
    assert (table.name, table.price_pence) == (game.name, game.price_pence)
    assert table.top_prize_pence == game.top_prize_pence
    for tier in table.tiers:
        for composition, _weight in tier.compositions:
            assert composition.total == tier.prize_pence
            if tier.prize_pence:
                assert game.check_composition(composition) is None, composition.to_json()


@pytest.mark.parametrize("game", WITH_BOOKS, ids=ids)
def test_a_game_with_books_has_every_engine_part(game: Game) -> None:
    assert game.build_book and game.replay and game.event_types and game.waits
    assert game.table.model in game.models
    assert set(game.waits) <= set(game.event_types)
    assert callable(game.load_validator().validate)
    assert set(game.load_statistics().FEATURES)
    assert golden(game)


@pytest.mark.parametrize("game", ON_SALE, ids=ids)
def test_a_game_on_sale_declares_a_winning_entry_of_its_table(game: Game) -> None:
    win = Composition.from_json(game.load_examples().WIN)
    assert win.total > 0
    assert any(win == shown for tier in game.table.tiers for shown, _weight in tier.compositions)


@pytest.mark.parametrize("game", ON_SALE, ids=ids)
def test_a_game_on_sale_declares_a_top_prize_entry_and_its_presses_word(game: Game) -> None:
    top = Composition.from_json(game.load_examples().CELEBRATION)  # what bench --frames plays
    assert top.total == game.top_prize_pence and game.load_examples().PRESSES
    assert any(top == shown for tier in game.table.tiers for shown, _weight in tier.compositions)


@pytest.mark.parametrize("game", ON_SALE, ids=ids)
def test_a_game_on_sale_declares_the_controls_that_act_on_its_book(game: Game) -> None:
    controls = presentation(game).controls
    assert controls.ids and controls.labels and set(controls.own_cue) <= set(controls.ids)
    assert (game.max_choices > 0) == (game.choice_values > 0)


def test_every_game_on_sale_has_books() -> None:
    assert set(ON_SALE) <= set(WITH_BOOKS)


@pytest.mark.parametrize("game", WITH_BOOKS, ids=ids)
def test_golden_books_are_stable(game: Game) -> None:
    for parts, seed, digest in golden(game):
        composition = Payload.from_json(_payload(game, parts, seed)).composition
        book = game.book(game.table.model, composition, bytes.fromhex(seed))
        assert hashlib.sha256(book.to_json().encode()).hexdigest() == digest


def test_golden_books_are_the_same_bytes_in_pyodide() -> None:
    """The engine in the browser (Pyodide under Node.js) builds the very same books (of the
    registry's games: the browser's)."""
    from tools.bench.engine import pyodide_eval

    browsers = [game for game in WITH_BOOKS if game in BUILT_IN]
    cases = [
        (game.id, game.table.model, parts, seed)
        for game in browsers
        for parts, seed, _digest in golden(game)
    ]
    code = (
        "import hashlib, json\n"
        "from engine.games import get\n"
        "from engine.outcome import Composition\n"
        f"cases = {json.dumps(cases)}\n"
        "json.dumps([hashlib.sha256(get(g).book(m, Composition.from_json(p), bytes.fromhex(s))"
        ".to_json().encode()).hexdigest() for g, m, p, s in cases])"
    )
    result = pyodide_eval(code, ("engine.games", *(m for g in browsers for m in g.lazy_modules())))
    if result is None:
        pytest.skip("Node.js or node_modules/pyodide is not installed")
    expected = [digest for game in browsers for _parts, _seed, digest in golden(game)]
    assert json.loads(result) == expected


@pytest.mark.parametrize("game", WITH_BOOKS, ids=ids)
def test_the_validator_accepts_books_of_every_composition(game: Game) -> None:
    validate = game.load_validator().validate
    stats = game.load_statistics()
    for book in books(game):
        data = json.loads(book.to_json())
        assert validate(data) == [], (book.composition.to_json(), book.seed)
        assert set(stats.features(data)) == set(stats.FEATURES)
        assert {event["type"] for event in book.events} <= set(game.event_types)


@pytest.mark.parametrize("game", WITH_BOOKS, ids=ids)
def test_the_validator_refuses_a_book_whose_total_is_changed(game: Game) -> None:
    book = json.loads(books(game)[0].to_json())
    book["prize_pence"] += 100
    assert game.load_validator().validate(book) != []


@pytest.mark.parametrize("game", ON_SALE, ids=ids)
def test_every_event_type_is_handled_by_replay_narration_cues_and_timing(game: Game) -> None:
    shown = presentation(game)
    types = set(game.event_types)
    assert set(shown.narration) == types
    assert set(shown.cues) == types
    assert set(shown.durations) == types
    sounds = {**shown.cover.sounds, **SHARED}  # its own cues and the shared ones
    seen: set[str] = set()
    for book in books(game)[::3]:
        assert game.replay is not None
        replay = game.replay(book)
        assert len(replay) == len(book.events)
        for index, event in enumerate(book.events):
            state = replay.state_at(index)
            for at, line in shown.narrate(event, state):  # each said as its moment shows
                assert 0.0 <= at <= 1.0 and isinstance(line, str) and line, (event["type"], at)
            assert shown.duration(event) >= 0
            for at, cue in shown.timeline(event):
                assert 0.0 <= at <= 1.0 and cue in sounds, (event["type"], cue)
            seen.add(str(event["type"]))
    assert seen == types, f"no book exercised {sorted(types - seen)}"


@pytest.mark.parametrize("game", ON_SALE, ids=ids)
def test_a_game_s_cover_and_screens_are_its_own(game: Game) -> None:
    """The presentation carries the game's cover itself (the one home of its game, look, words
    and cues), and both are refused for any other Game, even a copy of this one."""
    assert presentation(game).cover is cover(game)
    other = replace(game)
    for export in (presentation, cover):
        with pytest.raises(ValueError, match=f"presents {game.id}, not {game.id}"):
            export(other)


def _payload(game: Game, parts: list[dict[str, Any]], seed: str) -> dict[str, Any]:
    return {
        "account": "f00d",
        "game": game.id,
        "model": game.table.model,
        "play_number": 100_000_001,
        "pool": "0123456789abcdef",
        "index": 0,
        "prize_pence": sum(int(p["pence"]) for p in parts),
        "composition": parts,
        "seed": seed,
        "iat": 1_800_000_000,
    }


@pytest.mark.parametrize("game", WITH_BOOKS, ids=ids)
def test_the_token_codec_round_trips_and_builds_the_same_book(game: Game) -> None:
    for parts, seed, _digest in golden(game):
        data = _payload(game, parts, seed)
        payload = Payload.from_json(data)
        assert Payload.from_json(payload.to_json()) == payload
        assert json.dumps(payload.to_json(), sort_keys=True) == json.dumps(
            {**data, "composition": payload.composition.to_json()}, sort_keys=True
        )
        book = book_from_payload(payload.to_json(), game)
        assert book == game.book(payload.model, payload.composition, payload.seed_bytes)
    with pytest.raises(PayloadError):
        Payload.from_json({**_payload(game, [], "00" * 16), "prize_pence": 100})
    with pytest.raises(PayloadError):
        Payload.from_json({**_payload(game, [], "00" * 16), "play_number": "1"})


def test_a_game_not_on_sale_cannot_be_opened(withdrawn: str) -> None:
    game = games.get(withdrawn)
    assert game not in playable()
    assert game.presentation is None or game.build_book is None  # a part is missing
    scene = first_scene({"game": game.id})
    assert scene.name == "lobby"  # the lobby instead, where its card says "Coming soon"
    app = App(scene, 1280, 720)
    controls = {c.id: c for c in app.scene.controls()}
    assert f"play:{game.id}" not in controls and f"try:{game.id}" not in controls
    soon = controls[f"soon:{game.id}"]
    assert soon.label == f"Coming soon: {game.name}" and not soon.enabled
    assert all(f"play:{g.id}" in controls for g in playable())


def test_the_shell_bundle_names_no_game() -> None:
    """The shell's JavaScript is the same for every game: it takes game ids from Python."""
    sources = [ROOT / "web/shell/app.js", ROOT / "web/shell/sw.js"]
    sources += sorted((ROOT / "web/shell/js").glob("*.js"))
    for path in sources:
        text = path.read_text(encoding="utf-8")
        for game in games.GAMES:
            assert game.id not in text, f"{path.name} names {game.id}"
            assert game.name not in text, f"{path.name} names {game.name}"
