"""A game's rooms: the shared screens in its look, with its words, around its main screen."""

from __future__ import annotations

from engine.ui.app import Scene
from engine.ui.flow import Flow
from engine.ui.look import Look
from engine.ui.scenes.how_to_play import HowToPlayScene, Page
from engine.ui.scenes.outcome import OutcomeScene
from engine.ui.scenes.rules import RulesScene
from engine.ui.scenes.splash import SplashScene


def open_rooms(
    flow: Flow,
    look: Look,
    main: Scene,
    how_to_play: tuple[Page, ...],
    rules_text: tuple[str, ...],
    messages: tuple[str, ...] = (),
) -> Scene:
    """Register the splash, How To Play, Rules and Prizes, the main screen and the outcome
    with the flow, and return the first (the splash, with the game's messages)."""
    splash = SplashScene(flow, look, messages)
    rooms = (splash, HowToPlayScene(flow, look, how_to_play), RulesScene(flow, look, rules_text),
             main, OutcomeScene(flow, look))  # fmt: skip
    for room in rooms:
        flow.register(room.name, room)
    return splash
