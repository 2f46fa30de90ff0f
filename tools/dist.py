"""Build dist/: the static site a host serves (shell, Pyodide, trimmed stdlib, game zip, assets).

Every text and wasm file is also written as .br and .gz; the shell and the game code get
content-hashed names, Pyodide lives under a versioned folder, and dist/manifest.json
lists every file with its SHA-256 so tests and operators can check a deployment.
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import json
import re
import shutil
import subprocess
import tomllib
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

import brotli

from backends.codecache import CACHE_FILE
from engine.game import BUILT_TABLE_FILE, TABLE_FILE
from engine.ui.presentation import EXPORTS
from tools import webapp
from tools.pyodide_patch import JS_EDITS, START_CODE, patched, patched_stdlib

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ROOT / "node_modules" / "pyodide"
SHELL = ROOT / "web" / "shell"
CACHE = ROOT / ".cache" / "compress"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
# Web fonts (SIL Open Font License) from the @fontsource packages pinned in package.json.
FONTS = {
    "fredoka": ("fredoka-latin-700-normal.woff2",),
    "nunito": ("nunito-latin-400-normal.woff2", "nunito-latin-700-normal.woff2"),
}
COMPRESSIBLE = {
    *(".html", ".js", ".mjs", ".css", ".json", ".svg", ".wasm", ".zip", ".txt", ".woff"),
    ".webmanifest",
}
GAME_PACKAGES = ("engine", "backends")  # the packages the game zip takes its modules from
BROWSER_ENTRY = "backends.browser"
CODE_CACHE = f"backends/{CACHE_FILE}"  # the dataclass code (backends/codecache.py), shared zip
# What the worker imports by name before the game: the shared zip's roots, with BROWSER_ENTRY
SHARED_ROOTS = ("backends.codecache", BROWSER_ENTRY)
SOURCE_MAP_COMMENT = re.compile(rb"\n//# sourceMappingURL=[^\n]*\n?$")
# The runtime a returning visit starts from (web/shell/js/runtime.js): Pyodide's, its first line
# V8's explicit compile hint, which has Chromium compile every function of it at once, so that
# the code Chromium keeps beside the release's cached copy holds them all.
EAGER_RUNTIME = "pyodide.asm.eager.mjs"
EAGER_HINT = b"//# allFunctionsCalledOnLoad\n"


@dataclass(frozen=True)
class DistResult:
    """What a build produced: the folder and its manifest."""

    out: Path
    manifest: dict[str, dict[str, object]]
    stdlib: dict[str, int]


def sha256(data: bytes) -> str:
    """Hex SHA-256 of data."""
    return hashlib.sha256(data).hexdigest()


def hashed_name(name: str, data: bytes) -> str:
    """name.ext -> name.<first 10 hex of sha256>.ext."""
    stem, dot, ext = name.rpartition(".")
    return f"{stem}.{sha256(data)[:10]}{dot}{ext}"


def stored_zip(files: dict[str, bytes]) -> bytes:
    """A zip with uncompressed members (brotli over the whole archive compresses better)."""
    buffer = BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name])
    return buffer.getvalue()


def module_path(name: str) -> str | None:
    """The file of a dotted module of GAME_PACKAGES (relative to ROOT), or None for any other."""
    if name.split(".")[0] not in GAME_PACKAGES:
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
    """The files (relative to ROOT) of the modules of GAME_PACKAGES that importing roots can
    import: followed statically (ast) through every import statement, with each module's
    parent packages (their __init__.py runs first). Other modules (the standard library) are
    left out; a root, or a module imported by name, of GAME_PACKAGES that has no file is a
    ValueError."""
    seen: dict[str, str] = {}
    todo = [(root, True, "the roots") for root in roots]
    while todo:
        name, required, importer = todo.pop()
        parts = name.split(".")
        if parts[0] not in GAME_PACKAGES:
            if importer == "the roots":
                raise ValueError(f"{name} is not a module of {', '.join(GAME_PACKAGES)}")
            continue
        for depth in range(1, len(parts) + 1):
            module = ".".join(parts[:depth])
            rel = seen.get(module) or module_path(module)
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


def game_roots() -> tuple[str, ...]:
    """What the browser imports by name: SHARED_ROOTS (the dataclass code cache and the entry
    point), and of every registered game with screens its presentation and its lazily imported
    parts (the book builder and the replay: engine.game.Lazy), which only the registry names."""
    from engine.games import GAMES

    named: list[str] = []
    for game in GAMES:
        if game.presentation:
            # the UI package, and the modules its exports are imported from when first read
            exported = [f"{game.presentation}.{module}" for module in EXPORTS.values()]
            named += [game.presentation, *exported, *game.lazy_modules()]
    return (*SHARED_ROOTS, *dict.fromkeys(named))


def game_zip_names() -> list[str]:
    """Every file of the browser's game zip (before compiling): the static import closure of
    game_roots() (relative to ROOT), plus the prize table, as the build parses it
    (built_table), of each registered game whose package the closure holds."""
    from engine.games import GAMES

    modules = import_closure(game_roots())
    tables = [
        f"engine/{game.package}/{BUILT_TABLE_FILE}"
        for game in GAMES
        if f"engine/{game.package}/__init__.py" in modules
    ]
    return sorted([*modules, *tables])


def built_table(name: str) -> bytes:
    """A game's prize table (engine/<package>/prize-table.toml, the one source) parsed at build
    time into JSON, so the browser reads it without a TOML parser (engine.math.table.load); the
    standard library then ships no tomllib."""
    source = ROOT / name.removesuffix(BUILT_TABLE_FILE) / TABLE_FILE
    return json.dumps(tomllib.loads(source.read_text(encoding="utf-8")), sort_keys=True).encode()


def game_files() -> dict[str, bytes]:
    """The game zip's files by zip path (see game_zip_names)."""
    return {
        name: built_table(name) if name.endswith(BUILT_TABLE_FILE) else (ROOT / name).read_bytes()
        for name in game_zip_names()
    }


