"""£500K Power Puck Shot (£5): rules, prize table, book builder, replay, independent validator,
statistics and screens (engine/ui/power_puck_shot/), declared as one Game."""

from __future__ import annotations

from engine.game import Action, Game, Lazy
from engine.power_puck_shot import compositions, rules

# Every event a Power Puck Shot book can hold, in the order a play first shows them.
EVENT_TYPES = ("start", "shot", "row_won", "bonus_start", "bonus_end", "prize_start", "end")

GAME = Game(
    rules=rules,
    package="power_puck_shot",
    check_composition=compositions.check,
    event_types=EVENT_TYPES,
    waits={"shot": Action("shoot", choices=rules.DIRECTIONAL_ARROWS)},
    build_book=Lazy("engine.power_puck_shot.generator", "build_book"),
    models=rules.BOOK_MODELS,
    replay=Lazy("engine.power_puck_shot.replay", "Replay"),
    validator="engine.power_puck_shot.validator",
    statistics="engine.power_puck_shot.stats",
    presentation="engine.ui.power_puck_shot",
    examples="engine.power_puck_shot.examples",
    # an arrow per shot: the endpoint's bound, above any play's shots (rules.MAX_RANDOM_SHOTS
    # Main Game shots, then the Bonus and Prize Pucks)
    max_choices=64,
)
