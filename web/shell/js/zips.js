// The game's zips in Python: where the worker writes them in Pyodide's file system, and how
// Python finds their modules. By calls on Python's objects, never Python source: nothing is
// compiled before a page's first frame, since the first text compiled had the browser compile
// Python's own tokenizer, parser and compiler from WebAssembly (docs/build.md, "Nothing
// compiled before the first frame"). tests/first_frame_compiles.mjs runs it in Node.js.

// The shared zip's name in Python's file system, and each game's.
export const SHARED_ZIP = "/lottery.zip";
/** @type {(game: GameEntry) => string} */
export const gameZip = (game) => `/lottery-${game.id}.zip`;

/**
 * The shared zip on sys.path, and the shared zip's packages that a game's zip adds modules to
 * (engine.ui: its screens) looking in that game's zip too; then the games the build registered
 * beyond the registry's own (config.game.register: their packages) registered, before anything
 * reads the registry. (Its dataclasses' methods run the code compiled at build time from the
 * start on: web/runtime/start/sitecustomize.py.)
 * @param {Pyodide} pyodide
 * @param {GameEntry[]} games the games the page opens (their zips written)
 * @param {string[]} [register] the packages of the games to register (engine.games.register)
 */
export function findGames(pyodide, games, register = []) {
  pyodide.pyimport("sys").path.insert(0, SHARED_ZIP);
  for (const game of games) {
    for (const name of game.packages) {
      pyodide.pyimport(name).__path__.append(`${gameZip(game)}/${name.replaceAll(".", "/")}`);
    }
  }
  if (register.length) {
    const registry = pyodide.pyimport("engine.games");
    for (const name of register) registry.register(name);
  }
}
