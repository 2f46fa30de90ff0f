"""Request guards: a body size limit, HEAD as GET and CORS answering in the error shape (ASGI
middleware), and a per-caller rate limit."""

from __future__ import annotations

import json
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import JSONResponse, Response
from starlette.types import Message as AsgiMessage
from starlette.types import Send as AsgiSend

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Any]
Send = Callable[[Message], Any]


class BodyTooLarge(Exception):
    """The request body is longer than the configured limit."""


class BodyLimit:
    """Refuse request bodies over max_bytes with 413, before any route reads them."""

    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the app with a receive channel that counts the body's bytes."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if declared_too_large(scope, self.max_bytes):
            await too_large(send, self.max_bytes)
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message: Message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise BodyTooLarge
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge:
            if not started:
                await too_large(send, self.max_bytes)


# The scope key HeadAsGet sets on the GET it runs for a HEAD: an answer costly to send (a
# reveal's file) reads it and sends its headers only.
HEAD_SCOPE_KEY = "lottery.head"


class HeadAsGet:
    """HEAD answers wherever GET does: the same status and headers, no body (RFC 9110 9.3.2).

    FastAPI's routes take only the methods they are declared with, so a HEAD is run as the GET
    it asks about (marked with HEAD_SCOPE_KEY) and its body is dropped on the way out."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run a HEAD request as GET, sending no body."""
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET", HEAD_SCOPE_KEY: True}, receive, headers_only)


NOSNIFF = (b"x-content-type-options", b"nosniff")
NO_STORE = (b"cache-control", b"no-store")


def api_headers(send: AsgiSend) -> AsgiSend:
    """The send channel of an API request, adding to its answer X-Content-Type-Options: nosniff
    (a JSON answer is never run as a script or page) and Cache-Control: no-store, unless the
    route set a Cache-Control of its own (a closed pool's reveal, the documentation page's
    files): answers about an account are kept by no browser or proxy."""

    async def with_headers(message: AsgiMessage) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", ()))
            names = {name.lower() for name, _ in headers}
            headers.append(NOSNIFF) if NOSNIFF[0] not in names else None
            headers.append(NO_STORE) if NO_STORE[0] not in names else None
            message = {**message, "headers": headers}
        await send(message)

    return with_headers


class JsonCORS(CORSMiddleware):
    """Starlette's CORS, but a refused preflight answers in the API's JSON error shape."""

    def preflight_response(self, request_headers: Headers) -> Response:
        """The preflight answer; a refusal as 400 {"error": {"code": "cors_refused", ...}}."""
        answer = super().preflight_response(request_headers)
        if answer.status_code < 400:
            return answer
        reason = bytes(answer.body).decode("utf-8", "replace")
        headers = {k: v for k, v in answer.headers.items() if k.lower().startswith("access-")}
        error = {"code": "cors_refused", "message": f"{reason}: see the endpoint's CORS setting."}
        return JSONResponse({"error": error}, status_code=answer.status_code, headers=headers)


def declared_too_large(scope: Mapping[str, Any], max_bytes: int) -> bool:
    """Whether the request's Content-Length is over max_bytes (or not a number)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length" and (not value.isdigit() or int(value) > max_bytes):
            return True
    return False


async def read_body(scope: Mapping[str, Any], receive: Receive, max_bytes: int) -> bytes | None:
    """A request's whole body, or None when it is (or says it is) over max_bytes: what
    BodyLimit checks, for a route answered ahead of it (routes/sales.py, PurchaseFastPath)."""
    if declared_too_large(scope, max_bytes):
        return None
    chunks: list[bytes] = []
    seen = 0
    while True:
        message: Message = await receive()
        if message["type"] != "http.request":  # the client went away: an empty body
            break
        chunk = message.get("body", b"")
        seen += len(chunk)
        if seen > max_bytes:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


async def too_large(send: Send, limit: int) -> None:
    """The 413 body_too_large answer."""
    message = f"Request bodies are at most {limit} bytes."
    body = json.dumps({"error": {"code": "body_too_large", "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class RateLimit:
    """A token bucket per caller: `rate` requests a second on average, bursts up to `burst`.

    The buckets are kept in the order they were last used, so the callers idle long enough for
    their bucket to be full again (and so no different from a new one) are forgotten from the
    front: each request costs O(1), amortised, however many callers are recent."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self._idle = self.burst / rate  # seconds after which an unused bucket is full
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """How many callers' buckets are remembered."""
        return len(self._buckets)

    def allow(self, caller: str) -> bool:
        """Take one token from the caller's bucket; False when it is empty."""
        now = self.clock()
        buckets = self._buckets
        with self._lock:
            tokens, then = buckets.pop(caller, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            allowed = tokens >= 1.0
            buckets[caller] = (tokens - 1.0 if allowed else tokens, now)  # now the newest
            while buckets:
                oldest = next(iter(buckets.values()))
                if now - oldest[1] <= self._idle:
                    break
                buckets.popitem(last=False)
            return allowed

    def retry_after(self, caller: str) -> int:
        """Whole seconds (rounded up) until the caller's bucket holds a token again: 0 when it
        does now. What a 429's Retry-After says (RFC 9110, 10.2.3)."""
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.get(caller, (self.burst, now))
        short = 1.0 - min(self.burst, tokens + (now - then) * self.rate)
        return max(0, math.ceil(short / self.rate))
