"""The account's play time: its run of play, log-out and cooling-off, and the reality check
(web/endpoint/player/playtime.py; docs/api.md, docs/endpoint.md, Play time)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from web.endpoint.errors import LIMITED, UNAUTHENTICATED
from web.endpoint.errors import documented as errors
from web.endpoint.http.services import Services
from web.endpoint.player.accounts import Account


def routes(services: Services) -> APIRouter:
    """GET /api/play-time and POST /api/play-time/reality-check."""
    router = APIRouter()
    caller = Depends(services.caller)
    again, times = services.again, services.playtime
    answers = errors((401, UNAUTHENTICATED), (429, LIMITED))

    @router.get("/api/play-time", responses=answers)
    async def play_time(account: Account = caller) -> dict[str, Any]:
        """The account's run of play, the same on every device: when it began, when it logs
        out, whether paid plays are refused for the cooling-off and until when, and when the
        next reality check is due."""
        result: dict[str, Any] = await again(times.status, account)
        return result

    @router.post("/api/play-time/reality-check", responses=answers)
    async def reality_check(account: Account = caller) -> dict[str, Any]:
        """The player has seen the reality check that was due: recorded for the account, and
        the next one is due a reality check's interval from now (one not yet due is left as
        it is). Answers the play time after it."""
        result: dict[str, Any] = await again(times.acknowledge, account)
        return result

    return router
