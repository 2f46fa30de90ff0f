"""`build.py books --game GAME --plays N --out FILE.jsonl [--pool DIR] [--key HEX]`.

Writes one JSON line per play: {"entry": the pool entry, "book": its book}. GAME is any
registered game (engine/games.py) with a book builder. Outcomes come from a laid-out pool
(--pool, entries 0..N-1) or are drawn fresh, weighted by the prize table's counts, from a random
stream keyed by --key (default: a fresh secret key).
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Iterator
from pathlib import Path

from tqdm import tqdm

from engine import games
from engine.game import BookBuilder
from engine.math.leaves import PoolEntry
from engine.outcome import Composition
from engine.rng import Stream
from web.endpoint.pools import files


def with_books() -> tuple[str, ...]:
    """The ids of the registered games that have a book builder."""
    return tuple(game.id for game in games.GAMES if game.build_book is not None)


def builder(game_id: str) -> tuple[str, BookBuilder]:
    """The model (its prize table's) and the book builder of a registered game."""
    game = games.get(game_id)
    if game.build_book is None:
        raise SystemExit(f"no book builder for {game_id!r}; games: {', '.join(with_books())}")
    return game.table.model, game.build_book


def entries(game: str, plays: int, pool_dir: str | None, key: bytes) -> Iterator[PoolEntry]:
    """plays outcomes: the first entries of a saved pool, or fresh weighted draws."""
    if pool_dir:
        pool = files.load(Path(pool_dir))
        if pool.game != game:
            raise SystemExit(f"the pool at {pool_dir} is for {pool.game}, not {game}")
        if plays > pool.size:
            raise SystemExit(f"the pool holds {pool.size} plays, fewer than {plays}")
        for index in range(plays):
            yield pool.entry(index)
        return
    table = games.load_table(game)
    choices: list[tuple[int, Composition]] = []
    weights: list[int] = []
    for tier in table.tiers:
        for composition, count in tier.composition_counts():
            choices.append((tier.prize_pence, composition))
            weights.append(count)
    stream = Stream(b"books/fresh/" + key)
    for index in range(plays):
        prize, composition = choices[stream.weighted(weights)]
        seed = stream.read(16)
        yield PoolEntry(index, prize, composition, seed, stream.read(16))


def parse(argv: list[str], prog: str) -> argparse.Namespace:
    """The shared command-line options of books and certify."""
    parser = argparse.ArgumentParser(prog=prog)
    parser.add_argument("--game", required=True, choices=with_books())
    parser.add_argument("--plays", type=int, required=True)
    parser.add_argument("--pool", help="a saved pool directory (default: fresh draws)")
    parser.add_argument("--key", help="hex key of the fresh draws (default: a secret one)")
    if prog.endswith("books"):
        parser.add_argument("--out", required=True, help="the JSON-lines file to write")
    else:
        parser.add_argument("--json", action="store_true", help="print JSON only")
        parser.add_argument(
            "--per-composition",
            type=int,
            default=0,
            metavar="K",
            help="also build and check K books of every composition of the table",
        )
        parser.add_argument(
            "--random-plays",
            type=int,
            default=0,
            metavar="N",
            help="also draw N random plays and count those drawn again (a game whose statistics "
            "define drawn_again: Power Puck Shot's past MAX_RANDOM_SHOTS)",
        )
    args = parser.parse_args(argv)
    if args.plays <= 0:
        parser.error("--plays must be positive")
    args.key_bytes = bytes.fromhex(args.key) if args.key else secrets.token_bytes(32)
    return args


def main(argv: list[str]) -> int:
    """Write the books of N plays as JSON lines."""
    args = parse(argv, "build.py books")
    model, build = builder(args.game)
    with open(args.out, "w", encoding="utf-8") as out:
        draws = entries(args.game, args.plays, args.pool, args.key_bytes)
        for entry in tqdm(draws, total=args.plays, unit="book", file=sys.stderr):
            book = build(model, entry.composition, entry.seed)
            line = {"entry": entry.to_json(), "book": book.as_dict()}
            out.write(json.dumps(line, separators=(",", ":"), sort_keys=True) + "\n")
    print(f"wrote {args.plays} books to {args.out}", file=sys.stderr)
    return 0
