"""£500K Power Puck Shot (£5): rules, prize table, book builder, replay, independent validator,
statistics and screens (engine/ui/power_puck_shot/), declared as one Game."""

from __future__ import annotations

from engine.game import Action, Game
from engine.power_puck_shot import compositions, rules
from engine.power_puck_shot.generator import MODELS, build_book
from engine.power_puck_shot.replay import Replay

# Every event a Power Puck Shot book can hold, in the order a play first shows them.
EVENT_TYPES = ("start", "shot", "row_won", "bonus_start", "bonus_end", "prize_start", "end")

GAME = Game(
    rules=rules,
    package="power_puck_shot",
    check_composition=compositions.check,
    event_types=EVENT_TYPES,
    waits={"shot": Action("shoot", choices=rules.DIRECTIONAL_ARROWS)},
    build_book=build_book,
    models=MODELS,
    replay=Replay,
    validator="engine.power_puck_shot.validator",
    statistics="engine.power_puck_shot.stats",
    presentation="engine.ui.power_puck_shot",
)
