// What Python compiles from source as a page starts, in Node.js: Pyodide loaded from INDEX_DIR
// (its JavaScript, WebAssembly and a standard library whose `sitecustomize` counts every
// compile, an audit hook: tests/test_sitecustomize.py), the game's zips found by the shell's own
// js/zips.js as the worker finds them, the game's module imported and started, a first frame.
//   node tests/first_frame_compiles.mjs INDEX_DIR CONFIG_JSON
// CONFIG_JSON: {"shared": the shared zip's file, "games": [GameEntry with "file"], "module"}.
// Then a memory snapshot of that interpreter, as the worker keeps, restored as a returning
// visit restores it, and the game started and drawn again there.
// Prints (JSON) {"started": the texts compiled by the time Pyodide had started,
// "first_frame": by the first frame, "returned": in the restored one, from its restore to its
// first frame (each [file name, first 60 characters]), "ranged": of the code the start ran
// from the build's code cache instead (the start's and the game's texts), how many code objects
// have column ranges}.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [indexDir, configJson] = process.argv.slice(2);
const index = indexDir.endsWith("/") ? indexDir : `${indexDir}/`;
const config = JSON.parse(configJson);
const { loadPyodide } = await import(pathToFileURL(`${index}pyodide.mjs`).href);
const { findGames, gameZip, SHARED_ZIP } = await import(
  new URL("../web/shell/js/zips.js", import.meta.url).href
);
// Code objects (nested ones too) of the code cache whose instructions have column ranges.
const RANGED = `
import sys
def codes(code):
    yield code
    for const in code.co_consts:
        if hasattr(const, "co_positions"):
            yield from codes(const)
def ranged(table):
    return sum(any(p[2] is not None for p in c.co_positions()) for t in table for c in codes(t))
start = sys.modules.get("_start_code")  # Pyodide's own standard library has none
[ranged(start._table.values()) if start else None]
`;
const options = { indexURL: index, stdout: () => {}, stderr: () => {} };
const pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
/** @type {(python: any) => string[][]} */
const compiled = (python) => python.pyimport("sitecustomize").compiled.toJs();
const started = compiled(pyodide);
// The worker's text measure (web/shell/js/canvas.js), roughly: Node has no canvas.
/** @type {any} */ (globalThis).lotteryMeasureText = (
  /** @type {string} */ s,
  /** @type {number} */ size,
) => s.length * size * 0.55;
/** The zips written into an interpreter's file system, as the worker writes them. */
const writeZips = (/** @type {any} */ python) => {
  python.FS.writeFile(SHARED_ZIP, new Uint8Array(readFileSync(config.shared)));
  for (const game of config.games) {
    python.FS.writeFile(gameZip(game), new Uint8Array(readFileSync(game.file)));
  }
};
writeZips(pyodide);
findGames(pyodide, config.games);
const params = JSON.stringify({ game: config.games[0].id });
const browser = pyodide.pyimport(config.module);
browser.start(1280, 720, params, "{}", "");
browser.frame(0, "[]");
const firstFrame = compiled(pyodide);

const snapshot = pyodide.makeMemorySnapshot();
const before = compiled(pyodide).length; // the first interpreter's, restored with it
const restored = await loadPyodide({ ...options, _loadSnapshot: snapshot });
writeZips(restored); // a restored interpreter's file system is new
const again = restored.pyimport(config.module);
again.start(1280, 720, params, "{}", "");
again.frame(0, "[]");
const returned = compiled(restored).slice(before);
// (compiled after all the above: nothing is counted from here on)
const ranged = restored.runPython(RANGED).toJs();
process.stdout.write(`${JSON.stringify({ started, first_frame: firstFrame, returned, ranged })}\n`);
