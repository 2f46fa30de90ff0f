"""An outsider rebuilds Lab Riches books from docs/books.md alone, byte for byte.

tests/outsider/lab_riches.mjs is a second generator of model lab-riches/1, in JavaScript, written
only from docs/books.md ("Rebuilding a Lab Riches book from its seed") and docs/rng.md. It must
give the golden books and the engine's exact bytes for every composition of the prize table and
a spread of other compositions the rules allow: if the documents stop describing the generator,
this fails. One node process builds every book (requests as JSON lines on stdin).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from engine.games import load_table
from engine.lab_riches import compositions, rules
from engine.lab_riches.generator import build_book
from engine.outcome import Composition, Part
from engine.rng import Stream
from tests.test_lab_riches_golden import GOLDEN

ROOT = Path(__file__).resolve().parent.parent
OUTSIDER = ROOT / "tests" / "outsider" / "lab_riches.mjs"
MODEL = "lab-riches/1"
SEEDS_PER_TABLE_COMPOSITION = 4
OTHER_COMPOSITIONS = 80


def _seed(label: str, n: int) -> str:
    """A fixed 128-bit seed (hex) for the n-th book of a label."""
    return hashlib.sha256(f"outsider/{label}/{n}".encode()).hexdigest()[:32]


def _variety_seed(label: str) -> str:
    """The first fixed seed of a label whose book draws a variety Bonus Game when the play has
    fewer than 2 Instant Prizes: the stream's first byte is under 21 (docs/books.md, step 1)."""
    for n in itertools.count():
        seed = _seed(label, n)
        if Stream(MODEL.encode() + b"\x00" + bytes.fromhex(seed)).read(1)[0] < 21:
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


def _requests() -> list[tuple[list[dict[str, str | int]], str]]:
    """(composition JSON, seed hex) of every book compared."""
    requests = []
    for i, comp in enumerate(_table_compositions()):
        for n in range(SEEDS_PER_TABLE_COMPOSITION):
            requests.append((comp.to_json(), _seed(f"table/{i}", n)))
    # Half of the others with a variety Bonus Game (segments or extra goes from the Bonus Game,
    # two Bonus Games with an Instant Prize), which a random seed shows 1 time in 12.
    for i, comp in enumerate(_other_compositions(OTHER_COMPOSITIONS)):
        label = f"other/{i}"
        requests.append((comp.to_json(), _variety_seed(label) if i % 2 else _seed(label, 0)))
    return requests


def _engine_bytes(parts: list[dict[str, str | int]], seed: str) -> str:
    """The engine's book as the books file writes it (compact, keys sorted)."""
    book = build_book(MODEL, Composition.from_json(parts), bytes.fromhex(seed))
    return json.dumps(book.as_dict(), separators=(",", ":"), sort_keys=True)


def _outsider(requests: list[tuple[list[dict[str, str | int]], str]]) -> list[str]:
    """The outsider's books, one node process for them all."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    lines = "".join(
        json.dumps({"model": MODEL, "composition": parts, "seed": seed}) + "\n"
        for parts, seed in requests
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


def test_the_outsider_gives_the_golden_books() -> None:
    requests = [
        (Composition.of(Part(f, p) for f, p in parts).to_json(), seed)
        for parts, seed, _digest in GOLDEN
    ]
    books = _outsider(requests)
    assert [hashlib.sha256(b.encode()).hexdigest() for b in books] == [d for *_, d in GOLDEN]


def test_the_outsider_rebuilds_every_composition_byte_for_byte() -> None:
    requests = _requests()
    table = {json.dumps(c.to_json()) for c in _table_compositions()}
    assert table <= {json.dumps(parts) for parts, _seed in requests}
    assert len(requests) >= 200
    books = _outsider(requests)
    assert len(books) == len(requests)
    wrong = []
    for (parts, seed), theirs in zip(requests, books, strict=True):
        ours = _engine_bytes(parts, seed)
        if ours != theirs:
            wrong.append(f"{parts} {seed}: {_first_difference(ours, theirs)}")
    assert not wrong, f"{len(wrong)} of {len(requests)} books differ; first: {wrong[0]}"


def test_the_outsider_refuses_what_the_document_does_not_describe() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    result = subprocess.run(
        [node, str(OUTSIDER), "lab-riches/2", "[]", "00" * 16],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode != 0
    assert "only model lab-riches/1" in result.stderr
