"""The import rules of docs/architecture.md ("Rooms"), read from every .py file with ast.

Arrows point down the rooms' "may import" column: the engine core imports only the standard
library and itself, with no I/O, clock or randomness of its own; the screens (engine/ui/) import
the engine and the standard library, never a platform (`js`, `pygame`); the endpoint never
imports the screens, and its rooms import one way (HTTP -> sales -> player, pools -> store),
with no circle among its modules and nothing of test mode on a sale's path; the browser's
runtime (web/runtime/) only the standard library and Pyodide, and no shipped room the tools;
tools/ in rooms, commands over build, bench, audit, shots and witness. Every import statement
counts, wherever it is (functions, `try`, `if TYPE_CHECKING:`), since each one is a dependency
someone can follow.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}
# Standard library modules the engine core must not use: the clock, randomness, the file
# system, processes and the network (the engine is handed its entropy and does no I/O).
CORE_FORBIDDEN = frozenset(
    {
        "random",
        "secrets",
        "time",
        "datetime",
        "os",
        "socket",
        "subprocess",
        "pathlib",
        "sqlite3",
        "urllib",
        "http",
        "shutil",
        "tempfile",
        "asyncio",
        "threading",
        "multiprocessing",
        "ssl",
    }
)
PLATFORMS = frozenset({"js", "pyodide", "pygame"})


def module_name(path: Path) -> str:
    """The dotted module name of a file under ROOT."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, dotted module name) of every import in a file (see imports_in)."""
    source = path.read_text(encoding="utf-8")
    return imports_in(source, module_name(path), path.name == "__init__.py")


