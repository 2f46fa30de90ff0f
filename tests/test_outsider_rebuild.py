"""An outsider rebuilds Lab Riches books from docs/books.md alone, byte for byte.

tests/outsider/lab_riches.mjs is a second generator of models lab-riches/1, /2 and /3, in
JavaScript, written only from docs/books.md ("Rebuilding a Lab Riches book from its seed", with
its sections on models 2 and 3) and docs/rng.md. It must give the golden books of the three
models and the engine's exact bytes for every composition of the prize table and a spread of
other compositions the rules allow: if the documents stop describing the generator, this fails.
Model 2 builds a winning composition as model 1 does, and a losing play as a random play that
lost: its losing play gets the most seeds, and the seeds found to take its rarest turns. Model 3
(the prize table's model) is model 2 with a drawn start row, no cap on goes, the Bonus Game
before the locks and a meter_box event for every box reached: it gets as many books as model 2,
and seeds found to take its new turns. One node process builds every book of a test (requests
as JSON lines on stdin).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import subprocess
from pathlib import Path

import pytest

from engine.games import load_table
from engine.lab_riches import compositions, rules, simulate
from engine.lab_riches.examples import GOLDEN as CURRENT_GOLDEN
from engine.lab_riches.generator import build_book
from engine.outcome import Composition, Part
from engine.rng import Stream
from tests.node import node as node_binary
from tests.test_lab_riches_golden import GOLDEN, GOLDEN_2

ROOT = Path(__file__).resolve().parent.parent
OUTSIDER = ROOT / "tests" / "outsider" / "lab_riches.mjs"
MODEL = "lab-riches/1"
MODEL_2 = "lab-riches/2"
MODEL_3 = "lab-riches/3"
SEEDS_PER_TABLE_COMPOSITION = 4
OTHER_COMPOSITIONS = 80
LOSING_SEEDS = 1000
LOSING_SEEDS_3 = 1000
# Seeds ("losing", n) whose model 2 losing book takes the random play's rarest turns, found by
# scanning 200,000 seeds with an instrumented copy of the outsider (each checked against the
# engine then): the ones a book shows are asserted below, the others only the bytes can tell.
RARE_LOSING = {
    2521: "a Top Row with 4 bonus motifs (a Bonus Game) in the losing play",
    8536: "a Top Row with 4 bonus motifs in the losing play",
    8047: "a GO drawn again: its Bonus Game's extra goes would pass 15 goes",
    14757: "a GO drawn again: its Bonus Game's extra goes would pass 15 goes",
    21723: "an extra-goes motif dropped (past 15 goes) on a GO with 3 bonus motifs",
    26505: "an extra-goes motif dropped on a GO whose Bonus Game gives extra goes",
    70411: "a column without a symbol in a random play that won",
    85092: "a column without a symbol (it never locks) in the losing play",
    198436: "two Bonus Games in the losing play",
}
# Seeds (parts, label, n) whose model 3 book takes one of model 3's new turns or a rare one, found
# by scanning 120,000 losing seeds and 5,000 of each of four meter parts with an instrumented
# copy of the outsider (each checked against the engine then); what a book shows is asserted
# below. A GO drawn again because its Bonus Game would be a third: 2 of 9.4 million losing seeds
# (an instrumented copy of simulate.random_plan, 2026-12-02): THIRD_BONUS says where, and
# test_a_go_whose_bonus_game_would_be_a_third_is_drawn_again that it still happens there.
RARE_3: list[tuple[list[tuple[str, int]], str, int, str]] = [
    ([], "losing3", 1297, "a start row drawn again for its 3 bonus motifs, in the losing play"),
    (
        [("meter", 1000)],
        "rare3/meter1000",
        1711,
        "a start row drawn again for its 3 bonus motifs; a lightning motif crossing two boxes",
    ),
    ([], "losing3", 10951, "more than 15 GOs (21) in the losing play"),
    ([("meter", 1000)], "rare3/meter1000", 114, "more than 15 GOs (20) in a winning play"),
    ([("meter", 100000)], "rare3/meter100000", 4411, "a Bonus Game's segments crossing two boxes"),
    (
        [("meter", 25000000)],
        "rare3/meter25000000",
        3293,
        "a Bonus Game's segments crossing two boxes (21 to 25), on a GO that then has locks",
    ),
    ([], "losing3", 1967, "a Bonus Game on a GO that then has locks, in the losing play"),
    ([], "losing3", 36800, "a Top Row with 4 bonus motifs in the losing play"),
    ([], "losing3", 75443, "two Bonus Games in the losing play"),
    ([], "losing3", 7445299, "a GO drawn again for a third Bonus Game, in a random play that won"),
    ([], "losing3", 8732043, "a GO drawn again for a third Bonus Game, in a random play that won"),
]
# ("losing3", n) -> which of the book's random plays (0: the first) draws a GO again because its
# Bonus Game would be a third (the play won: it is not the one the book shows, but its bytes
# come before that one's)
THIRD_BONUS = {7445299: 4, 8732043: 1}


def _seed(label: str, n: int) -> str:
    """A fixed 128-bit seed (hex) for the n-th book of a label."""
    return hashlib.sha256(f"outsider/{label}/{n}".encode()).hexdigest()[:32]


def _variety_seed(label: str, model: str = MODEL) -> str:
    """The first fixed seed of a label whose book draws a variety Bonus Game when the play has
    fewer than 2 Instant Prizes: the stream's first byte is under 21 (docs/books.md, step 1)."""
    for n in itertools.count():
        seed = _seed(label, n)
        if Stream(model.encode() + b"\x00" + bytes.fromhex(seed)).read(1)[0] < 21:
            return seed
    raise AssertionError("unreachable")


