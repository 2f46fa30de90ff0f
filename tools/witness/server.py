"""The witness over HTTP (c2sp.org/tlog-witness): POST /add-checkpoint and
GET /<origin hash>/checkpoint, as a Starlette app served by uvicorn.

The submission and monitoring prefixes are both the server's root. A request body is read up
to MAX_BODY bytes and refused with 413 beyond (a checkpoint and 63 proof lines are a few KiB).
The witness's work (SQLite, Ed25519) runs in Starlette's thread pool, so a slow disk holds up
one request, not the event loop; the state file's lock orders concurrent submissions.
"""

from __future__ import annotations

import re

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tools.witness.witness import Answer, Witness

MAX_BODY = 64 * 1024
ORIGIN_HASH = re.compile(r"[0-9a-f]{64}")


class TooLarge(ValueError):
    """A request body above the limit."""


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, TooLarge once it passes `limit` bytes (before reading it all)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise TooLarge
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise TooLarge
    return bytes(body)


def respond(answer: Answer) -> Response:
    """The answer as it is: its content type exactly (text/x.tlog.size takes no charset)."""
    return Response(answer.body, answer.status, headers={"content-type": answer.content_type})


def create_app(witness: Witness, max_body: int = MAX_BODY) -> Starlette:
    """The witness's HTTP app."""

    async def add_checkpoint(request: Request) -> Response:
        try:
            body = await read_body(request, max_body)
        except TooLarge:
            return respond(Answer(413, f"a request body is at most {max_body} bytes\n"))
        return respond(await run_in_threadpool(witness.add_checkpoint, body))

    async def checkpoint(request: Request) -> Response:
        hashed = request.path_params["origin_hash"]
        if not ORIGIN_HASH.fullmatch(hashed):
            return respond(Answer(404, "not a log's origin hash\n"))
        return respond(await run_in_threadpool(witness.checkpoint, hashed))

    routes = [
        Route("/add-checkpoint", add_checkpoint, methods=["POST"]),
        Route("/{origin_hash}/checkpoint", checkpoint, methods=["GET"]),
    ]
    return Starlette(routes=routes)
