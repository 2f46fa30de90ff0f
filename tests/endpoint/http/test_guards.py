"""The request guards: the per-caller rate limit's semantics and its cost per request, and the
headers every API answer carries."""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.endpoint.conftest import Clock, bearer, buy, session
from web.endpoint.http import guards
from web.endpoint.http.guards import RateLimit


def lines_run(action: Callable[[], Any]) -> int:
    """How many lines of web/endpoint/http/guards.py the action executes: the work it does,
    counted, so the test measures no time and cannot flake on a busy machine."""
    count = 0

    def trace(frame: FrameType, event: str, _arg: Any) -> Any:
        nonlocal count
        if frame.f_code.co_filename != guards.__file__:
            return None
        if event == "line":
            count += 1
        return trace

    sys.settrace(trace)
    try:
        action()
    finally:
        sys.settrace(None)
    return count


def test_a_caller_gets_its_burst_then_the_rate() -> None:
    clock = Clock()
    limiter = RateLimit(rate=2.0, burst=3, clock=clock)
    assert [limiter.allow("a") for _ in range(4)] == [True, True, True, False]
    assert limiter.allow("b")  # another caller has a bucket of its own
    clock.advance(0.5)  # one token back at 2 a second
    assert limiter.allow("a")
    assert not limiter.allow("a")
    clock.advance(60)  # idle long enough: full again, never more than the burst
    assert [limiter.allow("a") for _ in range(4)] == [True, True, True, False]


def test_a_refused_caller_is_told_how_long_until_its_next_request_is_taken() -> None:
    clock = Clock()
    limiter = RateLimit(rate=0.25, burst=2, clock=clock)
    assert limiter.allow("a") and limiter.allow("a") and not limiter.allow("a")
    assert limiter.retry_after("a") == 4  # a token every 4 s, the bucket empty
    clock.advance(2.5)
    assert limiter.retry_after("a") == 2  # 1.5 s to go, said in whole seconds, rounded up
    clock.advance(1.5)
    assert limiter.retry_after("a") == 0 and limiter.allow("a")
    assert limiter.retry_after("never-seen") == 0


def test_a_refused_caller_stays_refused_however_many_others_call() -> None:
    clock = Clock()
    limiter = RateLimit(rate=1.0, burst=2, clock=clock)
    assert limiter.allow("a") and limiter.allow("a") and not limiter.allow("a")
    for n in range(1000):
        limiter.allow(f"other-{n}")
    clock.advance(0.5)  # half a token: still refused, the bucket was not forgotten
    assert not limiter.allow("a")
    clock.advance(1.0)
    assert limiter.allow("a")


def test_a_request_costs_the_same_with_100000_recent_callers_as_with_10() -> None:
    clock = Clock()
    limiter = RateLimit(rate=20.0, burst=60, clock=clock)
    for n in range(10):
        limiter.allow(f"ip:{n}")
    few = lines_run(lambda: limiter.allow("ip:new")) + lines_run(lambda: limiter.allow("ip:3"))
    for n in range(100_100):  # all within the last 3 s, so none may be forgotten yet
        limiter.allow(f"ip:{n}")  # (more made the limiter before the fix take hours to fill)
    many = lines_run(lambda: limiter.allow("ip:newer")) + lines_run(lambda: limiter.allow("ip:7"))
    assert many <= few + 10, (few, many)  # before: every recent caller looked at, 200,000+ lines


def test_idle_callers_are_forgotten_at_a_bounded_cost_per_request() -> None:
    clock = Clock()
    limiter = RateLimit(rate=20.0, burst=60, clock=clock)
    for n in range(100_100):
        limiter.allow(f"ip:{n}")
    clock.advance(10)  # every bucket is full again: forgetting them changes no answer
    names = iter(f"late:{n}" for n in range(1000))
    work = sum(lines_run(lambda: limiter.allow(next(names))) for _ in range(1000))
    assert len(limiter) <= 1000
    assert work <= 1000 * 40 + 100_100 * 5  # each forgotten once, each request a few lines


def test_every_api_answer_is_nosniff_and_no_store_unless_it_is_meant_to_be_cached(
    make_app: Callable[..., FastAPI],
) -> None:
    app = make_app(max_body_bytes=1000)
    client = TestClient(app)
    token = session(client)["token"]
    bought = buy(client, token)  # answered by the purchase's fast path, ahead of the middleware
    assert bought.status_code == 201
    play = bought.json()["play_number"]
    key = {"Idempotency-Key": "guards"}
    answers = [
        bought,  # and the fast path's refusals:
        TestClient(app).post("/api/plays", json={"game": "lab-riches"}, headers=key),  # 401
        client.post("/api/plays", content=b"x" * 2000, headers=bearer(token) | key),  # 413
        client.post("/api/plays", content=b"{", headers=bearer(token) | key),  # 400
        client.post("/api/session"),
        client.get("/api/games"),
        client.get("/api/keys"),
        client.get("/api/wallet", headers=bearer(token)),
        client.get(f"/api/plays/{play}", headers=bearer(token)),
        client.get("/api/plays", headers=bearer(token)),
        client.get("/api/nowhere"),  # 404
        client.get("/api/wallet"),  # 401
        client.post("/api/session", content=b"x" * 2000),  # 413 from the body limit
        client.get("/api/docs"),
        client.head("/api/games"),
    ]
    for answer in answers:
        where = f"{answer.request.method} {answer.request.url.path} {answer.status_code}"
        assert answer.headers.get("x-content-type-options") == "nosniff", where
        assert answer.headers.get("cache-control") == "no-store", where
    docs = client.get("/api/docs").text
    script = next(part.split('"')[1] for part in docs.split("src=")[1:] if "bundle" in part)
    asset = client.get(script)  # versioned in its URL: cached for good
    assert asset.status_code == 200 and asset.headers["x-content-type-options"] == "nosniff"
    assert "immutable" in asset.headers["cache-control"]
