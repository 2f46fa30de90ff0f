"""web/endpoint/times.py: the API's ISO 8601 times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from web.endpoint.times import iso

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MILLIS = st.integers(min_value=-62_135_596_800_000, max_value=253_402_300_799_999)  # years 1-9999


def exact(ms: int) -> str:
    """The time by integer arithmetic (datetime's own formatting, no float on the way)."""
    text = (EPOCH + timedelta(milliseconds=ms)).isoformat(timespec="milliseconds")
    return text.replace("+00:00", "Z")


def test_iso_is_utc_with_milliseconds_and_none_stays_none() -> None:
    assert iso(1_778_312_125_123) == "2026-05-09T07:35:25.123Z"
    assert iso(0) == "1970-01-01T00:00:00.000Z"
    assert iso(-1) == "1969-12-31T23:59:59.999Z"
    assert iso(None) is None


@given(st.lists(MILLIS, min_size=1, max_size=4), st.lists(st.integers(0, 999), max_size=4))
def test_iso_is_exact_whatever_second_it_was_last_called_in(
    times: list[int], same_second: list[int]
) -> None:
    """Each time exact to the millisecond, calls in the same second (whose date and time are
    reused) and in other seconds alike."""
    for ms in times:
        assert iso(ms) == exact(ms)
        for milli in same_second:
            again = ms - ms % 1000 + milli
            assert iso(again) == exact(again)
