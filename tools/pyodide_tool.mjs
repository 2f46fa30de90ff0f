// Boot Pyodide in Node.js, import the game the way the browser does, run frames, and print
// (as JSON) every standard-library file Python loaded. Used by tools/dist.py to trim
// python_stdlib.zip, and again to check that the trimmed zip boots and draws.
// usage: node tools/stdlib_probe.mjs GAME_ZIP [STDLIB_ZIP]
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [gameZip, stdLibURL] = process.argv.slice(2);
const options = { stdout: () => {}, stderr: (s) => process.stderr.write(s + "\n") };
if (stdLibURL) options.stdLibURL = stdLibURL;
const pyodide = await loadPyodide(options);
globalThis.lotteryMeasureText = (s, size) => s.length * size * 0.55;
// The same steps as the browser shell (web/shell/app.js): the zip on sys.path.
pyodide.FS.writeFile("/lottery.zip", new Uint8Array(readFileSync(gameZip)));
const files = pyodide.runPython(`
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
        if info.name not in ("backends.native", "backends.pygame_backend"):
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
`);
process.stdout.write(files + "\n");
