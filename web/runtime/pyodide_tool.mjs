// Build-time work done inside the same Pyodide the browser runs (Node.js, node_modules/pyodide):
//   node web/runtime/pyodide_tool.mjs probe GAME_ZIP [STDLIB_ZIP|-] [START_OUT|-] [PACKAGES]
//       boot like the browser shell (web/shell/worker.js), import every game module, run
//       frames, and print (JSON) every standard-library file Python loaded (not the frozen
//       modules, which are built into the interpreter) ({"loaded"}); with STDLIB_ZIP, boot from
//       that trimmed zip instead, which proves it is enough. With START_OUT, record into it the
//       code of every text compiled from the start on (named tuples', dataclasses': the code
//       cache, web/runtime/start/sitecustomize.py); "start_misses" counts those the stdlib's
//       cache lacked (every miss is a text the browser would compile), "start_texts" those it
//       holds. Python runs without column ranges (PYTHONNODEBUGRANGES), so the code recorded
//       has none, like every module the build ships (`compile` below).
//   node web/runtime/pyodide_tool.mjs compile IN_ZIP OUT_ZIP LEVEL [stripped]
//       byte-compile every .py of a zip with this exact CPython, so the browser never compiles:
//       sourceless .pyc (PEP 552 flags 0, no timestamp: zipimport loads a .pyc with no .py
//       beside it unchecked, whatever its optimisation level) at optimisation LEVEL (2: no
//       docstrings, asserts or `if __debug__:` blocks), without column ranges
//       (PYTHONNODEBUGRANGES: a traceback still names file and line; with no source to quote it
//       could not point at columns anyway; the ranges were about a quarter of the standard
//       library's brotli bytes). With `stripped`, the docstrings of modules and functions and
//       functions' annotations are left out (tools/build/stripped.py: our zips, asserts kept).
//   node web/runtime/pyodide_tool.mjs run STDLIB_ZIP|- SCRIPT [snapshot]
//       boot from that standard library (or Pyodide's own) and run the Python file SCRIPT;
//       print what its last expression gives (awaited when it is awaitable: a Future, a Task).
//       With `snapshot`, first take a memory snapshot of the booted interpreter (as the shell
//       does, web/shell/js/snapshot.js) and run SCRIPT in one restored from it.
//   node web/runtime/pyodide_tool.mjs start INDEX_DIR [snapshot]
//       load Pyodide from INDEX_DIR (its pyodide.asm.mjs: Pyodide's own, or the build's,
//       web/runtime/patch.py), counting the WebAssembly modules compiled meanwhile; then put
//       JavaScript functions of two signatures in the wasm table (ctypes callbacks) and call
//       them through it, and call a C function of the interpreter found by name (dlsym). Print
//       (JSON) {"ms": the load's time, "modules": modules compiled during it, "compileMs": the
//       time in their compiles, "later": modules compiled by the callbacks, "results": the
//       calls', "table": the function table's length then}. With `snapshot`, the load timed and
//       counted is one restored from a memory snapshot of a first (as a returning visit's).
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [command, ...args] = process.argv.slice(2);
const quiet = {
  stdout: () => {},
  stderr: (/** @type {string} */ s) => process.stderr.write(s + "\n"),
};
// Python without column ranges (PYTHONNODEBUGRANGES), as every module the build ships is
// compiled: what `compile` writes, and the code `probe` records for the caches.
const unranged = { ...quiet, env: { PYTHONNODEBUGRANGES: "1" } };

