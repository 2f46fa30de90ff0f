"""backends.codecache: dataclass methods compiled ahead and run as if compiled on the spot.

The browser's cache is made by Pyodide's CPython at build time (tools/build/dist.py, whose own probe
fails the build on a class the cache lacks); these tests make one with this CPython, which is
the same code path.
"""

from __future__ import annotations

import dataclasses
import marshal
import sys
from collections.abc import Iterable, Iterator
from types import CodeType, ModuleType
from typing import Any

import pytest

from backends import codecache

SOURCE = '''
from __future__ import annotations
from dataclasses import dataclass, field

@dataclass(frozen=True)
class Point:
    """A point."""
    x: int
    y: int = 0

@dataclass(order=True)
class Row:
    """A row."""
    name: str
    cells: list[int] = field(default_factory=list)
'''


@pytest.fixture(autouse=True)
def builtin_exec_after() -> Iterator[None]:
    yield
    codecache.unhook()


def define() -> ModuleType:
    """The two classes, defined anew in a module of their own."""
    module = ModuleType("codecache_sample")
    sys.modules[module.__name__] = module  # dataclasses looks the module up
    try:
        exec(compile(SOURCE, "codecache_sample.py", "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return module


def behaviour(module: Any) -> list[object]:
    """What a class does, compared between the ways of compiling it."""
    point, row = module.Point(1, 2), module.Row("a")
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.x = 3
    return [
        repr(point),
        point == module.Point(1, 2),
        point != module.Point(2, 2),
        hash(point) == hash(module.Point(1, 2)),
        repr(row),
        row < module.Row("b"),
        row.cells is not module.Row("a").cells,
        module.Point.__match_args__,
        [f.name for f in dataclasses.fields(module.Row)],
    ]


def test_recorded_code_runs_and_every_class_hits() -> None:
    expected = behaviour(define())
    table, recording = codecache.record()
    define()
    texts = len(table)  # one a class (CPython 3.13 on, as in Pyodide), one a method before
    assert texts >= 2 and recording.misses == texts
    codecache.unhook()
    data = codecache.dump(table)

    stats = codecache.install(data)
    module = define()
    assert (stats.hits, stats.misses) == (texts, 0)
    assert behaviour(module) == expected
    # The methods are the cache's code (equal to compiling the text here)
    loaded = codecache.load(data)
    assert loaded is not None
    assert module.Point.__init__.__code__ in nested(loaded.values())


def nested(codes: Iterable[CodeType]) -> list[CodeType]:
    """Every code object inside these, at any depth (the generated text's functions)."""
    found: list[CodeType] = []
    for code in codes:
        inner = [c for c in code.co_consts if isinstance(c, CodeType)]
        found += inner + nested(inner)
    return found


def texts() -> int:
    """How many texts dataclasses compiles for the sample's classes."""
    table, _ = codecache.record()
    define()
    codecache.unhook()
    return len(table)


def test_a_text_the_cache_lacks_is_compiled_as_before() -> None:
    expected, count = behaviour(define()), texts()
    stats = codecache.install(codecache.dump({}))
    assert behaviour(define()) == expected
    assert (stats.hits, stats.misses) == (0, count)


@pytest.mark.parametrize("data", [b"", b"not marshal", None])
def test_a_missing_or_unreadable_cache_compiles_everything(data: bytes | None) -> None:
    # None: the default file beside backends/codecache.py, which a source checkout lacks
    count = texts()
    stats = codecache.install(data)
    assert behaviour(define())
    assert (stats.hits, stats.misses) == (0, count)


def test_a_cache_from_another_cpython_is_not_used() -> None:
    table, _ = codecache.record()
    define()
    codecache.unhook()
    assert codecache.load(codecache.dump(table)) == table
    form, magic, version = codecache._stamp()
    foreign = marshal.dumps(((form, magic, version + " (another build)"), table))
    assert codecache.load(foreign) is None
    stats = codecache.install(foreign)
    define()
    assert (stats.hits, stats.misses) == (0, len(table))


def test_unhook_gives_dataclasses_the_builtin_exec_back() -> None:
    codecache.install(b"")
    assert "exec" in vars(dataclasses)
    codecache.unhook()
    assert "exec" not in vars(dataclasses)
    codecache.unhook()  # twice is harmless
