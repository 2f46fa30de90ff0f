"""£500K Power Puck Shot: which compositions its rules can show (model 2).

A composition lists what a play pays (`row` and `pot` parts) and, in one `bonus` part that pays
nothing, everything its Bonus Games show: how many games and Bonus Pucks, and each award
(boosters by colour, extra pucks, Power Pucks, "+N" coloured squares, Prize Game symbols). So
the outcome, not the book builder, decides how a boost or an extra puck can happen, and the
prize table bounds it. docs/math.md has the fields; `bonus_awards` reads them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache

from engine.outcome import Composition, Part
from engine.power_puck_shot import rules

BONUS_FIELDS = ("games", "pucks", "boosters", "extra_pucks", "power_pucks", "squares", "symbols")


@cache
def pot_sums(pucks: int) -> frozenset[int]:
    """Every PRIZE POT total that exactly this many Prize Game Pucks can reveal."""
    sums = {0}
    for _ in range(pucks):
        sums = {s + a for s in sums for a in rules.PRIZE_PUCK_AMOUNTS}
    return frozenset(sums)


@dataclass(frozen=True)
class BonusAwards:
    """What a play's Bonus Games show (all zero: no Bonus Game)."""

    games: int = 0
    pucks: int = 0
    boosters: tuple[str, ...] = ()  # one colour per booster, in Prize Table order
    extra_pucks: int = 0
    power_pucks: int = 0
    squares: tuple[tuple[str, int], ...] = ()  # one (colour, N) per "+N" award
    symbols: int = 0

    @property
    def awards(self) -> int:
        """How many awards the Bonus Pucks reveal in all."""
        return (
            len(self.boosters)
            + self.extra_pucks
            + self.power_pucks
            + len(self.squares)
            + self.symbols
        )

    def boosts(self, colour: str) -> int:
        """How many boosters of this colour the Bonus Games award."""
        return self.boosters.count(colour)


def _colour_order(colour: str) -> int:
    return rules.COLOURS.index(colour)


def _canonical(detail: dict[str, str | int]) -> dict[str, str | int]:
    """The one way to write these awards: zero and empty fields left out, lists in order."""
    return {k: v for k, v in detail.items() if v not in (0, "")}


def bonus_awards(part: Part) -> BonusAwards:
    """The awards of a `bonus` part; ValueError when a field is unknown or malformed."""
    detail = dict(part.detail)
    unknown = set(detail) - set(BONUS_FIELDS)
    if unknown:
        raise ValueError(f"unknown bonus fields {sorted(unknown)}")
    counts = {}
    for key in ("games", "pucks", "extra_pucks", "power_pucks", "symbols"):
        value = detail.get(key, 0)
        if not isinstance(value, int) or value < 0:
            raise ValueError(f"{key} must be a whole number, got {value!r}")
        counts[key] = value
    boosters_text, squares_text = detail.get("boosters", ""), detail.get("squares", "")
    if not isinstance(boosters_text, str) or not isinstance(squares_text, str):
        raise ValueError("boosters and squares are comma-separated text")
    boosters = tuple(boosters_text.split(",")) if boosters_text else ()
    squares: list[tuple[str, int]] = []
    for item in squares_text.split(",") if squares_text else ():
        colour, _, n = item.partition(":")
        if not n.isascii() or not n.isdigit():
            raise ValueError(f"a squares award is colour:N, got {item!r}")
        squares.append((colour, int(n)))
    for colour in (*boosters, *(c for c, _ in squares)):
        if colour not in rules.COLOURS:
            raise ValueError(f"unknown colour {colour!r}")
    awards = BonusAwards(
        games=counts["games"],
        pucks=counts["pucks"],
        boosters=boosters,
        extra_pucks=counts["extra_pucks"],
        power_pucks=counts["power_pucks"],
        squares=tuple(squares),
        symbols=counts["symbols"],
    )
    ordered = (
        tuple(sorted(boosters, key=_colour_order)) == boosters
        and tuple(sorted(squares, key=lambda s: (_colour_order(s[0]), s[1]))) == awards.squares
    )
    if not ordered or _canonical(detail) != detail:
        raise ValueError("write boosters and squares in Prize Table order and leave out zeros")
    return awards


