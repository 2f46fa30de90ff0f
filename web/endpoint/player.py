"""The player's side: spend limits, progress and choices, recall, one-time sign-in codes, TRY
mode, and test mode's clock (docs/api.md, docs/endpoint.md).

FastAPI routes on an APIRouter that `create_app` includes; they authenticate through
`app.state.authenticate` like every other route.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from sqlalchemy import delete, exc, insert, select, update

from web.endpoint import limits, plays
from web.endpoint.errors import LIMITED, PLAY_NOT_FOUND, UNAUTHENTICATED, ApiError
from web.endpoint.errors import documented as errors
from web.endpoint.ledger import Account, Ledger
from web.endpoint.sales import MAX_CHOICE, MAX_GAME_LENGTH
from web.endpoint.schema import accounts, sign_in_codes
from web.endpoint.times import iso

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L look-alikes
CODE_LENGTH = 8
CODE_TTL_MS = 10 * 60 * 1000


async def caller(request: Request) -> Account:
    """The account a request's session credential names (401 without one)."""
    authorization = request.headers.get("authorization")
    account: Account = await request.app.state.authenticate(request, authorization)
    return account


Caller = Annotated[Account, Depends(caller)]
Pence = Annotated[StrictInt, Field(ge=0, le=limits.MAX_LIMIT_PENCE)]
Choice = Annotated[StrictInt, Field(ge=0, le=MAX_CHOICE)]


class LimitsBody(BaseModel):
    """New spend limits: pence, or null for none; a key left out leaves that limit as it is."""

    model_config = ConfigDict(extra="forbid")
    daily_pence: Pence | None = None
    weekly_pence: Pence | None = None


class ProgressBody(BaseModel):
    """How far the player has got: an event index and their choices so far."""

    model_config = ConfigDict(extra="forbid")
    event: StrictInt = Field(ge=0, le=plays.MAX_EVENT)
    choices: list[Choice] = Field(default_factory=list, max_length=plays.MAX_CHOICES)


class TryBody(BaseModel):
    """The game of a free play."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=MAX_GAME_LENGTH)


class ClockBody(BaseModel):
    """Test mode: how far to move the ledger's clock on."""

    model_config = ConfigDict(extra="forbid")
    advance_ms: StrictInt = Field(ge=0, le=10**11)


class CodeBody(BaseModel):
    """A one-time sign-in code (POST /api/session)."""

    model_config = ConfigDict(extra="forbid")
    code: str | None = Field(default=None, max_length=32)  # {} (no code): a new account


def _ledger(request: Request) -> Ledger:
    ledger: Ledger = request.app.state.ledger
    return ledger


def code_hash(code: str) -> str | None:
    """The stored hash of a sign-in code, read leniently (case, hyphen, spaces); None for text
    that cannot be a code."""
    plain = code.upper().replace("-", "").replace(" ", "")
    if len(plain) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in plain):
        return None
    return hashlib.sha256(plain.encode()).hexdigest()


def new_code(ledger: Ledger, account: Account) -> dict[str, Any]:
    """Make a sign-in code for the account (its earlier unused codes stop working)."""
    now = ledger.now_ms()
    for _ in range(3):
        plain = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        digest = code_hash(plain)
        try:
            with ledger.db.begin() as conn:
                conn.execute(
                    delete(sign_in_codes).where(
                        sign_in_codes.c.account_id == account.pk, sign_in_codes.c.used_at.is_(None)
                    )
                )
                conn.execute(
                    insert(sign_in_codes).values(
                        code_hash=digest,
                        account_id=account.pk,
                        created_at=now,
                        expires_at=now + CODE_TTL_MS,
                    )
                )
        except exc.IntegrityError:  # the same code as another account's: draw again
            continue
        return {"code": f"{plain[:4]}-{plain[4:]}", "expires_at": iso(now + CODE_TTL_MS)}
    raise ApiError(503, "code_unavailable", "No code could be made; try again.")


def use_code(ledger: Ledger, code: str) -> tuple[Account, int]:
    """Consume a sign-in code: its account and balance; 401 invalid_code for a code that is
    unknown, expired or used."""
    digest = code_hash(code)
    now = ledger.now_ms()
    with ledger.db.begin() as conn:
        pk = None
        if digest is not None:
            pk = conn.execute(
                update(sign_in_codes)
                .where(
                    sign_in_codes.c.code_hash == digest,
                    sign_in_codes.c.used_at.is_(None),
                    sign_in_codes.c.expires_at > now,
                )
                .values(used_at=now)
                .returning(sign_in_codes.c.account_id)
            ).scalar()
        if pk is None:
            raise ApiError(401, "invalid_code", "This sign-in code is unknown, expired or used.")
        row = conn.execute(
            select(accounts.c.public_id, accounts.c.balance_pence).where(accounts.c.id == pk)
        ).one()
    return Account(int(pk), row.public_id), int(row.balance_pence)


def _limits(ledger: Ledger, account: Account, wanted: dict[str, Any] | None) -> dict[str, Any]:
    now = ledger.now_ms()
    with ledger.db.begin() as conn:
        if wanted is None:
            return limits.get_limits(conn, account.pk, now)
        return limits.put_limits(conn, account.pk, now, wanted)


