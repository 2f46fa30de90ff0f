"""What the build reads from the checkout: where it is, Pyodide's npm package, the shell, and
which modules of the packages the game's zips take modules from importing some names imports
(followed statically, with ast): engine/ and backends/, and the package of any game the edge
registered beyond the registry's own (engine.games.register: the tests' Lucky Dice)."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "node_modules" / "pyodide"
SHELL = ROOT / "web" / "shell"
GAME_PACKAGES = ("engine", "backends")  # the packages the game zip takes its modules from


def game_packages() -> tuple[str, ...]:
    """GAME_PACKAGES, and the top-level package of every game the registry holds (a game the
    edge registered lives in its own: tests/ for Lucky Dice), which must be a folder of this
    checkout (its module file under ROOT; ValueError otherwise)."""
    from engine.games import GAMES

    tops = dict.fromkeys((*GAME_PACKAGES, *(game.home.split(".")[0] for game in GAMES)))
    for top in tops:
        file = importlib.import_module(top).__file__
        if file is None or Path(file).resolve().parent.parent != ROOT:
            raise ValueError(f"package {top} ({file}) is not a folder of {ROOT}")
    return tuple(tops)


def module_path(name: str, packages: tuple[str, ...] | None = None) -> str | None:
    """The file of a dotted module of `packages` (by default game_packages()), relative to
    ROOT, or None for any other."""
    if name.split(".")[0] not in (packages or game_packages()):
        return None
    base = name.replace(".", "/")
    for rel in (f"{base}.py", f"{base}/__init__.py"):
        if (ROOT / rel).is_file():
            return rel
    return None


def _type_checking(test: ast.expr) -> bool:
    """True for `if TYPE_CHECKING:` / `if typing.TYPE_CHECKING:` (never true at run time)."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(nodes: Iterable[ast.AST]) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth (functions, classes, try...), but those under
    `if TYPE_CHECKING:`, which only a type checker runs."""
    for node in nodes:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and _type_checking(node.test):
            yield from _import_nodes(node.orelse)
        else:
            yield from _import_nodes(ast.iter_child_nodes(node))


def imported_names(source: str, module: str, is_package: bool = False) -> dict[str, bool]:
    """The dotted names a module's source imports, each True when it must be a module:
    `import a.b` gives a.b; `from a import b` gives a (a module) and a.b (a module only if b
    is a submodule, not a name a defines); relative imports are resolved against module."""
    names: dict[str, bool] = {}
    package = module if is_package else module.rpartition(".")[0]
    for node in _import_nodes([ast.parse(source)]):
        if isinstance(node, ast.Import):
            names.update((alias.name, True) for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            parts = package.split(".")
            anchor = ".".join(parts[: len(parts) - node.level + 1])
            base = f"{anchor}.{base}" if base else anchor
        names[base] = True
        for alias in node.names:
            if alias.name != "*":
                names.setdefault(f"{base}.{alias.name}", False)
    return names


def import_closure(roots: Iterable[str]) -> list[str]:
    """The files (relative to ROOT) of the modules of game_packages() that importing roots can
    import: followed statically (ast) through every import statement, with each module's
    parent packages (their __init__.py runs first). Other modules (the standard library) are
    left out; a root, or a module imported by name, of GAME_PACKAGES that has no file is a
    ValueError."""
    seen: dict[str, str] = {}
    packages = game_packages()
    todo = [(root, True, "the roots") for root in roots]
    while todo:
        name, required, importer = todo.pop()
        parts = name.split(".")
        if parts[0] not in packages:
            if importer == "the roots":
                raise ValueError(f"{name} is not a module of {', '.join(packages)}")
            continue
        for depth in range(1, len(parts) + 1):
            module = ".".join(parts[:depth])
            rel = seen.get(module) or module_path(module, packages)
            if rel is None:
                if required:
                    raise ValueError(f"{importer} imports {name}, which has no module file")
                break  # `from package import name` where name is not a submodule
            if module not in seen:
                seen[module] = rel
                source = (ROOT / rel).read_text(encoding="utf-8")
                found = imported_names(source, module, rel.endswith("__init__.py"))
                todo.extend((imported, must, rel) for imported, must in found.items())
    return sorted(seen.values())
