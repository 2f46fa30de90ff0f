"""The static site build: what is in dist/, its names, hashes and compressed copies."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import brotli
import pytest

from engine.game import BUILT_TABLE_FILE, TABLE_FILE, Game, Lazy
from engine.games import GAMES
from tools.build.compress import COMPRESSIBLE
from tools.build.dist import EAGER_HINT
from tools.build.sources import ROOT, import_closure, module_path
from tools.build.zips import (
    SHARED_ROOTS,
    extended_packages,
    game_files,
    game_roots,
    game_zip_names,
    registered,
    stored_zip,
    zip_parts,
)
from web.runtime.patch import JS_EDITS, START_CODE


def manifest(dist: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((dist / "manifest.json").read_text())
    return data


def test_the_site_has_its_files(dist_dir: Path) -> None:
    names = set(manifest(dist_dir)["files"])
    assert {"index.html", "sw.js", "favicon.svg"} <= names
    assert any(re.fullmatch(r"app\.[0-9a-f]{10}\.js", n) for n in names)
    assert any(re.fullmatch(r"py/game\.[0-9a-f]{10}\.zip", n) for n in names)
    pyodide = {n.rsplit("/", 1)[1] for n in names if n.startswith("pyodide/")}
    assert {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm"} <= pyodide
    # Only what the game needs from Pyodide: no full stdlib, no package lock, no consoles.
    assert not any(n.endswith(("python_stdlib.zip", "pyodide-lock.json", ".html")) for n in pyodide)


@pytest.mark.parametrize("name", JS_EDITS)
def test_the_site_ships_pyodide_s_javascript_as_the_build_edits_it(
    dist_dir: Path, name: str
) -> None:
    shipped = next(dist_dir.glob(f"pyodide/*/{name}")).read_text()
    for edit in JS_EDITS[name]:  # web/runtime/patch.py
        assert edit.new in shipped and edit.old not in shipped


def test_hashed_names_match_their_content(dist_dir: Path) -> None:
    for path in dist_dir.rglob("*"):
        match = re.fullmatch(r".+\.([0-9a-f]{10})\.[a-z]+", path.name)
        if match:
            assert hashlib.sha256(path.read_bytes()).hexdigest()[:10] == match.group(1), path


def test_manifest_hashes_are_true(dist_dir: Path) -> None:
    files: dict[str, dict[str, object]] = manifest(dist_dir)["files"]
    for name, info in files.items():
        data = (dist_dir / name).read_bytes()
        assert info == {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}, name


def test_compressed_copies_decompress_to_the_originals(dist_dir: Path) -> None:
    originals = [
        p
        for p in dist_dir.rglob("*")
        if p.is_file() and p.suffix in COMPRESSIBLE and p.name != "manifest.json"
    ]
    assert any(p.suffix == ".wasm" for p in originals)
    for path in originals:
        data = path.read_bytes()
        assert brotli.decompress(path.with_name(path.name + ".br").read_bytes()) == data
        assert gzip.decompress(path.with_name(path.name + ".gz").read_bytes()) == data


def test_index_points_at_files_that_exist(dist_dir: Path) -> None:
    html = (dist_dir / "index.html").read_text()
    for ref in re.findall(r'(?:href|src)="(/[^"]+)"', html):
        assert (dist_dir / ref.lstrip("/")).is_file(), ref
    config = json.loads(re.search(r'id="lottery-config"[^>]*>(.+?)</script>', html).group(1))  # type: ignore[union-attr]
    for url in [config["pyodide"]["mjs"], config["pyodide"]["stdlib"], config["game"]["zip"]]:
        assert (dist_dir / url.lstrip("/")).is_file(), url
    for url, size in config["sizes"].items():
        assert (dist_dir / url.lstrip("/")).stat().st_size == size


def test_the_art_ships_one_webp_atlas_a_page_and_ratio(dist_dir: Path) -> None:
    html = (dist_dir / "index.html").read_text()
    config = json.loads(re.search(r'id="lottery-config"[^>]*>(.+?)</script>', html).group(1))  # type: ignore[union-attr]
    assert set(config["art"]) == {"lobby", *(game.id for game in GAMES if game.on_sale)}
    for page, entry in config["art"].items():
        assert set(entry["urls"]) == {"1", "2"} and entry["frames"], page
        for ratio, url in entry["urls"].items():
            assert re.fullmatch(rf"/assets/art/{page}@{ratio}x\.[0-9a-f]{{10}}\.webp", url)
            data = (dist_dir / url.lstrip("/")).read_bytes()
            assert data[:4] == b"RIFF" and data[8:12] == b"WEBP"
            assert len(data) == entry["bytes"][ratio]
    assert not list(dist_dir.glob("assets/**/*.svg"))  # the sources stay at home
    sw = (dist_dir / "sw.js").read_text()
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", sw).group(1))  # type: ignore[union-attr]
    assert not [url for url in precache if url.startswith("/assets/art/")]  # kept when fetched


def test_the_trimmed_stdlib_is_smaller_and_holds_what_the_game_imports(dist_dir: Path) -> None:
    report = manifest(dist_dir)["stdlib"]
    assert isinstance(report, dict)
    assert report["trimmed_br_bytes"] < report["full_br_bytes"] / 2
    html = (dist_dir / "index.html").read_text()
    stdlib = re.search(r'"stdlib":"(/[^"]+)"', html).group(1)  # type: ignore[union-attr]
    with zipfile.ZipFile(dist_dir / stdlib.lstrip("/")) as archive:
        names = set(archive.namelist())
    # Precompiled by Pyodide's own CPython: sourceless .pyc only.
    assert {"json/__init__.pyc", "dataclasses.pyc", "traceback.pyc"} <= names
    assert not any(name.endswith(".py") for name in names)
    assert "tkinter/__init__.pyc" not in names
    # Compiled with optimize=2: no docstrings (json's module docstring is not there).
    with zipfile.ZipFile(dist_dir / stdlib.lstrip("/")) as archive:
        json_pyc = archive.read("json/__init__.pyc")
    assert b"json" in json_pyc and b"JavaScript Object Notation" not in json_pyc


def test_the_stdlib_ships_nothing_the_start_no_longer_imports(dist_dir: Path) -> None:
    stdlib = config_of(dist_dir)["pyodide"]["stdlib"]
    names = zip_names(dist_dir, stdlib)
    # Pyodide's start as the build edits it (web/runtime/patch.py) imports none of these, and
    # neither does the game: asyncio and what it brings, the package loader's archives and
    # paths (the game reads its data with pkgutil.get_data, not importlib.resources).
    gone = ("asyncio/__init__", "ssl", "socket", "subprocess", "selectors", "logging/__init__",
            "concurrent/futures/__init__", "pyodide/webloop", "zipfile/__init__", "shutil",
            "tempfile", "pathlib/__init__", "importlib/resources/__init__",
            # the prize tables ship parsed at build time (tools/build/dist.py, built_table)
            "tomllib/__init__", "tomllib/_parser")  # fmt: skip
    # Frozen modules are built into the interpreter: their files were never read.
    frozen = ("os", "site", "codecs", "io", "zipimport", "importlib/_bootstrap")
    for name in (*gone, *frozen):
        assert name + ".pyc" not in names, name
    assert "_pyodide/_deferred.pyc" in names


def test_one_code_cache_holds_the_start_s_texts_and_the_game_s(dist_dir: Path) -> None:
    # web/runtime/start/sitecustomize.py's cache, beside it in the standard library: the 13
    # texts Pyodide's start compiles and every dataclass of the game (about 50); the build's
    # proof booted from it with none compiled. The game's zips carry no cache of their own.
    report = manifest(dist_dir)["stdlib"]
    assert report["start_code_texts"] > 13 + 40 and report["start_code_bytes"] > 0
    config = config_of(dist_dir)
    assert {"sitecustomize.pyc", START_CODE} <= zip_names(dist_dir, config["pyodide"]["stdlib"])
    for url in [config["game"]["zip"], *(game["zip"] for game in config["game"]["games"])]:
        assert not any(name.endswith(".bin") for name in zip_names(dist_dir, url)), url


def test_the_game_zips_ship_no_sources_and_only_our_class_docstrings(dist_dir: Path) -> None:
    game = config_of(dist_dir)["game"]
    for url in [game["zip"], *(g["zip"] for g in game["games"])]:
        names = zip_names(dist_dir, url)
        assert names and not any(name.endswith(".py") for name in names), url
    # Our own modules are compiled at level 0 (asserts stay) without the docstrings of modules
    # and functions; a class keeps its own (tools/build/docstrings.py).
    with zipfile.ZipFile(dist_dir / game["zip"].lstrip("/")) as archive:
        app = archive.read("engine/ui/app.pyc")
    assert b"Owns the current scene" in app  # class App's
    assert b"The frame loop shared by every backend" not in app  # the module's
    assert b"Ask for a redraw on the next frame." not in app  # App.invalidate's


def test_the_service_worker_precaches_the_release(dist_dir: Path) -> None:
    sw = (dist_dir / "sw.js").read_text()
    assert "{{" not in sw
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", sw).group(1))  # type: ignore[union-attr]
    assert "/offline.html" in precache  # what a visit with no network is shown
    for url in precache:
        assert (dist_dir / url.lstrip("/")).is_file(), url


def test_a_returning_visit_s_runtime_is_pyodide_s_compiled_whole(dist_dir: Path) -> None:
    """The copy a restoring start imports (web/shell/js/runtime.js) is the shipped runtime with
    V8's compile hint as its first line, precached with the throwaway worker that has its code
    kept; the config names both, and the release the service worker's cache is named by."""
    config = config_of(dist_dir)
    runtime = (dist_dir / config["pyodide"]["index"].lstrip("/") / "pyodide.asm.mjs").read_bytes()
    eager = (dist_dir / config["pyodide"]["eager"].lstrip("/")).read_bytes()
    assert eager == EAGER_HINT + runtime
    assert EAGER_HINT.startswith(b"//# allFunctionsCalledOnLoad") and EAGER_HINT.endswith(b"\n")
    helper = (dist_dir / config["runtimeCache"].lstrip("/")).read_text()
    assert "import(data.url)" in helper
    sw = (dist_dir / "sw.js").read_text()
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", sw).group(1))  # type: ignore[union-attr]
    assert {config["pyodide"]["eager"], config["runtimeCache"]} <= set(precache)
    assert f'const CACHE = "lottery-{config["release"]}";' in sw
    assert manifest(dist_dir)["release"] == config["release"]