const PROBE = `
import json, pkgutil, sys, importlib
sys.path.insert(0, "/lottery.zip")
# Whatever may run in the browser: every game module, plus what Python needs to report
# an error (tracebacks) even though a healthy run never imports it.
for name in ("traceback", "linecache", "tokenize", "codecs", "encodings.idna", "encodings.ascii",
             "encodings.latin_1"):
    importlib.import_module(name)
# the games registered beyond the registry's own (their packages, as the worker registers them)
if register:
    from engine import games
    for package in register:
        games.register(package)
for package in ("engine", "backends", *register):
    module = importlib.import_module(package)
    for info in pkgutil.walk_packages(module.__path__, package + "."):
        if info.name not in ("backends.native", "backends.pygame_backend", "backends.pygame_sound"):
            importlib.import_module(info.name)
from backends import browser
browser.start(1280, 720, "{}")
for i in range(3):
    browser.frame(i * 16.7, "[]")
# Every prize table, as each game's Rules and Prizes reads it when opened (the copy the build
# parsed, from the zip, by the zip's own loader: engine.package_data)
from engine import games
for game in games.GAMES:
    game.table
try:
    raise ValueError("probe")
except ValueError:
    import traceback
    traceback.format_exc()
# The texts compiled from Python's start on (our stdlib's sitecustomize, web/runtime/start):
# recorded without a cache, none with the build's.
start_code = sys.modules.get("sitecustomize")
if record_code and start_code:
    with open("/start_code.bin", "wb") as out:
        out.write(start_code.dump())
# Frozen modules (os, io, site, zipimport, importlib's bootstrap...) are built into the
# interpreter: they name a file of the zip that is never read.
from importlib.machinery import FrozenImporter
def read_from_zip(module):
    spec = getattr(module, "__spec__", None)
    frozen = getattr(module, "__loader__", None) is FrozenImporter or getattr(spec, "origin", None) == "frozen"
    return getattr(module, "__file__", None) and not frozen
loaded = sorted({m.__file__ for m in list(sys.modules.values()) if read_from_zip(m)})
json.dumps({"loaded": loaded,
            "start_misses": len(start_code.recorded) if start_code else None,
            "start_texts": len(start_code._table) if start_code else None})
`;

// What our zips leave out (`compile ... stripped`: docstrings, functions' annotations).
const STRIPPING = new URL("../../tools/build/stripped.py", import.meta.url);
const COMPILE = `
import importlib.util, marshal, zipfile
assert next(compile("x", "", "eval").co_positions())[2] is None, "column ranges are on"
stamp = (2020, 1, 1, 0, 0, 0)
with zipfile.ZipFile("/in.zip") as src, zipfile.ZipFile("/out.zip", "w", zipfile.ZIP_STORED) as out:
    for name in sorted(src.namelist()):
        data = src.read(name)
        if not name.endswith(".py"):
            out.writestr(zipfile.ZipInfo(name, stamp), data)
            continue
        if stripping:  # tools/build/stripped.py, run into this namespace
            code = compiled(data, name, level)
        else:
            code = compile(data, name, "exec", dont_inherit=True, optimize=level)
        header = importlib.util.MAGIC_NUMBER + bytes(12)
        out.writestr(zipfile.ZipInfo(name + "c", stamp), header + marshal.dumps(code))
`;

// Three ctypes callbacks, two of one signature: each is a JavaScript function Pyodide's libffi
// puts in the wasm table (convertJsFunctionToWasm), called here through its address.
const CALLBACKS = `
from ctypes import CFUNCTYPE, c_double, c_int, c_void_p, cast, pythonapi
Int = CFUNCTYPE(c_int, c_int)
Mixed = CFUNCTYPE(c_double, c_double, c_int)
made = [Int(lambda x: x + 1), Mixed(lambda x, n: x * n), Int(lambda x: x * 2)]
called = [type(f)(cast(f, c_void_p).value) for f in made]
[called[0](41), called[1](1.5, 4), called[2](21), pythonapi.Py_IsInitialized()]
`;

/** Count and time every \`new WebAssembly.Module\` from now on. */
function countModules() {
  const compiled = { count: 0, ms: 0 };
  // tsconfig's libraries do not declare WebAssembly: the one constructor, as a function
  const wasm = /** @type {{ WebAssembly: { Module: Function } }} */ (
    /** @type {unknown} */ (globalThis)
  ).WebAssembly;
  wasm.Module = new Proxy(wasm.Module, {
    construct(target, args, newTarget) {
      compiled.count += 1;
      const started = performance.now();
      const module = Reflect.construct(target, args, newTarget);
      compiled.ms += performance.now() - started;
      return module;
    },
  });
  return compiled;
}

