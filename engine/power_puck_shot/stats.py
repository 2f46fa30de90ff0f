"""£500K Power Puck Shot: what a book shows, counted (for certification and the math report).

Each feature is 1 when the play shows it, else 0 (FEATURES lists them; docs/books.md). The
near misses are the ones the issue asks to report: rows left one or two squares short, a row
boosted that then does not fill, a meter that stops at 5 (one short of the Prize Game).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.power_puck_shot import rules

FEATURES = (
    "row_wins",
    "bonus_games",
    "boosters",
    "extra_pucks",
    "power_pucks",
    "extra_squares",
    "prize_game",
    *(f"prize_pucks_{n}" for n in range(rules.MIN_PRIZE_PUCKS, rules.MAX_PRIZE_PUCKS + 1)),
    "row_one_short",
    "row_two_short",
    "boosted_not_won",
    "meter_at_5",
)


def features(book: Mapping[str, Any]) -> dict[str, int]:
    """1 or 0 per feature: whether this play shows it (see FEATURES)."""
    squares: Counter[str] = Counter()
    boosted: set[str] = set()
    won: set[str] = set()
    awards: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    prize_pucks = meter = 0
    for event in book["events"]:
        kind = event["type"]
        seen[kind] += 1
        if kind == "shot" and event["game"] == "main":
            times = 2 if event.get("power") else 1
            for reveal in event["reveals"]:
                if reveal.startswith("square:"):
                    squares[reveal[len("square:") :]] += times
                elif reveal == "prize":
                    meter += times
        elif kind == "shot" and event["game"] == "bonus":
            for award in event["reveals"]:
                name, _, rest = award.partition(":")
                awards[name] += 1
                if name == "booster":
                    boosted.add(rest)
                elif name == "squares":
                    colour, n = rest.split(":")
                    squares[colour] += int(n)
                elif name == "prize":
                    meter += 1
        elif kind == "row_won":
            won.add(event["colour"])
        elif kind == "prize_start":
            prize_pucks = int(event["pucks"])
    left = [rules.SQUARES_PER_ROW - squares[c] for c in rules.COLOURS if c not in won]
    out = {
        "row_wins": int(bool(won)),
        "bonus_games": int(seen["bonus_start"] > 0),
        "boosters": int(awards["booster"] > 0),
        "extra_pucks": int(awards["extra"] > 0),
        "power_pucks": int(awards["power"] > 0),
        "extra_squares": int(awards["squares"] > 0),
        "prize_game": int(prize_pucks > 0),
        "row_one_short": int(1 in left),
        "row_two_short": int(2 in left),
        "boosted_not_won": int(bool(boosted - won)),
        "meter_at_5": int(meter == rules.SYMBOLS_TO_UNLOCK - 1),
    }
    for n in range(rules.MIN_PRIZE_PUCKS, rules.MAX_PRIZE_PUCKS + 1):
        out[f"prize_pucks_{n}"] = int(prize_pucks == n)
    return out
