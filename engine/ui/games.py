"""The games the UI can show, from the registry (engine/games.py), and the first scene of a page.

A game's presentation is the module its Game names (engine/ui/<package>/), imported here by
name: the engine core does not import the UI.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from engine import games
from engine.game import Game
from engine.ui.app import Scene
from engine.ui.flow import Flow
from engine.ui.presentation import Presentation
from engine.ui.scenes.check import CheckScene
from engine.ui.settings import Settings
from engine.ui.sound import SHARED, Note, merge


def presentation(game: Game) -> Presentation:
    """The presentation of a game that has one (ValueError otherwise)."""
    if game.presentation is None:
        raise ValueError(f"{game.name} has no screens yet")
    found: Presentation = importlib.import_module(game.presentation).PRESENTATION
    if found.game is not game:
        raise ValueError(f"{game.presentation} presents {found.game.id}, not {game.id}")
    return found


def playable() -> tuple[Game, ...]:
    """The games a page can open: on sale, so they have screens."""
    return games.on_sale()


def present() -> tuple[Game, ...]:
    """The playable games whose screens are here to import. In the browser the worker puts
    only the opened game's zip beside the shared one (docs/build.md), so that game alone;
    everywhere else, every playable game."""
    here = []
    for game in playable():
        try:
            presentation(game)
        except ModuleNotFoundError as error:
            # Only the game's own screens may be missing, never a module they import.
            if not (error.name and (game.presentation or "").startswith(error.name)):
                raise
        else:
            here.append(game)
    return tuple(here)


def sounds() -> dict[str, tuple[Note, ...]]:
    """Every cue of every game present and the shared ones (the shell reads them once)."""
    return merge(SHARED, *(presentation(game).sounds for game in present()))


def first_scene(params: Mapping[str, object]) -> Scene:
    """`?scene=check` opens the system check; otherwise a game (`?game=ID`, or the first one).

    The game's settings: `fast`, `sound` (both remembered by the shell) and `reducedMotion`.
    """
    if params.get("scene") == "check":
        return CheckScene()
    open_games = {game.id: game for game in present()}
    chosen = open_games.get(str(params.get("game") or ""), next(iter(open_games.values())))
    shown = presentation(chosen)
    return shown.start(Flow(shown, Settings.from_params(params)))
