"""A game's pools, in public: the current pool's status, any committed pool's commitment, and a
closed pool's reveal (pools/reveal.py; docs/api.md, docs/math.md "Commit, then reveal").
No credential: each client address has a rate limit, the reveals limits of their own."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from web.endpoint.errors import POOL_UNREADABLE
from web.endpoint.errors import documented as errors
from web.endpoint.http import reveal_serving
from web.endpoint.http.services import Services
from web.endpoint.pools import reveal_files
from web.endpoint.pools.pools import check_game

LIMITED = "rate_limited: too many requests from this address."
REVEALS_LIMITED = "rate_limited: too many reveals from this address, or too many being sent."
NOT_FOUND = "pool_not_found: no such game, or no pool of the game has this id."
COMMITMENT = (
    "The commitment: format, game, model, size, depth, chunk_height, root, pool_id, "
    "leaf_scheme, catalogue [{code, prize_pence, composition, count}]; kind: paid (a pool "
    "purchases draw from) or try (free plays of TRY mode: no paid play comes from it); "
    "created_at, closed_at and closed_reason (null while it sells)."
)
REVEAL = (
    "The closed pool: game, pool_id, model, size, depth, root, created_at, closed_at, "
    "closed_reason, sold, key (hex), catalogue [{code, prize_pence, composition}], "
    f"entries_encoding, entries ({reveal_files.ENTRIES_ENCODING})."
)


def routes(services: Services) -> APIRouter:
    """GET /api/pools/{game}, .../remaining, /api/pools/{game}/{pool_id} and .../reveal."""
    router = APIRouter()
    pools, reveals, limits = services.pools, services.reveals, services.reveal_limits
    log = services.log
    again = services.db.again  # reads (and a closing that a second time changes nothing)

    @router.get(
        "/api/pools/{game}",
        responses=errors(
            (404, "game_not_found: no game has this id."),
            (409, "game_not_on_sale: the game cannot be bought, so it has no pool."),
            (429, LIMITED),
            (503, "pool_unavailable: no pool could be laid out."),
        ),
    )
    async def pool(game: str, request: Request) -> dict[str, Any]:
        """The game's current pool: id, size, sold count and Merkle root (at most 1 s old)."""
        services.limit_address(request)
        result: dict[str, Any] = await services.slow(again, pools.status, game)
        return result

    @router.get(
        "/api/pools/{game}/remaining",
        responses=errors(
            (404, "game_not_found: no game has this id."),
            (409, "game_not_on_sale: the game cannot be bought, so it has no pool."),
            (429, LIMITED),
        ),
    )
    async def remaining(game: str, request: Request) -> dict[str, Any]:
        """Prizes remaining in the game's current pool, checked from the public log: {game,
        pool, log_size (the newest checkpoint's size), tiers [{prize_pence, count, sold,
        remaining}] highest prize first}; only sales the log has sequenced count."""
        services.limit_address(request)
        check_game(game)
        pool = await services.again(current_pool_id, game)
        log_size, tiers = (0, []) if pool is None else await services.again(log.remaining, pool)
        return {"game": game, "pool": pool, "log_size": log_size, "tiers": tiers}

    def current_pool_id(game: str) -> str | None:
        with services.db.read() as conn:
            row = pools.current(conn, game)
        return None if row is None else row.pool_id

    @router.get(
        "/api/pools/{game}/{pool_id}",
        responses={
            200: {"description": COMMITMENT},
            **errors((404, NOT_FOUND), (429, LIMITED), (503, POOL_UNREADABLE)),
        },
    )
    async def pool_commitment(game: str, pool_id: str, request: Request) -> dict[str, Any]:
        """A committed pool's public commitment (as published before its first sale: root,
        size, leaf scheme, outcome catalogue with counts), its kind (paid, or try: free plays,
        never a paid play's pool), when it was committed and closed."""
        services.limit_address(request)  # shared with GET /api/pools/{game}
        result: dict[str, Any] = await services.slow(again, reveals.commitment, game, pool_id)
        return result

    @router.get(
        "/api/pools/{game}/{pool_id}/reveal",
        response_class=Response,
        responses={
            200: {
                "description": REVEAL,
                "content": {"application/json": {"schema": {"type": "object"}}},
            },
            **errors(
                (404, NOT_FOUND),
                (409, "pool_on_sale: the pool still sells; it is revealed once closed."),
                (429, REVEALS_LIMITED),
                (503, POOL_UNREADABLE),
            ),
        },
    )
    async def pool_reveal(game: str, pool_id: str, request: Request) -> Response:
        """A closed pool's secret key and every entry's outcome, so anyone can recount it
        (brotli or gzip when the client takes them; 304 for If-None-Match with its ETag)."""
        limits.admit(request.client.host if request.client else "unknown")
        path = reveals.known(game, pool_id)
        if path is None:
            path = await services.slow(again, reveals.reveal, game, pool_id)
        coding, suffix = reveal_serving.negotiate(request.headers.get("accept-encoding", ""))
        headers = reveal_serving.answer_headers(path, coding)
        if reveal_serving.matches(request.headers.get("if-none-match", ""), headers["ETag"]):
            kept = ("ETag", "Cache-Control", "Vary")
            return Response(status_code=304, headers={k: headers[k] for k in kept})
        limits.start()
        return reveal_serving.RevealFile(path.with_name(path.name + suffix), headers, limits)

    return router
