"""Content-hashed names, and the .br and .gz written beside a text or wasm file (cached by
content under .cache/)."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import brotli

from tools.build.sources import ROOT

CACHE = ROOT / ".cache" / "compress"
COMPRESSIBLE = {
    *(".html", ".js", ".mjs", ".css", ".json", ".svg", ".wasm", ".zip", ".txt", ".woff"),
    ".webmanifest",
}


def sha256(data: bytes) -> str:
    """Hex SHA-256 of data."""
    return hashlib.sha256(data).hexdigest()


def hashed_name(name: str, data: bytes) -> str:
    """name.ext -> name.<first 10 hex of sha256>.ext."""
    stem, dot, ext = name.rpartition(".")
    return f"{stem}.{sha256(data)[:10]}{dot}{ext}"


def compressed(data: bytes, kind: str) -> bytes:
    """Brotli (quality 11) or gzip (level 9) of data, cached by content under .cache/."""
    cache = CACHE / f"{sha256(data)}.{kind}"
    if cache.exists():
        return cache.read_bytes()
    packed = brotli.compress(data, quality=11) if kind == "br" else gzip.compress(data, 9, mtime=0)
    CACHE.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(packed)
    return packed


def write_compressed(path: Path) -> None:
    """Write path.br and path.gz beside a text or wasm file."""
    data = path.read_bytes()
    for kind in ("br", "gz"):
        path.with_name(f"{path.name}.{kind}").write_bytes(compressed(data, kind))
