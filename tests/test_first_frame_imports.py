"""What a page imports before its first frame: only what that frame needs.

Each page starts as the browser's worker starts it (backends.browser: start, the sound cues'
notes, one frame) in a fresh interpreter whose only
game screens are those the page's zips hold (a game's page: its own; the lobby: every game's),
and the modules it imported by then are checked. What a page uses later (the Rules and Prizes
table, the lobby's own pages, a game's screens before it is opened) is imported when it is
used (docs/build.md, "Our part of the start").
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.game import Lazy
from engine.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
ON_SALE = tuple(game for game in GAMES if game.presentation and game.on_sale)

# The page in a fresh interpreter: `js` is the page's text measure (Pyodide's module there);
# the screens of a game whose zip the page does not download cannot be imported.
PAGE = """
import json, sys, types
sys.path.insert(0, sys.argv[1])
params, absent = json.loads(sys.argv[2]), json.loads(sys.argv[3])
js = types.ModuleType("js")
js.lotteryMeasureText = lambda s, size, family, bold: len(s) * size * 0.55
sys.modules["js"] = js

class NotDownloaded:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if any(name == package or name.startswith(package + ".") for package in absent):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NotDownloaded)
before = set(sys.modules)
from backends import browser
browser.start(1280, 720, json.dumps(params), "{}")
browser.sound_notes()
out = json.loads(browser.frame(0.0, "[]"))
assert out["cmds"] is not None, "the first frame drew nothing"
print(json.dumps(sorted(set(sys.modules) - before)))
"""

# Never before any page's first frame: the prize tables ship parsed (no TOML parser), the
# package data is read by its loader (pkgutil's import compiles a named tuple), and no page
# builds a book (the screens read a pip's tokens from the game's tokens, not its builder).
BUILDERS = tuple(g.build_book.module for g in GAMES if isinstance(g.build_book, Lazy))
NEVER = ("tomllib", "pkgutil", *BUILDERS)
# Not before a game's first frame: the exact figures of the Rules and Prizes page (fractions,
# the table) are read when it opens; the lobby's pages are the lobby's.
NOT_IN_A_GAME = (
    "fractions",
    "engine.math",
    "engine.ui.scenes.lobby",
    "engine.ui.scenes.site",
    "engine.ui.scenes.verify",
)


def imported_by(params: dict[str, str], opened: tuple[str, ...]) -> set[str]:
    """The modules a page with these query parameters imports up to its first frame, with the
    screens of the games `opened` alone."""
    absent = [g.presentation for g in ON_SALE if g.id not in opened]
    done = subprocess.run(
        [sys.executable, "-S", "-c", PAGE, str(ROOT), json.dumps(params), json.dumps(absent)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize("game", [game.id for game in ON_SALE])
def test_a_games_page_imports_only_what_its_first_frame_needs(game: str) -> None:
    modules = imported_by({"game": game}, (game,))
    assert "backends.browser" in modules  # the page did start
    for name in (*NEVER, *NOT_IN_A_GAME):
        assert name not in modules, name


def test_the_lobby_imports_only_what_its_first_frame_needs() -> None:
    modules = imported_by({}, tuple(game.id for game in ON_SALE))
    assert "engine.ui.scenes.lobby" in modules
    # Every game's cover (its look on the card), none of its screens: those are imported when
    # the lobby opens its Rules and Prizes (or its page opens it).
    screens = ["engine.ui.scenes.play", "engine.ui.player", "engine.ui.scenes.splash"]
    # Nor the player's pages (My Games, VERIFY and its hashing, Limits, Account): each is
    # imported when first opened.
    screens += ["engine.ui.scenes.my_games", "engine.ui.scenes.verify", "engine.math.leaves"]
    screens += ["engine.ui.scenes.limits", "engine.ui.scenes.account", "hmac"]
    for game in ON_SALE:
        assert f"{game.presentation}.cover" in modules
        screens += [f"{game.presentation}.presentation", f"{game.presentation}.main"]
    for name in (*NEVER, *screens):
        assert name not in modules, name


def test_the_lobby_imports_a_games_screens_when_it_opens_its_rules() -> None:
    from engine.ui.app import App
    from engine.ui.games import first_scene
    from engine.ui.scenes.lobby import LobbyScene
    from engine.ui.scenes.rules import RulesScene

    lobby = first_scene({})
    assert isinstance(lobby, LobbyScene)
    app = App(lobby, 1280, 720)
    for game in ON_SALE:
        lobby.open_rules(game.id)
        assert isinstance(app.scene, RulesScene) and app.scene.flow.game is game
        shown = lobby.flow.cards[ON_SALE.index(game)].cover
        assert shown is not None and app.scene.rules_text == shown.rules_text
