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
    """`?scene=check` opens the system check, `?game=ID` a game (with `mode=try` free plays, with
    `replay=N` the replay of play N), anything else the lobby (`page=limits`: at its Limits).

    The settings: `fast`, `sound` (both remembered by the shell) and `reducedMotion`; the lobby
    shows times in the player's zone (`tz`: minutes east of UTC).
    """
    # The system check and the lobby are imported only by the pages that open them: a game's
    # page is playable sooner without the lobby's screens (My Games, Verify, Account, Limits).
    if params.get("scene") == "check":
        from engine.ui.scenes.check import CheckScene

        return CheckScene()
    settings = Settings.from_params(params)
    here = {game.id: presentation(game) for game in present()}
    shown = here.get(str(params.get("game") or ""))
    if shown is None:
        from engine.ui.scenes.lobby import lobby_scene

        page = str(params.get("page") or "")
        return lobby_scene(here, games.GAMES, settings, utc_offset(params.get("tz")), page)
    recall = str(params.get("replay") or "")
    if recall.isdecimal() and len(recall) <= 18:
        return shown.start(Flow(shown, settings, "replay", int(recall)))
    return shown.start(Flow(shown, settings, "try" if params.get("mode") == "try" else "play"))


def utc_offset(value: object) -> int:
    """The player's time zone as minutes east of UTC (0 when missing or out of range)."""
    text = str(value or "0")
    number = text[1:] if text[:1] in "+-" else text
    if not number.isdecimal() or len(number) > 4 or int(number) > 14 * 60:
        return 0
    return -int(number) if text[:1] == "-" else int(number)
