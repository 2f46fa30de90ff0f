"""Dataclass methods compiled at build time, for the browser's cold start.

`dataclasses` writes each class's __init__, __repr__, __eq__, __hash__... as source text and
compiles that text when the class is defined. In Pyodide compiling is slow: the 40-odd
dataclasses a game's page defines spent about 50 ms in Node.js compiling them, a third of
importing the game, on every cold start (docs/build-history.md).

The build (tools/dist.py) imports every module of the game once in the same Pyodide with
`record`, which keeps each text dataclasses compiles and its code; `dump` writes them
(marshal, keyed by the text's SHA-256) into the shared zip as CACHE_FILE. In the browser the
worker calls `install` before importing the game: dataclasses then runs the recorded code for
a text it knows, and compiles any other text as it always did. The code is what compiling the
same text with the same CPython gives (the build records it without column ranges, as it
compiles every module it ships: a generated method has no source to point at anyway), so a
class is the same either way; a cache made by another CPython (its magic number and version
are in the file) is not used at all.
"""

from __future__ import annotations

import builtins
import dataclasses
import hashlib
import importlib.util
import marshal
import sys
from collections.abc import Callable
from types import CodeType
from typing import Any

from engine import package_data

CACHE_FILE = "dataclass_code.bin"
FORMAT = 1


def _stamp() -> tuple[int, bytes, str]:
    """What a cache must have been made with: this file's format, the bytecode's magic number
    (marshal's code format) and the exact CPython."""
    return FORMAT, importlib.util.MAGIC_NUMBER, sys.version


def key(source: str) -> bytes:
    """A generated text's key in the cache."""
    return hashlib.sha256(source.encode("utf-8")).digest()


def compiled(source: str) -> CodeType:
    """The text compiled as dataclasses' own `exec(text, ...)` compiles it: file name
    "<string>", and no __future__ flags (dataclasses.py has none; this module's must not
    leak in, hence dont_inherit)."""
    return compile(source, "<string>", "exec", dont_inherit=True)


Exec = Callable[[str, dict[str, Any], dict[str, Any]], None]


def _hook(run: Exec) -> None:
    # dataclasses calls `exec(text, globals, namespace)` by name: a module global named exec
    # comes before the builtin.
    setattr(dataclasses, "exec", run)  # noqa: B010 (mypy: the module declares no `exec`)


def unhook() -> None:
    """Let dataclasses compile with the builtin exec again."""
    if "exec" in vars(dataclasses):
        delattr(dataclasses, "exec")


class Stats:
    """How the texts dataclasses compiled since `install` or `record` were compiled: one text
    a class from CPython 3.13 on (Pyodide's), one a method before."""

    def __init__(self) -> None:
        self.hits = 0
        self.misses = 0


def record() -> tuple[dict[bytes, CodeType], Stats]:
    """Keep every text dataclasses compiles from now on, with its code (for `dump`)."""
    table: dict[bytes, CodeType] = {}
    stats = Stats()

    def run(source: str, globals: dict[str, Any], namespace: dict[str, Any]) -> None:
        code = table[key(source)] = compiled(source)
        stats.misses += 1
        builtins.exec(code, globals, namespace)

    _hook(run)
    return table, stats


def dump(table: dict[bytes, CodeType]) -> bytes:
    """The cache file's bytes: this CPython's stamp and the recorded code."""
    return marshal.dumps((_stamp(), dict(sorted(table.items()))))


def load(data: bytes) -> dict[bytes, CodeType] | None:
    """The recorded code of a cache file; None for one another CPython made, or unreadable."""
    try:
        stamp, table = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None
    if stamp != _stamp() or not isinstance(table, dict):
        return None
    return table


def install(data: bytes | None = None) -> Stats:
    """Compile dataclasses' texts from the cache (by default CACHE_FILE beside this module);
    a text the cache lacks, or every text when the cache is missing or another CPython's, is
    compiled as before. The returned Stats count the hits and misses from now on."""
    stats = Stats()
    if data is None:
        try:
            # The loader's own read (zipimport's in the browser): importlib.resources would
            # import zipfile, pathlib, tempfile and shutil for it, pkgutil a named tuple
            # (docs/build.md).
            data = package_data.read(__package__ or "backends", CACHE_FILE)
        except OSError:
            data = b""
    table = load(data) or {}

    def run(source: str, globals: dict[str, Any], namespace: dict[str, Any]) -> None:
        code = table.get(key(source))
        if code is None:
            stats.misses += 1
            code = compiled(source)
        else:
            stats.hits += 1
        builtins.exec(code, globals, namespace)

    _hook(run)
    return stats
