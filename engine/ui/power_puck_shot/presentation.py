"""£500K Power Puck Shot's PRESENTATION: the game, its screens and its per-event tables
(narration, cues, durations, and `prepare`, which gives a shot the path of the arrow picked)
that the shared machinery of engine/ui/ plays a book through. The screens around the play are
the shared ones (engine/ui/scenes/) in this game's LOOK (its COVER, cover.py), with its own
words (words.py).
"""

from __future__ import annotations

from engine.ui.app import Scene
from engine.ui.flow import Flow
from engine.ui.power_puck_shot import cues, narrate
from engine.ui.power_puck_shot.cover import COVER
from engine.ui.power_puck_shot.main import SHOOT, MainScene
from engine.ui.power_puck_shot.timing import DURATIONS, prepare
from engine.ui.power_puck_shot.words import HOW_TO_PLAY, SPLASH
from engine.ui.presentation import Controls, Presentation
from engine.ui.scenes.rooms import open_rooms


def start_scene(flow: Flow) -> Scene:
    """Register every screen with the flow and return the first one (the splash)."""
    return open_rooms(flow, COVER.look, MainScene(flow), HOW_TO_PLAY, COVER.rules_text, SPLASH)


PRESENTATION = Presentation(
    cover=COVER,
    start=start_scene,
    narration=narrate.HANDLERS,
    cues=cues.HANDLERS,
    durations=DURATIONS,
    controls=Controls(ids=(SHOOT,), labels=tuple(f"Shoot {name}" for name in narrate.ARROW_NAMES)),
    prompt=narrate.prompt,
    prepare=prepare,
)
