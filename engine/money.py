"""Money is an integer number of pence; this module only formats it for people."""

from __future__ import annotations

Pence = int


def format_pounds(pence: Pence, *, always_pence: bool = True) -> str:
    """Format pence as pounds, e.g. 25000000 -> '£250,000.00' (or '£250,000')."""
    if not isinstance(pence, int) or isinstance(pence, bool):
        raise TypeError(f"money must be int pence, got {type(pence).__name__}")
    sign = "-" if pence < 0 else ""
    pounds, rest = divmod(abs(pence), 100)
    if not always_pence and rest == 0:
        return f"{sign}£{pounds:,}"
    return f"{sign}£{pounds:,}.{rest:02d}"
