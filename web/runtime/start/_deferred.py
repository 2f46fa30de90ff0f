"""Modules Pyodide's start imported, loaded on first use instead (web/runtime/patch.py).

Shipped in the standard library zip as `_pyodide/_deferred.py`. Pyodide's C core imports
`asyncio` as it starts only to keep the module and call `get_event_loop` and `ensure_future` on
it when Python awaits a JavaScript promise or JavaScript awaits Python; `pyodide` imported
`pyodide.webloop` to install its event loop. Neither the games nor the shell await anything, so
the real `asyncio` (30 modules with `ssl`, `socket`, `subprocess`, `logging` and
`concurrent.futures`) is imported, and Pyodide's event loop installed, on first use instead.
Likewise `pyodide._package_loader` (imported at start for two paths) reads `shutil`,
`tempfile`, `zipfile` and `pathlib` only when it loads a package, which we never do.
"""

import sys
import time
from collections.abc import Callable
from importlib import import_module
from importlib.machinery import ModuleSpec
from os import PathLike
from types import ModuleType
from typing import Any

NAME = "asyncio"
# What the import system reads of a package: forwarded, so `import asyncio.x` and
# `from asyncio import *` load the real one; other dunders are the stand-in's own.
FORWARDED = frozenset({"__path__", "__all__"})


class StandIn(ModuleType):
    """`asyncio` until something uses it: any attribute loads the real one and is read there."""

    def __getattr__(self, name: str) -> object:
        if name.startswith("__") and name not in FORWARDED:
            raise AttributeError(name)
        return getattr(load(), name)

    def __dir__(self) -> list[str]:
        return dir(load())


def load() -> ModuleType:
    """The real asyncio, imported on first use, with Pyodide's event loop installed as
    `pyodide` installed it when it imported asyncio at start."""
    current = sys.modules.get(NAME)
    if current is not None and not isinstance(current, StandIn):
        return current
    stand_in = sys.modules.pop(NAME, None)
    try:
        real = import_module(NAME)
    except BaseException:
        if stand_in is not None:
            sys.modules[NAME] = stand_in
        raise
    from pyodide.webloop import _initialize_event_loop

    _initialize_event_loop()
    return real


def install() -> None:
    """Put the stand-in in sys.modules, unless asyncio is imported already."""
    if NAME not in sys.modules:
        module = StandIn(NAME, "asyncio, loaded on first use (_pyodide._deferred)")
        module.__spec__ = ModuleSpec(NAME, None)
        sys.modules[NAME] = module


_blocking_sleep = time.sleep


def _sleep(seconds: Any) -> None:
    """time.sleep as pyodide.webloop makes it: with stack switching, sleep on the event loop
    (loading asyncio, which then puts webloop's own in place); without, the blocking sleep."""
    from pyodide.ffi import can_run_sync

    if can_run_sync():
        load()
        time.sleep(seconds)
    else:
        _blocking_sleep(seconds)


_held: list[object] = []


def defer_event_loop() -> None:
    """What `pyodide` did at import (pyodide.webloop._initialize_event_loop), deferred to the
    first use of asyncio; time.sleep keeps its behaviour meanwhile."""
    # pyodide.webloop took this JavaScript function as it was imported, and Pyodide's memory
    # snapshot expects it where that left it among the JavaScript objects Python holds (index
    # 4 of API.getExpectedKeys(), after the `pyodide_js._api` module): taken in the same order.
    from pyodide_js._api import scheduleCallback

    _held.append(scheduleCallback)
    time.sleep = _sleep


class Deferred:
    """A module's name in one module's globals, imported at its first attribute read (then
    `then(module)` runs once, before the read is answered)."""

    def __init__(self, name: str, then: Callable[[ModuleType], None] | None = None) -> None:
        self._name = name
        self._then = then

    def __getattr__(self, attribute: str) -> object:
        module = import_module(self._name)
        then, self._then = self._then, None
        if then is not None:
            then(module)
        return getattr(module, attribute)


class DeferredPath(PathLike[str]):
    """A path as pathlib.Path would hold it, importing pathlib only when used as more than a
    string (`str()` and `os.fspath()` need no pathlib)."""

    def __init__(self, path: str) -> None:
        self._path = path

    def _real(self) -> Any:
        from pathlib import Path

        return Path(self._path)

    def __str__(self) -> str:
        return self._path

    def __fspath__(self) -> str:
        return self._path

    def __repr__(self) -> str:
        return repr(self._real())

    def __eq__(self, other: object) -> bool:
        return bool(self._real() == other)

    def __hash__(self) -> int:
        return hash(self._real())

    def __truediv__(self, other: Any) -> Any:
        return self._real() / other

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real(), name)
