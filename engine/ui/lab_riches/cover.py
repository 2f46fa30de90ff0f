"""What a page shows of Lab Riches before it is opened: its look, its Rules and Prizes words
and its cues' notes (engine.ui.presentation.Cover)."""

from __future__ import annotations

from engine.lab_riches import GAME
from engine.ui.lab_riches.look import LOOK
from engine.ui.lab_riches.pages import RULES_TEXT
from engine.ui.lab_riches.sounds import BED, SOUNDS
from engine.ui.presentation import Cover

COVER = Cover(game=GAME, look=LOOK, rules_text=RULES_TEXT, sounds=SOUNDS, music=BED)
