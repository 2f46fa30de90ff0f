"""Lab Riches screens: splash, How To Play, Rules and Prizes, Main Game, Bonus Game, outcome.

The package's one export is PRESENTATION: the game, its screens and its per-event tables
(narration, cues, durations) that the shared machinery of engine/ui/ plays a book through.
The screens around the play are the shared ones (engine/ui/scenes/) in Lab Riches' LOOK, with
its How To Play pages and rules text.
"""

from __future__ import annotations

from engine.lab_riches import GAME
from engine.ui.app import Scene
from engine.ui.flow import Flow
from engine.ui.lab_riches import cues, narrate
from engine.ui.lab_riches.look import LOOK
from engine.ui.lab_riches.main import DURATIONS, MainScene, prompt
from engine.ui.lab_riches.pages import HOW_TO_PLAY, RULES_TEXT
from engine.ui.lab_riches.sounds import SOUNDS
from engine.ui.presentation import Presentation
from engine.ui.scenes.rooms import open_rooms


def start_scene(flow: Flow) -> Scene:
    """Register every screen with the flow and return the first one (the splash)."""
    return open_rooms(flow, LOOK, MainScene(flow), HOW_TO_PLAY, RULES_TEXT)


PRESENTATION = Presentation(
    game=GAME,
    start=start_scene,
    narration=narrate.HANDLERS,
    cues=cues.HANDLERS,
    durations=DURATIONS,
    sounds=SOUNDS,
    prompt=prompt,
    look=LOOK,
    rules_text=RULES_TEXT,
)
