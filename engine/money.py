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


MAX_LIMIT_PENCE: Pence = 10**10  # the largest spend limit a player may set (£100,000,000)


def parse_pounds(text: str, *, most: Pence = MAX_LIMIT_PENCE) -> Pence:
    """An amount a player typed in pounds: whole pounds ('20') or pounds and pence ('12.50',
    '12.5'), a '£' and thousands commas allowed; as pence. Raises ValueError with a sentence
    for the player: not a number, below £0, more than two places of pence, above `most`."""
    raw = text.strip().replace(",", "").replace(" ", "")
    raw = raw[1:] if raw.startswith("£") else raw
    negative = raw.startswith("-") or raw.startswith("−")
    digits = raw[1:] if negative else raw
    whole, dot, part = digits.partition(".")
    if not (whole or part) or not (whole + part).isascii() or not (whole + part).isdecimal():
        raise ValueError("Type an amount in pounds, like 20 or 12.50.")
    if negative:
        raise ValueError("A limit cannot be below £0.00.")
    if len(part) > 2:
        raise ValueError("Pence go to two places at most, like 12.50.")
    pence = int(whole or "0") * 100 + int((part + "00")[:2]) if dot else int(whole) * 100
    if pence > most:
        raise ValueError(f"A limit can be at most {format_pounds(most, always_pence=False)}.")
    return pence
