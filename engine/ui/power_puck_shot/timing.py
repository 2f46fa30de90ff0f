"""How long each £500K Power Puck Shot event animates, and when each moment of a shot comes.

A shot is prepared with the path of the arrow the player picked (`prepare`: the book's event
plus `arrow` and `path`, engine/power_puck_shot/paths.py); the puck slides along it at constant
speed, each pip reveals its symbol as the puck passes it (at the path's `at` distance), and
each symbol then flies for `FLIGHT` seconds to where it counts (a row of the Prize Table, the
meter, the Pucks Left Counter, the PRIZE POT). The timing of every cue and every drawing of a
shot comes from `ShotClock`, so what is heard is what is seen.

A Bonus or Prize Game's start first lights the symbols that started it (`LEAD`), then its
banner shows, then the window changes (`CHANGE`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from math import dist
from typing import Any

from engine.book import Book, Event
from engine.power_puck_shot import GAME
from engine.power_puck_shot.paths import Path, shot_path
from engine.ui.celebration import end_seconds
from engine.ui.widgets import BANNER_OPENS

LAUNCH = 0.3  # the arrow strikes the puck
SPEED = 3.0  # grid squares a second
MIN_TRAVEL = 0.9
FLIGHT = 0.55  # a revealed symbol flies to where it counts
SECONDS = {
    "start": 0.0,
    "row_won": 1.5,
    "bonus_start": 2.8,
    "bonus_end": 1.2,
    "prize_start": 3.2,
}
POWER_MESSAGE = 1.6  # 'POWER PUCK ALL SYMBOLS X2' after a Bonus Game that awarded one
LEAD = 0.2  # of a Bonus or Prize Game's start: the symbols that started it light up alone
CHANGE = 0.68  # of it: its banner has shown (from LEAD), and now the window changes
JOIN = 0.3  # of a bonus_end: the pucks the Bonus Game awarded join the Pucks Left Counter


def prepare(book: Book, event: Event, choice: int | None) -> Event:
    """A shot as the screens play it: the book's event with the arrow picked, its path and
    its clock."""
    if event["type"] != "shot" or choice is None:
        return event
    seed = bytes.fromhex(book.seed)
    path = shot_path(seed, int(event["shot"]), choice, len(event["reveals"]))
    prepared = {**event, "arrow": choice, "path": path}
    prepared["clock"] = ShotClock.of(prepared)  # worked out once: every frame reads it
    return prepared


def path_of(event: Mapping[str, Any] | None) -> Path | None:
    """The path a prepared shot follows (None for any other event)."""
    found = None if event is None else event.get("path")
    return found if isinstance(found, Path) else None


@dataclass(frozen=True)
class ShotClock:
    """The moments of one shot, in seconds from the press."""

    travel: float  # seconds the puck slides
    reveals: tuple[float, ...]  # when each pip reveals (the puck passes it)
    total: float
    bounces: tuple[tuple[float, int], ...] = ()  # (when, point of the path): a cushion or bumper

    @classmethod
    def of(cls, event: Mapping[str, Any]) -> ShotClock:
        """The clock of a shot (prepared or not: without a path the pips reveal evenly)."""
        kept = event.get("clock")
        if isinstance(kept, ShotClock):
            return kept
        path = path_of(event)
        n = len(event["reveals"])
        if path is None or path.length <= 0:
            travel = max(MIN_TRAVEL, 0.35 * (n + 1))
            times = tuple(LAUNCH + travel * (k + 1) / (n + 1) for k in range(n))
        else:
            travel = max(MIN_TRAVEL, path.length / SPEED)
            times = tuple(LAUNCH + travel * r.at / path.length for r in path.reveals)
        last = max(times, default=LAUNCH)
        total = max(LAUNCH + travel, last + FLIGHT) + 0.15
        return cls(travel, times, total, () if path is None else _bounces(path, travel))

    def moved(self, t: float) -> float:
        """How far along the path the puck is at t seconds, 0..1."""
        return min(1.0, max(0.0, (t - LAUNCH) / self.travel))

    def flown(self, k: int, t: float) -> float:
        """How far reveal k has flown to its place at t seconds, 0..1 (0 before it shows)."""
        return min(1.0, max(0.0, (t - self.reveals[k]) / FLIGHT))

    def by(self, seconds: float) -> float:
        """The progress of the shot (0..1) by which `seconds` from the press have passed: a
        hair over, so that a frame drawn at that progress, whose time is progress × total,
        shows what comes at `seconds` however the division rounds."""
        return just_after(seconds / self.total)


def _bounces(path: Path, travel: float) -> tuple[tuple[float, int], ...]:
    """When the puck meets each cushion and bumper of its path, with the point's index."""
    out, done = [], 0.0
    for i, (a, b) in enumerate(pairwise(path.points), start=1):
        done += dist(a, b)
        if path.kinds[i] in ("wall", "bumper") and path.length > 0:
            out.append((LAUNCH + travel * done / path.length, i))
    return tuple(out)


def _shot(event: Mapping[str, Any]) -> float:
    return ShotClock.of(event).total


def _bonus_end(event: Mapping[str, Any]) -> float:
    return SECONDS["bonus_end"] + (POWER_MESSAGE if event.get("power_pucks") else 0.0)


def power_message_at(event: Mapping[str, Any]) -> float:
    """The progress of a bonus_end at which the banner 'POWER PUCK ALL SYMBOLS X2' starts to
    open (after the return to the Main Game; only when the Bonus Game awarded a Power Puck)."""
    return SECONDS["bonus_end"] / _bonus_end(event)


def just_after(progress: float) -> float:
    """A progress a hair past `progress`, for a sentence: a frame drawn there shows what comes
    at `progress` however the arithmetic that draws it rounds."""
    return min(1.0, progress + 1e-9)


def words_shown(event: Mapping[str, Any]) -> float:
    """The progress of a bonus_start, prize_start or bonus_end at which its banner's words
    show (once its band has opened: engine/ui/widgets.py)."""
    if event["type"] == "bonus_end":
        start = power_message_at(event)
        return just_after(start + BANNER_OPENS * (1 - start))
    return just_after(LEAD + BANNER_OPENS * (CHANGE - LEAD))


def _fixed(seconds: float) -> Callable[[Mapping[str, Any]], float]:
    return lambda _event: seconds


DURATIONS: dict[str, Callable[[Mapping[str, Any]], float]] = {
    **{kind: _fixed(seconds) for kind, seconds in SECONDS.items()},
    "shot": _shot,
    "bonus_end": _bonus_end,
    "end": end_seconds(GAME),  # the celebration's length (engine/ui/celebration.py)
}
