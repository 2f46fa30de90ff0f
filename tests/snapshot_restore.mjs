// A returning visit's restore, in Node.js: Pyodide loaded from INDEX_DIR (the build's edited
// pyodide.mjs and pyodide.asm.mjs, web/runtime/patch.py), a memory snapshot of it packed and
// read back by the shell's own js/snapshot.js, and restored from its header and pages alone.
//   node tests/snapshot_restore.mjs INDEX_DIR
// prints (JSON) what the restore wrote: {"writes", "length", "head", "dirty", "differed" (bytes
// of the memory below the snapshot's end that did not hold the snapshot's before the write),
// "wrong" (those that still do not after it), "value" (Python's, read after the restore),
// "truncated" (what reading a pack cut short says)}.
import { pathToFileURL } from "node:url";

const [indexDir] = process.argv.slice(2);
const index = indexDir.endsWith("/") ? indexDir : `${indexDir}/`;
const { loadPyodide } = await import(pathToFileURL(`${index}pyodide.mjs`).href);
// The worker's module, typed in its own scope (web/shell/tsconfig.worker.json), not Node's.
const shellSnapshot = new URL("../web/shell/js/snapshot.js", import.meta.url).href;
const { packSnapshot, readSnapshot } = await import(shellSnapshot);
const options = { indexURL: index, stdout: () => {}, stderr: () => {} };

const first = await loadPyodide({ ...options, _makeSnapshot: true });
first.runPython("import json\nkept = json.dumps({'kept': [1, 2, 3]})");
/** @type {Uint8Array<ArrayBuffer>} */
const full = first.makeMemorySnapshot();
const packed = new Uint8Array(await packSnapshot(full).arrayBuffer());
const pages = readSnapshot(packed);

const found = { writes: 0, length: pages.length, head: pages.head.length, dirty: 0 };
/** Bytes of memory[0, n) that differ from the snapshot's memory (full from `from` on). */
const differing = (/** @type {Uint8Array} */ memory, /** @type {number} */ from) => {
  let count = 0;
  for (let i = 0; i < full.length - from; i += 1) if (memory[i] !== full[from + i]) count += 1;
  return count;
};
const write = pages.write;
pages.write = (
  /** @type {Uint8Array} */ memory,
  /** @type {number} */ from,
  /** @type {number} */ dirty,
) => {
  Object.assign(found, { differed: differing(memory, from), dirty });
  write(memory, from, dirty);
  Object.assign(found, { writes: found.writes + 1, wrong: differing(memory, from) });
};
const restored = await loadPyodide({
  ...options,
  _loadSnapshot: Promise.resolve(pages.head),
  _snapshotPages: Promise.resolve(pages),
});
let truncated = "";
try {
  readSnapshot(packed.slice(0, packed.length - 1000));
} catch (error) {
  truncated = String(error);
}
const value = restored.runPython("kept");
process.stdout.write(`${JSON.stringify({ ...found, value, truncated })}\n`);
