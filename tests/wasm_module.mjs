// Pyodide started from a WebAssembly module compiled elsewhere (the shell's js/runtime.js has a
// second worker compile it for a returning visit), in Node.js: Pyodide loaded from INDEX_DIR
// (the build's edited pyodide.mjs, web/runtime/patch.py) with `_wasmModule` a promise of that
// module, and again with a promise of null (the compile failed: Pyodide compiles its own).
//   node tests/wasm_module.mjs INDEX_DIR
// prints (JSON), for each start ("given", "failed"): how many times Pyodide instantiated the
// module it was given ("given"), how many big WebAssembly binaries it compiled or instantiated
// itself ("own": bytes over 1 MB), and what Python computed ("value").
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [indexDir] = process.argv.slice(2);
const index = indexDir.endsWith("/") ? indexDir : `${indexDir}/`;
const { loadPyodide } = await import(pathToFileURL(`${index}pyodide.mjs`).href);
const options = { indexURL: index, stdout: () => {}, stderr: () => {} };
// tsconfig's libraries do not declare WebAssembly
const wasm = /** @type {any} */ (globalThis).WebAssembly;
const compiled = await wasm.compile(readFileSync(`${index}pyodide.asm.wasm`));

const seen = { given: 0, own: 0 };
/** @param {unknown} source */
const big = (source) =>
  (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) && source.byteLength > 1 << 20;
for (const name of ["instantiate", "compile"]) {
  const original = wasm[name];
  wasm[name] = (/** @type {unknown} */ source, /** @type {unknown[]} */ ...rest) => {
    if (source === compiled) seen.given += 1;
    else if (big(source)) seen.own += 1;
    return original.call(wasm, source, ...rest);
  };
}

/** @type {Record<string, object>} */
const found = {};
for (const [name, module] of [
  ["given", compiled],
  ["failed", null],
]) {
  Object.assign(seen, { given: 0, own: 0 });
  const pyodide = await loadPyodide({ ...options, _wasmModule: Promise.resolve(module) });
  found[name] = { ...seen, value: pyodide.runPython("sum(range(10))") };
}
process.stdout.write(`${JSON.stringify(found)}\n`);
