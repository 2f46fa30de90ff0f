"""Laying a pool out: each in a process of its own, never in a serving process.

The pool modules, one concept each:

- files.py: a pool's secrets and files (laid out with `secrets`; its directory on disk);
- layout.py (this one): the process that lays a new pool out and saves it (`LayOuts`);
- vault.py: pools kept in the database, their key and entries sealed;
- cache.py: the pools this process holds (in memory, and in its LOTTERY_POOL_DIR cache).

A Lab Riches pool of 2,000,000 entries takes seconds of CPU, nearly all of it holding the
interpreter's lock: laid out in a thread of the serving process, it slowed the sales for as long
(docs/changelog.md, "The next pool laid out in a process of its own"). So it is laid
out in a spawned process (`LayOuts.run`) that ends with the endpoint, and the next pool while
the current one sells (`PoolCache.prepare_spare`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

from engine import games
from engine.math.pool import Pool
from engine.math.table import PrizeTable
from web.endpoint.children import end_with_parent
from web.endpoint.pools import files

LayOut = Callable[[PrizeTable, int], Pool]


def default_lay_out(table: PrizeTable, size: int) -> Pool:
    """Lay out a fresh pool with a secret random key, shuffled with `secrets`."""
    return files.lay_out(table, size)


PID_MAX = 4_194_304  # the largest process id Linux gives (its pid_max's ceiling)
OLD_PARTIAL_S = (
    3_600  # a partial directory without a process id (before they had one) left this long is dead
)


def save_new(pool: Pool, directory: Path) -> None:
    """Save a newly laid-out pool under the pool directory, unless it is there already: written
    to a partial directory first (named after this process), so a pool's directory is always
    whole."""
    target = directory / pool.pool_id
    if not target.exists():
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)  # future outcomes
        partial = directory / f".{pool.pool_id}.{os.getpid()}.partial"
        files.save(pool, partial)
        partial.rename(target)


def _alive(pid: int) -> bool:
    """Whether a process of this id runs on this host."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True


def clear_partials(directory: Path) -> None:
    """Delete the partial directories of saves cut short: their process ended before the
    rename (killed mid-save: the endpoint, or its lay-out process). Each holds the secrets of
    a pool never committed, which nothing will read. A save still running is left alone."""
    for path in directory.glob(".*.partial"):
        pid = path.name.split(".")[-2]  # ".{pool id}.{process id}.partial"
        if pid.isdigit() and int(pid) <= PID_MAX:
            cut_short = not _alive(int(pid))
        else:  # ".{pool id}.partial", from before the process id was in the name
            cut_short = time.time() - path.stat().st_mtime > OLD_PARTIAL_S
        if cut_short:
            shutil.rmtree(path, ignore_errors=True)


def lay_out_and_save(
    game: str, size: int, directory: str, parent: int, result: Connection, held: tuple[str, ...]
) -> None:
    """(Run in a lay-out process.) Lay a fresh pool of the game out, save it under the pool
    directory and send its id back; the process ends with the endpoint that started it. It
    holds the endpoint's games (`held`: engine.games.packages), a registered one too."""
    end_with_parent(parent, "pool-lay-out")
    for package in held:
        games.register(package)
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
    """The lay-out processes a PoolCache runs (`PoolCache.lay_out`, `prepare_spare`), stopped
    with the endpoint."""

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
            args=(game, size, str(directory), os.getpid(), send, games.packages()),
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
                clear_partials(directory)  # (killed mid-save: its partial directory)
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
