"""Buying a play (POST /api/plays) and finishing it (POST /api/plays/{n}/finish).

Both are declared like every route, with their bodies and answers as models, so FastAPI's
OpenAPI document describes them; they read their bodies with those models themselves, so no
per-request dependency or validation machinery of FastAPI's runs, and the purchase is also
answered ahead of the middleware stack by `PurchaseFastPath`, which costs a purchase about as much
as its own statements on a small machine (docs/changelog.md).
"""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal, TypeVar

import orjson
from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.types import Receive, Scope, Send

from web.endpoint.errors import (
    PLAY_NOT_FOUND,
    POOL_UNREADABLE,
    UNAUTHENTICATED,
    ApiError,
)
from web.endpoint.errors import documented as errors
from web.endpoint.http import guards
from web.endpoint.http.handlers import answer_for
from web.endpoint.http.routes.plays import Choice
from web.endpoint.http.services import Services
from web.endpoint.sales import plays, progress
from web.endpoint.sales.checkout import MAX_GAME_LENGTH, MAX_KEY_LENGTH
from web.endpoint.sales.progress import CHOICES

Body = TypeVar("Body", bound=BaseModel)
PlayNumber = Annotated[str, Path(json_schema_extra={"pattern": "^[0-9]{1,18}$"})]


class GameBody(BaseModel):
    """The game to buy a play of."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"game": "lab-riches"}]}
    )
    game: str = Field(max_length=MAX_GAME_LENGTH)


class Purchase(BaseModel):
    """A play bought (or, for a retry, the play bought before) and its outcome token."""

    play_number: int
    token: str
    balance_pence: int
    play_time: dict[str, Any]  # the account's play time after it (GET /api/play-time)


class FinishBody(BaseModel):
    """The player's final choices (they must extend the stored ones)."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"choices": [0, 5, 2]}]}
    )
    choices: list[Choice] = Field(default_factory=list, max_length=progress.MAX_CHOICES)


class Finished(BaseModel):
    """A finished play: its prize and the balance after it."""

    play_number: int
    prize_pence: int
    balance_pence: int
    status: Literal["finished"]


def read(model: type[Body], raw: bytes, shape: str) -> Body:
    """A body read with its model: 400 malformed_json when it is not a JSON object, 422
    invalid_request (saying `shape`) when it is one of another shape."""
    try:
        return model.model_validate_json(raw)
    except ValidationError as error:
        for problem in error.errors():
            if problem["type"].startswith("json_") or (
                problem["type"] == "model_type" and not problem["loc"]
            ):
                raise ApiError(400, "malformed_json", "The body must be a JSON object.") from None
        raise ApiError(422, "invalid_request", shape) from None


def body_document(model: type[BaseModel], required: bool) -> dict[str, Any]:
    """The requestBody of a route that reads its body with `read`."""
    schema = {"application/json": {"schema": model.model_json_schema()}}
    return {"requestBody": {"required": required, "content": schema}}


IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": True,
    "description": "Any 1-128 characters, new for each purchase; repeat it to retry.",
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH},
}


async def sell(services: Services, request: Request, raw: bytes) -> dict[str, Any]:
    """A purchase's answer (201) from its request's headers and body; raises ApiError."""
    account = await services.caller(request)
    game = read(GameBody, raw, 'The body must be {"game": "<game id>"}.').game
    result = await services.checkout.buy(account, game, request.headers.get("idempotency-key"))
    services.metrics.purchased(game)
    return result


