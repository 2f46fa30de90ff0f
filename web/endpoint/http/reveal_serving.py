"""A closed pool's reveal files (web/endpoint/pools/reveal_files.py) served with limits of
their own: the encoding the client accepts (`negotiate`), an ETag per encoding (`If-None-Match`
answers 304), `Vary: Accept-Encoding`, and the bytes read in chunks and sent (`send_file`).

Reveals have limits of their own, apart from the purchases' and the other public routes'
(`RevealLimits`): per client address a token bucket (REVEALS_PER_SECOND, REVEAL_BURST), per
process at most `concurrency` reveals being sent at once (429 beyond), and all the process's
reveals together sent at most `bytes_per_second` (each chunk waits its turn, so a flood is
paced, not refused): whatever a flood asks, the endpoint spends a bounded share of its time.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
from starlette.responses import Response

from web.endpoint.errors import rate_limited
from web.endpoint.http.guards import HEAD_SCOPE_KEY, RateLimit
from web.endpoint.pools.reveal_files import ENCODINGS
from web.endpoint.settings import Settings

CHUNK = 256 * 1024  # bytes read and sent at a time
REVEALS_PER_SECOND = 1.0  # per client address, on average
REVEAL_BURST = 10  # per client address, at once
IMMUTABLE = "public, max-age=31536000, immutable"

Send = Callable[[dict[str, Any]], Any]


def negotiate(accept_encoding: str) -> tuple[str | None, str]:
    """The content coding to answer with (None: identity) and its file's suffix, from the
    request's Accept-Encoding: the first of ENCODINGS the client takes (q above 0)."""
    taken: dict[str, float] = {}
    for item in accept_encoding.lower().split(","):
        coding, _, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        taken[coding.strip()] = quality
    for coding, suffix in ENCODINGS:
        if taken.get(coding, taken.get("*", 0.0)) > 0:
            return coding, suffix
    return None, ""


def etag(path: Path, coding: str | None) -> str:
    """The strong ETag of a reveal's representation: its file's name fixes its content."""
    return f'"{path.stem}{"-" + coding if coding else ""}"'


def matches(if_none_match: str, tag: str) -> bool:
    """Whether an If-None-Match header names this ETag (or is *)."""
    names = {name.strip().removeprefix("W/") for name in if_none_match.split(",")}
    return "*" in names or tag in names


class Pace:
    """All of a process's reveals together sent at most `rate` bytes a second (with a second's
    worth at once): each chunk waits for its turn (the generic cell rate algorithm)."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.clock = clock
        self._due = 0.0  # when the bytes granted so far will have been sent at `rate`

    async def take(self, size: int) -> None:
        """Wait until `size` more bytes may be sent."""
        now = self.clock()
        self._due = max(self._due, now) + size / self.rate
        wait = self._due - now - 1.0
        if wait > 0:
            await asyncio.sleep(wait)


class RevealLimits:
    """The reveals' own limits: per address, reveals sent at once, bytes a second."""

    def __init__(
        self, concurrency: int, bytes_per_second: float, clock: Callable[[], float]
    ) -> None:
        self.addresses = RateLimit(REVEALS_PER_SECOND, REVEAL_BURST, clock)
        self.concurrency = concurrency
        self.pace = Pace(bytes_per_second)
        self.sending = 0

    def admit(self, host: str) -> None:
        """Count a reveal request of this address; 429 when the address is over its limit."""
        if not self.addresses.allow("reveal:" + host):
            wait = self.addresses.retry_after("reveal:" + host)
            raise rate_limited("Too many reveals from this address; slow down.", wait)

    def start(self) -> None:
        """Take one of the reveals that may be sent at once; 429 when none is free."""
        if self.sending >= self.concurrency:
            raise rate_limited("Too many reveals are being sent; try again in a moment.", 1)
        self.sending += 1

    def done(self) -> None:
        """Give back the reveal taken by `start`."""
        self.sending -= 1


async def send_file(path: Path, send: Send, pace: Pace) -> None:
    """Send a file's bytes as the response body, a chunk at a time, each when the reveals'
    pace allows."""
    with path.open("rb", buffering=0) as file:  # (written once, read often: in the page cache)
        size = os.fstat(file.fileno()).st_size
        sent = 0
        while sent < size:
            chunk = file.read(min(CHUNK, size - sent))
            if not chunk:
                break
            await pace.take(len(chunk))
            sent += len(chunk)
            await send({"type": "http.response.body", "body": chunk, "more_body": sent < size})
        if sent < size or size == 0:  # (cut short: the declared length tells the client)
            await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _stop_when_gone(receive: Any, sending: anyio.CancelScope) -> None:
    """Cancel the sending when the client goes away (a server's `send` to a gone client
    returns as if sent: the rest of the file would be paced out to nobody, its slot held)."""
    while (await receive())["type"] != "http.disconnect":
        pass
    sending.cancel()


class RevealFile(Response):
    """The answer of a reveal: its file (in the negotiated coding) with its headers, the body
    sent by `send_file` (none for a HEAD) until it ends or its client goes; the reveal taken by
    `RevealLimits.start` is given back at its end, however it ends."""

    def __init__(self, path: Path, headers: dict[str, str], limits: RevealLimits) -> None:
        self.path = path
        self.limits = limits
        self.status_code = 200
        self.background = None
        self.raw_headers = [(k.lower().encode(), v.encode()) for k, v in headers.items()]

    async def __call__(self, scope: Any, receive: Any, send: Send) -> None:
        """Send the answer."""
        try:
            size = self.path.stat().st_size
            length = (b"content-length", str(size).encode())
            start = {"type": "http.response.start", "status": 200}
            await send({**start, "headers": [*self.raw_headers, length]})
            if scope.get(HEAD_SCOPE_KEY):  # a HEAD: the headers say it all, no byte is read
                await send({"type": "http.response.body", "body": b"", "more_body": False})
            else:
                async with anyio.create_task_group() as sending:
                    sending.start_soon(_stop_when_gone, receive, sending.cancel_scope)
                    await send_file(self.path, send, self.limits.pace)
                    sending.cancel_scope.cancel()
        finally:
            self.limits.done()


def answer_headers(path: Path, coding: str | None) -> dict[str, str]:
    """The headers of a reveal's 200 or 304 answer."""
    headers = {
        "Content-Type": "application/json",
        "Cache-Control": IMMUTABLE,
        "ETag": etag(path, coding),
        "Vary": "Accept-Encoding",
    }
    if coding:
        headers["Content-Encoding"] = coding
    return headers


def reveal_limits(settings: Settings, clock: Callable[[], float]) -> RevealLimits:
    """The reveals' limits an endpoint is configured with."""
    return RevealLimits(settings.reveal_concurrency, settings.reveal_bytes_per_second, clock)
