"""£500K Power Puck Shot screens: splash, How To Play, Rules and Prizes, the Main Game with its
Bonus Game and Prize Game, and the outcome.

The package's one export is PRESENTATION: the game, its screens and its per-event tables
(narration, cues, durations, and `prepare`, which gives a shot the path of the arrow picked)
that the shared machinery of engine/ui/ plays a book through. The screens around the play are
the shared ones (engine/ui/scenes/) in this game's LOOK, with its own words (words.py).
"""

from __future__ import annotations

from engine.power_puck_shot import GAME
from engine.ui.app import Scene
from engine.ui.flow import Flow
from engine.ui.look import Look
from engine.ui.power_puck_shot import art, cues, narrate
from engine.ui.power_puck_shot.main import MainScene
from engine.ui.power_puck_shot.sounds import SOUNDS
from engine.ui.power_puck_shot.timing import DURATIONS, prepare
from engine.ui.power_puck_shot.words import HOW_TO_PLAY, RULES_TEXT, SPLASH
from engine.ui.presentation import Presentation
from engine.ui.scenes.rooms import open_rooms

LOOK = Look(
    backdrop=art.backdrop,
    panel=art.panel,
    icon=art.icon,
    icon_words=art.ICONS,
    gold=art.GOLD,
    title_art=art.title_art,
    howto_corner=True,  # the procedure: "In the top right of the splash screen is a 'HOW TO PLAY'"
)


def start_scene(flow: Flow) -> Scene:
    """Register every screen with the flow and return the first one (the splash)."""
    return open_rooms(flow, LOOK, MainScene(flow), HOW_TO_PLAY, RULES_TEXT, SPLASH)


PRESENTATION = Presentation(
    game=GAME,
    start=start_scene,
    narration=narrate.HANDLERS,
    cues=cues.HANDLERS,
    durations=DURATIONS,
    sounds=SOUNDS,
    prompt=narrate.prompt,
    prepare=prepare,
    look=LOOK,
    rules_text=RULES_TEXT,
)
