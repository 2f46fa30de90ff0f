"""Lab Riches: which winning compositions its rules can show (the prize table is checked by it)."""

from __future__ import annotations

from collections import Counter

from engine.lab_riches import rules
from engine.outcome import Composition

METER_PRIZES = frozenset(pence for _, _, pence in rules.METER_BOXES if pence)
AMOUNTS = {
    "row": frozenset(rules.PRIZE_BOX_AMOUNTS),
    "meter": METER_PRIZES,
    "instant": frozenset(rules.INSTANT_PRIZE_AMOUNTS),
}


def check(comp: Composition) -> str | None:
    """Why the rules cannot show this winning composition, or None if they can."""
    if not comp.parts:
        return "a winning composition needs at least one part"
    counts = Counter(part.feature for part in comp.parts)
    for part in comp.parts:
        if part.feature not in rules.FEATURES:
            return f"unknown feature {part.feature!r}"
        if part.detail:
            return f"a {part.feature} part carries no detail, got {dict(part.detail)}"
        allowed = AMOUNTS[part.feature]
        if part.pence not in allowed:
            return f"{part.pence} pence is not a {part.feature} amount {sorted(allowed)}"
    if counts["row"] > rules.MAX_ROW_WINS:
        return f"{counts['row']} rows won, at most {rules.MAX_ROW_WINS}"
    if counts["meter"] > 1:
        return "only the one meter box lit at the end pays"
    if counts["instant"] > rules.MAX_BONUS_GAMES:
        return f"{counts['instant']} Instant Prizes, at most {rules.MAX_BONUS_GAMES} Bonus Games"
    return None
