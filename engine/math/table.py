"""Prize tables as data: tiers of Prize Amounts, their counts per base pool and compositions.

A table is read from plain data (parsed TOML or JSON) and validated when it is built: the
compositions add up to their tier, every amount is one the game's rules can show, and the
overall odds and payout round to the figures published in the procedures.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from engine.math.figures import round2, show2
from engine.outcome import Composition, Part

if TYPE_CHECKING:
    from engine.game import Game


class TableError(ValueError):
    """A prize table that is malformed, unreachable under the rules or off the published figures."""


@dataclass(frozen=True)
class Tier:
    """One Prize Amount, how many plays of a base pool win it, and how it can be shown."""

    prize_pence: int
    count: int
    compositions: tuple[tuple[Composition, int], ...]

    @property
    def total_weight(self) -> int:
        """The sum of the compositions' weights."""
        return sum(weight for _, weight in self.compositions)

    def composition_counts(self, scale: int = 1) -> tuple[tuple[Composition, int], ...]:
        """How many plays of a pool of scale base pools show each composition."""
        total = self.total_weight
        return tuple(
            (comp, self.count * scale * weight // total) for comp, weight in self.compositions
        )

    def as_json(self) -> dict[str, Any]:
        """The tier as printed by `build.py math --json`."""
        return {
            "prize_pence": self.prize_pence,
            "count": self.count,
            "compositions": [
                {"parts": comp.to_json(), "weight": weight} for comp, weight in self.compositions
            ],
        }


@dataclass(frozen=True)
class PrizeTable:
    """A game's validated prize table for one base pool."""

    game: str
    name: str
    model: str
    price_pence: int
    base_pool_size: int
    tiers: tuple[Tier, ...]
    top_prize_pence: int

    @property
    def winning_plays(self) -> int:
        """Plays in a base pool that win a prize."""
        return sum(tier.count for tier in self.tiers if tier.prize_pence > 0)

    @property
    def total_prizes_pence(self) -> int:
        """The sum of all prizes in a base pool."""
        return sum(tier.prize_pence * tier.count for tier in self.tiers)

    @property
    def odds_one_in(self) -> Fraction:
        """Overall odds of winning, exactly: 1 in (pool ÷ winning plays)."""
        return Fraction(self.base_pool_size, self.winning_plays)

    @property
    def rtp(self) -> Fraction:
        """Expected payout as a fraction of the price, exactly."""
        return Fraction(self.total_prizes_pence, self.base_pool_size * self.price_pence)

    def tier(self, prize_pence: int) -> Tier:
        """The tier of this Prize Amount."""
        for tier in self.tiers:
            if tier.prize_pence == prize_pence:
                return tier
        raise KeyError(f"{self.game}: no tier of {prize_pence} pence")

    def as_json(self) -> dict[str, Any]:
        """The object `build.py math --json` prints for this game."""
        return {
            "id": self.game,
            "name": self.name,
            "model": self.model,
            "price_pence": self.price_pence,
            "pool_size": self.base_pool_size,
            "tiers": [tier.as_json() for tier in self.tiers],
            "odds_one_in": float(round2(self.odds_one_in)),
            "rtp_percent": float(round2(self.rtp * 100)),
            "top_prize_pence": self.top_prize_pence,
        }


def _int(data: Mapping[str, Any], key: str, where: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise TableError(f"{where}: {key} must be an integer, got {value!r}")
    return value


def _str(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise TableError(f"{where}: {key} must be a non-empty string, got {value!r}")
    return value


def _composition(item: Any, where: str) -> tuple[Composition, int]:
    if not isinstance(item, Mapping) or not isinstance(item.get("parts"), Sequence):
        raise TableError(f"{where}: a composition must have a list of parts and a weight")
    weight = _int(item, "weight", where)
    if weight <= 0:
        raise TableError(f"{where}: composition weight must be positive, got {weight}")
    try:
        comp = Composition.of(Part.from_json(part) for part in item["parts"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise TableError(f"{where}: bad part in {item['parts']!r}: {exc}") from exc
    return comp, weight


def _tier(spec: Game, data: Any) -> Tier:
    game = spec.id
    if not isinstance(data, Mapping):
        raise TableError(f"{game}: each tier must be a table, got {data!r}")
    prize = _int(data, "prize_pence", f"{game}: a tier")
    where = f"{game} tier {prize} pence"
    count = _int(data, "count", where)
    if prize < 0 or count <= 0:
        raise TableError(f"{where}: prize must be >= 0 and count > 0 (count {count})")
    items = data.get("compositions")
    if not isinstance(items, Sequence) or not items:
        raise TableError(f"{where}: needs at least one composition")
    comps = tuple(_composition(item, where) for item in items)
    tier = Tier(prize, count, comps)
    if len({comp for comp, _ in comps}) != len(comps):
        raise TableError(f"{where}: a composition is listed twice")
    if count % tier.total_weight:
        raise TableError(
            f"{where}: count {count} is not a multiple of the weights' sum {tier.total_weight}"
        )
    for comp, _ in comps:
        if comp.total != prize:
            shown = comp.to_json()
            raise TableError(f"{where}: composition {shown} adds up to {comp.total}, not {prize}")
        if prize == 0 and not comp.parts:
            continue  # a plain losing play: nothing to check
        problem = spec.check_composition(comp)
        if problem:
            raise TableError(f"{where}: composition {comp.to_json()} cannot be shown: {problem}")
    if prize == 0 and Composition() not in {comp for comp, _ in comps}:
        raise TableError(f"{where}: the losing tier needs the empty composition (a plain loss)")
    return tier


def parse_table(data: Mapping[str, Any], spec: Game) -> PrizeTable:
    """Build and validate a game's prize table from its parsed data; TableError names the tier."""
    game = _str(data, "game", "prize table")
    if game != spec.id:
        raise TableError(f"{spec.id}: the table file names the game {game!r}")
    model = _str(data, "model", game)
    version = _int(data, "version", game)
    if model != f"{game}/{version}":
        raise TableError(f"{game}: model {model!r} must be '{game}/{version}'")
    table_name = _str(data, "name", game)
    price = _int(data, "price_pence", game)
    top = _int(data, "top_prize_pence", game)
    base = _int(data, "base_pool_size", game)
    if (table_name, price, top) != (spec.name, spec.price_pence, spec.top_prize_pence):
        raise TableError(f"{game}: name, price or top prize differ from the game's rules")
    raw = data.get("tiers")
    if not isinstance(raw, Sequence) or not raw:
        raise TableError(f"{game}: needs a list of tiers")
    tiers = tuple(_tier(spec, item) for item in raw)
    prizes = [tier.prize_pence for tier in tiers]
    if prizes != sorted(set(prizes)):
        raise TableError(f"{game}: tiers must have distinct prizes in increasing order")
    if prizes[0] != 0:
        raise TableError(f"{game}: the first tier must be the losing tier (0 pence)")
    if prizes[-1] != top:
        raise TableError(f"{game} tier {prizes[-1]} pence: the top tier must be {top} pence")
    pool = sum(tier.count for tier in tiers)
    if pool != base:
        raise TableError(f"{game}: the tiers' counts add up to {pool}, not {base}")
    table = PrizeTable(game, table_name, model, price, base, tiers, top)
    odds, rtp_percent = spec.published_figures
    if round2(table.odds_one_in) != odds:
        shown = show2(table.odds_one_in)
        raise TableError(f"{game}: overall odds 1 in {shown} do not round to 1 in {show2(odds)}")
    if round2(table.rtp * 100) != rtp_percent:
        shown = show2(table.rtp * 100)
        raise TableError(f"{game}: payout {shown}% does not round to {show2(rtp_percent)}%")
    return table


def load(spec: Game) -> PrizeTable:
    """A game's validated prize table from its TOML file, or from the copy the build parsed
    when the package ships one (the browser's); TableError names the game and tier."""
    built = spec.built_table()
    if built is not None:
        return parse_table(json.loads(built), spec)
    # Imported here, not with this module: only the tools and tests read the TOML itself.
    import tomllib

    try:
        data = tomllib.loads(spec.table_text())
    except tomllib.TOMLDecodeError as exc:
        raise TableError(f"{spec.id}: the prize table is not valid TOML: {exc}") from exc
    return parse_table(data, spec)