def test_the_ed25519_fallback_is_its_own_file_and_not_precached(dist_dir: Path) -> None:
    """Only a browser whose WebCrypto has no Ed25519 fetches it (web/shell/js/signature.js)."""
    config = config_of(dist_dir)
    url = config["ed25519"]
    assert re.fullmatch(r"/ed25519\.[0-9a-f]+\.js", url), url
    assert "zip215" in (dist_dir / url.lstrip("/")).read_text()  # @noble/ed25519 is in it
    sw = (dist_dir / "sw.js").read_text()
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", sw).group(1))  # type: ignore[union-attr]
    assert url not in precache
    (page,) = dist_dir.glob("app.*.js")  # neither the page's bundle nor the worker's carries it
    for bundle in (page, dist_dir / config["worker"].lstrip("/")):
        assert "zip215" not in bundle.read_text(), bundle.name


def config_of(dist: Path) -> dict[str, Any]:
    html = (dist / "index.html").read_text()
    found = re.search(r'id="lottery-config"[^>]*>(.+?)</script>', html)
    assert found
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def zip_names(dist: Path, url: str) -> set[str]:
    with zipfile.ZipFile(dist / url.lstrip("/")) as archive:
        return set(archive.namelist())


def compiled(names: list[str]) -> set[str]:
    """The zip's members for these files: each module as its sourceless .pyc."""
    return {name + "c" if name.endswith(".py") else name for name in names}


