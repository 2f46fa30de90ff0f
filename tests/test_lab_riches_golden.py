"""Golden books of models lab-riches/1 and /2: these inputs must give exactly these bytes on
every CPython and in Pyodide, for ever (plays sold under models 1 and 2 replay from them). The
current model's golden books are in tests/test_game_conformance.py.

If the generator changes on purpose, the model version changes with it (docs/books.md).
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.lab_riches.generator import build_book
from engine.outcome import Composition, Part

GOLDEN = [
    ([], "00" * 16, "3a2d7a3ca5600e4a519d0cb70f5ca65ae86b85c4d2e0f971676884ca28b1b9ae"),
    (
        [("row", 500), ("meter", 400)],
        "0123456789abcdef0123456789abcdef",
        "074ad0305eda08a34ca7d6bb38ec7d0e4befcd3bfd15134a309cf1b792c00d30",
    ),
    (
        [("instant", 2000), ("meter", 100000)],
        "f" * 32,
        "9764664484c1e8856187ee3eb9d5fcf4a1c9dadf245f8e9015f26b62a82d3258",
    ),
]


# Model 2, the prize table's model from 2026-11-30 to 2026-12-01: the same inputs.
GOLDEN_2 = [
    ([], "00" * 16, "507e6a0573d0f1788fde0836db46aa741e2cb1f5d239d740fe44f82686ce27da"),
    (
        [("row", 500), ("meter", 400)],
        "0123456789abcdef0123456789abcdef",
        "84e0d7d47faec5093c966c944cc51463c9d1705db7f871a6e513e0d3a6e30135",
    ),
    (
        [("instant", 2000), ("meter", 100000)],
        "f" * 32,
        "c88f7247f6a57e97bf198c910561cc55f89203eb5d48571b3cf6564529047906",
    ),
]


@pytest.mark.parametrize(("parts", "seed", "digest"), GOLDEN_2)
def test_model_2_golden_book_bytes(parts: list[tuple[str, int]], seed: str, digest: str) -> None:
    composition = Composition.of(Part(feature, pence) for feature, pence in parts)
    text = build_book("lab-riches/2", composition, bytes.fromhex(seed)).to_json()
    assert hashlib.sha256(text.encode()).hexdigest() == digest


@pytest.mark.parametrize(("parts", "seed", "digest"), GOLDEN)
def test_golden_book_bytes(parts: list[tuple[str, int]], seed: str, digest: str) -> None:
    composition = Composition.of(Part(feature, pence) for feature, pence in parts)
    text = build_book("lab-riches/1", composition, bytes.fromhex(seed)).to_json()
    assert hashlib.sha256(text.encode()).hexdigest() == digest


def test_golden_opening() -> None:
    book = build_book("lab-riches/1", Composition(), bytes(16))
    assert book.to_json().startswith(
        '{"composition":[],"events":[{"goes_left":6,"grid":[["burner","burner","dna","microscope"],'
        '["atom","flask","burner","burner"],["burner","flask","beaker","flask"],'
        '["burner","magnet","magnet","test-tube"],["flask","atom","flask","burner"]],"index":0,'
        '"top":["magnet","beaker","burner","beaker"],"type":"start"},{"go":1,"goes_left":5,'
    )
    assert book.events[2] == {
        "amounts": [500, 5000, 5000, 500, 10000],
        "index": 2,
        "type": "prize_boxes",
    }


def test_golden_books_in_pyodide() -> None:
    from tools.bench.engine import pyodide_eval

    lines = ["import hashlib, json", "from engine.outcome import Composition, Part"]
    lines.append("from engine.lab_riches.generator import build_book")
    lines.append("out = []")
    for parts, seed, _digest in GOLDEN:
        lines.append(
            f"out.append(hashlib.sha256(build_book('lab-riches/1', Composition.of("
            f"Part(f, p) for f, p in {parts!r}), bytes.fromhex({seed!r})).to_json().encode())"
            f".hexdigest())"
        )
    lines.append("json.dumps(out)")
    result = pyodide_eval("\n".join(lines))
    if result is None:
        pytest.skip("Node.js or node_modules/pyodide is not installed")
    assert json.loads(result) == [digest for _parts, _seed, digest in GOLDEN]


def _cpythons() -> list[str]:
    """This interpreter and every other CPython 3.11+ here (the engine needs only the stdlib)."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates: list[str | None] = [sys.executable]
    candidates += [shutil.which(f"python3.{minor}") for minor in (11, 12, 13, 14)]
    candidates += [str(p) for p in sorted(pyenv.glob("3.1[1-9]*/bin/python3"))]
    found: dict[str, str] = {}
    for exe in filter(None, candidates):
        probe = subprocess.run([exe, "-c", "import sys; print(sys.version.split()[0])"],
                               capture_output=True, text=True, check=False)  # fmt: skip
        if probe.returncode == 0:
            found.setdefault(probe.stdout.strip(), exe)
    return sorted(found.values())


@pytest.mark.parametrize("python", _cpythons())
def test_golden_books_on_every_cpython_here(python: str) -> None:
    code = (
        "import hashlib, json, sys\n"
        "from engine.outcome import Composition, Part\n"
        "from engine.lab_riches.generator import build_book\n"
        f"golden = {[(p, s) for p, s, _d in GOLDEN]!r}\n"
        "print(json.dumps([hashlib.sha256(build_book('lab-riches/1', Composition.of("
        "Part(f, p) for f, p in parts), bytes.fromhex(seed)).to_json().encode()).hexdigest()"
        " for parts, seed in golden]))\n"
    )
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    result = subprocess.run([python, "-c", code], capture_output=True, text=True, env=env,
                            cwd=root, check=False)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [digest for _parts, _seed, digest in GOLDEN]
