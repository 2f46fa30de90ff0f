"""Prizes remaining per tier of a game's current pool, as the endpoint counts them from the
public log up to its newest checkpoint (GET /api/pools/{game}/remaining, through the shell's
`remaining` request): shown by Rules and Prizes and said with it. Display only: the screens
never compute an outcome, and an endpoint that does not answer leaves the plain table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.money import format_pounds


@dataclass(frozen=True)
class Tier:
    """A winning Prize Amount: how many the pool holds and how many are left."""

    prize_pence: int
    count: int
    remaining: int

    def left(self, suffix: str = " left") -> str:
        """What is left, as "2 of 5 left" or "None of 2 left" (or another suffix: "2 of 5")."""
        some = "None" if self.remaining == 0 else f"{self.remaining:,}"
        return f"{some} of {self.count:,}{suffix}"


@dataclass(frozen=True)
class Remaining:
    """The current pool's prizes left, top prize first, and the log's size they were counted at."""

    pool: str
    log_size: int
    tiers: tuple[Tier, ...]

    @classmethod
    def from_body(cls, body: object) -> Remaining | None:
        """The endpoint's answer read, or None when it is not one (nothing is shown then)."""
        if not isinstance(body, dict):
            return None
        try:
            tiers = tuple(
                Tier(_count(t["prize_pence"]), _count(t["count"]), _count(t["remaining"]))
                for t in body["tiers"]
            )
            size, pool = _count(body["log_size"]), str(body["pool"])
        except (KeyError, TypeError, ValueError):
            return None
        if any(t.remaining > t.count for t in tiers):
            return None
        winning = sorted((t for t in tiers if t.prize_pence > 0), key=lambda t: -t.prize_pence)
        return cls(pool, size, tuple(winning)) if winning else None

    def source(self) -> str:
        """Where the figures come from: "Checked from the public log at entry 12,345."."""
        return f"Checked from the public log at entry {self.log_size:,}."

    def rows(self, suffix: str = " left") -> list[tuple[str, str]]:
        """Each winning prize with what is left: ("£500", "1 of 2 left")."""
        return [
            (format_pounds(t.prize_pence, always_pence=False), t.left(suffix)) for t in self.tiers
        ]

    def top_line(self) -> str:
        """The top prize's line on a lobby card: "Top prizes left: 1 of 2 · public log, entry
        12,345"."""
        return f"Top prizes left: {self.tiers[0].left('')} · public log, entry {self.log_size:,}"

    def top_said(self) -> str:
        """The top prize's line in a sentence."""
        top = format_pounds(self.tiers[0].prize_pence, always_pence=False)
        return f"{top} top prizes: {self.tiers[0].left()}. {self.source()}"

    def said(self) -> str:
        """The figures in a sentence for the narration."""
        rows = ", ".join(f"{prize} {left}" for prize, left in self.rows())
        return f"Prizes remaining in the current pool: {rows}. {self.source()}"


def _count(value: Any) -> int:
    """A non-negative whole number from the endpoint's JSON (ValueError otherwise)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"not a count: {value!r}")
    return value
