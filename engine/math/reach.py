"""Which compositions each game's rules can show, read from the games' rules modules."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from types import ModuleType

from engine.lab_riches import rules as lab_riches
from engine.outcome import Composition
from engine.power_puck_shot import rules as power_puck_shot

RULES: dict[str, ModuleType] = {
    lab_riches.GAME_ID: lab_riches,
    power_puck_shot.GAME_ID: power_puck_shot,
}


def rules_for(game: str) -> ModuleType:
    """The rules module of a game id (KeyError if unknown)."""
    return RULES[game]


def published_figures(game: str) -> tuple[Fraction, Fraction]:
    """The procedures' overall odds (1 in X) and expected payout percentage, exactly."""
    rules = rules_for(game)
    return Fraction(rules.PUBLISHED_ODDS_ONE_IN), Fraction(rules.PUBLISHED_RTP_PERCENT)


def _lab_riches(comp: Composition) -> str | None:
    rules = lab_riches
    meter_prizes = {pence for _, _, pence in rules.METER_BOXES if pence}
    counts = Counter(part.feature for part in comp.parts)
    for part in comp.parts:
        if part.feature not in rules.FEATURES:
            return f"unknown feature {part.feature!r}"
        if part.detail:
            return f"a {part.feature} part carries no detail, got {dict(part.detail)}"
        allowed = {
            "row": rules.PRIZE_BOX_AMOUNTS,
            "meter": meter_prizes,
            "instant": rules.INSTANT_PRIZE_AMOUNTS,
        }[part.feature]
        if part.pence not in allowed:
            return f"{part.pence} pence is not a {part.feature} amount {sorted(allowed)}"
    if counts["row"] > rules.MAX_ROW_WINS:
        return f"{counts['row']} rows won, at most {rules.MAX_ROW_WINS}"
    if counts["meter"] > 1:
        return "only the one meter box lit at the end pays"
    if counts["instant"] > rules.MAX_BONUS_GAMES:
        return f"{counts['instant']} Instant Prizes, at most {rules.MAX_BONUS_GAMES} Bonus Games"
    return None


@cache
def pot_sums(pucks: int) -> frozenset[int]:
    """Every PRIZE POT total that exactly this many Prize Game Pucks can reveal."""
    sums = {0}
    for _ in range(pucks):
        sums = {s + a for s in sums for a in power_puck_shot.PRIZE_PUCK_AMOUNTS}
    return frozenset(sums)


def _power_puck_shot(comp: Composition) -> str | None:
    rules = power_puck_shot
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


CHECKS: dict[str, Callable[[Composition], str | None]] = {
    lab_riches.GAME_ID: _lab_riches,
    power_puck_shot.GAME_ID: _power_puck_shot,
}


def rules_error(game: str, comp: Composition) -> str | None:
    """Why the game's rules cannot show this winning composition, or None if they can."""
    if not comp.parts:
        return "a winning composition needs at least one part"
    return CHECKS[game](comp)
