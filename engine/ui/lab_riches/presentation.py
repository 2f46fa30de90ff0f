"""Lab Riches' PRESENTATION: the game, its screens and its per-event tables (narration, cues,
durations) that the shared machinery of engine/ui/ plays a book through. The screens around
the play are the shared ones (engine/ui/scenes/) in Lab Riches' LOOK, with its How To Play
pages and rules text (its COVER, cover.py).
"""

from __future__ import annotations

from engine.ui.app import Scene
from engine.ui.flow import Flow
from engine.ui.lab_riches import cues, narrate
from engine.ui.lab_riches.cover import COVER
from engine.ui.lab_riches.main import DURATIONS, MainScene, prompt
from engine.ui.lab_riches.pages import HOW_TO_PLAY
from engine.ui.presentation import Controls, Presentation
from engine.ui.scenes.rooms import open_rooms


def start_scene(flow: Flow) -> Scene:
    """Register every screen with the flow and return the first one (the splash)."""
    return open_rooms(flow, COVER.look, MainScene(flow), HOW_TO_PLAY, COVER.rules_text)


PRESENTATION = Presentation(
    cover=COVER,
    start=start_scene,
    narration=narrate.HANDLERS,
    cues=cues.HANDLERS,
    durations=DURATIONS,
    controls=Controls(ids=("go",), labels=("GO",), own_cue=("go",)),  # GO sounds its own cue
    prompt=prompt,
)
