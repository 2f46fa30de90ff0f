"""Accounts and their sessions: starting one (a guest account, or a sign-in code's), the
wallet, a one-time sign-in code for another device, logging out (docs/api.md, Sessions)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from web.endpoint.errors import LIMITED, UNAUTHENTICATED, ApiError
from web.endpoint.errors import documented as errors
from web.endpoint.http import cookies
from web.endpoint.http.services import Services
from web.endpoint.player.accounts import Account


class CodeBody(BaseModel):
    """A one-time sign-in code (POST /api/session)."""

    model_config = ConfigDict(extra="forbid")
    code: str | None = Field(default=None, max_length=32)  # {} (no code): a new account


def routes(services: Services) -> APIRouter:
    """POST /api/session, GET /api/wallet, POST /api/account/code, the two log-outs."""
    router = APIRouter()
    caller = Depends(services.caller)
    settings, accounts, devices = services.settings, services.accounts, services.sessions

    @router.post(
        "/api/session",
        status_code=201,
        responses=errors(
            (400, "malformed_json."),
            (401, "invalid_code: the code is unknown, expired, used or ended by 5 wrong tries."),
            (403, "cross_site_refused: started from another site's page."),
            (413, "body_too_large."),
            (422, 'invalid_request: a body other than {"code": ...}.'),
            (429, "rate_limited: too many new sessions (or code attempts) from this address."),
        ),
    )
    async def new_session(request: Request, body: CodeBody | None = None) -> JSONResponse:
        """Create a guest account with the demo balance and a session credential; with
        {"code"}, sign in the account of a one-time code (POST /api/account/code) instead."""
        if not same_site_or_allowed(request, settings.cors_origins):
            raise ApiError(
                403, "cross_site_refused", "A session can only be started from this site's pages."
            )
        services.limit_address(request, "Too many new sessions; slow down.")
        if body is None or body.code is None:  # no body, or {} as the shells send: a new account
            account = await services.run(accounts.create, settings.demo_balance_pence)
            balance = settings.demo_balance_pence
            credential = await services.run(devices.issue, account)
        else:  # the code's use and the session's row commit together, so safe to try again;
            # the session drawn once, so a try after a commit whose answer was lost finds it
            account, balance, credential = await services.again(
                services.codes.sign_in, body.code, devices, devices.draw()
            )
        answer = {"account": account.public_id, "balance_pence": balance, "token": credential}
        response = JSONResponse(answer, status_code=201)
        cookies.give(response, request, settings, credential)
        return response

    @router.get("/api/wallet", responses=errors((401, UNAUTHENTICATED), (429, LIMITED)))
    async def wallet(account: Account = caller) -> dict[str, Any]:
        """The account's balance, derived from its transactions, and its play time (the
        log-out, cooling-off and next reality check of its run of play: GET /api/play-time)."""
        balance = await services.again(accounts.balance, account)
        playing = await services.again(services.playtime.status, account)
        return {"balance_pence": balance, "play_time": playing}

    @router.post(
        "/api/account/code",
        status_code=201,
        responses=errors((401, UNAUTHENTICATED), (429, LIMITED), (503, "code_unavailable.")),
    )
    async def account_code(account: Account = caller) -> dict[str, Any]:
        """A one-time code (10 minutes) that signs this account in on another device."""
        result: dict[str, Any] = await services.again(services.codes.new, account)
        return result

    async def end(request: Request, account: Account, every_device: bool) -> JSONResponse:
        if every_device:
            ended = await services.again(devices.end_all, account)
        else:
            ended = await services.again(
                devices.end, cookies.credential(request, settings), account
            )
        response = JSONResponse({"ended": ended})
        cookies.clear(response, request, settings)
        return response

    @router.post("/api/session/logout", responses=errors((401, UNAUTHENTICATED), (429, LIMITED)))
    async def logout(request: Request, account: Account = caller) -> JSONResponse:
        """Log this device out: its session ends (its credential is refused from now on) and
        the session cookie is cleared."""
        return await end(request, account, every_device=False)

    @router.post(
        "/api/session/logout-all", responses=errors((401, UNAUTHENTICATED), (429, LIMITED))
    )
    async def logout_all(request: Request, account: Account = caller) -> JSONResponse:
        """Log every device of the account out, this one included: every session of the
        account ends (a stolen credential too). The account and its plays stay; sign in with a
        code made before, or start a new session."""
        return await end(request, account, every_device=True)

    return router


def same_site_or_allowed(request: Request, allowed: tuple[str, ...]) -> bool:
    """False for a browser request from another site (a cross-site form would otherwise start
    a session and replace the player's cookie), unless its origin is a configured CORS origin.
    Clients that are not browsers send neither header and are let through."""
    origin = request.headers.get("origin")
    fetch_site = request.headers.get("sec-fetch-site", "")
    if origin is None:
        return fetch_site not in ("cross-site", "same-site")
    if origin in allowed:
        return True
    # The host only: behind a proxy that ends TLS the scheme seen here is not the page's.
    same_host = origin.partition("://")[2] == request.headers.get("host", "")
    return same_host and fetch_site in ("", "same-origin", "none")
