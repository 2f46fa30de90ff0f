"""tools/build/stripped.py: what the browser's zips leave out of our modules before compiling."""

from __future__ import annotations

import sys
import traceback
from types import CodeType, ModuleType
from typing import Any

import pytest

from tools.build.stripped import compiled

SOURCE = b'''"""The module's docstring."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Point:
    """A class keeps its docstring."""

    x: int


def only_a_docstring():
    """Its body was this alone."""


async def waits():
    """An async function's docstring."""
    return 1


def fails(n: int, *rest: Point, key: Mapping[str, int] | None = None, **more: str) -> int:
    """Fails on the line below."""
    assert n > 0, "n must be positive"
    return 1 // (n - n)
'''


def run(source: bytes) -> dict[str, Any]:
    """The module's namespace, run as the module `stripped_example` (dataclasses looks its
    module up to read string annotations)."""
    code = compiled(source, "example.py", 0)
    module = ModuleType("stripped_example")
    sys.modules[module.__name__] = module
    try:
        exec(code, module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return module.__dict__


def strings(code: CodeType) -> set[str]:
    """Every string constant of a code object and of the code it holds."""
    found = set()
    for const in code.co_consts:
        if isinstance(const, str):
            found.add(const)
        elif isinstance(const, tuple):  # a function's annotations, name by name
            found |= {item for item in const if isinstance(item, str)}
        elif isinstance(const, CodeType):
            found |= strings(const)
    return found


def test_functions_lose_their_annotations_classes_keep_their_fields() -> None:
    module = run(SOURCE)
    assert module["fails"].__annotations__ == {}
    assert module["Point"].__annotations__ == {"x": "int"}
    assert module["Point"](3) == module["Point"](x=3)  # the dataclass's fields and methods
    texts = strings(compiled(SOURCE, "example.py", 0))
    assert not {"Mapping[str, int] | None", "n", "rest", "more"} & texts, texts


def test_modules_and_functions_lose_their_docstrings_classes_keep_theirs() -> None:
    module = run(SOURCE)
    assert module.get("__doc__") is None
    assert module["only_a_docstring"].__doc__ is None
    assert module["waits"].__doc__ is None
    assert module["fails"].__doc__ is None
    # dataclasses would make a class with none one from its signature at every start
    assert module["Point"].__doc__ == "A class keeps its docstring."
    texts = strings(compiled(SOURCE, "example.py", 0))
    assert not any("docstring" in t and "class" not in t for t in texts), texts
    assert "Fails on the line below." not in texts


def test_the_code_still_runs_with_its_asserts_on_its_own_lines() -> None:
    module = run(SOURCE)
    assert module["only_a_docstring"]() is None
    fails = module["fails"]
    with pytest.raises(AssertionError, match="n must be positive"):
        fails(0)
    with pytest.raises(ZeroDivisionError) as raised:
        fails(1)
    line = traceback.extract_tb(raised.tb)[-1].lineno
    assert line == SOURCE.decode().splitlines().index("    return 1 // (n - n)") + 1
