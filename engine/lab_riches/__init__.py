"""Lab Riches (£3): rules, book generator, independent validator, replay: one declared Game."""

from __future__ import annotations

from engine.game import Action, Game, Lazy
from engine.lab_riches import compositions, rules

# Every event a Lab Riches book can hold, in the order a play first shows them (docs/books.md).
EVENT_TYPES = (
    "start",
    "go",
    "prize_boxes",
    "lock",
    "row_win",
    "segments",
    "meter_box",
    "extra_goes",
    "bonus_activated",
    "bonus_row",
    "instant",
    "bonus_end",
    "end",
)

GAME = Game(
    rules=rules,
    package="lab_riches",
    check_composition=compositions.check,
    event_types=EVENT_TYPES,
    waits={"go": Action("go"), "bonus_row": Action("go")},
    build_book=Lazy("engine.lab_riches.generator", "build_book"),
    models=tuple(rules.MODELS),
    replay=Lazy("engine.lab_riches.replay", "Replay"),
    validator="engine.lab_riches.validator",
    statistics="engine.lab_riches.stats",
    presentation="engine.ui.lab_riches",
    examples="engine.lab_riches.examples",
)
