"""£500K Power Puck Shot: which winning compositions its rules can show."""

from __future__ import annotations

from functools import cache

from engine.outcome import Composition
from engine.power_puck_shot import rules


@cache
def pot_sums(pucks: int) -> frozenset[int]:
    """Every PRIZE POT total that exactly this many Prize Game Pucks can reveal."""
    sums = {0}
    for _ in range(pucks):
        sums = {s + a for s in sums for a in rules.PRIZE_PUCK_AMOUNTS}
    return frozenset(sums)


def check(comp: Composition) -> str | None:
    """Why the rules cannot show this winning composition, or None if they can."""
    if not comp.parts:
        return "a winning composition needs at least one part"
    colours: list[object] = []
    pots = 0
    for part in comp.parts:
        detail = dict(part.detail)
        if part.feature == "row":
            colour, boosts = detail.get("colour"), detail.get("boosts")
            if set(detail) != {"colour", "boosts"} or colour not in rules.BOOST_LADDERS:
                return f"a row needs a colour of {list(rules.COLOURS)} and boosts, got {detail}"
            if not isinstance(boosts, int) or not 0 <= boosts <= rules.MAX_BOOSTS:
                return f"boosts must be 0-{rules.MAX_BOOSTS}, got {boosts!r}"
            ladder = rules.row_amount(str(colour), boosts)
            if part.pence != ladder:
                return f"the {colour} row after {boosts} boosts pays {ladder}, not {part.pence}"
            colours.append(colour)
        elif part.feature == "pot":
            pucks = detail.get("pucks")
            if set(detail) != {"pucks"} or not isinstance(pucks, int):
                return f"a pot needs the number of Prize Game Pucks, got {detail}"
            if not rules.MIN_PRIZE_PUCKS <= pucks <= rules.MAX_PRIZE_PUCKS:
                low, high = rules.MIN_PRIZE_PUCKS, rules.MAX_PRIZE_PUCKS
                return f"{pucks} Prize Game Pucks, must be {low}-{high}"
            if part.pence not in pot_sums(pucks):
                return f"{pucks} Prize Game Pucks cannot reveal {part.pence} pence in all"
            pots += 1
        else:
            return f"unknown feature {part.feature!r}"
    if len(set(colours)) != len(colours):
        return "a colour's row can be won only once"
    if len(colours) > rules.MAX_ROW_WINS:
        return f"{len(colours)} rows won, at most {rules.MAX_ROW_WINS}"
    if pots > 1:
        return "a play has one PRIZE POT"
    return None
