"""Times in the API's answers: the ledger keeps epoch milliseconds (UTC), the API shows ISO 8601.

Every time an answer carries (My Games, play detail, recall, limits, sign-in codes, pool
closings) is ISO 8601 UTC with milliseconds; only the test clock's, whose input is milliseconds
too, stays a number (docs/api.md).

A purchase's answer carries four of them (its play time: when its run began, logs out and
next checks reality, and now), so `iso` formats each second's date and time once and keeps the
last SECONDS_KEPT of them: a datetime built and formatted per time was about a tenth of a
purchase's CPU in the endpoint (docs/changelog.md, "2026-12-03 evening").
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache

SECONDS_KEPT = 4096  # about three a busy account, and the clock's


@lru_cache(maxsize=SECONDS_KEPT)
def _second(second: int) -> str:
    """A second since the epoch as "YYYY-MM-DDTHH:MM:SS" (UTC)."""
    return datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds")[:-6]


def iso(ms: int | None) -> str | None:
    """An epoch-milliseconds time as ISO 8601 UTC, e.g. 2026-05-09T07:35:25.123Z."""
    if ms is None:
        return None
    second, milli = divmod(int(ms), 1000)
    return f"{_second(second)}.{milli:03d}Z"
