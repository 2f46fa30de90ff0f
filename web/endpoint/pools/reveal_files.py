"""A closed pool's reveal served as static files: written once, precompressed, sent with limits
of its own.

A reveal is about 5.3 MB of JSON (a 2,000,000-entry pool). Built for each request (or from a
cache of four) and sent whole, a flood of them cut purchases by about 90 % (issue 30). So a
closed pool's reveal is written once (by `build.py retire-pool`, or else by the first request
for it) into the pool's directory as `reveal-<digest>.json`, with a `.br` (brotli, quality 9)
and a `.gz` (gzip, level 6) copy beside it, about 0.9 MB each (`write`); it never changes,
so every later request to that process is answered from these files (each instance writes
the same bytes in its own pool directory, built from the pool in the database): the encoding
the client accepts (`negotiate`), an ETag per encoding (`If-None-Match` answers 304),
`Vary: Accept-Encoding`, and the bytes read in chunks and sent (`send_file`).

Served by web/endpoint/http/reveal_serving.py.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import brotli

from web.endpoint.pools import files

ENCODINGS = (("br", ".br"), ("gzip", ".gz"))  # the order preferred, when a client takes both
ENTRIES_ENCODING = "base64 of the outcome codes, 2 bytes each, little-endian, in index order"


def build(directory: Path, recorded: dict[str, Any]) -> bytes:
    """The reveal of a closed pool as JSON bytes: what the database recorded of it, its key
    and every entry's outcome (from its files in `directory`)."""
    pool = files.load(directory)  # (not kept in memory)
    body = {
        **recorded,
        "depth": pool.depth,
        "key": pool.key.hex(),
        "catalogue": [
            {"code": code, "prize_pence": prize, "composition": comp.to_json()}
            for code, (prize, comp) in enumerate(pool.catalogue)
        ],
        "entries_encoding": ENTRIES_ENCODING,
        "entries": base64.b64encode(little_endian(pool.codes)).decode("ascii"),
    }
    return json.dumps(body, separators=(",", ":")).encode("utf-8")


def little_endian(codes: Any) -> bytes:
    """Outcome codes (an array of unsigned 16-bit integers) as 2-byte little-endian bytes."""
    if sys.byteorder == "little":
        return bytes(codes.tobytes())
    swapped = type(codes)("H", codes)
    swapped.byteswap()
    return bytes(swapped.tobytes())


def path_for(directory: Path, recorded: dict[str, Any]) -> Path:
    """The reveal file of a pool (in its directory) with what the database recorded of it."""
    digest = hashlib.sha256(json.dumps(recorded, sort_keys=True).encode()).hexdigest()
    return directory / f"reveal-{digest[:16]}.json"


def write(path: Path, data: bytes) -> None:
    """Write a closed pool's reveal, with its brotli and gzip copies beside it: each to a
    temporary name first, the uncompressed one last, so its presence means all three are
    whole (another process writing the same bytes at the same time is harmless)."""
    copies = [
        (".br", brotli.compress(data, quality=9)),
        (".gz", gzip.compress(data, compresslevel=6, mtime=0)),
        ("", data),
    ]
    for suffix, content in copies:
        target = path.with_name(path.name + suffix)
        partial = path.with_name(f".{target.name}.{os.getpid()}.partial")
        partial.write_bytes(content)
        partial.chmod(0o600)
        partial.replace(target)


def written(path: Path) -> bool:
    """True when a reveal's files are whole."""
    return path.is_file()
