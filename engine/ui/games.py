"""The games the UI can show, from the registry (engine/games.py), and the first scene of a page.

A game's cover and presentation are exports of the UI package its Game names
(engine/ui/<package>/: COVER and PRESENTATION), imported here by name: the engine core does not
import the UI. The cover (its look, rules words and cues) is all the lobby shows of a game; its
screens are imported when a page opens the game (docs/build.md, "Our part of the start").
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from engine import games
from engine.game import Game
from engine.ui.app import Scene
from engine.ui.flow import Flow
from engine.ui.presentation import Cover, Presentation
from engine.ui.settings import Settings
from engine.ui.sound import SHARED, Bed, Note, merge


def presentation(game: Game) -> Presentation:
    """The presentation of a game that has one (ValueError otherwise): its screens."""
    found: Presentation = _export(game, "PRESENTATION")
    _presents(game, found.cover)
    return found


def cover(game: Game) -> Cover:
    """The cover of a game that has screens (ValueError otherwise): what the lobby shows of it,
    without importing its screens."""
    found: Cover = _export(game, "COVER")
    _presents(game, found)
    return found


def _export(game: Game, name: str) -> Any:
    if game.presentation is None:
        raise ValueError(f"{game.name} has no screens yet")
    return getattr(importlib.import_module(game.presentation), name)


def _presents(game: Game, shown: Cover) -> None:
    """ValueError unless the cover (a PRESENTATION's own, or the COVER) is of this game."""
    if shown.game is not game:
        raise ValueError(f"{game.presentation} presents {shown.game.id}, not {game.id}")


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
            cover(game)
        except ModuleNotFoundError as error:
            # Only the game's own screens may be missing, never a module they import.
            if not (error.name and (game.presentation or "").startswith(error.name)):
                raise
        else:
            here.append(game)
    return tuple(here)


def sounds() -> dict[str, tuple[Note, ...]]:
    """Every cue of every game present and the shared ones (the shell reads them once)."""
    return merge(SHARED, *(cover(game).sounds for game in present()))


def beds() -> dict[str, Bed]:
    """Every present game's music bed, by game id (the shell reads them with the cues)."""
    return {game.id: bed for game in present() if (bed := cover(game).music) is not None}


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
    here = {game.id: game for game in present()}
    opened = here.get(str(params.get("game") or ""))
    if opened is None:
        from engine.ui.scenes.lobby import lobby_scene

        covers = {game_id: cover(game) for game_id, game in here.items()}
        page = str(params.get("page") or "")
        return lobby_scene(covers, games.GAMES, settings, page)
    shown = presentation(opened)
    recall = str(params.get("replay") or "")
    if recall.isdecimal() and len(recall) <= 18:
        return shown.start(Flow(shown, settings, "replay", int(recall)))
    return shown.start(Flow(shown, settings, "try" if params.get("mode") == "try" else "play"))
