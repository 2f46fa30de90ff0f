"""Times in the API's answers: the ledger keeps epoch milliseconds (UTC), the API shows ISO 8601.

Every time an answer carries (My Games, play detail, recall, limits, sign-in codes, pool
closings) is ISO 8601 UTC with milliseconds; only the test clock's, whose input is milliseconds
too, stays a number (docs/api.md).
"""

from __future__ import annotations

from datetime import UTC, datetime


def iso(ms: int | None) -> str | None:
    """An epoch-milliseconds time as ISO 8601 UTC, e.g. 2026-05-09T07:35:25.123Z."""
    if ms is None:
        return None
    moment = datetime.fromtimestamp(ms / 1000, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