def imports_in(source: str, module: str, is_package: bool = False) -> Iterator[tuple[int, str]]:
    """(line, dotted module name) of every import in a module's source, relative imports
    resolved; `from a import b` gives a, and a.b as well (b may be a submodule)."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                anchor = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{anchor}.{base}" if base else anchor
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def python_files(folder: str) -> list[Path]:
    """Every .py file under a folder of the repository."""
    return sorted(p for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


def top(name: str) -> str:
    return name.split(".")[0]


def is_within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def breaches(folder: str, rule: str, allowed: Callable[[Path, str], bool]) -> list[str]:
    """'file:line imports name (rule)' for every import of folder's files that
    allowed(path, name) refuses."""
    found = []
    files = python_files(folder)
    assert files, f"no Python files under {folder}"
    for path in files:
        for line, name in imports(path):
            if not allowed(path, name):
                found.append(f"{path.relative_to(ROOT)}:{line} imports {name} ({rule})")
    return found


def in_core(path: Path) -> bool:
    return not path.relative_to(ROOT).as_posix().startswith("engine/ui/")


def test_the_engine_core_imports_only_the_standard_library_and_itself() -> None:
    def allowed(path: Path, name: str) -> bool:
        return not in_core(path) or top(name) in STDLIB or top(name) == "engine"

    assert breaches("engine", "the engine core: standard library and engine only", allowed) == []


def test_the_engine_core_has_no_clock_randomness_or_io() -> None:
    def allowed(path: Path, name: str) -> bool:
        return not in_core(path) or top(name) not in CORE_FORBIDDEN

    assert breaches("engine", "no clock, randomness, files, processes or network", allowed) == []


def test_the_engine_core_knows_nothing_of_screens() -> None:
    def allowed(path: Path, name: str) -> bool:
        return not in_core(path) or not is_within(name, "engine.ui")

    assert breaches("engine", "the engine core never imports engine.ui", allowed) == []


def test_the_screens_import_only_the_engine_and_the_standard_library() -> None:
    def allowed(path: Path, name: str) -> bool:
        return top(name) not in PLATFORMS and (top(name) in STDLIB or top(name) == "engine")

    assert breaches("engine/ui", "engine/ui: engine and the standard library only", allowed) == []


def test_the_endpoint_never_imports_the_screens() -> None:
    def allowed(path: Path, name: str) -> bool:
        return not is_within(name, "engine.ui")

    assert breaches("web/endpoint", "web/endpoint never imports engine.ui", allowed) == []


# What the browser's Python start may import besides the standard library: Pyodide's own
# packages, beside which web/runtime/start/ is shipped (in Pyodide's python_stdlib.zip).
PYODIDE_PACKAGES = frozenset({"pyodide", "_pyodide", "pyodide_js"})
# tools/ in rooms, each importing only the rooms named here (and itself): the commands are the
# top, the benchmarks build the site, and the build, the auditors and the witness stand alone.
TOOL_ROOMS = {
    "build": frozenset(),
    "audit": frozenset(),
    "bench": frozenset({"build"}),
    "shots": frozenset({"build", "bench"}),
    "witness": frozenset(),
    "commands": frozenset({"build", "bench", "audit", "shots", "witness"}),
}


def test_the_browser_runtime_imports_only_the_standard_library_and_pyodide() -> None:
    def allowed(path: Path, name: str) -> bool:
        return top(name) in STDLIB or top(name) in PYODIDE_PACKAGES

    rule = "web/runtime: the standard library and Pyodide's own packages only"
    assert breaches("web/runtime", rule, allowed) == []


@pytest.mark.parametrize("folder", ["engine", "backends", "web"])
def test_what_ships_never_imports_the_tools_or_the_runtime_s_build(folder: str) -> None:
    def allowed(path: Path, name: str) -> bool:
        inside = path.relative_to(ROOT).as_posix().startswith("web/runtime/")
        return top(name) != "tools" and (inside or not is_within(name, "web.runtime"))

    rule = "only tools/ and tests/ import tools or web.runtime"
    assert breaches(folder, rule, allowed) == []


def test_the_tools_rooms_import_one_way() -> None:
    def allowed(path: Path, name: str) -> bool:
        room = path.relative_to(ROOT / "tools").parts[0]
        parts = name.split(".")
        if parts[0] != "tools" or room not in TOOL_ROOMS:  # tools/__main__.py: the dispatcher
            return True
        return len(parts) > 1 and (parts[1] == room or parts[1] in TOOL_ROOMS[room])

    rule = (
        "tools/: commands -> build, bench, audit, shots, witness; shots -> build, bench;"
        " bench -> build"
    )
    assert breaches("tools", rule, allowed) == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import random", {"random"}),
        ("def f():\n    import secrets", {"secrets"}),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pathlib", {"pathlib"}),
        ("from . import rules", {"engine.lab_riches", "engine.lab_riches.rules"}),
        ("from ..math import table", {"engine.math", "engine.math.table"}),
    ],
)
def test_the_reader_sees_every_import(source: str, expected: set[str]) -> None:
    found = {name for _, name in imports_in(source, "engine.lab_riches.probe")}
    assert found - {"typing", "typing.TYPE_CHECKING"} == expected


# The endpoint's rooms (docs/endpoint.md, "Rooms"), each with the rooms it may import besides
# itself: HTTP -> sales -> the player's side and the pools -> the public log -> the store
# (a sale and a pool append their records to the log), every room the shared
# modules at web/endpoint/'s root (errors, settings, the clock, keys, tokens, times), and test
# mode above them all, imported by the app alone.
ENDPOINT_ROOMS: dict[str, frozenset[str]] = {
    "shared": frozenset(),
    "store": frozenset({"shared"}),
    "log": frozenset({"shared", "store"}),
    "pools": frozenset({"shared", "store", "log"}),
    "player": frozenset({"shared", "store"}),
    "sales": frozenset({"shared", "store", "log", "pools", "player"}),
    "http": frozenset({"shared", "store", "log", "pools", "player", "sales"}),
    "testmode": frozenset({"shared", "store", "log", "pools", "player", "sales", "http"}),
    "app": frozenset({"shared", "store", "log", "pools", "player", "sales", "http", "testmode"}),
}


def endpoint_room(name: str) -> str:
    """The room of a module of web.endpoint: its folder, "app", or "shared" (its root)."""
    first = name.removeprefix("web.endpoint").lstrip(".").split(".")[0]
    return first if first in ENDPOINT_ROOMS else "shared"


def test_the_endpoint_s_rooms_import_one_way() -> None:
    def allowed(path: Path, name: str) -> bool:
        if not is_within(name, "web.endpoint"):
            return True
        own = endpoint_room(module_name(path))
        return endpoint_room(name) in ENDPOINT_ROOMS[own] | {own}

    assert breaches("web/endpoint", "the endpoint's rooms import one way", allowed) == []


def endpoint_graph() -> dict[str, set[str]]:
    """Each endpoint module and the endpoint modules it imports (every import statement)."""
    files = {module_name(path): path for path in python_files("web/endpoint")}
    return {
        module: {name for _, name in imports(path) if name in files and name != module}
        for module, path in files.items()
    }


def reached(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module an import of `start` loads, itself included."""
    seen, todo = {start}, [start]
    while todo:
        for name in graph[todo.pop()] - seen:
            seen.add(name)
            todo.append(name)
    return seen


def test_no_endpoint_module_imports_itself_round_a_circle() -> None:
    graph = endpoint_graph()
    circles = sorted(
        f"{module} -> {name} -> ... -> {module}"
        for module in graph
        for name in graph[module]
        if module in reached(graph, name)
    )
    assert circles == []


def test_a_sale_loads_nothing_of_test_mode() -> None:
    """Test mode can be deleted without touching a sale: the purchase's modules, and everything
    they import, never reach web.endpoint.testmode."""
    graph = endpoint_graph()
    sale_path = reached(graph, "web.endpoint.sales.checkout") | reached(
        graph, "web.endpoint.http.routes.sales"
    )
    assert "web.endpoint.sales.checkout" in sale_path and len(sale_path) > 10
    assert sorted(name for name in sale_path if is_within(name, "web.endpoint.testmode")) == []
