"""The pools this process holds: committed pools loaded in memory, and its pool cache.

The pool modules, one concept each:

- files.py: a pool's secrets and files (laid out with `secrets`; its directory on disk);
- layout.py: the process that lays a new pool out and saves it;
- vault.py: pools kept in the database, their key and entries sealed: what any instance,
  on any host, opens a committed pool from;
- cache.py (this one): `PoolCache`, the pools this process has laid out or opened, kept in
  memory (a sale reads its pool from there only: `loaded`) and saved under its own
  LOTTERY_POOL_DIR, a cache its hashing process and its reveal files read. In memory it keeps
  every pool that may still sell, and of the closed ones (retired, sold out: no entry of them
  is ever sold again) only the `keep_closed` used last, for recalls.

The database records each pool (id, game, model, size, Merkle root, next index) before its
first sale, and, in the same transaction, its commitment, chunk roots and its key and entries
sealed; a process loads a committed pool when it first learns of it, outside any sale
(web/endpoint/pools/pools.py, `Pools.ensure`).
"""

from __future__ import annotations

import itertools
import threading
from pathlib import Path

from engine import games
from engine.math.pool import Pool
from engine.math.table import PrizeTable
from engine.outcome import Composition
from web.endpoint.pools import files
from web.endpoint.pools.layout import LayOut, LayOuts, clear_partials, default_lay_out, save_new
from web.endpoint.pools.vault import PoolVault

KEEP_CLOSED = 4  # closed pools kept in memory (the ones used last): a recall of a play of one


class PoolNotLoaded(Exception):
    """A committed pool this process has not loaded into memory yet: a sale never loads one
    (on PostgreSQL it would hold the pool row's lock while a pool of megabytes is read and
    decrypted); it is loaded outside (`PoolCache.get`) and the sale tried again."""

    def __init__(self, pool_id: str) -> None:
        super().__init__(pool_id)
        self.pool_id = pool_id


class PoolCache:
    """The pools this process has laid out or opened, by pool id (the database's, `vault`):
    in memory, and saved under its pool directory (`directory`). In memory: every pool not
    closed, and the `keep_closed` closed ones used last (`get`); a closed pool dropped from
    memory opens again from the directory."""

    def __init__(
        self,
        directory: Path,
        vault: PoolVault,
        size: int = 0,
        lay_out: LayOut | None = None,
        keep_closed: int = KEEP_CLOSED,
    ) -> None:
        files.check_private(directory)  # refuse to start on a directory others can read
        clear_partials(directory)  # saves cut short by a process killed before this start
        self.directory = directory
        self.vault = vault
        self.size = size
        self.keep_closed = keep_closed
        self._lay_out = lay_out or default_lay_out
        self._pools: dict[str, Pool] = {}
        self._used: dict[str, int] = {}  # pool id -> when `get` last gave it (a count)
        self._uses = itertools.count()
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
            self._used[pool.pool_id] = next(self._uses)
            self._drop_closed()
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
            return files.load(self.directory / self.lay_outs.run(game, size, self.directory))
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
        pool: when this process first learns of it (web/endpoint/pools/pools.py, `Pools.ensure`)."""
        pool = self._pools.get(pool_id)
        if pool is not None:
            self._used[pool_id] = next(self._uses)
            return pool
        with self._lock:
            pool = self._pools.get(pool_id)
            if pool is None:
                cached = self.directory / pool_id
                if cached.is_dir():
                    pool = files.load(cached)
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
                self._used[pool_id] = next(self._uses)
                self._drop_closed()
        return pool

    def _drop_closed(self) -> None:
        """Drop from memory the closed pools but the `keep_closed` used last (with the lock
        held, as a pool is laid out or opened: when memory grows). Closed is the database's
        word (any instance, or the retire-pool command, closes a pool), and a closed pool sells
        nothing more: no sale reads it from memory again. Every other pool stays, whether it
        sells now or soon."""
        if len(self._pools) <= self.keep_closed:
            return
        closed = self.vault.closed(list(self._pools))
        last_used = sorted(closed, key=lambda pool_id: self._used.get(pool_id, -1), reverse=True)
        for pool_id in last_used[max(self.keep_closed, 1) :]:
            del self._pools[pool_id]
            self._used.pop(pool_id, None)

    def matching(
        self, pool_id: str, prize_pence: int | None, composition: Composition | None
    ) -> list[int]:
        """Indices of a pool's entries with this prize and/or composition, in order."""
        return self.get(pool_id).indices(prize_pence, composition)