router = APIRouter()


@router.get("/api/limits", responses=errors((401, UNAUTHENTICATED), (429, LIMITED)))
async def get_limits(request: Request, account: Caller) -> dict[str, Any]:
    """The account's daily and weekly spend limits: in force, spent, left, reset, pending."""
    ledger = _ledger(request)
    result: dict[str, Any] = await ledger.db.run(_limits, ledger, account, None)
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
async def put_limits(request: Request, body: LimitsBody, account: Caller) -> dict[str, Any]:
    """Set spend limits: lowering takes effect at once, raising or removing after 24 hours."""
    ledger = _ledger(request)
    wanted = body.model_dump(include=body.model_fields_set)
    result: dict[str, Any] = await ledger.db.run(_limits, ledger, account, wanted)
    return result


@router.put(
    "/api/plays/{play_number}/progress",
    responses=errors(
        (400, "malformed_json."),
        (401, UNAUTHENTICATED),
        (404, PLAY_NOT_FOUND),
        (
            409,
            "play_finished: the play is finished; choices_conflict: the choices differ from "
            "the ones recorded.",
        ),
        (413, "body_too_large."),
        (
            422,
            "invalid_request: not {event: 0-10000, choices: [0-5, ...] (64 at most)}; "
            "invalid_choices: a choice this game does not take.",
        ),
        (429, LIMITED),
    ),
)
async def progress(
    request: Request, play_number: str, body: ProgressBody, account: Caller
) -> dict[str, Any]:
    """Record how far the player has got in an unfinished play, to resume it anywhere."""
    ledger = _ledger(request)
    number = plays.parse_play_number(play_number)
    result: dict[str, Any] = await ledger.db.run(
        plays.save_progress, ledger, account, number, body.event, body.choices
    )
    return result


@router.get(
    "/api/plays/{play_number}/recall",
    responses=errors(
        (401, UNAUTHENTICATED),
        (404, PLAY_NOT_FOUND),
        (
            409,
            "play_unfinished: the play is not finished; book_mismatch: the book rebuilt from "
            "the ledger's entry is not the one recorded at purchase.",
        ),
        (429, LIMITED),
    ),
)
async def recall(request: Request, play_number: str, account: Caller) -> dict[str, Any]:
    """A finished play, to show it again: entry, token, choices and the checked book hash."""
    ledger = _ledger(request)
    number = plays.parse_play_number(play_number)
    result: dict[str, Any] = await ledger.db.run(plays.recall, ledger, account, number)
    return result


@router.post(
    "/api/account/code",
    status_code=201,
    responses=errors((401, UNAUTHENTICATED), (429, LIMITED), (503, "code_unavailable.")),
)
async def account_code(request: Request, account: Caller) -> dict[str, Any]:
    """A one-time code (10 minutes) that signs this account in on another device."""
    ledger = _ledger(request)
    result: dict[str, Any] = await ledger.db.run(new_code, ledger, account)
    return result


@router.post(
    "/api/try",
    status_code=201,
    responses=errors(
        (400, "malformed_json."),
        (401, "unauthenticated: a credential was sent but is forged or expired."),
        (404, "game_not_found: no game has this id."),
        (409, "game_not_on_sale: the game cannot be bought, so it cannot be tried."),
        (413, "body_too_large."),
        (422, 'invalid_request: the body is not {"game": ...}.'),
        (429, "rate_limited: too many requests from this account or address."),
        (503, "pool_unavailable: no pool of free plays could be laid out."),
    ),
)
async def try_play(request: Request, body: TryBody) -> JSONResponse:
    """A free play (TRY mode) from the game's own pool of free plays: a token marked "try";
    no money moves and it is in no account's plays. A session is optional."""
    ledger = _ledger(request)
    authorization = request.headers.get("authorization")
    account: Account | None = None
    if authorization or request.cookies.get(request.app.state.settings.cookie_name):
        account = await request.app.state.authenticate(request, authorization)
    else:
        host = request.client.host if request.client else "unknown"
        if not request.app.state.limiter.allow("ip:" + host):
            raise ApiError(429, "rate_limited", "Too many requests; slow down.")
    result = await request.app.state.slow(ledger.try_play, account, body.game)
    return JSONResponse(result, status_code=201)


test_router = APIRouter()


@test_router.post(
    "/api/test/clock",
    responses=errors(
        (400, "malformed_json."),
        (401, UNAUTHENTICATED),
        (413, "body_too_large."),
        (422, "invalid_request: not {advance_ms: 0-100000000000}."),
        (429, LIMITED),
    ),
)
async def test_clock(request: Request, body: ClockBody, account: Caller) -> dict[str, int]:
    """TEST MODE ONLY: move the ledger's clock on (every process of this database sees it)."""
    del account
    ledger = _ledger(request)
    offset = await request.app.state.slow(ledger.advance_clock, body.advance_ms)
    return {"offset_ms": offset, "now": ledger.now_ms()}
