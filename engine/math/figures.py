"""Exact figures of a prize table: rounding, odds per tier, payout share per feature."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.math.table import PrizeTable


def round2(value: Fraction) -> Fraction:
    """Round to two decimal places, halves away from zero (as published figures are)."""
    sign = -1 if value < 0 else 1
    hundredths = (abs(value) * 100 + Fraction(1, 2)).__floor__()
    return Fraction(sign * hundredths, 100)


def show2(value: Fraction) -> str:
    """A fraction rounded to two decimals as text, e.g. '2.74'."""
    rounded = round2(value)
    whole, rest = divmod(abs(rounded.numerator * 100 // rounded.denominator), 100)
    return f"{'-' if rounded < 0 else ''}{whole:,}.{rest:02d}"


def tier_odds(table: PrizeTable) -> dict[int, Fraction]:
    """Odds of each winning tier, exactly: 1 in (pool ÷ count)."""
    return {
        tier.prize_pence: Fraction(table.base_pool_size, tier.count)
        for tier in table.tiers
        if tier.prize_pence
    }


def feature_payout(table: PrizeTable) -> dict[str, int]:
    """Pence paid by each feature (row, meter, instant, pot) across a base pool."""
    paid: dict[str, int] = {}
    for tier in table.tiers:
        for comp, count in tier.composition_counts():
            for part in comp.parts:
                if part.pence:  # a part that pays nothing (what a play shows) has no share
                    paid[part.feature] = paid.get(part.feature, 0) + part.pence * count
    return paid


def feature_share(table: PrizeTable) -> dict[str, Fraction]:
    """Each feature's share of the total payout, exactly (the shares add up to 1)."""
    total = table.total_prizes_pence
    return {feature: Fraction(pence, total) for feature, pence in feature_payout(table).items()}
