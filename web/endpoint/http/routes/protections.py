"""The player's protections and own data: a break, self-exclusion and the return after it, the
download of everything kept about the account, and closing it (web/endpoint/player/
protections.py, web/endpoint/sales/own_data.py, web/endpoint/sales/closing.py; docs/api.md,
docs/player.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from web.endpoint.errors import LIMITED, UNAUTHENTICATED, ApiError
from web.endpoint.errors import documented as errors
from web.endpoint.http import cookies
from web.endpoint.http.services import Services
from web.endpoint.player import protections
from web.endpoint.player.accounts import Account
from web.endpoint.sales import own_data

BODY = ((400, "malformed_json."), (413, "body_too_large."))
UNKNOWN = "unknown_length: not one of the lengths offered (or the body is not as documented)"


class BreakBody(BaseModel):
    """The length of a break: "24h", "1w", "1m" or "6w"."""

    model_config = ConfigDict(extra="forbid")
    length: str = Field(max_length=8)


class ExclusionBody(BaseModel):
    """The length of a self-exclusion ("6m", "1y", "2y" or "5y"), and that the player has read
    what it means."""

    model_config = ConfigDict(extra="forbid")
    length: str = Field(max_length=8)
    understood: StrictBool = False


class CloseBody(BaseModel):
    """That the player means it."""

    model_config = ConfigDict(extra="forbid")
    confirm: StrictBool


def routes(services: Services) -> APIRouter:
    """GET /api/protections, POST /api/protections/{break,exclusion,return},
    GET /api/account/data, POST /api/account/close."""
    router = APIRouter()
    caller = Depends(services.caller)
    db, clock = services.db, services.clock
    plain = errors((401, UNAUTHENTICATED), (429, LIMITED))

    def change(fn: Callable[..., dict[str, Any]], account: Account, *args: Any) -> Any:
        now = clock.now_ms()
        with db.begin() as conn:
            return fn(conn, account.pk, now, *args)

    @router.get("/api/protections", responses=plain)
    async def status(account: Account = caller) -> dict[str, Any]:
        """The account's break or self-exclusion now, the same on every device: whether play
        is stopped and until when, and the lengths a player may choose."""
        result: dict[str, Any] = await services.again(change, protections.status, account)
        return result

    @router.post(
        "/api/protections/break",
        responses=errors(
            *BODY,
            (401, UNAUTHENTICATED),
            (409, "break_running: a break runs that this one would not lengthen, or of the"
             " same length; self_excluded: a break would add nothing. Nothing changed."),
            (422, UNKNOWN + "."),
            (429, LIMITED),
        ),
    )  # fmt: skip
    async def take_break(body: BreakBody, account: Account = caller) -> dict[str, Any]:
        """Take a break: no paid play and no TRY, on every device, until its end (24 hours, a
        week, a calendar month or 6 weeks from now). It cannot be shortened or lifted; a
        longer one asked while it runs lengthens it."""
        result: dict[str, Any] = await services.run(
            change, protections.take_break, account, body.length
        )
        return result

    @router.post(
        "/api/protections/exclusion",
        responses=errors(
            *BODY,
            (401, UNAUTHENTICATED),
            (409, "exclusion_running: an exclusion runs that would end later. Nothing changed."),
            (422, UNKNOWN + "; not_understood: understood is not true."),
            (429, LIMITED),
        ),
    )
    async def exclude(body: ExclusionBody, account: Account = caller) -> dict[str, Any]:
        """Self-exclude for 6 months, 1, 2 or 5 years (calendar months): no paid play and no
        TRY until then, and after it until the player asks (POST /api/protections/return)
        and 24 hours have passed. It cannot be shortened or lifted."""
        result: dict[str, Any] = await services.run(
            change, protections.self_exclude, account, body.length, body.understood
        )
        return result

    @router.post(
        "/api/protections/return",
        responses=errors(
            (401, UNAUTHENTICATED),
            (409, "exclusion_running: its term has not ended; return_asked: asked already;"
             " not_excluded: no exclusion to return from. Nothing changed."),
            (429, LIMITED),
        ),
    )  # fmt: skip
    async def come_back(account: Account = caller) -> dict[str, Any]:
        """After a self-exclusion's term: ask for play back. It comes back 24 hours later."""
        result: dict[str, Any] = await services.run(change, protections.come_back, account)
        return result

    @router.get("/api/account/data", responses=plain)
    async def data(account: Account = caller) -> JSONResponse:
        """Everything kept about the account, as one JSON document to save: its plays with
        their proofs, free plays, ledger rows, limits and their changes, breaks and
        exclusions, play time and sign-ins."""

        def gather(conn: Any, pk: int, now: int) -> dict[str, Any]:
            return own_data.gather(conn, services.pool_cache, pk, now)

        result = await services.again(change, gather, account)
        name = f"lottery-account-{account.public_id}.json"
        disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
        return JSONResponse(result, headers=disposition)

    @router.post(
        "/api/account/close",
        responses=errors(
            *BODY,
            (401, UNAUTHENTICATED),
            (409, "account_closed: closed already."),
            (422, 'invalid_request: the body is not {"confirm": true}.'),
            (429, LIMITED),
        ),
    )
    async def close(request: Request, body: CloseBody, account: Account = caller) -> JSONResponse:
        """Close the account: its unfinished plays finished and their prizes credited, its
        balance paid out, then every device signed out and unlinked; the ledger's records are
        kept. The session cookie is cleared."""
        if not body.confirm:
            raise ApiError(422, "invalid_request", 'Send {"confirm": true} to close the account.')
        result = await services.run(services.closing.close, account)
        response = JSONResponse(result)
        cookies.clear(response, request, services.settings)
        return response

    return router
