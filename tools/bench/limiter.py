"""Microseconds the rate limiter (http/guards.py, RateLimit) takes for one request, with
10 recent callers and with 200,000: `build.py bench --limiter --json`. Each request used to
read every recent caller above 100,000 of them (19-31 ms); the two figures should be alike.
"""

from __future__ import annotations

import time

from web.endpoint.http.guards import RateLimit


def request_us(recent_callers: int, requests: int = 20_000) -> float:
    """Mean microseconds of one `allow` by a new caller, with this many callers recent."""
    now = [1_000_000.0]
    limiter = RateLimit(rate=20.0, burst=60, clock=lambda: now[0])
    for n in range(recent_callers):  # all within the last burst/rate seconds: none forgotten
        limiter.allow(f"ip:{n}")
    names = [f"new:{n}" for n in range(requests)]
    started = time.perf_counter()
    for name in names:
        limiter.allow(name)
    return (time.perf_counter() - started) / requests * 1e6


def run() -> dict[str, float]:
    """The figures: one request's microseconds with 10 and with 200,000 recent callers."""
    return {
        "callers_10_request_us": round(request_us(10), 3),
        "callers_200000_request_us": round(request_us(200_000), 3),
    }
