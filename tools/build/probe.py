"""Pyodide run in Node.js at build time (web/runtime/pyodide_tool.mjs): the game probed for the
standard library files it loads and the code it compiles, and zips byte-compiled by Pyodide's
own CPython."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tools.build.sources import ROOT

STDLIB_OPTIMIZE = 2  # the standard library's level (nothing we run needs its docstrings)
GAME_OPTIMIZE = 0  # ours: our asserts stay (what is stripped: tools/build/stripped.py)


def pyodide_tool(*args: str) -> str:
    """Run web/runtime/pyodide_tool.mjs (Pyodide in Node.js) and return what it printed."""
    cmd = ["node", str(ROOT / "web" / "runtime" / "pyodide_tool.mjs"), *args]
    result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    if result.returncode != 0:  # its stderr is the error's message: a Python traceback
        tail = [line[:500] for line in result.stderr.strip().splitlines()[-40:]]
        raise RuntimeError(f"pyodide_tool {args[0]} failed:\n" + "\n".join(tail))
    return result.stdout


def probe_game(
    game_zip: Path,
    stdlib_zip: Path | None = None,
    start_out: Path | None = None,
    register: tuple[str, ...] = (),
) -> dict[str, Any]:
    """Boot Pyodide in Node.js with the game and run it: {"loaded": the stdlib files Python
    loaded, "start_misses": the texts compiled (named tuples', dataclasses') that the stdlib's
    code cache lacked, "start_texts": the texts it holds}. With start_out, record the code of
    every text compiled into that file (web/runtime/start/sitecustomize.py). `register`: the
    packages of games to register first, as the worker does (tools/build/zips.py registered),
    whose modules are then probed too."""
    args = [str(game_zip), str(stdlib_zip) if stdlib_zip is not None else "-"]
    args.append(str(start_out) if start_out is not None else "-")
    if register:
        args.append(",".join(register))
    out = pyodide_tool("probe", *args)
    found: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return found


def precompiled(zip_bytes: bytes, work: Path, *, optimize: int, stripped: bool = False) -> bytes:
    """The zip with every .py byte-compiled by Pyodide's own CPython (saves boot time), as
    sourceless .pyc at the optimisation level `optimize`, without column ranges
    (web/runtime/pyodide_tool.mjs compile); `stripped`: without the docstrings of modules and
    functions nor the annotations of functions (tools/build/stripped.py)."""
    source, target = work / "source.zip", work / "compiled.zip"
    source.write_bytes(zip_bytes)
    strip = ["stripped"] if stripped else []
    pyodide_tool("compile", str(source), str(target), str(optimize), *strip)
    data = target.read_bytes()
    source.unlink()
    target.unlink()
    return data


def trimmed_stdlib(loaded: list[str], full: dict[str, bytes]) -> dict[str, bytes]:
    """The standard library's files `full` (name -> bytes: python_stdlib.zip with the start's
    edits, web/runtime/patch.py) cut down to the loaded modules (and their packages'
    __init__)."""
    prefix = "/lib/python314.zip/"
    wanted = {path[len(prefix) :] for path in loaded if path.startswith(prefix)}
    missing = wanted - set(full)
    if missing:
        raise RuntimeError(f"probe saw files the stdlib zip lacks: {sorted(missing)[:5]}")
    return {name: full[name] for name in wanted}
