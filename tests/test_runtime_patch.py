"""The edits to Pyodide's start (web/runtime/patch.py): pinned to the Pyodide in
package.json, and what Pyodide does with them, run in Pyodide itself (Node.js): its Python half
(the stdlib's edits) and its JavaScript (pyodide.mjs's and pyodide.asm.mjs's)."""

from __future__ import annotations

import functools
import hashlib
import json
import re
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.node import node
from tools.build.probe import pyodide_tool
from tools.build.zips import stored_zip
from web.runtime.patch import (
    EDITS,
    JS_EDITS,
    PYODIDE,
    PYODIDE_VERSION,
    ROOT,
    apply,
    edited,
    patched,
    patched_stdlib,
)

# What Pyodide's own start imported that ours does not (asyncio and what it brings, the
# package loader's archives and paths, the event loop).
NOT_AT_START = (
    "asyncio.base_events", "ssl", "socket", "subprocess", "selectors", "logging",
    "concurrent.futures", "pyodide.webloop", "shutil", "tempfile", "zipfile", "pathlib",
)  # fmt: skip


def test_the_edits_are_pinned_to_the_pyodide_in_package_json() -> None:
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    installed = json.loads((PYODIDE / "package.json").read_text())["version"]
    # An upgrade fails here until web/runtime/patch.py's edits are checked against the new
    # Pyodide's files and pinned again (the version and each file's SHA-256).
    assert PYODIDE_VERSION == pinned == installed


def test_every_edit_applies_to_the_installed_files() -> None:
    files = patched_stdlib()
    for edit in EDITS:
        assert edit.new in files[edit.path].decode(), edit.path
    assert "_pyodide/_deferred.py" in files


def test_a_file_other_than_the_pinned_one_stops_the_build() -> None:
    with zipfile.ZipFile(PYODIDE / "python_stdlib.zip") as full:
        files = {name: full.read(name) for name in full.namelist() if not name.endswith("/")}
    files["pyodide/__init__.py"] += b"\n# a newer Pyodide\n"
    with pytest.raises(RuntimeError, match=rf"not the {re.escape(PYODIDE_VERSION)} file"):
        apply(files)


@pytest.fixture(scope="module")
def patched_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("stdlib") / "patched.zip"
    path.write_bytes(stored_zip(patched_stdlib()))
    return path


def run(stdlib: Path | None, code: str, tmp_path: Path, *, snapshot: bool = False) -> Any:
    """Boot Pyodide in Node.js from `stdlib` (Pyodide's own when None), run code, and read the
    JSON its last expression gives (awaited if it is a future); with snapshot, in an interpreter
    restored from a memory snapshot of the booted one."""
    script = tmp_path / "script.py"
    script.write_text(code)
    extra = ["snapshot"] if snapshot else []
    out = pyodide_tool("run", str(stdlib) if stdlib else "-", str(script), *extra)
    return json.loads(out.strip().splitlines()[-1])


AT_START = """
import json, sys
json.dumps({"modules": sorted(sys.modules), "asyncio": type(sys.modules["asyncio"]).__name__})
"""


def test_pyodide_starts_without_asyncio(patched_zip: Path, tmp_path: Path) -> None:
    ours = run(patched_zip, AT_START, tmp_path)
    theirs = run(None, AT_START, tmp_path)
    assert ours["asyncio"] == "StandIn" and theirs["asyncio"] == "module"
    for name in NOT_AT_START:
        assert name in theirs["modules"] and name not in ours["modules"], name
    assert len(ours["modules"]) < len(theirs["modules"]) - 70