def test_the_game_zips_are_the_import_closure_precompiled_in_parts(dist_dir: Path) -> None:
    config = config_of(dist_dir)
    game = config["game"]
    parts = zip_parts()
    # The shared zip also carries the dataclasses' code, compiled by the build's probe
    assert zip_names(dist_dir, game["zip"]) == compiled(parts[""])
    assert [g["id"] for g in game["games"]] == [g.id for g in GAMES if g.on_sale]
    for opened in game["games"]:
        assert zip_names(dist_dir, opened["zip"]) == compiled(parts[opened["id"]])
        assert (dist_dir / opened["zip"].lstrip("/")).stat().st_size == opened["bytes"]
        assert opened["packages"] == extended_packages(parts[opened["id"]], parts[""])
    # The page preloads the scripts the worker's start waits on, never a download the worker
    # asks for itself (the WebAssembly, the standard library, the zips): docs/build.md.
    head = (dist_dir / "index.html").read_text().split("lottery-config")[0]
    preloaded = re.findall(r'<link rel="preload" href="([^"]+)" as="(\w+)"', head)
    scripts = [href for href, kind in preloaded if kind == "fetch"]  # app.js takes them up
    assert scripts == [
        config["worker"],
        config["pyodide"]["mjs"],
        config["pyodide"]["index"] + "pyodide.asm.mjs",
    ]
    assert [kind for _, kind in preloaded if kind != "fetch"] == ["font"]


