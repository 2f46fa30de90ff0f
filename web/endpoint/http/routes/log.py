"""The public log, in public (docs/log.md): the newest checkpoint, the tiles
(c2sp.org/tlog-tiles), the trust policy and consistency proofs between checkpoints. No
credential: each client address has the public routes' rate limit. A play's proof is served
with the play (web/endpoint/http/routes/plays.py), prizes remaining with the pools
(web/endpoint/http/routes/pools.py)."""

from __future__ import annotations

import base64
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from engine.tlog import tiles
from web.endpoint.errors import ApiError
from web.endpoint.errors import documented as errors
from web.endpoint.http.services import Services
from web.endpoint.log.reading import NotInLog

LIMITED = "rate_limited: too many requests from this address."
TEXT = "text/plain; charset=utf-8"
FULL_TILE = "public, max-age=31536000, immutable"  # a full tile never changes
PARTIAL_TILE = "public, max-age=60"  # (a wider one, or the full tile, will follow)
Size = Annotated[int, Query(ge=0, le=2**62)]


def not_in_log(what: str) -> ApiError:
    """The answer for a tile or checkpoint the log does not have (yet)."""
    return ApiError(404, "not_in_log", f"The log has no {what} (yet).")


def routes(services: Services) -> APIRouter:
    """GET /log/checkpoint, /log/tile/..., /log/policy and /api/log/consistency."""
    router = APIRouter()
    log = services.log

    @router.get(
        "/log/checkpoint",
        response_class=Response,
        responses={
            200: {"description": "The newest checkpoint (c2sp.org/tlog-checkpoint), signed by "
                  "the log key, with the witnesses' cosignatures.",
                  "content": {TEXT: {"schema": {"type": "string"}}}},
            **errors((404, "not_in_log: no checkpoint yet."), (429, LIMITED)),
        },
    )  # fmt: skip
    async def checkpoint(request: Request) -> Response:
        """The log's newest checkpoint with its cosignatures (text; fetched afresh)."""
        services.limit_address(request)
        note = await services.again(log.checkpoint)
        if note is None:
            raise not_in_log("checkpoint")
        return Response(note, media_type=TEXT, headers={"Cache-Control": "no-cache"})

    @router.get(
        "/log/tile/{path:path}",
        response_class=Response,
        responses={
            200: {"description": "A hash tile (level 0-63) or an entry bundle (entries), "
                  "c2sp.org/tlog-tiles; full tiles are immutable.",
                  "content": {"application/octet-stream": {"schema": {"type": "string"}}}},
            **errors((404, "not_in_log: not a tile's path, or beyond the newest checkpoint."),
                     (429, LIMITED)),
        },
    )  # fmt: skip
    async def tile(path: str, request: Request) -> Response:
        """A tile of the log, up to its newest checkpoint."""
        services.limit_address(request)
        try:
            which = tiles.parse_path("tile/" + path)
            data = await services.again(log.tile, which)
        except ValueError:
            raise not_in_log(f"tile at {path}") from None
        except NotInLog:
            raise not_in_log(f"tile {path}") from None
        cache = FULL_TILE if which[2] == tiles.WIDTH else PARTIAL_TILE
        return Response(data, media_type="application/octet-stream",
                        headers={"Cache-Control": cache})  # fmt: skip

    @router.get(
        "/log/policy",
        response_class=Response,
        responses={
            200: {"description": "The c2sp.org/tlog-policy a checkpoint must meet: the log's "
                  "key, the witnesses (with their URLs) and the quorum.",
                  "content": {TEXT: {"schema": {"type": "string"}}}},
        },
    )  # fmt: skip
    async def policy() -> Response:
        """The trust policy the site publishes."""
        return Response(log.policy_text, media_type=TEXT,
                        headers={"Cache-Control": "public, max-age=300"})  # fmt: skip

    @router.get(
        "/api/log/consistency",
        responses=errors(
            (404, "not_in_log: a size no checkpoint has, or old above new."),
            (422, "invalid_request: old and new must be whole numbers."),
            (429, LIMITED),
        ),
    )
    async def consistency(old: Size, new: Size, request: Request) -> dict[str, Any]:
        """The consistency proof (RFC 6962) between two checkpointed sizes: {old, new, proof
        [base64 hashes]}."""
        services.limit_address(request)
        try:
            proof = await services.again(log.consistency, old, new)
        except NotInLog as error:
            raise not_in_log(f"checkpoint pair: {error}") from None
        return {"old": old, "new": new, "proof": [base64.b64encode(h).decode() for h in proof]}

    return router
