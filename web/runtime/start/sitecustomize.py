"""The browser's one code cache: the texts Python compiles for named tuples and dataclasses,
from its start to the game's, compiled at build time (web/runtime/patch.py ships it).

Shipped in the standard library zip as `sitecustomize`, which CPython's `site` imports as the
interpreter starts, before any of Pyodide's start. `collections.namedtuple` compiles a text for
each named tuple's `__new__` (`eval`), `dataclasses` one for each class's methods (`exec`):
Pyodide's start made 13 of them (the named tuples of functools, tokenize, dis, inspect and
traceback, the dataclasses of _colorize), and with nothing else compiled before a page's first
frame, the first of them had the browser compile Python's tokenizer, parser and compiler from
WebAssembly, about 380 functions (docs/changelog.md; docs/build.md, "Nothing compiled ...").
The game's dataclasses (about 50) compiled their methods the same way: about 50 ms in Node.js,
a third of importing the game, on every cold start.

The build's probe boots with no cache, imports every module of the game, and records every
text these two compile, with its code (`recorded`, `dump`), into CACHE beside this module; then
they run the recorded code. A text the cache lacks is compiled as before (and recorded), so it
is slower, never different: the code is what compiling the same text with the same CPython
gives (recorded without column ranges, as the build compiles every module it ships). A cache
from another CPython (its version is in the file) is not used at all.
"""

from __future__ import annotations

import builtins
import collections
import marshal
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing imports functools, whose named tuple must find the hook below
    from types import CodeType
    from typing import Any

CACHE = "start_code.bin"
FORMAT = 1
STAMP = (FORMAT, marshal.version, sys.version)

# Every text compiled through the hooks below since the start that the cache lacked, with its code.
recorded: dict[str, CodeType] = {}


def _load() -> dict[str, CodeType]:
    """The cache beside this module (read by its loader: zipimport's), or {} without one."""
    try:
        loader, folder = globals()["__loader__"], __file__.rpartition("/")[0]
        stamp, table = marshal.loads(loader.get_data(f"{folder}/{CACHE}"))
    except (OSError, EOFError, ValueError, TypeError, AttributeError, KeyError):
        return {}
    return table if stamp == STAMP and isinstance(table, dict) else {}


_table = _load()


def _code(source: str, mode: str) -> CodeType:
    code = _table.get(source)
    if code is None:
        # as the builtin compiles it from these two modules: file "<string>", neither has a
        # __future__ import (this module's flags must not leak in: dont_inherit)
        code = recorded[source] = compile(source, "<string>", mode, dont_inherit=True)
    return code


def _eval(source: Any, globals: Any = None, locals: Any = None) -> Any:
    if isinstance(source, str):
        source = _code(source, "eval")
    return builtins.eval(source, globals, locals)


def _exec(source: Any, globals: Any = None, locals: Any = None) -> None:
    if isinstance(source, str):
        source = _code(source, "exec")
    builtins.exec(source, globals, locals)


def dump() -> bytes:
    """The cache file's bytes: every text the hooks ran, with its code."""
    return marshal.dumps((STAMP, dict(sorted({**_table, **recorded}.items()))))


# Each module calls the function by name: a module global comes before the builtin.
collections.eval = _eval  # type: ignore[attr-defined]

import dataclasses  # noqa: E402 (its import defines named tuples: after the hook above)

dataclasses.exec = _exec  # type: ignore[attr-defined]