def _table_compositions() -> list[Composition]:
    """Every composition of the Lab Riches prize table, losing play included."""
    table = load_table("lab-riches")
    return [comp for tier in table.tiers for comp, _count in tier.compositions]


def _other_compositions(count: int) -> list[Composition]:
    """count compositions the rules can show (compositions.check), most of them not in the
    table: up to 3 rows, a meter box, up to 2 Instant Prizes, picked by a fixed shuffle."""
    row_sets = [
        rows
        for n in range(rules.MAX_ROW_WINS + 1)
        for rows in itertools.combinations_with_replacement(rules.PRIZE_BOX_AMOUNTS, n)
    ]
    meters = [()] + [(pence,) for _first, _last, pence in rules.METER_BOXES if pence]
    instant_sets = [
        instants
        for n in range(rules.MAX_BONUS_GAMES + 1)
        for instants in itertools.combinations_with_replacement(rules.INSTANT_PRIZE_AMOUNTS, n)
    ]
    every = []
    for rows, meter, instants in itertools.product(row_sets, meters, instant_sets):
        parts = [Part("row", p) for p in rows] + [Part("meter", p) for p in meter]
        comp = Composition.of(parts + [Part("instant", p) for p in instants])
        if comp.parts and compositions.check(comp) is None:
            every.append(comp)
    # The extremes first (the most parts, the top meter box), then a fixed random spread.
    extremes = [c for c in every if len(c.parts) == 6][:4]
    extremes += [c for c in every if Part("meter", rules.TOP_PRIZE_PENCE) in c.parts][:4]
    rest = [c for c in every if c not in extremes]
    random.Random(20261130).shuffle(rest)
    return (extremes + rest)[:count]


Parts = list[dict[str, str | int]]
Request = tuple[str, Parts, str]  # (model, composition JSON, seed hex)


