"""tools/build/docstrings.py: what the browser's zips leave out of our modules before compiling."""

from __future__ import annotations

import traceback
from types import CodeType
from typing import Any

import pytest

from tools.build.docstrings import compiled

SOURCE = b'''"""The module's docstring."""
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


def fails(n):
    """Fails on the line below."""
    assert n > 0, "n must be positive"
    return 1 // (n - n)
'''


def run(source: bytes) -> dict[str, Any]:
    code = compiled(source, "example.py", 0)
    assert isinstance(code, CodeType)
    namespace: dict[str, Any] = {"__name__": "example"}
    exec(code, namespace)
    return namespace


def strings(code: CodeType) -> set[str]:
    """Every string constant of a code object and of the code it holds."""
    found = set()
    for const in code.co_consts:
        if isinstance(const, str):
            found.add(const)
        elif isinstance(const, CodeType):
            found |= strings(const)
    return found


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
