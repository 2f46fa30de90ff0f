"""The changes this build makes to Pyodide's start (docs/build.md).

Pyodide's bootstrap is Python files in its python_stdlib.zip (`_pyodide`, `pyodide`), which the
build already trims and precompiles; `patched_stdlib()` is that zip with the edits below, from
which the build probes the game and trims. `patched(name)` is one of Pyodide's JavaScript
files (`pyodide.mjs`, its loader; `pyodide.asm.mjs`, its runtime) with its JS_EDITS: the build
ships it in place of Pyodide's. Each edit names the file's SHA-256 in the Pyodide release it was
checked against, and the text it replaces, so an upgrade of Pyodide in package.json stops the
build (and tests/test_runtime_patch.py fails) until the edits are checked again against the new
files and re-pinned here.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "node_modules" / "pyodide"
PYODIDE_VERSION = "314.0.7"  # the release the edits were checked against (package.json's)
START = Path(__file__).resolve().parent / "start"
LOADER = "66bc0d856252e3c3690a9c9cc2f73a4e88d7a9cc5beafa712194cadda4eb2b70"  # its SHA-256
BASE = "15e663381565c1df6cb56d7535856e9082c08094942bd81bb7c15ef61f189399"  # _pyodide/_base.py's


@dataclass(frozen=True)
class Edit:
    """Replace `old` (found exactly once) by `new` in the stdlib file `path`, whose SHA-256 in
    PYODIDE_VERSION is `sha256`."""

    path: str
    sha256: str
    old: str
    new: str


EDITS = (
    # Before anything of Pyodide's imports asyncio: its C core (imported right after this
    # package) keeps a stand-in, loaded on first use (web/runtime/start/_deferred.py).
    Edit(
        "_pyodide/__init__.py",
        "de655c1598120f699d84a90a4d88ff1cc372e8d9fc14d5b66d505b80414857ca",
        "from . import _base, _importhook\n",
        "from . import _deferred\n\n_deferred.install()\n\nfrom . import _base, _importhook\n",
    ),
    # `pyodide` installed its event loop (importing asyncio) at import: now on asyncio's first use.
    Edit(
        "pyodide/__init__.py",
        "a02eabaa00ee98a4108082fc751808ff71e7d990fe889852f63d13621934e0ac",
        "from .webloop import _initialize_event_loop\n\n_initialize_event_loop()\n"
        "del _initialize_event_loop\n",
        "from _pyodide._deferred import defer_event_loop\n\ndefer_event_loop()\n"
        "del defer_event_loop\n",
    ),
    # The package loader, which the JavaScript half imports at start for str(SITE_PACKAGES) and
    # str(DSO_DIR), reads shutil, tempfile, zipfile, pathlib and pyodide.common (shutil again)
    # when it loads a package; our games load none. `.whl` is registered with shutil when the
    # loader first reads shutil; the two paths are pathlib.Path when used as more than strings.
    Edit(
        "pyodide/_package_loader.py",
        LOADER,
        "import shutil\n",
        "from _pyodide._deferred import Deferred\n",
    ),
    Edit(
        "pyodide/_package_loader.py",
        LOADER,
        "from tempfile import NamedTemporaryFile\n",
        "",
    ),
    Edit("pyodide/_package_loader.py", LOADER, "from zipfile import ZipFile\n", ""),
    Edit(
        "pyodide/_package_loader.py",
        LOADER,
        "from pathlib import Path\n",
        "from _pyodide._deferred import DeferredPath\n",
    ),
    Edit(
        "pyodide/_package_loader.py",
        LOADER,
        "SITE_PACKAGES = Path(getsitepackages()[0])\n",
        "SITE_PACKAGES = DeferredPath(getsitepackages()[0])\n",
    ),
    Edit(
        "pyodide/_package_loader.py",
        LOADER,
        '    DSO_DIR = Path("/usr/lib")\n',
        '    DSO_DIR = DeferredPath("/usr/lib")\n',
    ),
    Edit("pyodide/_package_loader.py", LOADER, "from .common import install_files\n", ""),
    Edit(
        "pyodide/_package_loader.py",
        LOADER,
        "if IN_PYODIDE:\n    shutil.register_archive_format(",
        "def _register_wheel_format(shutil: Any) -> None:\n"
        "    if not IN_PYODIDE:\n        return\n"
        "    shutil.register_archive_format(",
    ),
    Edit(
        "pyodide/_package_loader.py",
        LOADER,
        "\n\ndef get_format(format: str) -> str:\n",
        '\n\nshutil = Deferred("shutil", then=_register_wheel_format)\n\n\n'
        "def NamedTemporaryFile(*args: Any, **kwargs: Any) -> Any:\n"
        "    from tempfile import NamedTemporaryFile\n\n"
        "    return NamedTemporaryFile(*args, **kwargs)\n\n\n"
        "def ZipFile(*args: Any, **kwargs: Any) -> Any:\n"
        "    from zipfile import ZipFile\n\n"
        "    return ZipFile(*args, **kwargs)\n\n\n"
        "def Path(*args: Any) -> Any:\n"
        "    from pathlib import Path\n\n"
        "    return Path(*args)\n\n\n"
        "def install_files(*args: Any, **kwargs: Any) -> None:\n"
        "    from .common import install_files\n\n"
        "    install_files(*args, **kwargs)\n\n\n"
        "def get_format(format: str) -> str:\n",
    ),
    # Called as Pyodide starts: the site-packages folder listed without pathlib (no package is
    # installed in it, so pathlib is not needed unless one is).
    Edit(
        "pyodide/_package_loader.py",
        LOADER,
        '    for dist_path in SITE_PACKAGES.glob("*.dist-info"):\n',
        "    import os\n\n"
        "    try:\n        names = sorted(os.listdir(SITE_PACKAGES))\n"
        "    except FileNotFoundError:\n        names = []\n"
        "    infos = [n for n in names if n.endswith('.dist-info') and not n.startswith('.')]\n"
        "    for dist_path in [SITE_PACKAGES / name for name in infos]:\n",
    ),
    # `_pyodide._base` parsed a template for `eval_code` as it was imported, which compiled
    # Python's parser from WebAssembly in every start: now on eval_code's first use. Nothing is
    # compiled before a page's first frame (docs/build.md).
    Edit(
        "_pyodide/_base.py",
        BASE,
        '_raise_template_ast = ast.parse("raise ___EvalCodeResultException[0](x)").body[0]\n',
        "_raise_template_ast: ast.stmt | None = None  # parsed on first use\n\n\n"
        "def _raise_template() -> ast.stmt:\n"
        "    global _raise_template_ast\n"
        "    if _raise_template_ast is None:\n"
        "        _raise_template_ast = "
        'ast.parse("raise ___EvalCodeResultException[0](x)").body[0]\n'
        "    return _raise_template_ast\n",
    ),
    Edit(
        "_pyodide/_base.py",
        BASE,
        "    raise_expr = deepcopy(_raise_template_ast)\n",
        "    raise_expr = deepcopy(_raise_template())\n",
    ),
)
# Files the patched start imports that Pyodide does not have: stdlib path -> our source.
ADDED = {
    "_pyodide/_deferred.py": START / "_deferred.py",
    "sitecustomize.py": START / "sitecustomize.py",  # imported by `site` as Python starts
}
# The code of the texts the start compiles, recorded by the build's probe: sitecustomize.py's
# CACHE, which reads it (not imported here: importing it hooks this interpreter's dataclasses;
# tests/test_sitecustomize.py runs nothing from the cache if the two names differ).
START_CODE = "start_code.bin"

MJS = "pyodide.mjs"
MJS_SHA256 = "6f1d60f7bf529beb300f0f47983c921d3982363640ba20af0e38efdddbc66109"
ASM = "pyodide.asm.mjs"
ASM_SHA256 = "f7cdc8ece80678ceb712f8e65ebe6d3a83203a180c399865f49612a051693635"
# Emscripten's set-up puts about 260 JavaScript functions in the wasm table (updateGOT and
# reportUndefinedSymbols, through addFunction), and convertJsFunctionToWasm compiled a tiny
# WebAssembly module for each, though only 29 wasm types differ: one module per type now, still
# one instance per function. The type is the signature with pointers ("p") read as "i": the
# file's wasmTypeCodes gives both 127 (i32), so the two spellings make the same bytes.
# The module's bytes: a type section for `sig`, an import "e"."f" of that type, its export "f".
WRAPPER_BYTES = (
    "Uint8Array.of(0,97,115,109,1,0,0,0,1,...uleb128EncodeWithLen([1,96,"
    '...generateTypePack(sig.slice(1)),...generateTypePack(sig[0]==="v"?"":sig[0])]),'
    "2,7,1,1,101,1,102,0,0,7,5,1,1,102,0,0)"
)
ASM_EDITS = (
    Edit(
        ASM,
        ASM_SHA256,
        f"var convertJsFunctionToWasm=(func,sig)=>{{var bytes={WRAPPER_BYTES};"
        "var module=new WebAssembly.Module(bytes);",
        "var wasmModuleByType=new Map;var convertJsFunctionToWasm=(func,sig)=>{"
        'var type=sig.replace(/p/g,"i");var module=wasmModuleByType.get(type);'
        f"if(!module){{var bytes={WRAPPER_BYTES};"
        "module=new WebAssembly.Module(bytes);wasmModuleByType.set(type,module)}",
    ),
    # Emscripten's set-up gave each of the WebAssembly's 8,560 exports a global offset table
    # entry, and each exported function a slot in the function table (`updateGOT`), so that a
    # side module loaded later would find them: 38-48 ms of every start, fresh or restored, in
    # a slow first visit. We load no side module. Only the entries the main module imports
    # itself (about 280) are filled here now; any other is given when first asked for, as
    # `reportUndefinedSymbols` and `dlsym` already do for a symbol the table lacks.
    Edit(
        ASM,
        ASM_SHA256,
        "assignWasmExports(wasmExports);updateGOT(origExports);",
        "assignWasmExports(wasmExports);updateGOT(Object.fromEntries(Object.keys(GOT)"
        ".filter(k=>k in origExports).map(k=>[k,origExports[k]])));",
    ),
    # A returning visit's snapshot (web/shell/js/snapshot.js): rather than one copy of the
    # interpreter's whole memory, Pyodide gets its header (`t`, the first `r` bytes) and
    # `_snapshotPages`, which writes the stored pages into the memory itself, from the header's
    # end on, and zeroes the gaps between them below the break (`sbrk(0)`): above it the fresh
    # memory is still zero.
    Edit(
        ASM,
        ASM_SHA256,
        "let s=(new TextDecoder).decode(i),l=JSON.parse(s);return Module.HEAP8.set(t),l};",
        "let s=(new TextDecoder).decode(i),l=JSON.parse(s),p=Module._snapshotPages;"
        "return p?p.write(Module.HEAPU8,r,Module._sbrk(0)):Module.HEAP8.set(t),l};",
    ),
    # finalizeBootstrap imported the C core by running the source "import _pyodide_core", and
    # got importlib, __main__'s and builtins' namespaces and a fresh dict by running four more
    # sources through `eval_code` (Python's `ast` and compiler): each start compiled Python's
    # tokenizer, parser and compiler from WebAssembly for them. The same objects now come by
    # calls: the import through the C API (an error is printed and reported as before), the
    # rest through importlib. Unlike the source, the import binds no `_pyodide_core` in
    # __main__ (nothing reads it there).
    Edit(
        ASM,
        ASM_SHA256,
        'let[r,n]=API.rawRun("import _pyodide_core");',
        'let r=0,n="";{Module.API.capture_stderr();'
        'let c=Module.stringToNewUTF8("_pyodide_core"),m=_PyImport_ImportModule(c);_free(c);'
        "m?_Py_DecRef(m):(_PyErr_Print(),r=-1);n=Module.API.restore_stderr().trim()}",
    ),
    Edit(
        ASM,
        ASM_SHA256,
        'API.runPythonInternal_dict=API._pyodide._base.eval_code("{}"),'
        'API.importlib=API.runPythonInternal("import importlib; importlib");'
        'let o=API.importlib.import_module;API.sys=o("sys"),API.os=o("os");'
        'let i=API.runPythonInternal("import __main__; __main__.__dict__"),'
        's=API.runPythonInternal("import builtins; builtins.__dict__");',
        'API.importlib=API._pyodide._base.import_module("importlib");'
        'let o=API.importlib.import_module;API.runPythonInternal_dict=o("builtins").dict();'
        'API.sys=o("sys"),API.os=o("os");'
        'let i=o("__main__").__dict__,s=o("builtins").__dict__;',
    ),
)
# prepareSnapshot: the memory's size from the pages' own length (the header alone is handed
# over), and the pages, once read, put where the restore above finds them (Emscripten's Module).
MJS_EDITS = (
    Edit(
        MJS,
        MJS_SHA256,
        'return t.noInitialRun=!0,t.INITIAL_MEMORY=i.length,i}o(ke,"prepareSnapshot")',
        "let p=await e._snapshotPages;"
        "return t._snapshotPages=p,t.noInitialRun=!0,t.INITIAL_MEMORY=p?p.length:i.length,i}"
        'o(ke,"prepareSnapshot")',
    ),
    # getInstantiateWasmFunc and createSettings: the WebAssembly compiled elsewhere (the option
    # `_wasmModule`, a promise of a WebAssembly.Module, or of null should that compile have
    # failed: then Pyodide fetches and compiles its own, as before). A returning visit has a
    # second worker compile it beside the game's (web/shell/js/runtime.js), so Chromium reads
    # the compiled code back on that worker's thread, not the game's.
    Edit(
        MJS,
        MJS_SHA256,
        'function Ie(e){if(typeof WasmOffsetConverter<"u")return;'
        'let{binary:t,response:n}=_(e+"pyodide.asm.wasm"),i=K();',
        'function Ie(e,m){if(typeof WasmOffsetConverter<"u")return;'
        'let W=e+"pyodide.asm.wasm",{binary:t,response:n}=m?{}:_(W),i=K();',
    ),
    Edit(
        MJS,
        MJS_SHA256,
        "try{let l;n?l=await WebAssembly.instantiateStreaming(n,s)"
        ":l=await WebAssembly.instantiate(await t,s);",
        "try{let l,M=m&&await m;if(M)l={module:M,instance:await WebAssembly.instantiate(M,s)};"
        "else{m&&({binary:t,response:n}=_(W));n?l=await WebAssembly.instantiateStreaming(n,s)"
        ":l=await WebAssembly.instantiate(await t,s)}",
    ),
    Edit(
        MJS,
        MJS_SHA256,
        "instantiateWasm:Ie(e.indexURL)}",
        "instantiateWasm:Ie(e.indexURL,e._wasmModule)}",
    ),
)
# The JavaScript files shipped edited: name -> its edits.
JS_EDITS = {MJS: MJS_EDITS, ASM: ASM_EDITS}


def installed_version() -> str:
    """The Pyodide version in node_modules (package.json pins it)."""
    version: str = json.loads((PYODIDE / "package.json").read_text())["version"]
    return version


def check_version() -> None:
    """Stop the build when node_modules has another Pyodide than the edits were checked against."""
    if installed_version() != PYODIDE_VERSION:
        raise RuntimeError(
            f"Pyodide {installed_version()} is installed, the start's edits were checked against "
            f"{PYODIDE_VERSION}: check web/runtime/patch.py's edits against it and pin it again"
        )


def edited(files: dict[str, bytes], edits: tuple[Edit, ...]) -> dict[str, bytes]:
    """The files (name -> bytes) with the edits applied; a file that is not the one an edit was
    checked against stops the build."""
    out = dict(files)
    for edit in edits:
        if hashlib.sha256(files[edit.path]).hexdigest() != edit.sha256:
            raise RuntimeError(
                f"Pyodide's {edit.path} is not the {PYODIDE_VERSION} file web/runtime/patch.py "
                "was checked against: check the edit against the new file and pin it again"
            )
    for edit in edits:
        text = out[edit.path].decode()
        if text.count(edit.old) != 1:
            raise RuntimeError(f"{edit.path}: the text to replace is not there exactly once")
        out[edit.path] = text.replace(edit.old, edit.new).encode()
    return out


def apply(files: dict[str, bytes]) -> dict[str, bytes]:
    """The stdlib's files (name -> bytes) with EDITS applied and ADDED added."""
    out = edited(files, EDITS)
    for name, source in ADDED.items():
        if name in out:
            raise RuntimeError(f"Pyodide's stdlib has a {name} now: check web/runtime/patch.py")
        out[name] = source.read_bytes()
    return out


def patched_stdlib() -> dict[str, bytes]:
    """Every file of Pyodide's python_stdlib.zip, with the start's edits."""
    check_version()
    with zipfile.ZipFile(PYODIDE / "python_stdlib.zip") as full:
        files = {name: full.read(name) for name in full.namelist() if not name.endswith("/")}
    return apply(files)


def patched(name: str) -> bytes:
    """Pyodide's JavaScript file `name` (a key of JS_EDITS) with its edits."""
    check_version()
    return edited({name: (PYODIDE / name).read_bytes()}, JS_EDITS[name])[name]