def _requests() -> list[Request]:
    """(model, composition JSON, seed hex) of every model 1 book compared."""
    requests: list[Request] = []
    for i, comp in enumerate(_table_compositions()):
        for n in range(SEEDS_PER_TABLE_COMPOSITION):
            requests.append((MODEL, comp.to_json(), _seed(f"table/{i}", n)))
    # Half of the others with a variety Bonus Game (segments or extra goes from the Bonus Game,
    # two Bonus Games with an Instant Prize), which a random seed shows 1 time in 12.
    for i, comp in enumerate(_other_compositions(OTHER_COMPOSITIONS)):
        label = f"other/{i}"
        seed = _variety_seed(label) if i % 2 else _seed(label, 0)
        requests.append((MODEL, comp.to_json(), seed))
    return requests


def _losing_seeds() -> list[str]:
    """The model 2 losing books' seeds: the first LOSING_SEEDS of a label, then the rare ones."""
    return [_seed("losing", n) for n in [*range(LOSING_SEEDS), *RARE_LOSING]]


def _requests_2() -> list[Request]:
    """(model, composition JSON, seed hex) of every model 2 book compared: the losing play on
    many seeds, each winning composition of the table (built as model 1 builds it) on a few,
    the last one drawing a variety Bonus Game, and a few other compositions."""
    requests: list[Request] = [(MODEL_2, [], seed) for seed in _losing_seeds()]
    for i, comp in enumerate(c for c in _table_compositions() if c.parts):
        label = f"table2/{i}"
        seeds = [_seed(label, n) for n in range(SEEDS_PER_TABLE_COMPOSITION - 1)]
        requests += [(MODEL_2, comp.to_json(), s) for s in [*seeds, _variety_seed(label, MODEL_2)]]
    for i, comp in enumerate(_other_compositions(OTHER_COMPOSITIONS)[:20]):
        label = f"other2/{i}"
        seed = _variety_seed(label, MODEL_2) if i % 2 else _seed(label, 0)
        requests.append((MODEL_2, comp.to_json(), seed))
    return requests


def _losing_seeds_3() -> list[str]:
    """The model 3 losing books' seeds: the first LOSING_SEEDS_3 of their own label."""
    return [_seed("losing3", n) for n in range(LOSING_SEEDS_3)]


def _requests_3() -> list[Request]:
    """(model, composition JSON, seed hex) of every model 3 book compared, as for model 2: the
    losing play on many seeds, each winning composition of the table on a few (the last one
    drawing a variety Bonus Game), a few other compositions, then the seeds of RARE_3."""
    requests: list[Request] = [(MODEL_3, [], seed) for seed in _losing_seeds_3()]
    for i, comp in enumerate(c for c in _table_compositions() if c.parts):
        label = f"table3/{i}"
        seeds = [_seed(label, n) for n in range(SEEDS_PER_TABLE_COMPOSITION - 1)]
        requests += [(MODEL_3, comp.to_json(), s) for s in [*seeds, _variety_seed(label, MODEL_3)]]
    for i, comp in enumerate(_other_compositions(OTHER_COMPOSITIONS)[20:40]):
        label = f"other3/{i}"
        seed = _variety_seed(label, MODEL_3) if i % 2 else _seed(label, 0)
        requests.append((MODEL_3, comp.to_json(), seed))
    requests += [(MODEL_3, _rare_parts(parts), _seed(label, n)) for parts, label, n, _ in RARE_3]
    return requests


def _rare_parts(parts: list[tuple[str, int]]) -> Parts:
    """The composition JSON of a RARE_3 entry's parts."""
    return Composition.of(Part(feature, pence) for feature, pence in parts).to_json()


def _engine_bytes(model: str, parts: Parts, seed: str) -> str:
    """The engine's book as the books file writes it (compact, keys sorted)."""
    book = build_book(model, Composition.from_json(parts), bytes.fromhex(seed))
    return json.dumps(book.as_dict(), separators=(",", ":"), sort_keys=True)


