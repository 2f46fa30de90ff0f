"""`build.py certify --game GAME --plays N [--per-composition K] [--pool DIR] [--key HEX] [--json]`.

GAME is any registered game (engine/games.py) with a book builder. Draws N outcomes (from a saved
pool or fresh, weighted by the prize table), builds each book, re-checks it with that game's
independent validator (its `validator` module) and prints one JSON object: plays,
mismatches (revealed total differs from the Prize Amount), violations, the payout and odds of
the plays drawn, feature rates (share of plays showing each feature, overall and among losing
plays, as the game's `statistics` module counts them) and books built per second. Exit status 1
on any mismatch or violation.

When the game's player makes choices (Power Puck Shot's arrows), each book is checked with
choices drawn from the key's stream, so the validator re-checks the paths drawn for them too.
`--per-composition K` also builds and checks K books of every composition of the table, the
rarest included (`per_composition` in the report: compositions, books, mismatches, violations).
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from tqdm import tqdm

from engine import games
from engine.game import Game
from engine.math import fairness
from engine.rng import Stream
from tools.commands.books import builder, entries, parse

EXAMPLES = 5
BASELINE_PLAYS = 20_000  # random losing plays simulated at least, for the fairness baseline


def checker(game: Game, key: bytes) -> Callable[[Mapping[str, Any]], list[str]]:
    """The game's validator, given the player's choices drawn from the key when it takes them."""
    validate = game.load_validator().validate
    choices = {kind: action.choices for kind, action in game.waits.items() if action.choices}
    if not choices:
        return validate
    stream = Stream(b"certify/choices\x00" + key)

    def with_choices(book: Mapping[str, Any]) -> list[str]:
        picks = {
            int(e["index"]): stream.below(choices[e["type"]])
            for e in book["events"]
            if e["type"] in choices
        }
        return validate(book, picks)

    return with_choices


def per_composition(game: Game, key: bytes, books: int) -> dict[str, int]:
    """K books of every composition of the table, each built and checked."""
    model, build = builder(game.id)
    validate = checker(game, key)
    stream = Stream(b"certify/per-composition\x00" + key)
    report = {"compositions": 0, "books": 0, "mismatches": 0, "violations": 0}
    for tier in game.table.tiers:
        for composition, _weight in tier.compositions:
            report["compositions"] += 1
            for _ in range(books):
                book = build(model, composition, stream.read(16))
                data = json.loads(book.to_json())
                report["books"] += 1
                report["mismatches"] += data["events"][-1].get("total") != tier.prize_pence
                report["violations"] += len(validate(data))
    return report


def main(argv: list[str]) -> int:
    """Build and validate N books; print the certification report."""
    args = parse(argv, "build.py certify")
    game = games.get(args.game)
    model, build = builder(game.id)
    validate = checker(game, args.key_bytes)
    stats = game.load_statistics()
    price = game.price_pence
    mismatches = violations = wins = paid = 0
    shown: Counter[str] = Counter()
    losing: Counter[str] = Counter()
    examples: list[str] = []
    building = 0.0
    draws = entries(args.game, args.plays, args.pool, args.key_bytes)
    for entry in tqdm(draws, total=args.plays, unit="book", file=sys.stderr, mininterval=0.5):
        started = time.perf_counter()
        book = build(model, entry.composition, entry.seed)
        building += time.perf_counter() - started
        data = json.loads(book.to_json())
        faults = validate(data)
        total = data["events"][-1].get("total")
        if total != entry.prize_pence or book.prize_pence != entry.prize_pence:
            mismatches += 1
            examples.append(f"entry {entry.index}: revealed {total}, prize {entry.prize_pence}")
        if faults:
            violations += len(faults)
            examples += [f"entry {entry.index} (seed {entry.seed.hex()}): {f}" for f in faults]
        wins += entry.prize_pence > 0
        paid += entry.prize_pence
        counted = stats.features(data)
        shown.update(counted)
        if entry.prize_pence == 0:
            losing.update(counted)
    plays = args.plays
    losers = plays - wins
    report = {
        "game": args.game,
        "model": model,
        "plays": plays,
        "mismatches": mismatches,
        "violations": violations,
        "rtp_percent": round(100 * paid / (plays * price), 2),
        "odds_one_in": round(plays / wins, 2) if wins else None,
        "feature_rates": {name: round(shown[name] / plays, 4) for name in stats.FEATURES},
        "losing_feature_rates": {
            name: round(losing[name] / losers, 4) if losers else None for name in stats.FEATURES
        },
        "books_per_second": round(plays / building) if building else None,
    }
    baseline = getattr(stats, "random_losses", None)
    if baseline is not None and losers:  # the fairness rule (engine/math/fairness.py)
        random_plays = baseline(max(losers, BASELINE_PLAYS), model)
        random, n_random = fairness.rates(random_plays, stats.features)
        report["near_miss"] = fairness.compare(losing, losers, random, n_random, stats.FEATURES)
        report["near_miss_random_plays"] = n_random
    drawn_again = getattr(stats, "drawn_again", None)
    if drawn_again is not None and args.random_plays > 0:
        again = drawn_again(args.random_plays)
        report["random_plays_drawn_again"] = {
            "plays": args.random_plays,
            "drawn_again": again,
            "one_in": round(args.random_plays / again) if again else None,
        }
    if args.per_composition > 0:
        each = per_composition(game, args.key_bytes, args.per_composition)
        report["per_composition"] = each
        mismatches += each["mismatches"]
        violations += each["violations"]
    for line in examples[:EXAMPLES]:
        print(line, file=sys.stderr)
    print(json.dumps(report, indent=None if args.json else 2, sort_keys=True))
    return 1 if mismatches or violations else 0
