"""What a page shows of £500K Power Puck Shot before it is opened: its look, its Rules and
Prizes words and its cues' notes (engine.ui.presentation.Cover)."""

from __future__ import annotations

from engine.power_puck_shot import GAME
from engine.ui.look import Look
from engine.ui.power_puck_shot import art
from engine.ui.power_puck_shot.sounds import BED, SOUNDS
from engine.ui.power_puck_shot.words import RULES_TEXT
from engine.ui.presentation import Cover

LOOK = Look(
    backdrop=art.backdrop,
    panel=art.panel,
    icon=art.icon,
    icon_words=art.ICONS,
    gold=art.GOLD,
    title_art=art.title_art,
    howto_corner=True,  # the procedure: "In the top right of the splash screen is a 'HOW TO PLAY'"
)

COVER = Cover(game=GAME, look=LOOK, rules_text=RULES_TEXT, sounds=SOUNDS, music=BED)