def routes(services: Services) -> APIRouter:
    """POST /api/plays and POST /api/plays/{play_number}/finish."""
    router = APIRouter()

    @router.post(
        "/api/plays",
        status_code=201,
        summary="Buy a play",
        response_model=Purchase,
        response_description=(
            "The play bought (or, for a retry, the play bought before) and its token."
        ),
        responses=errors(
            (400, "malformed_json or idempotency_key_required."),
            (401, UNAUTHENTICATED),
            (402, "insufficient_funds: the balance does not cover the price."),
            (
                403,
                "limit_reached: the play would exceed the daily or weekly spend limit; the "
                "error also carries period, left_pence and resets_at. Or limits_required: "
                "the account has no daily or no weekly limit in force and the operator "
                "requires both (LOTTERY_LIMITS_REQUIRED); the error carries missing, the "
                "periods without one. Or cooling_off: the account's play session has ended "
                "(after LOTTERY_PLAY_SESSION_SECONDS of play) and paid plays are refused until "
                "resumes_at, on every device. Or break_taken / self_excluded: the account "
                "takes a break or is self-excluded (until: when play comes back, null while "
                "it must be asked back). Nothing is charged.",
            ),
            (404, "game_not_found: no game has this id."),
            (
                409,
                "game_not_on_sale: the game is registered but cannot be bought; or "
                "idempotency_conflict: the Idempotency-Key bought another game.",
            ),
            (413, "body_too_large."),
            (422, 'invalid_request: the body is not {"game": ...} or the key is too long.'),
            (429, "rate_limited."),
            (
                503,
                "pool_unavailable: no pool could be laid out; try again. Or "
                "database_unavailable: the database could not be reached; try again with the "
                f"same Idempotency-Key. Or {POOL_UNREADABLE}",
            ),
        ),
        openapi_extra={"parameters": [IDEMPOTENCY_KEY], **body_document(GameBody, True)},
    )
    async def purchase(request: Request) -> JSONResponse:
        """Debit the price, draw the next unsold entry of the game's committed pool, record
        the play and return its signed outcome token, in one transaction. A retry with the
        same Idempotency-Key returns the same play and token and charges nothing more. Needs
        a session credential (Authorization: Bearer, or the session cookie)."""
        result = await sell(services, request, await request.body())
        return JSONResponse(result, status_code=201)

    @router.post(
        "/api/plays/{play_number}/finish",
        summary="Finish a play",
        response_model=Finished,
        response_description="The play is finished; its prize and the balance after it.",
        responses=errors(
            (400, "malformed_json: a body that is not a JSON object."),
            (401, UNAUTHENTICATED),
            (404, PLAY_NOT_FOUND),
            (
                409,
                "choices_conflict: the choices differ from the ones recorded (or the play is "
                "finished and its choices are final).",
            ),
            (413, "body_too_large."),
            (
                422,
                'invalid_request: a body other than {"choices": [...]}; invalid_choices: a '
                "choice this game does not take.",
            ),
            (429, "rate_limited."),
        ),
        openapi_extra=body_document(FinishBody, False),
    )
    async def finish(play_number: PlayNumber, request: Request) -> JSONResponse:
        """Mark the play finished and credit its prize exactly once; a repeat gives the same
        answer and credits nothing. An optional body {"choices": [...]} records the player's
        final choices (they must extend the stored ones). Needs the session credential of
        the play's account."""
        account = await services.caller(request)
        number = plays.parse_play_number(play_number)
        choices = final_choices(await request.body())
        done = await services.again(services.progress.finish, account, number, choices)
        services.metrics.finishes.inc()
        return JSONResponse(done)

    return router


def final_choices(raw: bytes) -> list[int] | None:
    """The optional body of a finish: nothing, {} (as before choices were kept), or
    {"choices": [int, ...]} (0 to MAX_CHOICE, at most 64)."""
    if not raw.strip():
        return None
    shape = f'The body must be empty, {{}} or {{"choices": {CHOICES}}} (<= 64).'
    body = read(FinishBody, raw, shape)
    return body.choices if "choices" in body.model_fields_set else None


class PurchaseFastPath:
    """POST /api/plays straight to `sell`, ahead of the framework's dozen middleware layers.

    It keeps what those layers give this route: the body limit's 413, the latency histogram,
    every error in the API's shape (ApiError through `Services.refuse`, so it is counted; a
    pool it cannot read as 503 pool_unreadable; anything else as a 500 in the same shape,
    re-raised for the server's log), and the API's nosniff and no-store headers (its answer
    has them among its own, an error gets them from `guards.api_headers`). A request with an
    Origin header goes through the whole stack when CORS is configured, so CORS answers it as
    before.
    """

    def __init__(self, services: Services) -> None:
        self.services = services
        self.max_bytes = services.settings.max_body_bytes
        self.cors = bool(services.settings.cors_origins)
        self.latency = services.metrics.latency.labels("POST", "/api/plays")

    def takes(self, scope: Scope) -> bool:
        """True for a purchase this fast path answers."""
        if scope["type"] != "http" or scope["path"] != "/api/plays" or scope["method"] != "POST":
            return False
        return not self.cors or all(name != b"origin" for name, _ in scope["headers"])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer the purchase, timed like every route."""
        started = time.perf_counter()
        try:
            await self._answer(scope, receive, send)
        finally:
            self.latency.observe(time.perf_counter() - started)

    async def _answer(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = await guards.read_body(scope, receive, self.max_bytes)
        if body is None:
            await guards.too_large(guards.api_headers(send), self.max_bytes)
            return
        refuse = self.services.refuse
        try:
            result = await sell(self.services, Request(scope), body)
        except Exception as error:  # answered from the one table (handlers.ANSWERS)
            known = await answer_for(error, self.services.db.recover)
            if known is None:
                failed = ApiError(500, "internal_error", "The purchase failed; try again.")
                await refuse(failed)(scope, receive, guards.api_headers(send))
                raise
            response = refuse(known)
        else:
            # the bytes json.dumps(result, ensure_ascii=False, separators=(",", ":")) wrote,
            # in a twentieth of its time (test_sales.py)
            answer = orjson.dumps(result)
            length = (b"content-length", str(len(answer)).encode())
            headers = [length, JSON_TYPE, guards.NOSNIFF, guards.NO_STORE]
            await send({"type": "http.response.start", "status": 201, "headers": headers})
            await send({"type": "http.response.body", "body": answer})
            return
        await response(scope, receive, guards.api_headers(send))


JSON_TYPE = (b"content-type", b"application/json")
