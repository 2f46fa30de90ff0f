"""How things may move and flash on screen, for every game's screens.

Two rules, for every player and every speed:
- Nothing flashes more than 3 times a second (the WCAG three-flashes threshold). A highlight
  asked to flash `times` times during an event gets as many flashes as the event's real length
  allows at 3 a second (so fewer when the player speeds the animations up), and none at all, a
  steady highlight, when even one would be too fast.
- With reduced motion (the browser's `prefers-reduced-motion`, followed live), nothing flashes
  or travels: highlights are steady, a thing that would fly to its place fades in there, a
  symbol that would flip over fades in, and a running light rests where it lands.

A scene makes one `Motion` per drawn frame (the setting and the current event's real length in
seconds) and hands it to its painters.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MAX_FLASHES_PER_SECOND = 3.0


def flashes(times: int, seconds: float) -> int:
    """How many of `times` flashes fit in `seconds` at no more than 3 a second."""
    if seconds <= 0:
        return 0
    return max(0, min(times, math.floor(seconds * MAX_FLASHES_PER_SECOND + 1e-9)))


@dataclass(frozen=True)
class Motion:
    """The motion allowed while one event animates: reduced or not, and its real length."""

    reduced: bool = False
    seconds: float = 1.0  # the current event's animation, in real seconds (after speed)

    def part(self, share: float) -> Motion:
        """The motion of a part of the event lasting `share` of it."""
        return Motion(self.reduced, self.seconds * share)

    def _cycles(self, times: int) -> int:
        return 0 if self.reduced else flashes(times, self.seconds)

    def blink(self, p: float, times: int) -> bool:
        """Whether a highlight that flashes `times` times over the event is on at progress p
        (on, then off, `times` times; steady on when it may not flash)."""
        n = self._cycles(times)
        return n == 0 or p >= 1.0 or int(p * n * 2) % 2 == 0

    def pulse(self, p: float, times: int) -> float:
        """A glow rising and falling `times` times over the event, 0..1 (steady 1 when it may
        not flash)."""
        n = self._cycles(times)
        if n == 0:
            return 1.0
        return 0.5 - 0.5 * math.cos(p * n * 2 * math.pi)

    def travel(self, q: float) -> tuple[float, float]:
        """(how far along its way, opacity) of a thing travelling to its place, q in 0..1:
        with reduced motion it does not travel but fades in where it is going."""
        q = min(1.0, max(0.0, q))
        return (1.0, q) if self.reduced else (q, 1.0)


def span(p: float, start: float, end: float) -> float:
    """How far p has gone from start to end, 0..1 (0 before, 1 after)."""
    if end <= start:
        return 1.0 if p >= end else 0.0
    return min(1.0, max(0.0, (p - start) / (end - start)))


def ease_out(q: float) -> float:
    """Fast, then settling (cubic), q in 0..1."""
    q = min(1.0, max(0.0, q))
    return 1.0 - (1.0 - q) ** 3


def ease_in(q: float) -> float:
    """Slow, then fast (cubic), q in 0..1."""
    q = min(1.0, max(0.0, q))
    return q * q * q


def overshoot(q: float, amount: float = 1.7) -> float:
    """Past the mark by a little, then back to it (a 'back' ease-out), q in 0..1."""
    q = min(1.0, max(0.0, q)) - 1.0
    return 1.0 + q * q * ((amount + 1.0) * q + amount)
