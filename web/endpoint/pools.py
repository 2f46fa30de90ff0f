"""Committed pools: laid out by the math engine, saved under the pool directory, loaded once.

The database records each pool (id, game, model, size, Merkle root, next index) before its
first sale, and, in the same transaction, its commitment, chunk roots and its key and entries
sealed (web/endpoint/pool_vault.py): any instance, on any host, opens it from there. The pool
directory is each process's cache: a pool laid out or opened is saved there (its hashing
process and its reveal files read the files), and kept in memory.

A pool is laid out in a process of its own (`LayOuts.run`), never in a serving process: a
Lab Riches pool of 2,000,000 entries takes about 2.5 s of CPU, nearly all of it holding the
interpreter's lock, and the next pool is laid out while the current one sells (`prepare_spare`).
Laid out in a thread of the serving process, it halved the purchases a second for those
seconds and raised their p99 from 11 to 100 ms (docs/endpoint-benchmarks.md).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

from engine import games
from engine.math.pool import Pool
from engine.math.table import PrizeTable
from engine.outcome import Composition
from web.endpoint import pool_store
from web.endpoint.children import end_with_parent
from web.endpoint.pool_vault import PoolVault

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


def lay_out_and_save(game: str, size: int, directory: str, parent: int, result: Connection) -> None:
    """(Run in a lay-out process.) Lay a fresh pool of the game out, save it under the pool
    directory and send its id back; the process ends with the endpoint that started it."""
    end_with_parent(parent, "pool-lay-out")
    pool = default_lay_out(games.load_table(game), size)
    save_new(pool, Path(directory))
    result.send(pool.pool_id)
    result.close()


class LayOutFailed(RuntimeError):
    """The lay-out process ended without a pool: killed (the out-of-memory killer, the
    endpoint stopping) or failed (a full disk)."""


class LayOutStopped(LayOutFailed):
    """The lay-out process was killed because the endpoint is stopping."""


class LayOuts:
    """The lay-out processes a PoolFiles runs (`lay_out_apart`), stopped with the endpoint."""

    def __init__(self) -> None:
        self._running: set[multiprocessing.process.BaseProcess] = set()
        self._lock = threading.Lock()
        self.stopped = False

    def run(self, game: str, size: int, directory: Path) -> str:
        """Lay a pool out and save it in a new process of its own (spawned: the serving
        process has threads), and return its id: the caller's thread waits without the
        interpreter's lock, so the serving process goes on selling meanwhile.

        The process holds only the sending end of a one-way pipe, so the wait ends (in
        LayOutFailed) whenever the process does; and it ends with the endpoint
        (`end_with_parent`, and `stop` at a stop), so none is ever left behind."""
        spawn = multiprocessing.get_context("spawn")
        receive, send = spawn.Pipe(duplex=False)
        process = spawn.Process(
            target=lay_out_and_save,
            args=(game, size, str(directory), os.getpid(), send),
            name=f"pool-lay-out-{game}",
            daemon=True,  # (terminated at the interpreter's exit, should it still run)
        )
        with self._lock:
            self._running.add(process)
        try:
            process.start()
            send.close()  # the child's copy is the only one left: its end is the pipe's end
            try:
                return str(receive.recv())
            except EOFError:
                process.join()
                if self.stopped:
                    raise LayOutStopped(f"a {game} pool's lay-out, at a stop") from None
                raise LayOutFailed(
                    f"the lay-out process of a {game} pool ended without a pool "
                    f"(exit code {process.exitcode})"
                ) from None
        finally:
            receive.close()
            process.join()
            with self._lock:
                self._running.discard(process)

    def stop(self) -> None:
        """Kill every lay-out process still running (the endpoint is stopping): the pools
        they were laying out are not committed yet, so nothing is lost."""
        with self._lock:
            self.stopped = True
            running = list(self._running)
        for process in running:
            with contextlib.suppress(ValueError, AttributeError):  # (not started, or closed)
                process.kill()


class PoolNotLoaded(Exception):
    """A committed pool this process has not loaded into memory yet: a sale never loads one
    (on PostgreSQL it would hold the pool row's lock while a pool of megabytes is read and
    decrypted); it is loaded outside (`PoolFiles.get`) and the sale tried again."""

    def __init__(self, pool_id: str) -> None:
        super().__init__(pool_id)
        self.pool_id = pool_id


class PoolFiles:
    """The pools this process has laid out or opened, by pool id (the database's, `vault`)."""

    def __init__(
        self, directory: Path, vault: PoolVault, size: int = 0, lay_out: LayOut | None = None
    ) -> None:
        pool_store.check_private(directory)  # refuse to start on a directory others can read
        self.directory = directory
        self.vault = vault
        self.size = size
        self._lay_out = lay_out or default_lay_out
        self._pools: dict[str, Pool] = {}
        self._spares: dict[str, Pool] = {}
        self._preparing: set[str] = set()
        self._lock = threading.Lock()
        self.lay_outs = LayOuts()

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
            return pool_store.load(self.directory / self.lay_outs.run(game, size, self.directory))
        pool = self._lay_out(table, size)
        save_new(pool, self.directory)
        return pool

    def path(self, pool_id: str) -> Path:
        """The directory of a committed pool's files, in this process's cache (saved there
        from the database if need be)."""
        target = self.directory / pool_id
        if not target.is_dir():
            save_new(self.get(pool_id), self.directory)
        return target

    def loaded(self, pool_id: str) -> Pool:
        """A committed pool from memory only (what a sale reads); PoolNotLoaded if it is not
        there yet."""
        pool = self._pools.get(pool_id)
        if pool is None:
            raise PoolNotLoaded(pool_id)
        return pool

    def is_loaded(self, pool_id: str) -> bool:
        """True when a pool is in memory: a sale from it reads nothing more."""
        return pool_id in self._pools

    def get(self, pool_id: str) -> Pool:
        """A committed pool by id: from memory, else from the cache's files, else opened from
        the database (and saved in the cache). Called outside any transaction that locks the
        pool: when this process first learns of it (web/endpoint/ledger.py, `ensure_pool`)."""
        pool = self._pools.get(pool_id)
        if pool is not None:
            return pool
        with self._lock:
            pool = self._pools.get(pool_id)
            if pool is None:
                cached = self.directory / pool_id
                if cached.is_dir():
                    pool = pool_store.load(cached)
                else:
                    pool = self.vault.get(pool_id)
                    if pool is None:
                        raise FileNotFoundError(
                            f"pool {pool_id} is recorded in the database without its data, and "
                            f"{cached} is missing: move the pool directory in with "
                            "`build.py migrate-pools` (docs/deployment.md)"
                        )
                    save_new(pool, self.directory)
                self._pools[pool_id] = pool
        return pool

    def matching(
        self, pool_id: str, prize_pence: int | None, composition: Composition | None
    ) -> list[int]:
        """Indices of a pool's entries with this prize and/or composition, in order."""
        return self.get(pool_id).indices(prize_pence, composition)