def test_each_game_zip_holds_only_its_own_screens() -> None:
    parts = zip_parts()
    assert sorted(name for names in parts.values() for name in names) == game_zip_names()
    shared = set(parts[""])
    assert set(import_closure(["backends.browser"])) <= shared
    for game in GAMES:
        if not game.presentation:
            continue
        own = parts[game.id]
        assert module_path(game.presentation) in own
        assert all(
            name.startswith((f"engine/ui/{game.package}/", f"engine/{game.package}/"))
            for name in own
        )
        # Everything else the screens import is shared, or the game's own.
        assert set(import_closure([game.presentation])) <= shared | set(own)
        assert f"engine/{game.package}/{BUILT_TABLE_FILE}" in shared
        # Its book builder and replay (engine.game.Lazy) travel in its zip, not the shared one:
        # a page of another game never downloads them
        for part in (game.build_book, game.replay):
            assert isinstance(part, Lazy)
            assert module_path(part.module) in own
            assert set(import_closure([part.module])) <= shared | set(own)
        assert extended_packages(own, parts[""]) == [f"engine.{game.package}", "engine.ui"]


def test_the_game_zip_carries_every_presentation_and_no_tool_of_the_lab() -> None:
    names = set(game_zip_names())
    assert "backends/browser.py" in names
    for game in GAMES:
        if game.presentation:
            assert module_path(game.presentation) in names, game.presentation
        # Named only as strings and imported only by the tools: never in the browser.
        for lab_only in (game.validator, game.statistics, game.examples):
            if lab_only:
                assert module_path(lab_only) not in names, lab_only
        if f"engine/{game.package}/__init__.py" in names:
            assert f"engine/{game.package}/{BUILT_TABLE_FILE}" in names
            assert f"engine/{game.package}/{TABLE_FILE}" not in names
    native = {"backends/native.py", "backends/endpoint_shell.py"}
    native |= {"backends/pygame_backend.py", "backends/pygame_sound.py"}
    assert sorted(names & native) == []
    assert all(name.startswith(("engine/", "backends/")) for name in names)