def _outsider(requests: list[Request]) -> list[str]:
    """The outsider's books, one node process for them all."""
    node = node_binary()
    lines = "".join(
        json.dumps({"model": model, "composition": parts, "seed": seed}) + "\n"
        for model, parts, seed in requests
    )
    result = subprocess.run(
        [node, str(OUTSIDER)], input=lines, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    books = result.stdout.split("\n")
    assert books[-1] == "", "every book ends with a newline"
    return books[:-1]


def _first_difference(ours: str, theirs: str) -> str:
    """Where two books' texts first differ, with some context on both sides."""
    pairs = enumerate(zip(ours, theirs, strict=False))
    at = next((i for i, (x, y) in pairs if x != y), min(len(ours), len(theirs)))
    around = slice(max(at - 60, 0), at + 60)
    return f"at character {at}: engine …{ours[around]}… outsider …{theirs[around]}…"


def _compare(requests: list[Request]) -> list[str]:
    """The outsider's books, after checking each against the engine's bytes."""
    books = _outsider(requests)
    assert len(books) == len(requests)
    wrong = []
    for (model, parts, seed), theirs in zip(requests, books, strict=True):
        ours = _engine_bytes(model, parts, seed)
        if ours != theirs:
            wrong.append(f"{model} {parts} {seed}: {_first_difference(ours, theirs)}")
    assert not wrong, f"{len(wrong)} of {len(requests)} books differ; first: {wrong[0]}"
    return books


def test_the_outsider_gives_the_golden_books() -> None:
    requests: list[Request] = [
        (MODEL, Composition.of(Part(f, p) for f, p in parts).to_json(), seed)
        for parts, seed, _digest in GOLDEN
    ]
    books = _outsider(requests)
    assert [hashlib.sha256(b.encode()).hexdigest() for b in books] == [d for *_, d in GOLDEN]


def test_the_outsider_gives_the_current_models_golden_books() -> None:
    """The conformance goldens of the table's model (lab-riches/3), the losing one included."""
    model = load_table("lab-riches").model
    assert model == MODEL_3
    golden = CURRENT_GOLDEN
    assert any(not parts for parts, _seed, _digest in golden)
    requests: list[Request] = [
        (model, Composition.from_json(parts).to_json(), seed) for parts, seed, _ in golden
    ]
    books = _outsider(requests)
    assert [hashlib.sha256(b.encode()).hexdigest() for b in books] == [d for *_, d in golden]


def test_the_outsider_gives_model_2s_golden_books() -> None:
    """Model 2's goldens (the table's model before model 3), the losing one included."""
    assert any(not parts for parts, _seed, _digest in GOLDEN_2)
    requests: list[Request] = [
        (MODEL_2, Composition.of(Part(f, p) for f, p in parts).to_json(), seed)
        for parts, seed, _digest in GOLDEN_2
    ]
    books = _outsider(requests)
    assert [hashlib.sha256(b.encode()).hexdigest() for b in books] == [d for *_, d in GOLDEN_2]


def test_the_outsider_rebuilds_every_composition_byte_for_byte() -> None:
    requests = _requests()
    table = {json.dumps(c.to_json()) for c in _table_compositions()}
    assert table <= {json.dumps(parts) for _model, parts, _seed in requests}
    assert len(requests) >= 200
    _compare(requests)


def test_the_outsider_rebuilds_every_composition_of_model_2_byte_for_byte() -> None:
    requests = _requests_2()
    table = {json.dumps(c.to_json()) for c in _table_compositions()}
    assert table <= {json.dumps(parts) for _model, parts, _seed in requests}
    losing = [i for i, (_model, parts, _seed) in enumerate(requests) if not parts]
    assert len(losing) >= 150
    books = _compare(requests)
    # The rare seeds still take the turns a book shows (the others only the bytes can tell).
    shown = {seed: json.loads(books[i])["events"] for i, (*_, seed) in enumerate(requests)}
    tops = {seed: [e["top"] for e in events if e["type"] == "go"] for seed, events in shown.items()}
    for n, seed in [(n, _seed("losing", n)) for n in RARE_LOSING]:
        if "4 bonus motifs" in RARE_LOSING[n]:
            assert any(top.count("bonus") == 4 for top in tops[seed]), RARE_LOSING[n]
        if "two Bonus Games" in RARE_LOSING[n]:
            assert sum(e["type"] == "bonus_activated" for e in shown[seed]) == 2, RARE_LOSING[n]
        if "never locks" in RARE_LOSING[n]:
            assert any(all(top[c] not in rules.SYMBOLS for top in tops[seed]) for c in range(4)), (
                RARE_LOSING[n]
            )


def test_the_outsider_refuses_what_the_document_does_not_describe() -> None:
    node = node_binary()
    result = subprocess.run(
        [node, str(OUTSIDER), "lab-riches/4", "[]", "00" * 16],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode != 0
    assert "only models lab-riches/1, lab-riches/2 and lab-riches/3" in result.stderr


def test_the_outsider_rebuilds_every_composition_of_model_3_byte_for_byte() -> None:
    requests = _requests_3()
    table = {json.dumps(c.to_json()) for c in _table_compositions()}
    assert table <= {json.dumps(parts) for _model, parts, _seed in requests}
    losing = [i for i, (_model, parts, _seed) in enumerate(requests) if not parts]
    assert len(losing) >= 150
    books = _compare(requests)
    shown = [json.loads(book)["events"] for book in books]
    # Every book shows model 3's order and meter boxes: a Bonus Game straight after its GO (and
    # the Prize Boxes), every box from 0 up to the lit one, in order, once each.
    for events in shown:
        for i, event in enumerate(events):
            if event["type"] == "bonus_activated":
                assert events[i - 1]["type"] == ("prize_boxes" if event["go"] == 1 else "go")
        lit = [e["box"] for e in events if e["type"] == "meter_box"]
        assert lit == list(range(len(lit)))
    # The rare seeds still take the turns a book shows (a redrawn start row only the bytes can
    # tell).
    rare = {seed: shown[i] for i, (_model, _parts, seed) in enumerate(requests)}
    for _parts, label, n, what in RARE_3:
        events = rare[_seed(label, n)]
        if "more than 15 GOs" in what:
            assert sum(e["type"] == "go" for e in events) > 15, what
        if "crossing" in what:
            source = "bonus" if "Bonus Game" in what else "top"
            assert any(
                e["type"] == "segments"
                and e["source"] == source
                and [f["type"] for f in events[i + 1 : i + 3]] == ["meter_box"] * 2
                for i, e in enumerate(events)
            ), what
        if "locks" in what:
            ends = [i for i, e in enumerate(events) if e["type"] == "bonus_end"]
            assert any(events[i + 1]["type"] == "lock" for i in ends), what
        if "start row" in what:
            assert events[0]["top"].count("bonus") < 3, what
        if "4 bonus motifs" in what:
            assert any(e["type"] == "go" and e["top"].count("bonus") == 4 for e in events), what
        if "two Bonus Games" in what:
            assert sum(e["type"] == "bonus_activated" for e in events) == 2, what


def test_a_go_whose_bonus_game_would_be_a_third_is_drawn_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The engine's own random plays, counted as they draw (the real bonus_award runs): the
    # play named has two Bonus Games and drew the award of one more, refused.
    awards: list[object] = []
    real = simulate.bonus_award

    def counted(stream: Stream) -> tuple[str, int]:
        awards.append(stream)
        return real(stream)

    monkeypatch.setattr(simulate, "bonus_award", counted)
    for n, play in THIRD_BONUS.items():
        stream = Stream(MODEL_3.encode() + b"\x00" + bytes.fromhex(_seed("losing3", n)))
        for _ in range(play + 1):
            awards.clear()
            plan = simulate.random_plan(stream, rules.MODELS[MODEL_3])
        assert len(plan.triggers) == rules.MAX_BONUS_GAMES, n
        assert len(awards) > len(plan.triggers), n
        assert simulate.plan_pays(plan), n
