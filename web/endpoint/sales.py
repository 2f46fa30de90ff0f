"""The two hot routes (purchase, finish) as plain Starlette routes in front of FastAPI's.

FastAPI's per-request dependency and validation machinery costs about as much as the purchase
itself on a small machine. The FastAPI routes of the same paths stay declared for the OpenAPI
document and share `buy`; these plain routes, matched first, serve the requests.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from web.endpoint import plays
from web.endpoint.errors import ApiError, not_found_play
from web.endpoint.ledger import MAX_DRAW_ATTEMPTS, Account, Ledger, PoolExhausted

MAX_KEY_LENGTH = 128


async def on_db(ledger: Ledger, fn: Callable[..., Any], *args: Any) -> Any:
    """Run database work: inline for SQLite (short, serialized), in a thread for PostgreSQL."""
    if ledger.db.is_sqlite:
        return fn(*args)
    return await anyio.to_thread.run_sync(fn, *args, limiter=ledger.db.limiter)


async def buy(ledger: Ledger, account: Account, game: str, key: str | None) -> dict[str, Any]:
    """Purchase, laying out a new pool in a thread when the current one is spent."""
    if not key:
        raise ApiError(400, "idempotency_key_required", "Send an Idempotency-Key header.")
    if len(key) > MAX_KEY_LENGTH:
        raise ApiError(422, "invalid_request", "The Idempotency-Key is over 128 characters.")
    for _ in range(MAX_DRAW_ATTEMPTS):
        try:
            result: dict[str, Any] = await on_db(ledger, ledger.try_purchase, account, game, key)
            return result
        except PoolExhausted as exhausted:
            await anyio.to_thread.run_sync(ledger.ensure_pool, game, exhausted.args[0])
    raise ApiError(503, "pool_unavailable", "No pool could be laid out; try again.")


def play_number(text: str) -> int:
    """A Play Number from a path; 404 for anything that cannot be one."""
    if not text.isdigit() or len(text) > 18:
        raise not_found_play()
    return int(text)


async def _caller(request: Request) -> Account:
    account: Account = await request.app.state.authenticate(
        request, request.headers.get("authorization")
    )
    return account


async def purchase(request: Request) -> JSONResponse:
    """POST /api/plays {game} with Idempotency-Key."""
    account = await _caller(request)
    try:
        data = json.loads(await request.body())
    except ValueError:
        raise ApiError(400, "malformed_json", "The body must be a JSON object.") from None
    if not isinstance(data, dict):
        raise ApiError(400, "malformed_json", "The body must be a JSON object.")
    game = data.get("game")
    if set(data) != {"game"} or not isinstance(game, str) or len(game) > 64:
        raise ApiError(422, "invalid_request", 'The body must be {"game": "<game id>"}.')
    ledger: Ledger = request.app.state.ledger
    result = await buy(ledger, account, game, request.headers.get("idempotency-key"))
    return JSONResponse(result, status_code=201)


async def finish(request: Request) -> JSONResponse:
    """POST /api/plays/{play_number}/finish."""
    account = await _caller(request)
    ledger: Ledger = request.app.state.ledger
    number = play_number(request.path_params["play_number"])
    return JSONResponse(await on_db(ledger, plays.finish, ledger, account, number))


ROUTES = [
    Route("/api/plays", purchase, methods=["POST"]),
    Route("/api/plays/{play_number}/finish", finish, methods=["POST"]),
]