// An error leaves with its message (for Python's, the traceback) and exit status 1: left
// uncaught, Node.js would first print the source line it came from, which for Pyodide's is its
// whole minified runtime on one line.
process.on("uncaughtException", (error) => {
  process.stderr.write(`${error?.message ? error.message : error}\n`);
  process.exit(1);
});

if (command === "probe") {
  const [gameZip, stdLibURL, startOut, register] = args;
  const pyodide = await loadPyodide(
    stdLibURL && stdLibURL !== "-" ? { ...unranged, stdLibURL } : unranged,
  );
  // The worker's text measure (web/shell/js/canvas.js), roughly: Node has no canvas.
  /** @type {typeof globalThis & {lotteryMeasureText?: (s: string, size: number) => number}} */ (
    globalThis
  ).lotteryMeasureText = (s, size) => s.length * size * 0.55;
  pyodide.FS.writeFile("/lottery.zip", new Uint8Array(readFileSync(gameZip)));
  pyodide.globals.set("record_code", Boolean(startOut && startOut !== "-"));
  pyodide.globals.set("register", pyodide.toPy(register ? register.split(",") : []));
  process.stdout.write(pyodide.runPython(PROBE) + "\n");
  if (startOut && startOut !== "-") writeFileSync(startOut, pyodide.FS.readFile("/start_code.bin"));
} else if (command === "compile") {
  const [inZip, outZip, level, strip] = args;
  const pyodide = await loadPyodide(unranged);
  pyodide.FS.writeFile("/in.zip", new Uint8Array(readFileSync(inZip)));
  pyodide.globals.set("level", Number(level));
  pyodide.globals.set("stripping", strip === "stripped");
  if (strip === "stripped") pyodide.runPython(readFileSync(STRIPPING, "utf8"));
  pyodide.runPython(COMPILE);
  writeFileSync(outZip, pyodide.FS.readFile("/out.zip"));
} else if (command === "run") {
  const [stdLibURL, script, snapshot] = args;
  const options = stdLibURL && stdLibURL !== "-" ? { ...quiet, stdLibURL } : quiet;
  let pyodide = await loadPyodide({ ...options, _makeSnapshot: snapshot === "snapshot" });
  if (snapshot === "snapshot") {
    pyodide = await loadPyodide({ ...options, _loadSnapshot: pyodide.makeMemorySnapshot() });
  }
  const result = pyodide.runPython(readFileSync(script, "utf8"));
  process.stdout.write(
    String(result && typeof result.then === "function" ? await result : result) + "\n",
  );
} else if (command === "start") {
  const [indexDir, snapshot] = args;
  const compiled = countModules();
  const options = { ...quiet, indexURL: indexDir.endsWith("/") ? indexDir : `${indexDir}/` };
  const first =
    snapshot === "snapshot" ? await loadPyodide({ ...options, _makeSnapshot: true }) : null;
  const started = performance.now();
  const [before, compiling] = [compiled.count, compiled.ms];
  const pyodide = await loadPyodide(
    first ? { ...options, _loadSnapshot: first.makeMemorySnapshot() } : options,
  );
  const ms = performance.now() - started;
  const [modules, compileMs] = [compiled.count - before, compiled.ms - compiling];
  const results = pyodide.runPython(CALLBACKS).toJs();
  const later = compiled.count - before - modules;
  // the function table's length (Emscripten's Module.wasmTable) once started and called
  const table = /** @type {any} */ (pyodide)._module.wasmTable.length;
  process.stdout.write(`${JSON.stringify({ ms, modules, compileMs, later, results, table })}\n`);
} else {
  process.stderr.write(
    "usage: pyodide_tool.mjs probe GAME_ZIP [STDLIB_ZIP|-] [START_OUT|-] [PACKAGES] | compile IN OUT LEVEL | run STDLIB_ZIP|- SCRIPT [snapshot] | start INDEX_DIR [snapshot]\n",
  );
  process.exit(2);
}
