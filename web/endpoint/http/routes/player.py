"""The player's own settings and free plays: spend limits, and TRY mode (docs/api.md,
docs/endpoint.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from web.endpoint.clock import Clock
from web.endpoint.errors import LIMITED, UNAUTHENTICATED
from web.endpoint.errors import documented as errors
from web.endpoint.http import cookies
from web.endpoint.http.routes.plays import WHOLE
from web.endpoint.http.services import Services
from web.endpoint.player import limits
from web.endpoint.player.accounts import Account
from web.endpoint.sales.checkout import MAX_GAME_LENGTH
from web.endpoint.store.database import Database

Pence = Annotated[StrictInt, Field(ge=0, le=limits.MAX_LIMIT_PENCE), WHOLE]


class LimitsBody(BaseModel):
    """New spend limits: pence, or null for none; a key left out leaves that limit as it is."""

    model_config = ConfigDict(extra="forbid")
    daily_pence: Pence | None = None
    weekly_pence: Pence | None = None


class TryBody(BaseModel):
    """The game of a free play."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=MAX_GAME_LENGTH)


def spend_limits(
    db: Database, clock: Clock, account: Account, wanted: dict[str, Any] | None
) -> dict[str, Any]:
    """The account's limits, after setting `wanted` (None: only read them)."""
    now = clock.now_ms()
    with db.begin() as conn:
        if wanted is None:
            return limits.get_limits(conn, account.pk, now)
        return limits.put_limits(conn, account.pk, now, wanted)


def routes(services: Services) -> APIRouter:
    """GET and PUT /api/limits, POST /api/try."""
    router = APIRouter()
    caller = Depends(services.caller)
    db, clock = services.db, services.clock

    @router.get("/api/limits", responses=errors((401, UNAUTHENTICATED), (429, LIMITED)))
    async def get_limits(account: Account = caller) -> dict[str, Any]:
        """The account's daily and weekly spend limits: in force, spent, left, reset, pending."""
        result: dict[str, Any] = await services.again(spend_limits, db, clock, account, None)
        return result

    @router.put(
        "/api/limits",
        responses=errors(
            (400, "malformed_json."),
            (401, UNAUTHENTICATED),
            (413, "body_too_large."),
            (422, "invalid_request: not {daily_pence?, weekly_pence?} of pence or null."),
            (429, LIMITED),
        ),
    )
    async def put_limits(body: LimitsBody, account: Account = caller) -> dict[str, Any]:
        """Set spend limits: lowering takes effect at once, raising or removing after 24
        hours."""
        wanted = body.model_dump(include=body.model_fields_set)
        result: dict[str, Any] = await services.again(spend_limits, db, clock, account, wanted)
        return result

    @router.post(
        "/api/try",
        status_code=201,
        responses=errors(
            (400, "malformed_json."),
            (401, "unauthenticated: a credential was sent but is forged or expired."),
            (403, "break_taken or self_excluded: the account takes a break or is self-excluded."),
            (404, "game_not_found: no game has this id."),
            (409, "game_not_on_sale: the game cannot be bought, so it cannot be tried."),
            (413, "body_too_large."),
            (422, 'invalid_request: the body is not {"game": ...}.'),
            (429, "rate_limited: too many requests from this account or address."),
            (503, "pool_unavailable: no pool of free plays could be laid out."),
        ),
    )
    async def try_play(request: Request, body: TryBody) -> JSONResponse:
        """A free play (TRY mode) from the game's own pool of free plays: a token marked
        "try"; no money moves and it is in no account's plays. A session is optional."""
        account: Account | None = None
        if cookies.credential(request, services.settings):
            account = await services.caller(request)
        else:
            services.limit_address(request)
        result = await services.slow(services.free_plays.try_play, account, body.game)
        return JSONResponse(result, status_code=201)

    return router
