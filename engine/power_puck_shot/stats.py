"""£500K Power Puck Shot: what a book shows, counted (for certification and the math report).

Each feature is 1 when the play shows it, else 0 (FEATURES lists them; docs/games/power-puck-
shot.md "Near misses" defines each). The near misses: a row that does not fill ending at 11, 10
or 9 of its 12 squares, a row boosted that then does not fill, the meter ending at 5 (one short
of the Prize Game), a Main Game shot revealing exactly two Bonus symbols. `random_losses` gives
the books of random plays that lost (simulate.py): the baseline `certify` reports them beside.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from engine.power_puck_shot import rules
from engine.power_puck_shot.plan import events as plan_events
from engine.power_puck_shot.simulate import pays, random_plan
from engine.rng import Stream

BASELINE = b"power-puck-shot/random-play\x00"  # the baseline's streams: BASELINE || n, 8 bytes
LONG_SHOT = 12  # Pips: a Main Game shot crossing this many or more

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
    "row_three_short",
    "boosted_not_won",
    "meter_at_5",
    "two_bonus_symbols",
    "five_bonus_motifs",
    "power_bonus_game",
    "long_shot",
    "pot_100",
)


def features(book: Mapping[str, Any]) -> dict[str, int]:
    """1 or 0 per feature: whether this play shows it (see FEATURES)."""
    squares: Counter[str] = Counter()
    boosted: set[str] = set()
    won: set[str] = set()
    awards: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    prize_pucks = meter = 0
    shown: set[str] = set()  # the other features seen
    power = False  # the last Main Game shot was a Power Puck's
    for event in book["events"]:
        kind = event["type"]
        seen[kind] += 1
        if kind == "shot" and event["game"] == "main":
            power = bool(event.get("power"))
            times = 2 if power else 1
            bonus = event["reveals"].count("bonus")
            shown.update(
                name
                for name, on in (
                    ("two_bonus_symbols", bonus == 2),
                    ("five_bonus_motifs", bonus * times >= 5),
                    ("long_shot", len(event["reveals"]) >= LONG_SHOT),
                )
                if on
            )
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
        elif kind == "shot" and event["game"] == "prize" and event["reveals"] == ["pot:10000"]:
            shown.add("pot_100")
        elif kind == "bonus_start" and power:
            shown.add("power_bonus_game")
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
        "row_three_short": int(3 in left),
        "boosted_not_won": int(bool(boosted - won)),
        "meter_at_5": int(meter == rules.SYMBOLS_TO_UNLOCK - 1),
        **{name: int(name in shown) for name in FEATURES[-5:]},
    }
    for n in range(rules.MIN_PRIZE_PUCKS, rules.MAX_PRIZE_PUCKS + 1):
        out[f"prize_pucks_{n}"] = int(prize_pucks == n)
    return out


def drawn_again(n: int) -> int:
    """How many of the first n random plays of the baseline's streams run past
    MAX_RANDOM_SHOTS, so that the book builder draws them again (docs/books.md, step 2.1)."""
    return sum(random_plan(Stream(BASELINE + k.to_bytes(8, "big"))) is None for k in range(n))


def random_losses(n: int, model: str) -> Iterator[dict[str, Any]]:
    """The books (events only) of the first n random plays (simulate.py) that win nothing, from
    fixed streams: the baseline of the fairness rule (engine/math/fairness.py). Every model is
    measured against the same random play: model 3's losing plays are such plays."""
    if model not in rules.BOOK_MODELS:
        raise ValueError(f"unknown Power Puck Shot model {model!r}")
    found = k = 0
    while found < n:
        plan = random_plan(Stream(BASELINE + k.to_bytes(8, "big")))
        k += 1
        if plan is not None and not pays(plan):
            found += 1
            yield {"events": plan_events(plan)}
