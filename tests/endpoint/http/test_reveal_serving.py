"""A closed pool's reveal files served (web/endpoint/http/reveal_serving.py): a rate limit, a
cap on reveals sent at once and on their bytes a second, HEAD, and a client that leaves."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import httpx2
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.endpoint.conftest import serve
from tests.endpoint.pools.test_reveal_files import closed_pool
from web.endpoint.http import reveal_serving

GAME = "lab-riches"


def test_reveals_have_a_rate_limit_of_their_own(make_app: Callable[..., FastAPI]) -> None:
    """An address asking for reveals is held to the reveals' own limit, and it leaves that
    address's other requests alone (a shared limit let 20 reveals a second through)."""
    app = make_app(rate_per_second=20.0, rate_burst=60)
    pool_id = closed_pool(app)
    client = TestClient(app)
    url = f"/api/pools/{GAME}/{pool_id}/reveal"
    statuses = [client.get(url).status_code for _ in range(reveal_serving.REVEAL_BURST + 5)]
    assert statuses == [200] * reveal_serving.REVEAL_BURST + [429] * 5, statuses
    refused = client.get(url)
    assert refused.json()["error"]["code"] == "rate_limited"
    assert int(refused.headers["retry-after"]) >= 1  # when the address's next reveal is taken
    assert client.get(f"/api/pools/{GAME}").status_code == 200  # the address's own limit


def test_reveals_sent_at_once_and_their_bytes_a_second_are_bounded(
    make_app: Callable[..., FastAPI],
) -> None:
    """One reveal at a time (LOTTERY_REVEAL_CONCURRENCY=1): a second while the first is sent
    is refused; and the first is sent no faster than LOTTERY_REVEAL_BYTES_PER_SECOND."""
    rate = 250_000
    app = make_app(reveal_concurrency=1, reveal_bytes_per_second=rate)
    pool_id = closed_pool(app)
    path = f"/api/pools/{GAME}/{pool_id}/reveal"
    written = TestClient(make_app()).get(path)  # (the files written, by another process)
    assert written.status_code == 200, written.text
    found: dict[str, Any] = {}
    with serve(app) as base:
        gz = {"Accept-Encoding": "gzip"}

        def fetch() -> None:
            started = time.monotonic()
            found["answer"] = httpx2.get(base + path, headers=gz, timeout=60)
            found["seconds"] = time.monotonic() - started

        sending = threading.Thread(target=fetch)
        sending.start()
        time.sleep(0.3)
        second = httpx2.get(base + path, headers=gz, timeout=60)
        sending.join()
    assert second.status_code == 429 and second.json()["error"]["code"] == "rate_limited"
    assert second.headers["retry-after"] == "1"  # a reveal being sent: try again in a moment
    answer = found["answer"]
    assert answer.status_code == 200 and answer.content == written.content
    size = int(answer.headers["content-length"])
    assert size > 2 * rate
    assert found["seconds"] >= (size - rate) / rate * 0.9, (size, found["seconds"])


def test_a_head_of_a_reveal_says_its_headers_without_reading_or_pacing_its_bytes(
    make_app: Callable[..., FastAPI],
) -> None:
    """HEAD answers what GET would (status, length, ETag, coding) and sends no byte, so it
    spends none of the reveals' bytes a second; before, it read and paced the whole file (a
    5 MB reveal at the default rate) to drop it on the way out."""
    app = make_app()
    pool_id = closed_pool(app)
    url = f"/api/pools/{GAME}/{pool_id}/reveal"
    client = TestClient(app)
    got = client.get(url, headers={"Accept-Encoding": "br"})
    pace = app.state.services.reveal_limits.pace
    spent = pace._due  # when the bytes granted so far will have been sent
    head = client.head(url, headers={"Accept-Encoding": "br"})
    assert head.status_code == 200 and head.content == b""
    for name in ("content-length", "etag", "content-encoding", "cache-control", "vary"):
        assert head.headers[name] == got.headers[name], name
    assert pace._due == spent  # no byte of the file went through the pace
    assert app.state.services.reveal_limits.sending == 0  # its slot given back


def test_a_reveal_left_by_its_client_gives_its_slot_back_at_once(
    make_app: Callable[..., FastAPI],
) -> None:
    """A client that goes away in the middle of a reveal frees its slot then, not when the
    rest of the file has been paced out to nobody (before: 20 s here, a slot held all along)."""
    rate = 100_000
    app = make_app(reveal_concurrency=1, reveal_bytes_per_second=rate)
    pool_id = closed_pool(app)
    path = f"/api/pools/{GAME}/{pool_id}/reveal"
    written = TestClient(make_app()).get(path, headers={"Accept-Encoding": "identity"})
    assert int(written.headers["content-length"]) > 20 * rate  # 20 s of pacing at least
    limits = app.state.services.reveal_limits
    with serve(app) as base:
        plain = {"Accept-Encoding": "identity"}
        with httpx2.stream("GET", base + path, headers=plain, timeout=60) as answer:
            assert answer.status_code == 200
            next(answer.iter_raw())  # the first bytes, then the client goes
        deadline = time.monotonic() + 5
        while limits.sending and time.monotonic() < deadline:
            time.sleep(0.05)
        assert limits.sending == 0, "the slot is still held by a reveal nobody reads"
        again = httpx2.head(base + path, headers=plain, timeout=60)
        assert again.status_code == 200  # the one slot is free
