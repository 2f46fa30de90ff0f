"""Our modules' and functions' docstrings left out of the browser's zips, before they are
byte-compiled (web/runtime/pyodide_tool.mjs `compile ... nodocs`, run in Pyodide's own CPython).

Nothing in the browser reads them, and they were a sixth of the game zips' brotli bytes. Classes
keep theirs: `dataclasses` gives a class with no docstring one made from its signature
(`inspect.signature`) as the class is defined, at every start. Asserts stay (optimisation level
0); line numbers do not move, so a traceback names the same lines as the source tree.
This file is standard library only: the build runs its text inside Pyodide.
"""

import ast
from types import CodeType

WITH_DOCSTRINGS = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)


def _is_docstring(node: ast.stmt) -> bool:
    """True for a statement that is a string literal alone (a body's first is its docstring)."""
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def without_docstrings(tree: ast.Module) -> ast.Module:
    """The tree with the docstring of the module and of every function taken out (a body that
    was only its docstring becomes `pass`, on the same line); class docstrings stay."""
    for node in ast.walk(tree):
        if isinstance(node, WITH_DOCSTRINGS) and node.body and _is_docstring(node.body[0]):
            if len(node.body) == 1:
                node.body[0] = ast.copy_location(ast.Pass(), node.body[0])
            else:
                del node.body[0]
    return tree


def compiled(source: bytes, name: str, optimize: int) -> CodeType:
    """The code of a module's source without its docstrings (see without_docstrings)."""
    tree = without_docstrings(ast.parse(source, name))
    return compile(tree, name, "exec", dont_inherit=True, optimize=optimize)
