"""The code of the texts Python's start compiles, compiled at build time
(web/runtime/start/sitecustomize.py, shipped as the standard library's `sitecustomize`), and
what it is for: nothing compiled from source before a page's first frame (docs/build.md)."""

from __future__ import annotations

import json
import marshal
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

from tests.node import node
from web.runtime.patch import PYODIDE, ROOT, START, START_CODE

# A standard library's sitecustomize that counts every text compiled from then on (an audit
# hook), then runs the build's own, renamed `_start_code` (Pyodide's own stdlib has none).
COUNTING = """
import sys
compiled = []
def count(event, args):
    if event == "compile":
        source = args[0].decode() if isinstance(args[0], bytes) else str(args[0])
        compiled.append([str(args[1]), source[:60]])
sys.addaudithook(count)
try:
    from _start_code import *
except ModuleNotFoundError:
    pass
"""


def counting_stdlib(source: Path, target: Path) -> None:
    """The standard library zip `source` with COUNTING as its sitecustomize."""
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w") as zout:
        for name in zin.namelist():
            renamed = {"sitecustomize.pyc": "_start_code.pyc", "sitecustomize.py": "_start_code.py"}
            zout.writestr(renamed.get(name, name), zin.read(name))
        zout.writestr("sitecustomize.py", COUNTING)


def first_frame_compiles(dist: Path, index: Path, runtime: Path, stdlib: Path) -> Any:
    """Start Lab Riches' page in Node.js as the worker does, with the JavaScript and
    WebAssembly of `runtime` and the standard library zip `stdlib` (counting), then again from
    a snapshot of it, as a returning visit does: what was compiled
    (tests/first_frame_compiles.mjs)."""
    index.mkdir()
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm"):
        (index / name).symlink_to((runtime / name).resolve())
    (index / "pyodide-lock.json").symlink_to((PYODIDE / "pyodide-lock.json").resolve())
    counting_stdlib(stdlib, index / "python_stdlib.zip")
    html = (dist / "index.html").read_text()
    found = re.search(r'id="lottery-config"[^>]*>(.+?)</script>', html)
    assert found is not None
    config = json.loads(found.group(1))["game"]
    game = next(g for g in config["games"] if g["id"] == "lab-riches")
    args = {
        "shared": str(dist / config["zip"].lstrip("/")),
        "games": [{**game, "file": str(dist / game["zip"].lstrip("/"))}],
        "module": config["module"],
    }
    script = ROOT / "tests" / "first_frame_compiles.mjs"
    out = subprocess.run(
        [node(), str(script), str(index), json.dumps(args)],
        capture_output=True, text=True, timeout=180, check=True,
    ).stdout  # fmt: skip
    return json.loads(out.strip().splitlines()[-1])


def test_nothing_is_compiled_before_the_first_frame(dist_dir: Path, tmp_path: Path) -> None:
    runtime = next((dist_dir / "pyodide").iterdir())
    ours = first_frame_compiles(
        dist_dir, tmp_path / "ours", runtime, next(runtime.glob("stdlib.*.zip"))
    )
    assert {key: ours[key] for key in ("started", "first_frame", "returned")} == {
        "started": [], "first_frame": [], "returned": []
    }  # fmt: skip
    # what it ran instead was recorded without column ranges, as the zips' modules are compiled
    assert ours["ranged"] == [0]
    # Pyodide's own start compiles: its bootstrap's sources, its modules' named tuples and
    # dataclasses, and its modules themselves (its standard library ships sources); the
    # counting sees them
    theirs = first_frame_compiles(
        dist_dir, tmp_path / "theirs", PYODIDE, PYODIDE / "python_stdlib.zip"
    )
    sources = [source for _, source in theirs["started"]]
    assert "import _pyodide_core" in sources
    assert any(s.startswith("lambda _cls") for s in sources), sources  # a named tuple
    assert any(s.startswith("def __create_fn__") for s in sources), sources  # a dataclass
    assert len(theirs["first_frame"]) > len(theirs["started"]) > 10
    # a restore ran the bootstrap's sources again
    assert "import _pyodide_core" in [source for _, source in theirs["returned"]]


