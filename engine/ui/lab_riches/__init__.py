"""Lab Riches screens: splash, How To Play, Rules and Prizes, Main Game, Bonus Game, outcome."""

from __future__ import annotations

from engine.ui.app import Scene
from engine.ui.lab_riches.flow import Flow
from engine.ui.lab_riches.main import MainScene
from engine.ui.lab_riches.pages import HowToPlayScene, RulesScene
from engine.ui.lab_riches.screens import OutcomeScene, SplashScene


def start_scene(flow: Flow) -> Scene:
    """Register every screen with the flow and return the first one (the splash)."""
    splash = SplashScene(flow)
    for scene in (splash, HowToPlayScene(flow), RulesScene(flow), MainScene(flow),
                  OutcomeScene(flow)):  # fmt: skip
        flow.register(scene.name, scene)
    return splash
