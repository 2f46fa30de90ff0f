"""What the browser's zips leave out of our modules before they are byte-compiled
(web/runtime/pyodide_tool.mjs `compile ... stripped`, run in Pyodide's own CPython): the
docstrings of modules and functions, and the annotations of functions' parameters and returns.

Nothing in the browser reads them (no `__doc__` of ours, no function's `__annotations__`), and
they cost each page's first visit 44-56 kB (docs/build.md, "The first visit's bytes"). Classes
keep their docstrings and their fields' annotations: `dataclasses` reads the fields from the
annotations, and gives a class with no docstring one made from its signature
(`inspect.signature`) as the class is defined, at every start. Asserts stay (optimisation level
0); line numbers do not move, so a traceback names the same lines as the source tree.
This file is standard library only: the build runs its text inside Pyodide.
"""

import ast
from types import CodeType

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _is_docstring(node: ast.stmt) -> bool:
    """True for a statement that is a string literal alone (a body's first is its docstring)."""
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def stripped(tree: ast.Module) -> ast.Module:
    """The tree without the docstring of the module and of every function (a body that was only
    its docstring becomes `pass`, on its line) and without the annotations of functions'
    parameters and returns; a class keeps its docstring and its fields' annotations."""
    for node in ast.walk(tree):
        if isinstance(node, FUNCTIONS):
            node.returns = None
            parameters = node.args
            every = (*parameters.posonlyargs, *parameters.args, *parameters.kwonlyargs)
            for arg in (*every, parameters.vararg, parameters.kwarg):
                if arg is not None:
                    arg.annotation = None
        if isinstance(node, (ast.Module, *FUNCTIONS)):
            _drop_docstring(node.body)
    return tree


def _drop_docstring(body: list[ast.stmt]) -> None:
    """Take a body's docstring out (a body that was only its docstring becomes `pass`)."""
    if body and _is_docstring(body[0]):
        if len(body) == 1:
            body[0] = ast.copy_location(ast.Pass(), body[0])
        else:
            del body[0]


def compiled(source: bytes, name: str, optimize: int) -> CodeType:
    """The code of a module's source, stripped (see stripped)."""
    tree = stripped(ast.parse(source, name))
    return compile(tree, name, "exec", dont_inherit=True, optimize=optimize)