# This machine's CPython, a fresh interpreter each (the module hooks collections and
# dataclasses as it is imported): a named tuple and a dataclass defined with the cache in
# FOLDER, then what was compiled, what the hooks recorded, and whether the objects work.
DEFINE = """
import json, sys
sys.path.insert(0, sys.argv[1])
compiled = []
def count(event, args):
    if event == "compile" and args[1] == "<string>":
        compiled.append(args[0].decode() if isinstance(args[0], bytes) else str(args[0]))
sys.addaudithook(count)
import sitecustomize
import collections, dataclasses
Point = collections.namedtuple("Point", "x y")
@dataclasses.dataclass(frozen=True)
class Pair:
    a: int
    b: str = "b"
if len(sys.argv) > 2:
    open(sys.argv[2], "wb").write(sitecustomize.dump())
print(json.dumps({"compiled": compiled, "recorded": len(sitecustomize.recorded),
                  "works": [Point(1, 2).y, repr(Pair(1)), Pair(1) == Pair(1, "b")]}))
"""


def define(folder: Path, dump: Path | None = None) -> Any:
    # -S: no `site`, which would import this machine's own sitecustomize first
    args = [sys.executable, "-S", "-c", DEFINE, str(folder), *([str(dump)] if dump else [])]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def test_the_start_runs_the_recorded_code_and_compiles_what_it_lacks(tmp_path: Path) -> None:
    folder = tmp_path / "stdlib"
    folder.mkdir()
    (folder / "sitecustomize.py").write_bytes((START / "sitecustomize.py").read_bytes())
    works = [2, "Pair(a=1, b='b')", True]
    # no cache (the build's probe): each text compiled as before, and recorded
    recording = define(folder, tmp_path / "start_code.bin")
    assert recording["works"] == works
    assert recording["recorded"] == len(recording["compiled"]) > 2
    assert {text.split(" ")[0] for text in recording["compiled"]} == {"lambda", "def"}
    # with the recorded cache beside the module: nothing compiled, the same objects
    (folder / START_CODE).write_bytes((tmp_path / "start_code.bin").read_bytes())
    cached = define(folder)
    assert cached == {"compiled": [], "recorded": 0, "works": works}
    # a cache another CPython made is not used at all
    (form, version, _), table = marshal.loads((tmp_path / "start_code.bin").read_bytes())
    (folder / START_CODE).write_bytes(marshal.dumps(((form, version, "3.99.0"), table)))
    assert define(folder)["recorded"] == recording["recorded"]


def test_a_missing_unreadable_or_partial_cache_compiles_what_it_lacks(tmp_path: Path) -> None:
    # (what tests/test_codecache.py held the game's former cache, backends/codecache.py, to)
    folder = tmp_path / "stdlib"
    folder.mkdir()
    (folder / "sitecustomize.py").write_bytes((START / "sitecustomize.py").read_bytes())
    works = [2, "Pair(a=1, b='b')", True]
    recording = define(folder, tmp_path / "start_code.bin")
    texts = recording["recorded"]
    for broken in (b"", b"not marshal", marshal.dumps("not a table")):
        (folder / START_CODE).write_bytes(broken)
        assert define(folder) == {**recording, "works": works}, broken
    # a cache holding one of the texts: the others compiled as before, the same objects
    stamp, table = marshal.loads((tmp_path / "start_code.bin").read_bytes())
    kept = dict(list(table.items())[:1])
    (folder / START_CODE).write_bytes(marshal.dumps((stamp, kept)))
    partial = define(folder)
    assert partial["works"] == works
    assert partial["recorded"] == texts - 1 == len(partial["compiled"])
