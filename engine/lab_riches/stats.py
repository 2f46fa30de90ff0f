"""Lab Riches: what a book shows, counted (for certification reports and the math report)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from engine.lab_riches import rules
from engine.lab_riches.generator import _events
from engine.lab_riches.simulate import plan_pays, random_plan
from engine.rng import Stream

BASELINE = b"lab-riches/random-play\x00"  # the baseline's streams: BASELINE || n as 8 bytes

LONG_PLAY = 9  # goes: a play with three or more extra goes
FEATURES = (
    "bonus_games",
    "extra_goes",
    "meter_segments",
    "meter_boxes",
    "meter_short_of_prize",
    "meter_at_7",
    "near_miss_rows",
    "near_miss_rows_3",
    "near_miss_top_box",
    "long_play",
    "near_miss_bonus",
    "row_wins",
    "instant_prizes",
)


def features(book: Mapping[str, Any]) -> dict[str, int]:
    """1 or 0 per feature: whether this play shows it (see FEATURES and docs/books.md)."""
    events = book["events"]
    locks = [0] * rules.ROWS
    seen = {"bonus_activated": 0, "extra_goes": 0, "segments": 0, "row_win": 0, "instant": 0}
    two_bonus = goes = 0
    boxes: list[int] = [0] * rules.ROWS
    for event in events:
        kind = event["type"]
        if kind == "go":
            goes += 1
        if kind == "prize_boxes":
            boxes = list(event["amounts"])
        if kind in seen:
            seen[kind] = 1
        elif kind == "lock":
            locks[event["row"]] += 1
        elif kind == "go" and event["top"].count(rules.BONUS) == rules.BONUS_MOTIFS_TO_ACTIVATE - 1:
            two_bonus = 1
    short = [r for r, n in enumerate(locks) if n == rules.COLUMNS - 1]  # rows one lock short
    meter = events[-1]["meter"]
    paid = rules.meter_prize(meter) > 0
    return {
        "bonus_games": seen["bonus_activated"],
        "extra_goes": seen["extra_goes"],
        "meter_segments": seen["segments"],
        "meter_boxes": int(paid),
        "meter_short_of_prize": int(meter > 0 and not paid),
        "meter_at_7": int(meter == rules.METER_BOXES[0][1]),
        "near_miss_rows": int(len(short) > 0),
        "near_miss_rows_3": int(len(short) >= 3),
        "near_miss_top_box": int(any(boxes[r] == max(rules.PRIZE_BOX_AMOUNTS) for r in short)),
        "long_play": int(goes >= LONG_PLAY),
        "near_miss_bonus": two_bonus,
        "row_wins": seen["row_win"],
        "instant_prizes": seen["instant"],
    }


def random_losses(n: int, model: str) -> Iterator[dict[str, Any]]:
    """The books (events only) of the first n random plays under the documented rules of a
    model that win nothing (simulate.py), from fixed streams: the baseline of the fairness rule
    (engine/math/fairness.py)."""
    shows = rules.MODELS[model]
    found = k = 0
    while found < n:
        stream = Stream(BASELINE + k.to_bytes(8, "big"))
        k += 1
        plan = random_plan(stream, shows)
        if not plan_pays(plan):
            found += 1
            events = _events(stream, plan.top, plan.locks, plan.boxes, plan.triggers, shows)
            yield {"events": events}