def _check_bonus(awards: BonusAwards) -> str | None:
    if not 1 <= awards.games <= rules.MAX_BONUS_GAMES:
        return f"a play shows 1-{rules.MAX_BONUS_GAMES} Bonus Games, got {awards.games}"
    most = max(rules.BONUS_PUCKS_FOR_MOTIFS.values()) * awards.games
    if not awards.games <= awards.pucks <= most:
        games = awards.games
        return f"{games} Bonus Game(s) give {games}-{most} Bonus Pucks, not {awards.pucks}"
    if not awards.pucks <= awards.awards <= rules.MAX_AWARDS_PER_BONUS_PUCK * awards.pucks:
        top = rules.MAX_AWARDS_PER_BONUS_PUCK * awards.pucks
        return (
            f"{awards.pucks} Bonus Puck(s) reveal {awards.pucks}-{top} awards, not {awards.awards}"
        )
    for colour, boosts in Counter(awards.boosters).items():
        if colour in rules.UNBOOSTED:
            return f"the {colour} row takes no booster"
        if boosts > rules.MAX_BOOSTS:
            return (
                f"{boosts} boosters for {colour}: a row is boosted at most {rules.MAX_BOOSTS} times"
            )
    for colour, n in awards.squares:
        if colour in rules.UNBOOSTED or n not in rules.EXTRA_SQUARES:
            return f"no '+{n}' {colour} squares award exists"
    return None


def check(comp: Composition) -> str | None:
    """Why the rules cannot show this composition, or None if they can (a losing composition
    may hold a `bonus` part alone)."""
    colours: list[str] = []
    boosts: dict[str, int] = {}
    pot_pucks: int | None = None
    awards = BonusAwards()
    bonus_parts = 0
    for part in comp.parts:
        detail = dict(part.detail)
        if part.feature == "row":
            colour, boosted = detail.get("colour"), detail.get("boosts")
            if set(detail) != {"colour", "boosts"} or colour not in rules.BOOST_LADDERS:
                return f"a row needs a colour of {list(rules.COLOURS)} and boosts, got {detail}"
            if not isinstance(boosted, int) or not 0 <= boosted <= rules.MAX_BOOSTS:
                return f"boosts must be 0-{rules.MAX_BOOSTS}, got {boosted!r}"
            ladder = rules.row_amount(str(colour), boosted)
            if part.pence != ladder:
                return f"the {colour} row after {boosted} boosts pays {ladder}, not {part.pence}"
            colours.append(str(colour))
            boosts[str(colour)] = boosted
        elif part.feature == "pot":
            pucks = detail.get("pucks")
            if set(detail) != {"pucks"} or not isinstance(pucks, int):
                return f"a pot needs the number of Prize Game Pucks, got {detail}"
            if not rules.MIN_PRIZE_PUCKS <= pucks <= rules.MAX_PRIZE_PUCKS:
                low, high = rules.MIN_PRIZE_PUCKS, rules.MAX_PRIZE_PUCKS
                return f"{pucks} Prize Game Pucks, must be {low}-{high}"
            if part.pence not in pot_sums(pucks):
                return f"{pucks} Prize Game Pucks cannot reveal {part.pence} pence in all"
            if pot_pucks is not None:
                return "a play has one PRIZE POT"
            pot_pucks = pucks
        elif part.feature == "bonus":
            if part.pence != 0:
                return f"the bonus part pays nothing, not {part.pence}"
            bonus_parts += 1
            try:
                awards = bonus_awards(part)
            except ValueError as exc:
                return f"bonus awards: {exc}"
            problem = _check_bonus(awards)
            if problem:
                return problem
        else:
            return f"unknown feature {part.feature!r}"
        if part.feature != "bonus" and part.pence <= 0:
            return f"a {part.feature} pays something, not {part.pence}"
    if bonus_parts > 1:
        return "a play has one bonus part (all its Bonus Games)"
    if len(set(colours)) != len(colours):
        return "a colour's row can be won only once"
    if len(colours) > rules.MAX_ROW_WINS:
        return f"{len(colours)} rows won, at most {rules.MAX_ROW_WINS}"
    for colour, boosted in boosts.items():
        if awards.boosts(colour) != boosted:
            return (
                f"the {colour} row won after {boosted} boosts, but the Bonus Games award "
                f"{awards.boosts(colour)} {colour} boosters"
            )
    unlocked = rules.SYMBOLS_TO_UNLOCK - 1 + (pot_pucks or 0)
    if awards.symbols > (unlocked if pot_pucks else rules.SYMBOLS_TO_UNLOCK - 1):
        return (
            f"{awards.symbols} Prize Game symbols from the Bonus Games would unlock the Prize Game"
        )
    return None
