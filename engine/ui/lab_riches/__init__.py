"""Lab Riches screens: splash, How To Play, Rules and Prizes, Main Game, Bonus Game, outcome.

The package's one export is PRESENTATION: the game, its screens and its per-event tables
(narration, cues, durations) that the shared machinery of engine/ui/ plays a book through.
"""

from __future__ import annotations

from engine.lab_riches import GAME
from engine.ui.app import Scene
from engine.ui.flow import Flow
from engine.ui.lab_riches import cues, narrate
from engine.ui.lab_riches.main import DURATIONS, MainScene, prompt
from engine.ui.lab_riches.pages import HowToPlayScene, RulesScene
from engine.ui.lab_riches.screens import OutcomeScene, SplashScene
from engine.ui.lab_riches.sounds import SOUNDS
from engine.ui.presentation import Presentation


def start_scene(flow: Flow) -> Scene:
    """Register every screen with the flow and return the first one (the splash)."""
    splash = SplashScene(flow)
    for scene in (splash, HowToPlayScene(flow), RulesScene(flow), MainScene(flow),
                  OutcomeScene(flow)):  # fmt: skip
        flow.register(scene.name, scene)
    return splash


PRESENTATION = Presentation(
    game=GAME,
    start=start_scene,
    narration=narrate.HANDLERS,
    cues=cues.HANDLERS,
    durations=DURATIONS,
    sounds=SOUNDS,
    prompt=prompt,
)
