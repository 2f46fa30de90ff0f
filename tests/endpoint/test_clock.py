"""The ledger's clock (web/endpoint/clock.py): integer milliseconds of the process's clock, moved
on only by its offset (test mode's: tests/endpoint/testmode/test_routes.py)."""

from __future__ import annotations

from web.endpoint.clock import Clock


def test_the_ledger_s_clock_is_whole_milliseconds_plus_its_offset() -> None:
    seconds = [1_700_000_000.1239]
    clock = Clock(lambda: seconds[0])
    assert clock.now_ms() == 1_700_000_000_123 and clock.seconds() == seconds[0]
    clock.offset_ms = 60_000
    assert clock.now_ms() == 1_700_000_060_123
    seconds[0] += 1.0005
    assert clock.now_ms() == 1_700_000_061_124