def zip_parts() -> dict[str, list[str]]:
    """game_zip_names() split into the zips the browser fetches: "" for the shared zip (what
    importing SHARED_ROOTS imports: the code cache, the engine core, the registry with every
    game's declaration, the shared screens and backends, and the prize tables; build() adds
    the dataclass code), and one per game on sale with a presentation (by id): the files of
    its packages (engine/ui/<package>/, and engine/<package>/ modules only it imports: its
    book builder, replay and what its screens import) that the shared zip does not hold.
    The worker fetches the shared zip and the opened game's only."""
    from engine.games import GAMES

    names = game_zip_names()
    shared = set(import_closure(SHARED_ROOTS))
    parts: dict[str, list[str]] = {"": []}
    owner: dict[str, str] = {}
    for game in GAMES:
        if not game.presentation:
            continue
        parts[game.id] = []
        for prefix in (f"engine/ui/{game.package}/", f"engine/{game.package}/"):
            owner[prefix] = game.id
    for name in names:
        game_id = next((g for prefix, g in owner.items() if name.startswith(prefix)), "")
        if name in shared or name.endswith(BUILT_TABLE_FILE):
            game_id = ""
        parts[game_id].append(name)
    return parts


def extended_packages(names: list[str], shared: list[str]) -> list[str]:
    """The packages of the shared zip that a game's zip adds files to (engine.ui gets the
    game's screens): the worker extends their __path__ with the game zip's folder, since a
    package imported from one zip looks for its submodules in that zip alone."""
    packages = set()
    for name in names:
        folder = name.rpartition("/")[0]
        while folder and f"{folder}/__init__.py" not in shared:
            folder = folder.rpartition("/")[0]
        if folder:
            packages.add(folder.replace("/", "."))
    return sorted(packages)


def split_zip(compiled: bytes, parts: dict[str, list[str]]) -> dict[str, bytes]:
    """The compiled game zip cut into parts (each name with its .pyc)."""
    with zipfile.ZipFile(BytesIO(compiled)) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    out: dict[str, bytes] = {}
    for part, names in parts.items():
        wanted = {*names, *(name + "c" for name in names if name.endswith(".py"))}
        out[part] = stored_zip({name: data for name, data in members.items() if name in wanted})
    taken = sum(len(names) for names in parts.values())
    if taken != len(game_zip_names()):
        raise RuntimeError("the game zip's parts do not add up to the whole")
    return out


