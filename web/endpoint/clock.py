"""The ledger's clock: the process's clock in integer milliseconds, plus an offset that only test
mode moves (web/endpoint/testmode/clock.py); every part of the endpoint reads the same one."""

from __future__ import annotations

from collections.abc import Callable


class Clock:
    """The time the ledger records (epoch milliseconds) and the process's own (seconds)."""

    def __init__(self, seconds: Callable[[], float], offset_ms: int = 0) -> None:
        self.seconds = seconds  # the process's clock, for how long something took or stays
        self.offset_ms = offset_ms  # 0, but in test mode when moved on

    def now_ms(self) -> int:
        """The ledger's clock in integer milliseconds (moved on by the offset)."""
        return int(self.seconds() * 1000) + self.offset_ms
