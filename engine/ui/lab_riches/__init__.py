"""Lab Riches screens: splash, How To Play, Rules and Prizes, Main Game, Bonus Game, outcome.

The package exports COVER (cover.py: the game's look, its Rules and Prizes words and its cues'
notes, what the lobby shows of it) and PRESENTATION (presentation.py: the game, its screens and
its per-event tables (narration, cues, durations), which the shared machinery of engine/ui/
plays a book through).
Each is imported when first read (PEP 562), so a page that shows only the game's card, the
lobby, does not import its screens (docs/build.md, "Our part of the start").
"""

from __future__ import annotations

from engine.ui.presentation import Cover, Presentation, lazy_exports

COVER: Cover  # cover.py
PRESENTATION: Presentation  # presentation.py
__getattr__ = lazy_exports(__name__)