ON_FIRST_USE = """
import json, sys, time, traceback
from pyodide import _package_loader as loader

started = sorted(sys.modules)
time.sleep(0.001)  # no stack switching in Node.js without JSPI: the blocking sleep
paths = [str(loader.SITE_PACKAGES), loader.get_install_dir(), type(loader.DSO_DIR / "x").__name__]
whl = loader.get_format("whl")  # reads shutil: the wheel format is registered first
try:
    1 / 0
except ZeroDivisionError:
    formatted = traceback.format_exc()
import asyncio

loop = type(asyncio.get_event_loop()).__name__


async def main():
    import js

    value = await js.Promise.resolve(41)
    await asyncio.sleep(0.001)
    return json.dumps({
        "started": started, "paths": paths, "whl": whl, "traceback": formatted, "loop": loop,
        "value": value + 1, "asyncio": type(sys.modules["asyncio"]).__name__,
        "run": asyncio.run is sys.modules["pyodide.webloop"]._run,
    })


asyncio.ensure_future(main())
"""


def test_what_pyodide_started_with_works_on_first_use(patched_zip: Path, tmp_path: Path) -> None:
    found = run(patched_zip, ON_FIRST_USE, tmp_path)
    assert "asyncio.base_events" not in found["started"]
    # asyncio, on first use: the real module, Pyodide's event loop, a JavaScript promise awaited
    assert found["asyncio"] == "module" and found["loop"] == "WebLoop" and found["run"]
    assert found["value"] == 42
    # the package loader: its paths, as strings and as pathlib paths; shutil's wheel format
    assert found["paths"] == ["/lib/python3.14/site-packages"] * 2 + ["PosixPath"]
    assert found["whl"] == "whl"
    assert "ZeroDivisionError: division by zero" in found["traceback"]


def test_a_python_error_reaches_javascript_with_its_traceback(
    patched_zip: Path, tmp_path: Path
) -> None:
    # Pyodide's C core formats the error it hands to JavaScript with `traceback` (the worker's
    # "fail" message carries that text).
    code = "def frame():\n    raise ValueError('boom')\n\nframe()\n"
    with pytest.raises(RuntimeError) as error:
        run(patched_zip, code, tmp_path)
    message = str(error.value)
    assert "Traceback (most recent call last)" in message
    assert "line 2, in frame" in message and "ValueError: boom" in message


RESTORED = """
import json, sys
import js
from pyodide_js._api import scheduleCallback

json.dumps({"js": js.Object.keys(js.JSON.parse('{"a": 1}')).to_py(),
            "callback": scheduleCallback.name, "asyncio": type(sys.modules["asyncio"]).__name__})
"""


def test_a_memory_snapshot_of_the_start_restores(patched_zip: Path, tmp_path: Path) -> None:
    # Pyodide's snapshot expects the JavaScript objects Python holds after its start in a fixed
    # order (API.getExpectedKeys: pyodide.webloop's scheduleCallback among them); the shell's
    # returning visits restore one (web/shell/js/snapshot.js).
    found = run(patched_zip, RESTORED, tmp_path, snapshot=True)
    assert found == {"js": ["a"], "callback": "scheduleCallback", "asyncio": "StandIn"}


@pytest.mark.parametrize("name", JS_EDITS)
def test_the_javascript_edits_apply_once_to_the_pinned_file(name: str) -> None:
    theirs = (PYODIDE / name).read_bytes()
    ours = patched(name).decode()
    for edit in JS_EDITS[name]:
        assert edit.path == name
        assert hashlib.sha256(theirs).hexdigest() == edit.sha256
        assert theirs.decode().count(edit.old) == 1 and ours.count(edit.new) == 1
        assert edit.old not in ours


@pytest.mark.parametrize("name", JS_EDITS)
def test_a_javascript_file_other_than_the_pinned_one_stops_the_build(name: str) -> None:
    newer = (PYODIDE / name).read_bytes() + b"\n// a newer Pyodide\n"
    with pytest.raises(RuntimeError, match=rf"{name} is not the {re.escape(PYODIDE_VERSION)} file"):
        edited({name: newer}, JS_EDITS[name])


