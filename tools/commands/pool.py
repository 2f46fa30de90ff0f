"""`build.py pool --game G [--size N] --out DIR`: lay out, commit and save a finite pool.

The pool holds exactly the prize table's counts scaled to N (a multiple of the base pool),
shuffled with `secrets` (web/endpoint/pools/files.py); its Merkle root is written to
DIR/commitment.json. The figures (seconds, peak memory, proof time) are printed as JSON at the end.

`build.py pool --check DIR [--entry I]` re-checks a saved pool (every leaf against the committed
root) and prints one entry with its proof, as an auditor would receive it.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from tqdm import tqdm

from engine import games
from engine.math.pool import Pool, verify_proof
from web.endpoint.pools import files


def peak_memory_mb(children: bool = False) -> float | None:
    """Peak resident memory in MB of this process (or its largest child), where known."""
    try:
        import resource
    except ImportError:
        return None
    who = resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF
    peak = resource.getrusage(who).ru_maxrss
    return round(peak / (1 << 20 if sys.platform == "darwin" else 1 << 10), 1)


def time_proofs(pool: Pool, samples: int = 200) -> float:
    """Mean milliseconds to produce and verify the proof of a random entry."""
    root = pool.root.hex()
    start = time.perf_counter()
    for _ in range(samples):
        index = secrets.randbelow(pool.size)
        if not verify_proof(root, pool.entry(index), pool.proof(index)):
            raise SystemExit(f"proof of entry {index} does not verify")
    return round((time.perf_counter() - start) * 1000 / samples, 3)


def check(directory: Path, index: int) -> int:
    """Load a saved pool, recompute every leaf, and print one entry with its proof."""
    start = time.perf_counter()
    pool = files.load(directory, verify=True)
    entry, proof = pool.entry(index), pool.proof(index)
    report = {
        "game": pool.game,
        "model": pool.model,
        "size": pool.size,
        "root": pool.root.hex(),
        "every_leaf_matches": True,
        "seconds": round(time.perf_counter() - start, 2),
        "entry": entry.to_json(),
        "proof": proof,
        "proof_verifies": verify_proof(pool.root.hex(), entry, proof),
    }
    print(json.dumps(report, indent=1))
    return 0


def main(argv: list[str]) -> int:
    """Lay out the pool with a progress bar, save it and print its figures."""
    parser = argparse.ArgumentParser(prog="build.py pool")
    parser.add_argument("--game", choices=games.ids())
    parser.add_argument("--size", type=int, help="plays in the pool (default: the base pool)")
    parser.add_argument("--out", type=Path, metavar="DIR")
    parser.add_argument("--check", type=Path, metavar="DIR", help="re-check a saved pool")
    parser.add_argument("--entry", type=int, default=0, help="with --check: the entry to show")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="hashing processes"
    )
    args = parser.parse_args(argv)
    if args.check:
        return check(args.check, args.entry)
    if not args.game or not args.out:
        parser.error("--game and --out are required to lay out a pool")
    table = games.load_table(args.game)
    size = args.size or table.base_pool_size
    if size <= 0 or size % table.base_pool_size:
        parser.error(f"--size must be a multiple of {table.base_pool_size:,}")
    start = time.perf_counter()
    with tqdm(total=2 * size, unit="step", unit_scale=True, desc=f"{args.game} pool") as bar:

        def progress(done: int, total: int) -> None:
            bar.update(done - bar.n)

        if args.workers > 1:
            with ProcessPoolExecutor(args.workers) as executor:
                pool = files.lay_out(table, size, progress=progress, mapper=executor.map)
        else:
            pool = files.lay_out(table, size, progress=progress)
    files.save(pool, args.out)
    elapsed = time.perf_counter() - start
    figures = {
        "game": pool.game,
        "model": pool.model,
        "size": pool.size,
        "root": pool.root.hex(),
        "pool_id": pool.pool_id,
        "out": str(args.out),
        "seconds": round(elapsed, 2),
        "workers": args.workers,
        "peak_memory_mb": peak_memory_mb(),
        "worker_peak_memory_mb": peak_memory_mb(children=True),
        "proof_ms": time_proofs(pool),
    }
    print(json.dumps(figures))
    return 0