def pyodide_tool(*args: str) -> str:
    """Run tools/pyodide_tool.mjs (Pyodide in Node.js) and return what it printed."""
    cmd = ["node", str(ROOT / "tools" / "pyodide_tool.mjs"), *args]
    result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    if result.returncode != 0:  # its stderr is the error's message: a Python traceback
        tail = [line[:500] for line in result.stderr.strip().splitlines()[-40:]]
        raise RuntimeError(f"pyodide_tool {args[0]} failed:\n" + "\n".join(tail))
    return result.stdout


def probe_game(
    game_zip: Path,
    stdlib_zip: Path | None = None,
    code_out: Path | None = None,
    start_out: Path | None = None,
) -> dict[str, Any]:
    """Boot Pyodide in Node.js with the game and run it: {"loaded": the stdlib files Python
    loaded, "hits"/"misses": its dataclasses compiled from the zip's cache or not,
    "start_misses": the texts Python's start compiled that the stdlib's cache lacked}. With
    code_out, record every dataclass's code into that file (backends/codecache.py), and with
    start_out too, the code of the start's texts (tools/pyodide_start/sitecustomize.py)."""
    args = [str(game_zip), str(stdlib_zip) if stdlib_zip is not None else "-"]
    if code_out is not None:
        args.append(str(code_out))
        if start_out is not None:
            args.append(str(start_out))
    out = pyodide_tool("probe", *args)
    found: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return found


def with_member(zip_bytes: bytes, name: str, data: bytes) -> bytes:
    """The stored zip with one more member."""
    with zipfile.ZipFile(BytesIO(zip_bytes)) as archive:
        members = {member: archive.read(member) for member in archive.namelist()}
    return stored_zip({**members, name: data})