@pytest.fixture(scope="module")
def patched_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Pyodide's folder as the build ships its JavaScript: our pyodide.mjs and pyodide.asm.mjs,
    the rest Pyodide's (linked)."""
    index = tmp_path_factory.mktemp("pyodide")
    for source in PYODIDE.iterdir():
        if source.name not in JS_EDITS:
            (index / source.name).symlink_to(source.resolve())
    for name in JS_EDITS:
        (index / name).write_bytes(patched(name))
    return index


def node_script(name: str, index: Path) -> Any:
    """What a Node.js script of tests/ prints last (JSON), run on Pyodide's folder `index`."""
    out = subprocess.run(
        [node(), str(ROOT / "tests" / name), str(index)],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout  # fmt: skip
    return json.loads(out.strip().splitlines()[-1])


@functools.cache  # one Node.js start per folder and kind, whichever tests read it
def start(index: Path, *, snapshot: bool = False) -> Any:
    """Pyodide loaded from index in Node.js: what `pyodide_tool.mjs start` found."""
    out = pyodide_tool("start", str(index), *(["snapshot"] if snapshot else []))
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.parametrize("snapshot", [False, True], ids=["booted", "restored"])
def test_pyodide_compiles_one_module_per_wasm_type(patched_index: Path, snapshot: bool) -> None:
    # Emscripten's set-up wraps about 260 JavaScript functions for the wasm table, a module
    # compiled for each; 29 wasm types among them (and Pyodide's own few modules).
    theirs = start(PYODIDE, snapshot=snapshot)
    ours = start(patched_index, snapshot=snapshot)
    assert theirs["modules"] > 200 and ours["modules"] <= 40
    # Python runs, and JavaScript functions put in the table later are called through it:
    # one of a type the set-up met reuses its module, one of a new type compiles its own; and
    # a C function of the interpreter found by name (dlsym) is called through its slot.
    assert ours["results"] == theirs["results"] == [42, 6.0, 42, 1]
    assert theirs["later"] == 3 and ours["later"] == 1


@pytest.mark.parametrize("snapshot", [False, True], ids=["booted", "restored"])
def test_the_start_gives_table_slots_only_to_the_functions_asked_for(
    patched_index: Path, snapshot: bool
) -> None:
    # Emscripten's set-up gave each of the 8,560 exports a global offset table entry and each
    # exported function a slot in the function table, for side modules we never load; ours
    # fills only the entries the interpreter imports itself, and any other when asked for (the
    # test above calls one found by name).
    theirs = start(PYODIDE, snapshot=snapshot)
    ours = start(patched_index, snapshot=snapshot)
    assert theirs["table"] - ours["table"] > 5000, (theirs["table"], ours["table"])


def test_a_snapshot_restores_from_its_header_and_pages(patched_index: Path) -> None:
    # The shell's js/snapshot.js packs a snapshot and reads it back as Pyodide's header and
    # pages; the edited restore writes the pages into the interpreter's memory itself, zeroing
    # the gaps only below the memory's break: that memory then holds the snapshot's exactly,
    # though much of it held other bytes before (the fresh interpreter's own data and stack).
    found = node_script("snapshot_restore.mjs", patched_index)
    assert found["writes"] == 1
    assert 48 <= found["head"] < 65536 < found["dirty"] < found["length"]
    assert found["differed"] > 1_000_000 and found["wrong"] == 0
    assert json.loads(found["value"]) == {"kept": [1, 2, 3]}  # Python's state came back
    assert "does not match its pages" in found["truncated"]


def test_pyodide_starts_from_a_webassembly_module_compiled_elsewhere(patched_index: Path) -> None:
    # A returning visit's WebAssembly is compiled by a second worker (web/shell/js/runtime.js)
    # and handed to Pyodide as `_wasmModule`: Pyodide instantiates that module and compiles none
    # of its own; handed null (that compile failed), it compiles its own, as it always did.
    found = node_script("wasm_module.mjs", patched_index)
    assert found["given"] == {"given": 1, "own": 0, "value": 45}
    assert found["failed"] == {"given": 0, "own": 1, "value": 45}
