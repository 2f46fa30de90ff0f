"""An outsider rebuilds Power Puck Shot model 3 books and any shot's path from docs/books.md
alone: the books byte for byte, the paths point for point.

tests/outsider/power_puck_shot.mjs is a second generator of model power-puck-shot/3, in
JavaScript, written only from docs/books.md ("Rebuilding a Power Puck Shot book from its seed")
and docs/rng.md. It must give the golden books and the engine's exact bytes for every
composition of the prize table (losing plays, won rows boosted or not, pots, Bonus Games with
every kind of award) and 1,000 more losing plays, which take the random play's turns (Power
Pucks, Power Puck Bonus Games, five Bonus motifs); tests/outsider/power_puck_shot_paths.mjs
must draw the engine's path for every arrow and number of Pips and 3,000 shots more: if the
document stops describing the engine, this fails. One node process builds every book or path
of a test (JSON lines on stdin).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path
from typing import Any

from engine.games import load_table
from engine.outcome import Composition
from engine.power_puck_shot import stats
from engine.power_puck_shot.examples import GOLDEN
from engine.power_puck_shot.generator import build_book
from engine.power_puck_shot.paths import shot_path
from tests.node import node

ROOT = Path(__file__).resolve().parent.parent
OUTSIDER = ROOT / "tests" / "outsider" / "power_puck_shot.mjs"
PATHS = ROOT / "tests" / "outsider" / "power_puck_shot_paths.mjs"
RANDOM_SHOTS = 3_000
MODEL = "power-puck-shot/3"
SEEDS_PER_TABLE_COMPOSITION = 8
LOSING_SEEDS = 1_000


def outsider(requests: list[dict[str, Any]], script: Path = OUTSIDER) -> list[str]:
    """The outsider's books (or paths) for these requests, one JSON text each."""
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run(
        [node(), str(script)], input=lines, capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


def request(composition: Composition, seed: bytes) -> dict[str, Any]:
    return {"model": MODEL, "composition": composition.to_json(), "seed": seed.hex()}


def test_the_outsider_rebuilds_the_golden_books() -> None:
    cases = [(Composition.from_json(parts), bytes.fromhex(seed)) for parts, seed, _ in GOLDEN]
    books = outsider([request(comp, seed) for comp, seed in cases])
    digests = [hashlib.sha256(book.encode()).hexdigest() for book in books]
    assert digests == [digest for _, _, digest in GOLDEN]


def test_the_outsider_rebuilds_every_composition_and_a_thousand_losing_plays() -> None:
    cases: list[tuple[Composition, bytes]] = []
    for tier in load_table("power-puck-shot").tiers:
        for comp, _ in tier.compositions:
            for k in range(SEEDS_PER_TABLE_COMPOSITION):
                seed = hashlib.sha256(f"outsider/{comp.to_json()}/{k}".encode()).digest()[:16]
                cases.append((comp, seed))
    losing = [(Composition(), (0x0D5_0000 + n).to_bytes(16, "big")) for n in range(LOSING_SEEDS)]
    cases += losing
    theirs = outsider([request(comp, seed) for comp, seed in cases])
    ours = [build_book(MODEL, comp, seed).to_json() for comp, seed in cases]
    wrong = [i for i, (a, b) in enumerate(zip(theirs, ours, strict=True)) if a != b]
    assert wrong == [], f"{len(wrong)} books differ, the first: {cases[wrong[0]]}"
    # The losing plays take the random play's rarer turns too.
    shown = {name: 0 for name in stats.FEATURES}
    for text in ours[-LOSING_SEEDS:]:
        for name, on in stats.features(json.loads(text)).items():
            shown[name] += on
    for name in ("power_pucks", "extra_pucks", "power_bonus_game", "five_bonus_motifs"):
        assert shown[name] > 0, name


def same(ours: Any, theirs: Any) -> bool:
    """Equal, floats (rounded to 1e-6 by both) within 1e-9."""
    if isinstance(ours, list | tuple):
        return len(ours) == len(theirs) and all(map(same, ours, theirs))
    if isinstance(ours, dict):
        return ours.keys() == theirs.keys() and all(same(ours[k], theirs[k]) for k in ours)
    if isinstance(ours, float) or isinstance(theirs, float):
        return abs(ours - theirs) < 1e-9
    return bool(ours == theirs)


def test_the_outsider_draws_every_path_point_for_point() -> None:
    seed = bytes(range(16))
    cases: list[dict[str, Any]] = [
        {"seed": seed.hex(), "shot": arrow, "arrow": arrow, "reveals": n}
        for arrow in range(6)
        for n in range(1, 17)
    ]
    for k in range(RANDOM_SHOTS):
        h = hashlib.sha256(b"path/%d" % k).digest()
        cases.append({"seed": h[:16].hex(), "shot": h[16] % 40, "arrow": h[17] % 6,
                      "reveals": 1 + h[18] % 16})  # fmt: skip
    theirs = [json.loads(line) for line in outsider(cases, PATHS)]
    wrong = [
        c
        for c, path in zip(cases, theirs, strict=True)
        if not same(
            shot_path(bytes.fromhex(c["seed"]), c["shot"], c["arrow"], c["reveals"]).to_json(),
            path,
        )
    ]
    assert wrong == [], f"{len(wrong)} paths differ, the first: {wrong[0]}"
