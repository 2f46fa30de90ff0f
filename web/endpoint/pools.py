"""Committed pools: laid out by the math engine, saved under the pool directory, loaded once.

The database records each pool (id, game, model, size, Merkle root, next index) before its
first sale; the entries themselves live in the pool's saved files (web/endpoint/pool_store.py),
shared by every process.

A pool is laid out in a process of its own (`lay_out_apart`), never in a serving process: a
Lab Riches pool of 2,000,000 entries takes about 2.5 s of CPU, nearly all of it holding the
interpreter's lock, and the next pool is laid out while the current one sells (`prepare_spare`).
Laid out in a thread of the serving process, it halved the purchases a second for those
seconds and raised their p99 from 11 to 100 ms (docs/endpoint-benchmarks.md).
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from engine import games
from engine.math.pool import Pool
from engine.math.table import PrizeTable
from engine.outcome import Composition
from web.endpoint import pool_store

LayOut = Callable[[PrizeTable, int], Pool]


def default_lay_out(table: PrizeTable, size: int) -> Pool:
    """Lay out a fresh pool with a secret random key, shuffled with `secrets`."""
    return pool_store.lay_out(table, size)


def save_new(pool: Pool, directory: Path) -> None:
    """Save a newly laid-out pool under the pool directory, unless it is there already: written
    to a partial directory first, so a pool's directory is always whole."""
    target = directory / pool.pool_id
    if not target.exists():
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)  # future outcomes
        partial = directory / f".{pool.pool_id}.partial"
        pool_store.save(pool, partial)
        partial.rename(target)


def lay_out_and_save(game: str, size: int, directory: str) -> str:
    """(Run in a layout process.) Lay a fresh pool of the game out, save it under the pool
    directory and return its id."""
    pool = default_lay_out(games.load_table(game), size)
    save_new(pool, Path(directory))
    return pool.pool_id


def lay_out_apart(game: str, size: int, directory: Path) -> str:
    """Lay a pool out and save it in a new process of its own (spawned: the serving process
    has threads), and return its id: the caller's thread waits without the interpreter's lock,
    so the serving process goes on selling meanwhile."""
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as process:
        return process.submit(lay_out_and_save, game, size, str(directory)).result()


class PoolFiles:
    """The pools this process has laid out or loaded, by pool id."""

    def __init__(self, directory: Path, size: int = 0, lay_out: LayOut | None = None) -> None:
        pool_store.check_private(directory)  # refuse to start on a directory others can read
        self.directory = directory
        self.size = size
        self._lay_out = lay_out or default_lay_out
        self._pools: dict[str, Pool] = {}
        self._spares: dict[str, Pool] = {}
        self._preparing: set[str] = set()
        self._lock = threading.Lock()

    def size_for(self, table: PrizeTable) -> int:
        """The configured pool size for a game: a multiple of its base pool size."""
        size = self.size or table.base_pool_size
        if size % table.base_pool_size:
            raise ValueError(
                f"LOTTERY_POOL_SIZE={size} is not a multiple of {table.game}'s base pool "
                f"size {table.base_pool_size}"
            )
        return size

    def lay_out(self, game: str, use_spare: bool = True) -> Pool:
        """A new saved pool for a game (not yet committed): the spare if one is ready (and
        wanted: a pool of free plays leaves the spare to the next paid pool)."""
        with self._lock:
            pool = self._spares.pop(game, None) if use_spare else None
        if pool is None:
            pool = self._make(game)
        with self._lock:
            self._pools[pool.pool_id] = pool
        return pool

    def prepare_spare(self, game: str) -> None:
        """Lay out the game's next pool ahead of need (run in a background thread)."""
        with self._lock:
            if game in self._spares or game in self._preparing:
                return
            self._preparing.add(game)
        try:
            pool = self._make(game)
            with self._lock:
                self._spares[game] = pool
        finally:
            with self._lock:
                self._preparing.discard(game)

    def _make(self, game: str) -> Pool:
        table = games.load_table(game)
        size = self.size_for(table)
        if self._lay_out is default_lay_out:  # (the tests' pools, laid out once, are given)
            return pool_store.load(self.path(lay_out_apart(game, size, self.directory)))
        pool = self._lay_out(table, size)
        save_new(pool, self.directory)
        return pool

    def path(self, pool_id: str) -> Path:
        """The directory of a pool's saved files."""
        return self.directory / pool_id

    def get(self, pool_id: str) -> Pool:
        """A committed pool by id, loaded from its files the first time."""
        pool = self._pools.get(pool_id)
        if pool is not None:
            return pool
        with self._lock:
            pool = self._pools.get(pool_id)
            if pool is None:
                path = self.path(pool_id)
                if not path.is_dir():
                    raise FileNotFoundError(
                        f"pool {pool_id} is recorded in the database but {path} is missing; "
                        "every endpoint process must share LOTTERY_POOL_DIR"
                    )
                pool = pool_store.load(path)
                self._pools[pool_id] = pool
        return pool

    def matching(
        self, pool_id: str, prize_pence: int | None, composition: Composition | None
    ) -> list[int]:
        """Indices of a pool's entries with this prize and/or composition, in order."""
        return self.get(pool_id).indices(prize_pence, composition)
