"""Lab Riches: what a book shows, counted (for certification reports and the math report)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.lab_riches import rules

FEATURES = (
    "bonus_games",
    "extra_goes",
    "meter_segments",
    "meter_boxes",
    "meter_short_of_prize",
    "meter_at_7",
    "near_miss_rows",
    "near_miss_bonus",
    "row_wins",
    "instant_prizes",
)


def features(book: Mapping[str, Any]) -> dict[str, int]:
    """1 or 0 per feature: whether this play shows it (see FEATURES and docs/books.md)."""
    events = book["events"]
    locks = [0] * rules.ROWS
    seen = {"bonus_activated": 0, "extra_goes": 0, "segments": 0, "row_win": 0, "instant": 0}
    two_bonus = 0
    for event in events:
        kind = event["type"]
        if kind in seen:
            seen[kind] = 1
        elif kind == "lock":
            locks[event["row"]] += 1
        elif kind == "go" and event["top"].count(rules.BONUS) == rules.BONUS_MOTIFS_TO_ACTIVATE - 1:
            two_bonus = 1
    meter = events[-1]["meter"]
    paid = rules.meter_prize(meter) > 0
    return {
        "bonus_games": seen["bonus_activated"],
        "extra_goes": seen["extra_goes"],
        "meter_segments": seen["segments"],
        "meter_boxes": int(paid),
        "meter_short_of_prize": int(meter > 0 and not paid),
        "meter_at_7": int(meter == rules.METER_BOXES[0][1]),
        "near_miss_rows": int(any(n == rules.COLUMNS - 1 for n in locks)),
        "near_miss_bonus": two_bonus,
        "row_wins": seen["row_win"],
        "instant_prizes": seen["instant"],
    }