def bundled_shell(entry: str = "app.js") -> bytes:
    """A shell entry (web/shell/app.js, the page's; worker.js, the worker's) and the modules it
    imports (web/shell/js/), as one ES module (esbuild)."""
    esbuild = ROOT / "node_modules" / ".bin" / "esbuild"
    flags = ["--charset=utf8", "--log-level=warning"]  # keep "…" as it is; say only what is wrong
    done = subprocess.run(
        [esbuild, SHELL / entry, "--bundle", "--format=esm", "--target=es2022", *flags],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError("esbuild could not bundle the shell:\n" + done.stderr.decode())
    return done.stdout


STDLIB_OPTIMIZE = 2  # the standard library's level (nothing we run needs its docstrings)
GAME_OPTIMIZE = 0  # ours: our asserts and docstrings stay


def precompiled(zip_bytes: bytes, work: Path, *, optimize: int) -> bytes:
    """The zip with every .py byte-compiled by Pyodide's own CPython (saves boot time), as
    sourceless .pyc at the optimisation level `optimize`, without column ranges
    (tools/pyodide_tool.mjs compile)."""
    source, target = work / "source.zip", work / "compiled.zip"
    source.write_bytes(zip_bytes)
    pyodide_tool("compile", str(source), str(target), str(optimize))
    data = target.read_bytes()
    source.unlink()
    target.unlink()
    return data


def trimmed_stdlib(loaded: list[str], full: dict[str, bytes]) -> dict[str, bytes]:
    """The standard library's files `full` (name -> bytes: python_stdlib.zip with the start's
    edits, tools/pyodide_patch.py) cut down to the loaded modules (and their packages'
    __init__)."""
    prefix = "/lib/python314.zip/"
    wanted = {path[len(prefix) :] for path in loaded if path.startswith(prefix)}
    missing = wanted - set(full)
    if missing:
        raise RuntimeError(f"probe saw files the stdlib zip lacks: {sorted(missing)[:5]}")
    return {name: full[name] for name in wanted}


def compressed(data: bytes, kind: str) -> bytes:
    """Brotli (quality 11) or gzip (level 9) of data, cached by content under .cache/."""
    cache = CACHE / f"{sha256(data)}.{kind}"
    if cache.exists():
        return cache.read_bytes()
    packed = brotli.compress(data, quality=11) if kind == "br" else gzip.compress(data, 9, mtime=0)
    CACHE.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(packed)
    return packed


def write_compressed(path: Path) -> None:
    """Write path.br and path.gz beside a text or wasm file."""
    data = path.read_bytes()
    for kind in ("br", "gz"):
        path.with_name(f"{path.name}.{kind}").write_bytes(compressed(data, kind))


def inputs_fingerprint(api_url: str) -> str:
    """A hash of everything a build reads, so an unchanged tree is not rebuilt."""
    digest = hashlib.sha256(api_url.encode())
    sources = [ROOT / "package-lock.json", Path(__file__), ROOT / "tools" / "pyodide_tool.mjs"]
    sources += [ROOT / "tools" / "pyodide_patch.py", ROOT / "tools" / "webapp.py"]
    for folder in (*GAME_PACKAGES, "web/shell", "assets", "tools/pyodide_start"):
        sources += sorted(p for p in (ROOT / folder).rglob("*") if p.is_file())
    for path in sources:
        if "__pycache__" in path.parts or not path.exists():
            continue
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


FONT_FACE = re.compile(
    r'@font-face\{font-family:"(?P<family>[^"]+)";font-weight:(?P<weight>\d+);[^}]*'
    r'src:url\("(?P<url>[^"]+)"\)'
)


def font_faces(css: str) -> list[dict[str, str | int]]:
    """The @font-face rules of the inline CSS, for the worker (a worker has its own font set)."""
    faces: list[dict[str, str | int]] = [
        {"family": m["family"], "weight": int(m["weight"]), "url": m["url"]}
        for m in FONT_FACE.finditer(css)
    ]
    if not faces:
        raise RuntimeError("critical.css declares no @font-face the worker could load")
    return faces


def copy_fonts(target: Path) -> None:
    """The web fonts critical.css names, with each family's licence, from their npm packages."""
    target.mkdir(parents=True, exist_ok=True)
    for package, files in FONTS.items():
        source = ROOT / "node_modules" / "@fontsource" / package
        for name in files:
            shutil.copyfile(source / "files" / name, target / name)
        shutil.copyfile(source / "LICENSE", target / f"{package}-LICENSE.txt")


def build(out: Path, api_url: str = "") -> DistResult:
    """Build the static site into out (replacing it) and return its manifest.

    When out already holds a build of the same inputs, it is kept as it is.
    """
    stamp = inputs_fingerprint(api_url)
    stamp_file = out / ".build-stamp"
    manifest_file = out / "manifest.json"
    if stamp_file.exists() and stamp_file.read_text() == stamp:
        kept = json.loads(manifest_file.read_text())
        return DistResult(out, kept["files"], kept["stdlib"])
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    lock_info = json.loads((PYODIDE / "pyodide-lock.json").read_text())["info"]
    version = json.loads((PYODIDE / "package.json").read_text())["version"]
    pyo_dir = out / "pyodide" / version
    pyo_dir.mkdir(parents=True)
    for name in PYODIDE_FILES:
        # Pyodide's JavaScript with the edits to its start (tools/pyodide_patch.py)
        data = patched(name) if name in JS_EDITS else (PYODIDE / name).read_bytes()
        if name.endswith(".mjs"):  # no map is shipped: do not send DevTools after one (a 404)
            data = SOURCE_MAP_COMMENT.sub(b"\n", data)
        (pyo_dir / name).write_bytes(data)
        if name == "pyodide.asm.mjs":
            (pyo_dir / EAGER_RUNTIME).write_bytes(EAGER_HINT + data)

    (out / "py").mkdir()
    # Compiled and probed whole (every game's modules), then shipped in parts: the shared zip
    # and one per game, so a visit downloads only the game it opens (zip_parts).
    whole = precompiled(stored_zip(game_files()), out, optimize=GAME_OPTIMIZE)
    probe_zip = out / "probe-game.zip"
    probe_zip.write_bytes(whole)
    code_file = out / "probe-code.bin"
    # Pyodide's standard library with the edits to its start (tools/pyodide_patch.py): the game
    # is probed on it, and the shipped one trimmed from it.
    edited_stdlib = patched_stdlib()
    patched_zip = out / "probe-stdlib.zip"
    patched_zip.write_bytes(stored_zip(edited_stdlib))
    start_file = out / "probe-start-code.bin"
    loaded = probe_game(probe_zip, patched_zip, code_out=code_file, start_out=start_file)["loaded"]
    patched_zip.unlink()
    # with the code of the texts the start compiles (sitecustomize), recorded by the probe
    start_code = start_file.read_bytes()
    start_file.unlink()
    trimmed = {**trimmed_stdlib(loaded, edited_stdlib), START_CODE: start_code}
    stdlib = precompiled(stored_zip(trimmed), out, optimize=STDLIB_OPTIMIZE)
    stdlib_name = hashed_name("stdlib.zip", stdlib)
    (pyo_dir / stdlib_name).write_bytes(stdlib)
    # The dataclasses' code, compiled in the probe, goes in the shared zip (backends/codecache)
    code = code_file.read_bytes()
    code_file.unlink()
    probe_zip.write_bytes(with_member(whole, CODE_CACHE, code))
    # Proof that the trimmed stdlib suffices and the cache holds every dataclass
    proof = probe_game(probe_zip, pyo_dir / stdlib_name)
    probe_zip.unlink()
    if proof["misses"] or not proof["hits"]:
        raise RuntimeError(f"the dataclass code cache missed {proof['misses']} classes")
    if proof["start_misses"]:
        raise RuntimeError(f"the start's code cache missed {proof['start_misses']} texts")
    zips: dict[str, str] = {}
    parts = zip_parts()
    split = split_zip(whole, parts)
    split[""] = with_member(split[""], CODE_CACHE, code)
    for part, data in split.items():
        zips[part] = hashed_name(f"{part or 'game'}.zip", data)
        (out / "py" / zips[part]).write_bytes(data)
    game_name = zips.pop("")
    from engine.games import get as games_get
    from engine.games import on_sale as games_on_sale

    on_sale = [game.id for game in games_on_sale()]  # the config lists these, in this order
    game = (out / "py" / game_name).read_bytes()

    js = bundled_shell()
    js_name = hashed_name("app.js", js)
    (out / js_name).write_bytes(js)
    worker = bundled_shell("worker.js")
    worker_name = hashed_name("worker.js", worker)
    (out / worker_name).write_bytes(worker)
    runtime_cache = bundled_shell("runtime-cache.js")
    runtime_cache_name = hashed_name("runtime-cache.js", runtime_cache)
    (out / runtime_cache_name).write_bytes(runtime_cache)
    # The Ed25519 fallback (web/shell/js/signature.js): its own file, fetched only by a browser
    # whose WebCrypto has no Ed25519, so it is not precached either.
    ed25519 = bundled_shell("ed25519.js")
    ed25519_name = hashed_name("ed25519.js", ed25519)
    (out / ed25519_name).write_bytes(ed25519)
    critical_css = (SHELL / "critical.css").read_text().strip()
    shutil.copyfile(SHELL / "favicon.svg", out / "favicon.svg")
    app_manifest = webapp.write(out, hashed_name)
    assets = ROOT / "assets"
    if assets.is_dir() and any(assets.iterdir()):
        shutil.copytree(assets, out / "assets")
    copy_fonts(out / "assets" / "fonts")

    base = f"/pyodide/{version}/"
    wasm_url = f"{base}pyodide.asm.wasm"
    sizes = {
        wasm_url: (pyo_dir / "pyodide.asm.wasm").stat().st_size,
        f"{base}{stdlib_name}": len(stdlib),
        f"/py/{game_name}": len(game),
    }
    config: dict[str, object] = {
        "api": api_url.rstrip("/"),
        "pyodide": {
            "index": base,
            "mjs": f"{base}pyodide.mjs",
            "eager": f"{base}{EAGER_RUNTIME}",
            "wasm": wasm_url,
            "stdlib": f"{base}{stdlib_name}",
            "lockInfo": lock_info,
        },
        # The shared zip, and each game's own (in the order of the games on sale: the first
        # opens when the page names none); the worker fetches the shared one and the opened
        # game's.
        "game": {
            "zip": f"/py/{game_name}",
            "module": BROWSER_ENTRY,
            "games": [
                {
                    "id": part,
                    "name": games_get(part).name,  # the page's title until Python draws
                    "zip": f"/py/{zips[part]}",
                    "bytes": (out / "py" / zips[part]).stat().st_size,
                    "packages": extended_packages(parts[part], parts[""]),
                }
                for part in on_sale
                if part in zips
            ],
        },
        "worker": f"/{worker_name}",
        "runtimeCache": f"/{runtime_cache_name}",
        "ed25519": f"/{ed25519_name}",
        "fonts": font_faces(critical_css),
        "sizes": sizes,
        "serviceWorker": "/sw.js",
    }
    template = (SHELL / "index.html").read_text()
    replacements = {
        "{{CRITICAL_CSS}}": critical_css,
        "{{APP_JS}}": f"/{js_name}",
        "{{MANIFEST}}": app_manifest,
        # The scripts the worker's start waits on, one after the other (the worker's module,
        # Pyodide's loader, its runtime), fetched while the HTML is parsed: `as="fetch"`, taken
        # up by app.js's own fetch of each (a preload only the worker asks for again is never
        # "used": Chromium warned of each, every page load), the worker's then served from the
        # HTTP cache. Not the big
        # downloads the worker asks for once Pyodide's loader runs (the WebAssembly, the
        # standard library, the zips): preloaded, they slowed the page's own scripts from the
        # local server by about 70 ms and gained nothing over a 60-150 ms round-trip network
        # (docs/build-history.md).
        "{{PRELOADS}}": "\n".join(
            f'<link rel="preload" href="{url}" as="fetch" crossorigin>'
            for url in (f"/{worker_name}", f"{base}pyodide.mjs", f"{base}pyodide.asm.mjs")
        ),
    }
    for key, value in replacements.items():
        template = template.replace(key, value)

    def page(config: dict[str, object]) -> str:
        """index.html with this config."""
        text = json.dumps(config, separators=(",", ":")).replace("</", "<\\/")
        return template.replace("{{CONFIG}}", text)

    precache = sorted(
        "/" + p.relative_to(out).as_posix()
        for p in out.rglob("*")
        if p.is_file() and p.name not in ("index.html", ed25519_name)
    )
    # The release: its files and its page. The page's config names it (what the shell keeps
    # for one release, js/runtime.js, is keyed by it).
    release = sha256("\n".join(precache).encode() + page(config).encode())[:12]
    config["release"] = release
    html = page(config)
    (out / "index.html").write_text(html)
    sw = (SHELL / "sw.js").read_text()
    sw = sw.replace("{{VERSION}}", release).replace('["{{PRECACHE}}"]', json.dumps(precache))
    (out / "sw.js").write_text(sw)

    for path in sorted(out.rglob("*")):
        if path.is_file() and path.suffix in COMPRESSIBLE:
            write_compressed(path)
    manifest: dict[str, dict[str, object]] = {}
    for path in sorted(out.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            manifest[path.relative_to(out).as_posix()] = {
                "bytes": len(data),
                "sha256": sha256(data),
            }
    full_stdlib = PYODIDE / "python_stdlib.zip"
    stdlib_report = {
        "full_bytes": full_stdlib.stat().st_size,
        "full_br_bytes": len(compressed(full_stdlib.read_bytes(), "br")),
        "trimmed_bytes": len(stdlib),
        "trimmed_br_bytes": (pyo_dir / (stdlib_name + ".br")).stat().st_size,
        "modules": sum(1 for p in loaded if p.startswith("/lib/python314.zip/")),
        "precompiled": 1,
        # backends/codecache.py: the dataclasses compiled at build time, and the cache's bytes
        "dataclasses_precompiled": proof["hits"],
        "dataclass_code_bytes": len(code),
        # tools/pyodide_start/sitecustomize.py: the code of the texts the start compiles
        "start_code_bytes": len(start_code),
    }
    (out / "manifest.json").write_text(
        json.dumps({"release": release, "files": manifest, "stdlib": stdlib_report}, indent=1)
    )
    stamp_file.write_text(stamp)
    return DistResult(out, manifest, stdlib_report)
