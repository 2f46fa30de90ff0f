"""A pool's secrets and files: laying it out with `secrets`, and its directory on disk.

(The other pool modules: layout.py runs the lay-out in a process of its own,
vault.py keeps pools sealed in the database, cache.py holds this process's pools in
memory and in its directory, which this module writes and reads.)

The engine lays a pool out from the key and entropy it is given and does no I/O; this module
gives it `secrets` and reads and writes its files (the endpoint and the tools both use it).

commitment.json  public: game, model, size, depth, root, pool_id, the outcome catalogue with
                 counts and the leaf scheme; written before the pool sells
entries.bin      the shuffled outcome codes, 2 bytes each (little-endian)
chunks.bin       the roots of each chunk of 2**CHUNK_HEIGHT leaves, 32 bytes each
pool.key         secret: the 32-byte key the seeds and salts derive from (mode 0600)
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from array import array
from pathlib import Path
from typing import Any

from engine.math.leaves import KEY_BYTES
from engine.math.pool import CHUNK, CHUNK_HEIGHT, Mapper, Pool, chunk_root
from engine.math.shuffle import Progress
from engine.math.table import PrizeTable
from engine.outcome import Composition

FORMAT = "lottery-pool/1"
LEAF_SCHEME = (
    "leaf = SHA-256(0x00 || index u64be || seed16 || salt16 || SHA-256(prize_pence u64be || "
    "composition canonical JSON)); node = SHA-256(0x01 || left || right); seed || salt = "
    "SHAKE-256('lottery-pool-entry/1' || key || (index div 256) u64be)[32*(index mod 256):][:32]; "
    "see docs/math.md"
)


def lay_out(
    table: PrizeTable,
    size: int,
    *,
    key: bytes | None = None,
    progress: Progress | None = None,
    mapper: Mapper = map,
) -> Pool:
    """Lay out a pool shuffled with `secrets`, under a fresh secret key unless one is given."""
    secret = key if key is not None else secrets.token_bytes(KEY_BYTES)
    return Pool.lay_out(
        table, size, key=secret, entropy=secrets.token_bytes, progress=progress, mapper=mapper
    )


def commitment(pool: Pool) -> dict[str, Any]:
    """The public commitment of a pool, as written to commitment.json."""
    counts = pool.outcome_counts()
    return {
        "format": FORMAT,
        "game": pool.game,
        "model": pool.model,
        "size": pool.size,
        "depth": pool.depth,
        "chunk_height": CHUNK_HEIGHT,
        "root": pool.root.hex(),
        "pool_id": pool.pool_id,
        "leaf_scheme": LEAF_SCHEME,
        "catalogue": [
            {
                "code": code,
                "prize_pence": prize,
                "composition": comp.to_json(),
                "count": counts[out],
            }
            for code, out in enumerate(pool.catalogue)
            for prize, comp in [out]
        ],
    }


def codes_bytes(codes: array[int]) -> bytes:
    """Outcome codes as 2-byte little-endian bytes (entries.bin)."""
    if sys.byteorder == "little":
        return codes.tobytes()
    swapped = array("H", codes)
    swapped.byteswap()
    return swapped.tobytes()


def _write_private(path: Path, data: bytes) -> None:
    """Write a file only its owner can read (0600, whatever the umask or an older file's mode)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        os.fchmod(handle.fileno(), 0o600)
        handle.write(data)


def save(pool: Pool, directory: Path) -> None:
    """Write the pool's files, owner-only (the order of future prizes is as secret as the key);
    the commitment last, once the rest is on disk."""
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    directory.chmod(0o700)
    _write_private(directory / "pool.key", pool.key)
    _write_private(directory / "entries.bin", codes_bytes(pool.codes))
    _write_private(directory / "chunks.bin", b"".join(pool.chunk_roots))
    text = json.dumps(commitment(pool), indent=1, ensure_ascii=False)
    _write_private(directory / "commitment.json", (text + "\n").encode("utf-8"))


def check_private(directory: Path) -> None:
    """Refuse (PermissionError, saying what to do) a pool directory other users can read or
    enter: its pools' entries say what every future play wins."""
    if not directory.exists():
        return
    mode = directory.stat().st_mode & 0o777
    if mode & 0o077:
        raise PermissionError(
            f"the pool directory {directory} is mode {mode:o}: other users could read the order "
            f"of future prizes; make it owner-only (chmod 700 {directory}) and run every "
            "endpoint process as its owner (docs/endpoint.md, pools)"
        )


def load(directory: Path, *, verify: bool = False) -> Pool:
    """Read a pool's files and check them against its commitment (every leaf if verify)."""
    meta = json.loads((directory / "commitment.json").read_text(encoding="utf-8"))
    entries = (directory / "entries.bin").read_bytes()
    chunks = (directory / "chunks.bin").read_bytes()
    key = (directory / "pool.key").read_bytes()
    return from_parts(meta, entries, chunks, key, str(directory), verify=verify)


def from_parts(
    meta: dict[str, Any],
    entries: bytes,
    chunks: bytes,
    key: bytes,
    origin: str,
    *,
    verify: bool = False,
) -> Pool:
    """A pool from its commitment, entries (2 bytes each, little-endian), chunk roots and key,
    checked against the commitment (every leaf if verify); ValueError naming `origin`."""
    if meta.get("format") != FORMAT or meta.get("chunk_height") != CHUNK_HEIGHT:
        raise ValueError(f"{origin}: not a {FORMAT} pool with chunks of {CHUNK}")
    catalogue = tuple(
        (int(item["prize_pence"]), Composition.from_json(item["composition"]))
        for item in meta["catalogue"]
    )
    codes: array[int] = array("H")
    codes.frombytes(entries)
    if sys.byteorder != "little":
        codes.byteswap()
    roots = tuple(chunks[i : i + 32] for i in range(0, len(chunks), 32))
    pool = Pool(meta["game"], meta["model"], key, catalogue, codes, roots)
    if pool.size != meta["size"] or len(roots) != (pool.size + CHUNK - 1) // CHUNK:
        raise ValueError(f"{origin}: entries or chunks do not match a pool of {meta['size']}")
    if max(codes, default=0) >= len(catalogue):
        raise ValueError(f"{origin}: an entry has an outcome code outside the catalogue")
    if pool.root.hex() != meta["root"]:
        raise ValueError(f"{origin}: the chunk roots do not give the committed root")
    if verify:
        for chunk, stored in enumerate(roots):
            start = chunk * CHUNK
            if chunk_root(key, chunk, codes[start : start + CHUNK], pool.tails) != stored:
                raise ValueError(f"{origin}: chunk {chunk} does not match its committed root")
    return pool
