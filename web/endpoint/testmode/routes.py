"""TEST MODE ONLY: choosing the entry a purchase takes and moving the ledger's clock, for the
browser tests (docs/api.md, docs/endpoint.md); `create_app` includes them only in test mode."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from web.endpoint.errors import LIMITED, UNAUTHENTICATED, ApiError
from web.endpoint.errors import documented as errors
from web.endpoint.http.routes.plays import WholeNumber
from web.endpoint.http.services import Services
from web.endpoint.player.accounts import Account
from web.endpoint.testmode.clock import advance_clock
from web.endpoint.testmode.reservations import reserve_next


class NextEntryBody(BaseModel):
    """Test mode: the prize (and/or composition) the next purchase of a game should draw."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)
    prize_pence: int | None = None
    composition: list[dict[str, str | int]] | None = None


class ClockBody(BaseModel):
    """Test mode: how far to move the ledger's clock on."""

    model_config = ConfigDict(extra="forbid")
    advance_ms: WholeNumber = Field(ge=0, le=10**11)


def routes(services: Services) -> APIRouter:
    """POST /api/test/next-entry and POST /api/test/clock."""
    router = APIRouter()
    caller = Depends(services.caller)
    db, clock = services.db, services.clock

    @router.post(
        "/api/test/next-entry",
        responses=errors(
            (400, "malformed_json."),
            (401, UNAUTHENTICATED),
            (404, "game_not_found, or no_matching_entry: no unsold entry matches."),
            (409, "game_not_on_sale."),
            (413, "body_too_large."),
            (422, "invalid_request or invalid_composition."),
            (429, LIMITED),
        ),
    )
    async def next_entry(body: NextEntryBody, account: Account = caller) -> dict[str, Any]:
        """TEST MODE ONLY: the account's next purchase of the game takes a matching entry."""
        if body.prize_pence is None and body.composition is None:
            raise ApiError(422, "invalid_request", "Give prize_pence or composition.")
        result: dict[str, Any] = await services.slow(
            reserve_next,
            db,
            services.pools,
            services.pool_cache,
            account,
            body.game,
            body.prize_pence,
            body.composition,
        )
        return result

    @router.post(
        "/api/test/clock",
        responses=errors(
            (400, "malformed_json."),
            (401, UNAUTHENTICATED),
            (413, "body_too_large."),
            (422, "invalid_request: not {advance_ms: 0-100000000000}."),
            (429, LIMITED),
        ),
    )
    async def test_clock(body: ClockBody, account: Account = caller) -> dict[str, int]:
        """TEST MODE ONLY: move the ledger's clock on (every process of this database sees
        it)."""
        del account
        offset = await services.slow(advance_clock, db, clock, body.advance_ms)
        return {"offset_ms": offset, "now": clock.now_ms()}

    return router
