"""The hashing process: books built and hashed in a process of its own, at a lower priority,
so that the serving process's event loop never waits on them (web/endpoint/sales/hashes.py says
when and which)."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import orjson

from engine import games
from engine.book import Book
from engine.book_hash import book_hash
from engine.math.pool import Pool
from engine.outcome import Composition
from web.endpoint.children import ChildProcess, end_with_parent
from web.endpoint.pools import files

Row = tuple[int, str, str, str, str]  # play number, game, model, composition JSON, seed hex


def orjson_bytes(built: Book) -> bytes:
    """`built.to_json().encode()`, written by orjson: the same bytes (docs/books.md, "the
    bytes": sorted keys, no whitespace, integers, ASCII strings written as they are) in about
    a sixth of the time, which was a quarter of a book hash's cost after building the book.
    A book outside that form (an integer beyond 64 bits, a string that is not ASCII, which
    `ensure_ascii` escapes and orjson does not) is written by to_json itself."""
    try:
        written = orjson.dumps(built.as_dict(), option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return built.to_json().encode()
    return written if written.isascii() else built.to_json().encode()


def hash_of_row(game: str, model: str, composition_json: str, seed_hex: str) -> str:
    """The book hash of a plays row's entry (its composition as stored, JSON)."""
    composition = Composition.from_json(json.loads(composition_json))
    seed = bytes.fromhex(seed_hex)
    return book_hash(games.get(game), model, composition, seed, orjson_bytes)


def warm() -> None:
    """Import the book builders and build one book of each game on sale, in the hashing
    process as the app starts: otherwise its first batch pays for its start while the sales
    pass the entries it hashes ahead."""
    for game in games.on_sale():
        composition = next(iter(game.table.tiers[0].composition_counts(1)))[0]
        game.book(game.table.model, composition, bytes(16))


_LOADED: dict[str, Pool] = {}  # the hashing process's pools, by directory


def entry_hashes(directory: str, start: int, end: int) -> list[str]:
    """The book hashes of a saved pool's entries [start, end) (pure CPU once its files are
    read: the app runs it in its hashing process, which keeps the pools it has read)."""
    pool = _LOADED.get(directory)
    if pool is None:
        if len(_LOADED) >= 8:
            _LOADED.clear()
        pool = _LOADED[directory] = files.load(Path(directory))
    game = games.get(pool.game)
    entries = (pool.entry(index) for index in range(start, end))
    return [book_hash(game, pool.model, e.composition, e.seed, orjson_bytes) for e in entries]


def digests(rows: list[Row]) -> list[tuple[int, str]]:
    """The book hash of each row (pure CPU: the app runs it in its hashing process)."""
    return [
        (number, hash_of_row(game, model, comp, seed)) for number, game, model, comp, seed in rows
    ]


def _lower_priority(parent: int, held: tuple[str, ...] = ()) -> None:
    """The hashing process yields the CPU to the processes that serve, and (on Linux) ends
    with the endpoint process that started it, however that one ends. It holds the endpoint's
    games (`held`: engine.games.packages), a registered one too."""
    for package in held:
        games.register(package)
    try:  # Linux: run only when a CPU would otherwise idle (SCHED_IDLE)
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (OSError, AttributeError):
        with contextlib.suppress(OSError, AttributeError):
            os.nice(10)
    end_with_parent(parent, "book-hashing", signal.SIGTERM)


def hashing_process() -> ProcessPoolExecutor:
    """One worker process that builds books for hashing, at a lower priority. A thread would
    hold the interpreter's lock for the whole batch and stall the event loop (what it cost
    the purchases: docs/changelog.md, 2026-12-01); a process of its own leaves the serving
    process alone."""
    return ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_lower_priority,
        initargs=(os.getpid(), games.packages()),
    )


def _started() -> ProcessPoolExecutor:
    executor = hashing_process()
    executor.submit(warm)  # (started now, not by the first sales)
    return executor


class HashingProcess(ChildProcess):
    """The hashing process (`hashing_process`, warmed with `warm`), started again when it dies:
    the batch it was building fails and is done again (a dead one left in place would fail
    every batch after it, and the plays sold from then on would be hashed only at their
    recall, perhaps by a later engine)."""

    def __init__(self, on_restart: Callable[[], None] = lambda: None) -> None:
        super().__init__("the hashing process", _started, on_restart)
