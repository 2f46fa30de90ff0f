"""The browser's game zips: which of our files they hold, split into the shared zip and one per
game, as stored zips."""

from __future__ import annotations

import json
import tomllib
import zipfile
from io import BytesIO

from engine.game import BUILT_TABLE_FILE, TABLE_FILE, Game
from engine.ui.presentation import EXPORTS
from tools.build.sources import ROOT, import_closure, module_path

BROWSER_ENTRY = "backends.browser"
# What the worker imports by name before the game: the shared zip's roots, with BROWSER_ENTRY
SHARED_ROOTS = (BROWSER_ENTRY,)


def stored_zip(files: dict[str, bytes]) -> bytes:
    """A zip with uncompressed members (brotli over the whole archive compresses better)."""
    buffer = BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name])
    return buffer.getvalue()


def registered() -> tuple[str, ...]:
    """The packages of the games with screens that the registry holds beyond its own (a game
    the edge registered, engine.games.register: the tests' Lucky Dice), in its order. The
    shared zip holds each (its declaration, as it holds the registry's own games') and the
    worker registers them before it imports the game (the config's game.register)."""
    from engine.games import GAMES

    own = set(import_closure(SHARED_ROOTS))
    return tuple(
        game.home for game in GAMES if game.presentation and module_path(game.home) not in own
    )


def shared_roots() -> tuple[str, ...]:
    """What the shared zip holds the import closure of: SHARED_ROOTS and registered()."""
    return (*SHARED_ROOTS, *registered())


def folders(game: Game) -> tuple[str, ...]:
    """A game's folders (relative to ROOT, with a final /), from the registry: its engine
    package (engine/<package>/; the tests' tests/fixtures/lucky_dice/) and its screens'."""
    return tuple(
        f"{name.replace('.', '/')}/" for name in (game.home, game.presentation) if name is not None
    )


def game_roots() -> tuple[str, ...]:
    """What the browser imports by name: shared_roots() (the entry point, the registered
    games), and of every registered game with screens its presentation and its lazily imported
    parts (the book builder and the replay: engine.game.Lazy), which only the registry names."""
    from engine.games import GAMES

    named: list[str] = []
    for game in GAMES:
        if game.presentation:
            # the UI package, and the modules its exports are imported from when first read
            exported = [f"{game.presentation}.{module}" for module in EXPORTS.values()]
            named += [game.presentation, *exported, *game.lazy_modules()]
    return (*shared_roots(), *dict.fromkeys(named))


def game_zip_names() -> list[str]:
    """Every file of the browser's game zip (before compiling): the static import closure of
    game_roots() (relative to ROOT), plus the prize table, as the build parses it
    (built_table), of each registered game whose package the closure holds."""
    from engine.games import GAMES

    modules = import_closure(game_roots())
    tables = [
        f"{folders(game)[0]}{BUILT_TABLE_FILE}"
        for game in GAMES
        if f"{folders(game)[0]}__init__.py" in modules
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
    importing shared_roots() imports: the engine core, the registry with every game's
    declaration, the shared screens and backends, and the prize tables), and one per game on
    sale with a presentation (by id): the files of its packages (folders: engine/ui/<package>/,
    and engine/<package>/ modules only it imports: its book builder, replay and what its
    screens import) that the shared zip does not hold.
    The worker fetches the shared zip and the opened game's only."""
    from engine.games import GAMES

    names = game_zip_names()
    shared = set(import_closure(shared_roots()))
    parts: dict[str, list[str]] = {"": []}
    owner: dict[str, str] = {}
    for game in GAMES:
        if not game.presentation:
            continue
        parts[game.id] = []
        for prefix in folders(game):
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