def test_the_game_zip_carries_no_pool() -> None:
    # Laying out pools and the shuffle are the endpoint's and the tools'. A package __init__.py
    # that imports them (engine/math/__init__.py) ships them: the screens import
    # engine.math.figures and engine.math.table, which run it first. Checking one entry's leaf
    # and Merkle path is the browser's too: VERIFY (engine/ui/scenes/verify.py).
    names = set(game_zip_names())
    pools = {f"engine/math/{name}.py" for name in ("pool", "shuffle")}
    assert sorted(names & pools) == []
    assert {"engine/math/leaves.py", "engine/math/merkle.py"} <= names


def test_the_import_closure_follows_imports_and_packages() -> None:
    # The worker imports the dataclass code cache, then the entry point, then a presentation
    assert game_roots()[:1] == SHARED_ROOTS == ("backends.browser",)
    assert import_closure(["engine.money"]) == ["engine/__init__.py", "engine/money.py"]
    closure = import_closure(["backends.browser"])
    assert {"backends/__init__.py", "backends/canvas.py", "engine/ui/__init__.py"} <= set(closure)
    with pytest.raises(ValueError, match="not a module of"):
        import_closure(["tools.build.dist"])
    with pytest.raises(ValueError, match="no module file"):
        import_closure(["engine.no_such_module"])


def test_a_game_registered_beyond_engine_is_packed_like_the_registry_s_own(
    test_games: tuple[Game, ...],
) -> None:
    """Lucky Dice (tests/fixtures/): its declaration and prize table in the shared zip, its
    screens, book builder and replay in its own, none of its tools' modules, no other test."""
    game = test_games[0]
    assert registered() == (game.home,)  # what the worker registers (the config's register)
    parts = zip_parts()
    home = "tests/fixtures/lucky_dice/"
    declared = ["__init__.py", "rules.py", "compositions.py", BUILT_TABLE_FILE]
    assert {"tests/__init__.py", "tests/fixtures/__init__.py"} <= set(parts[""])
    assert {home + name for name in declared} <= set(parts[""])
    assert {home + "generator.py", home + "replay.py", home + "ui/main.py"} <= set(parts[game.id])
    assert all(name.startswith(home) for name in parts[game.id])
    tests = [name for name in game_zip_names() if name.startswith("tests/")]
    assert all(name.startswith(home) or name.endswith("/__init__.py") for name in tests)
    assert not any(name.endswith(("validator.py", "stats.py", "examples.py")) for name in tests)
    assert extended_packages(parts[game.id], parts[""]) == [game.home]


def test_a_build_of_the_registry_s_own_games_registers_none() -> None:
    assert registered() == ()


# Loads every game's table from a zip of the game's files, as the browser does, and says what
# it read them with.
FROM_ZIP = """
import json, sys
sys.path.insert(0, sys.argv[1])
from engine.games import GAMES
tables = {game.id: game.table.as_json() for game in GAMES}
print(json.dumps({"tomllib": "tomllib" in sys.modules, "file": GAMES[0].rules.__file__,
                  "tables": tables}))
"""


def test_the_prize_tables_ship_parsed_at_build_time(tmp_path: Path) -> None:
    # The .toml in the game's package is the one source: the zips carry it parsed (JSON), so
    # the browser reads its tables without tomllib, which the standard library no longer ships.
    files = game_files()
    for game in GAMES:
        source = (ROOT / "engine" / game.package / TABLE_FILE).read_text(encoding="utf-8")
        assert f"engine/{game.package}/{TABLE_FILE}" not in files
        assert json.loads(files[f"engine/{game.package}/{BUILT_TABLE_FILE}"]) == tomllib.loads(
            source
        )
    archive = tmp_path / "game.zip"
    archive.write_bytes(stored_zip(files))
    done = subprocess.run(
        [sys.executable, "-S", "-c", FROM_ZIP, str(archive)],
        capture_output=True, text=True, check=True, cwd=tmp_path,
    )  # fmt: skip
    read = json.loads(done.stdout)
    assert read["file"].startswith(str(archive)) and read["tomllib"] is False
    assert read["tables"] == {game.id: game.table.as_json() for game in GAMES}
