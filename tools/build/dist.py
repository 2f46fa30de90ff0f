"""Build dist/: the static site a host serves (shell, Pyodide, trimmed stdlib, game zip, assets).

Every text and wasm file is also written as .br and .gz; the shell and the game code get
content-hashed names, Pyodide lives under a versioned folder, and dist/manifest.json
lists every file with its SHA-256 so tests and operators can check a deployment.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tools.build import atlas, webapp
from tools.build.compress import COMPRESSIBLE, compressed, hashed_name, sha256, write_compressed
from tools.build.fonts import copy_fonts, font_faces
from tools.build.probe import (
    GAME_OPTIMIZE,
    STDLIB_OPTIMIZE,
    precompiled,
    probe_game,
    trimmed_stdlib,
)
from tools.build.sources import GAME_PACKAGES, PYODIDE, ROOT, SHELL
from tools.build.zips import (
    BROWSER_ENTRY,
    extended_packages,
    folders,
    game_files,
    registered,
    split_zip,
    stored_zip,
    zip_parts,
)
from web.runtime.patch import JS_EDITS, START_CODE, patched, patched_stdlib

PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
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


def inputs_fingerprint(api_url: str) -> str:
    """A hash of everything a build reads, so an unchanged tree is not rebuilt."""
    from engine.games import GAMES

    digest = hashlib.sha256(api_url.encode())
    sources = [ROOT / "package-lock.json"]
    # with the folders of the games registered beyond engine/ (engine.games.register)
    kept = [f for g in GAMES for f in folders(g) if f.split("/")[0] not in GAME_PACKAGES]
    for folder in ("tools/build", *GAME_PACKAGES, *kept, "web/shell", "web/runtime", "assets"):
        sources += sorted(p for p in (ROOT / folder).rglob("*") if p.is_file())
    for path in sources:
        if "__pycache__" in path.parts or not path.exists():
            continue
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def write_art(folder: Path) -> dict[str, dict[str, object]]:
    """The atlases of assets/ (tools/build/atlas.py) as hashed files; each page's frames, URLs
    and bytes."""
    folder.mkdir(parents=True)
    config: dict[str, dict[str, object]] = {}
    for page in atlas.build():
        urls: dict[str, str] = {}
        for ratio, data in page.webp.items():
            name = hashed_name(f"{page.page}@{ratio}x.webp", data)
            (folder / name).write_bytes(data)
            urls[str(ratio)] = f"/assets/art/{name}"
        sizes = {str(ratio): len(data) for ratio, data in page.webp.items()}
        config[page.page] = {"frames": page.frames, "urls": urls, "bytes": sizes}
    return config


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
        # Pyodide's JavaScript with the edits to its start (web/runtime/patch.py)
        data = patched(name) if name in JS_EDITS else (PYODIDE / name).read_bytes()
        if name.endswith(".mjs"):  # no map is shipped: do not send DevTools after one (a 404)
            data = SOURCE_MAP_COMMENT.sub(b"\n", data)
        (pyo_dir / name).write_bytes(data)
        if name == "pyodide.asm.mjs":
            (pyo_dir / EAGER_RUNTIME).write_bytes(EAGER_HINT + data)

    (out / "py").mkdir()
    # Compiled and probed whole (every game's modules), then shipped in parts: the shared zip
    # and one per game, so a visit downloads only the game it opens (zip_parts).
    # Without our modules' and functions' docstrings and functions' annotations, which nothing
    # in the browser reads (tools/build/stripped.py)
    whole = precompiled(stored_zip(game_files()), out, optimize=GAME_OPTIMIZE, stripped=True)
    probe_zip = out / "probe-game.zip"
    probe_zip.write_bytes(whole)
    # Pyodide's standard library with the edits to its start (web/runtime/patch.py): the game
    # is probed on it, and the shipped one trimmed from it.
    edited_stdlib = patched_stdlib()
    patched_zip = out / "probe-stdlib.zip"
    patched_zip.write_bytes(stored_zip(edited_stdlib))
    start_file = out / "probe-start-code.bin"
    register = registered()  # the games the worker registers (the config's game.register)
    loaded = probe_game(probe_zip, patched_zip, start_out=start_file, register=register)["loaded"]
    patched_zip.unlink()
    # with the one code cache (web/runtime/start/sitecustomize.py): the code of every text the
    # start and the game compile (named tuples, dataclasses), recorded by the probe
    start_code = start_file.read_bytes()
    start_file.unlink()
    trimmed = {**trimmed_stdlib(loaded, edited_stdlib), START_CODE: start_code}
    stdlib = precompiled(stored_zip(trimmed), out, optimize=STDLIB_OPTIMIZE)
    stdlib_name = hashed_name("stdlib.zip", stdlib)
    (pyo_dir / stdlib_name).write_bytes(stdlib)
    # Proof that the trimmed stdlib suffices and its code cache holds every text compiled
    proof = probe_game(probe_zip, pyo_dir / stdlib_name, register=register)
    probe_zip.unlink()
    if proof["start_misses"] or not proof["start_texts"]:
        raise RuntimeError(f"the code cache missed {proof['start_misses']} texts")
    zips: dict[str, str] = {}
    parts = zip_parts()
    split = split_zip(whole, parts)
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
    art = write_art(out / "assets" / "art")
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
            # the packages of the games registered beyond the registry's own, when there are
            # any: the worker registers them (engine.games.register) before it imports the game
            **({"register": list(register)} if register else {}),
        },
        "worker": f"/{worker_name}",
        "runtimeCache": f"/{runtime_cache_name}",
        "ed25519": f"/{ed25519_name}",
        "fonts": font_faces(critical_css),
        "art": art,
        "sizes": sizes,
        "serviceWorker": "/sw.js",
    }
    template = (SHELL / "index.html").read_text()
    replacements = {
        "{{CRITICAL_CSS}}": critical_css,
        "{{APP_JS}}": f"/{js_name}",
        "{{MANIFEST}}": app_manifest,
        # The scripts the worker's start waits on, one after the other (the worker's module,
        # Pyodide's loader, its runtime), fetched while the HTML is parsed. Not the big
        # downloads the worker asks for once Pyodide's loader runs (the WebAssembly, the
        # standard library, the zips): preloaded, they slowed the page's own scripts from the
        # local server by about 70 ms and gained nothing over a 60-150 ms round-trip network
        # (docs/changelog.md).
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

    # Not the art's atlases: a visit needs one page's at one ratio, which the service worker
    # keeps when it is fetched (the others would cost a phone some 230 kB it never draws).
    precache = sorted(
        "/" + p.relative_to(out).as_posix()
        for p in out.rglob("*")
        if p.is_file()
        and p.name not in ("index.html", ed25519_name)
        and not p.is_relative_to(out / "assets" / "art")
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
        # web/runtime/start/sitecustomize.py: the code cache, the texts the start and the game
        # compile (named tuples, dataclasses) and its bytes
        "start_code_texts": proof["start_texts"],
        "start_code_bytes": len(start_code),
    }
    (out / "manifest.json").write_text(
        json.dumps({"release": release, "files": manifest, "stdlib": stdlib_report}, indent=1)
    )
    stamp_file.write_text(stamp)
    return DistResult(out, manifest, stdlib_report)
