// Build-time work done inside the same Pyodide the browser runs (Node.js, node_modules/pyodide):
//   node tools/pyodide_tool.mjs probe GAME_ZIP [STDLIB_ZIP]
//       boot like the browser shell (web/shell/app.js), import every game module, run frames,
//       and print (JSON) every standard-library file Python loaded; with STDLIB_ZIP, boot from
//       that trimmed zip instead, which proves it is enough.
//   node tools/pyodide_tool.mjs compile IN_ZIP OUT_ZIP [keep-source]
//       byte-compile every .py of a zip with this exact CPython, so the browser skips compiling
//       at every start; with keep-source the .py stay beside unchecked-hash .pyc (tracebacks
//       keep their source lines), otherwise the zip becomes sourceless .pyc.
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [command, ...args] = process.argv.slice(2);
const quiet = { stdout: () => {}, stderr: (s) => process.stderr.write(s + "\n") };

const PROBE = `
import json, pkgutil, sys, importlib
sys.path.insert(0, "/lottery.zip")
# Whatever may run in the browser: every game module, plus what Python needs to report
# an error (tracebacks) even though a healthy run never imports it.
for name in ("traceback", "linecache", "tokenize", "codecs", "encodings.idna", "encodings.ascii",
             "encodings.latin_1"):
    importlib.import_module(name)
for package in ("engine", "backends"):
    module = importlib.import_module(package)
    for info in pkgutil.walk_packages(module.__path__, package + "."):
        if info.name not in ("backends.native", "backends.pygame_backend", "backends.pygame_sound"):
            importlib.import_module(info.name)
from backends import browser
browser.start(1280, 720, "{}")
for i in range(3):
    browser.frame(i * 16.7, "[]")
try:
    raise ValueError("probe")
except ValueError:
    import traceback
    traceback.format_exc()
json.dumps(sorted({m.__file__ for m in list(sys.modules.values()) if getattr(m, "__file__", None)}))
`;

const COMPILE = `
import importlib.util, marshal, zipfile
keep = keep_source
stamp = (2020, 1, 1, 0, 0, 0)
with zipfile.ZipFile("/in.zip") as src, zipfile.ZipFile("/out.zip", "w", zipfile.ZIP_STORED) as out:
    for name in sorted(src.namelist()):
        data = src.read(name)
        if not name.endswith(".py"):
            out.writestr(zipfile.ZipInfo(name, stamp), data)
            continue
        code = compile(data, name, "exec", dont_inherit=True)
        # PEP 552: flags 0b01 = hash-based, not checked against the source.
        flags = 1 if keep else 0
        header = importlib.util.MAGIC_NUMBER + flags.to_bytes(4, "little")
        header += importlib.util.source_hash(data) if keep else bytes(8)
        out.writestr(zipfile.ZipInfo(name + "c", stamp), header + marshal.dumps(code))
        if keep:
            out.writestr(zipfile.ZipInfo(name, stamp), data)
`;

if (command === "probe") {
  const [gameZip, stdLibURL] = args;
  const pyodide = await loadPyodide(stdLibURL ? { ...quiet, stdLibURL } : quiet);
  globalThis.lotteryMeasureText = (s, size) => s.length * size * 0.55;
  pyodide.FS.writeFile("/lottery.zip", new Uint8Array(readFileSync(gameZip)));
  process.stdout.write(pyodide.runPython(PROBE) + "\n");
} else if (command === "compile") {
  const [inZip, outZip, keep] = args;
  const pyodide = await loadPyodide(quiet);
  pyodide.FS.writeFile("/in.zip", new Uint8Array(readFileSync(inZip)));
  pyodide.globals.set("keep_source", keep === "keep-source");
  pyodide.runPython(COMPILE);
  writeFileSync(outZip, pyodide.FS.readFile("/out.zip"));
} else {
  process.stderr.write("usage: pyodide_tool.mjs probe GAME_ZIP [STDLIB_ZIP] | compile IN OUT [keep-source]\n");
  process.exit(2);
}
