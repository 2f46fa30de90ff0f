"""The sale routes: buying a play (POST /api/plays) and finishing it (POST /api/plays/{n}/finish).

They are plain Starlette routes, placed before FastAPI's: FastAPI's per-request dependency and
validation machinery costs about as much as the purchase itself on a small machine. FastAPI
therefore does not know them, so `document` writes their operations into the OpenAPI document.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable
from typing import Any

import anyio
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from web.endpoint import guards, plays
from web.endpoint.database import UNAVAILABLE
from web.endpoint.errors import (
    ERROR_SCHEMA,
    PLAY_NOT_FOUND,
    UNAUTHENTICATED,
    ApiError,
    database_unavailable,
    error_response,
)
from web.endpoint.ledger import MAX_DRAW_ATTEMPTS, NO_POOL, Account, Ledger, PoolExhausted

LOST_RETRIES = 2  # a purchase whose database connection was lost is tried again this often
MAX_KEY_LENGTH = 128
MAX_GAME_LENGTH = 64
MAX_CHOICE = 5  # a choice is 0..5 (Power Puck Shot's arrows); each game checks its own range


async def buy(ledger: Ledger, account: Account, game: str, key: str | None) -> dict[str, Any]:
    """Purchase, laying out a new pool in a thread when the current one is spent."""
    if not key:
        raise ApiError(400, "idempotency_key_required", "Send an Idempotency-Key header.")
    if len(key) > MAX_KEY_LENGTH:
        raise ApiError(422, "invalid_request", "The Idempotency-Key is over 128 characters.")
    batcher = ledger.batcher
    if batcher is not None:
        sold = await batcher.buy(account, game, key)
        if sold is not None:
            return sold
    lost = 0
    for _ in range(MAX_DRAW_ATTEMPTS + LOST_RETRIES):
        try:
            result: dict[str, Any] = await ledger.db.run(ledger.try_purchase, account, game, key)
            return result
        except PoolExhausted as exhausted:
            await anyio.to_thread.run_sync(ledger.ensure_pool, game, exhausted.args[0])
        except UNAVAILABLE as error:  # bought again on a new connection: the key makes it safe
            await anyio.to_thread.run_sync(ledger.db.recover)
            lost += 1
            # (SQLite has no connection to lose: its file was locked for the whole busy
            # timeout, 10 s, or could not be written; no use waiting that long again)
            if lost > LOST_RETRIES or ledger.db.is_sqlite:
                raise database_unavailable(error) from error
    raise ApiError(503, "pool_unavailable", NO_POOL)


async def _caller(request: Request) -> Account:
    account: Account = await request.app.state.authenticate(
        request, request.headers.get("authorization")
    )
    return account


async def sell(state: Any, request: HTTPConnection, body: bytes) -> dict[str, Any]:
    """A purchase's answer (201) from its request's headers and body; raises ApiError.
    `state` is the app's state: its ledger, metrics and `authenticate`."""
    account: Account = await state.authenticate(request, request.headers.get("authorization"))
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):  # RecursionError: nesting deeper than the parser goes
        raise ApiError(400, "malformed_json", "The body must be a JSON object.") from None
    if not isinstance(data, dict):
        raise ApiError(400, "malformed_json", "The body must be a JSON object.")
    game = data.get("game")
    if set(data) != {"game"} or not isinstance(game, str) or len(game) > MAX_GAME_LENGTH:
        raise ApiError(422, "invalid_request", 'The body must be {"game": "<game id>"}.')
    result = await buy(state.ledger, account, game, request.headers.get("idempotency-key"))
    state.metrics.purchased(game)
    return result


async def purchase(request: Request) -> JSONResponse:
    """POST /api/plays {game} with Idempotency-Key (the route, for requests `Shortcut` leaves
    to the whole stack)."""
    result = await sell(request.app.state, request, await request.body())
    return JSONResponse(result, status_code=201)


Refuse = Callable[[ApiError], Response]
Missing = Callable[[Exception], Response]


class Shortcut:
    """POST /api/plays straight to `sell`, ahead of the framework's dozen middleware layers,
    which cost a purchase about as much as its own statements on a small machine.

    It keeps what those layers give this route: the body limit's 413, the latency histogram,
    every error in the API's shape (ApiError through the app's `refuse`, so it is counted; a
    missing pool file as 503 pool_files_missing; anything else as a 500 in the same shape,
    re-raised for the server's log). A request with an Origin header goes through the whole
    stack when CORS is configured, so CORS answers it as before.
    """

    def __init__(
        self, state: Any, refuse: Refuse, pool_missing: Missing, max_bytes: int, cors: bool
    ) -> None:
        self.state = state
        self.refuse = refuse
        self.pool_missing = pool_missing
        self.max_bytes = max_bytes
        self.cors = cors
        self.latency = state.metrics.latency.labels("POST", "/api/plays")

    def takes(self, scope: Scope) -> bool:
        """True for a purchase this shortcut answers."""
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
            await guards.too_large(send, self.max_bytes)
            return
        try:
            result = await sell(self.state, HTTPConnection(scope), body)
        except ApiError as error:
            response = self.refuse(error)
        except FileNotFoundError as error:
            response = self.pool_missing(error)
        except UNAVAILABLE as error:  # (authenticating: buying retries it first)
            await anyio.to_thread.run_sync(self.state.ledger.db.recover)
            response = self.refuse(database_unavailable(error))
        except Exception:
            failed = ApiError(500, "internal_error", "The purchase failed; try again.")
            await self.refuse(failed)(scope, receive, send)
            raise
        else:
            answer = json.dumps(result, ensure_ascii=False, separators=(",", ":")).encode()
            headers = [(b"content-length", str(len(answer)).encode()), JSON_TYPE]
            await send({"type": "http.response.start", "status": 201, "headers": headers})
            await send({"type": "http.response.body", "body": answer})
            return
        await response(scope, receive, send)


JSON_TYPE = (b"content-type", b"application/json")


def _final_choices(raw: bytes) -> list[int] | None:
    """The optional body of a finish: nothing, {} (as before choices were kept), or
    {"choices": [int, ...]} (0-5, at most 64)."""
    if not raw.strip():
        return None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ApiError(400, "malformed_json", "The body must be a JSON object.") from None
    if not isinstance(data, dict):
        raise ApiError(400, "malformed_json", "The body must be a JSON object.")
    if not data:
        return None
    choices = data.get("choices")
    if (
        set(data) != {"choices"}
        or not isinstance(choices, list)
        or len(choices) > plays.MAX_CHOICES
        or any(type(c) is not int or not 0 <= c <= MAX_CHOICE for c in choices)
    ):
        raise ApiError(
            422, "invalid_request", 'The body must be empty, {} or {"choices": [0-5, ...]} (<= 64).'
        )
    return choices


async def finish(request: Request) -> JSONResponse:
    """POST /api/plays/{play_number}/finish, with an optional {"choices": [...]}."""
    account = await _caller(request)
    ledger: Ledger = request.app.state.ledger
    number = plays.parse_play_number(request.path_params["play_number"])
    choices = _final_choices(await request.body())
    done = await ledger.db.run(plays.finish, ledger, account, number, choices)
    request.app.state.metrics.finishes.inc()
    return JSONResponse(done)


ROUTES = [
    Route("/api/plays", purchase, methods=["POST"]),
    Route("/api/plays/{play_number}/finish", finish, methods=["POST"]),
]

# -- the OpenAPI document ------------------------------------------------------------------------

_INT = {"type": "integer"}


def _object(properties: dict[str, Any], title: str) -> dict[str, Any]:
    return {
        "title": title,
        "type": "object",
        "properties": properties,
        "required": list(properties),
    }


def _ok(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


PURCHASE_OPERATION: dict[str, Any] = {
    "summary": "Buy a play",
    "description": (
        "Debit the price, draw the next unsold entry of the game's committed pool, record the "
        "play and return its signed outcome token, in one transaction. A retry with the same "
        "Idempotency-Key returns the same play and token and charges nothing more. Needs a "
        "session credential (Authorization: Bearer, or the session cookie)."
    ),
    "operationId": "purchase_api_plays_post",
    "parameters": [
        {
            "name": "Idempotency-Key",
            "in": "header",
            "required": True,
            "description": "Any 1-128 characters, new for each purchase; repeat it to retry.",
            "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH},
        }
    ],
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {
                "schema": {
                    **_object(
                        {"game": {"type": "string", "maxLength": MAX_GAME_LENGTH}}, "GameBody"
                    ),
                    "additionalProperties": False,
                    "examples": [{"game": "lab-riches"}],
                }
            }
        },
    },
    "responses": {
        "201": _ok(
            "The play bought (or, for a retry, the play bought before) and its token.",
            _object(
                {"play_number": _INT, "token": {"type": "string"}, "balance_pence": _INT},
                "Purchase",
            ),
        ),
        "400": error_response("malformed_json or idempotency_key_required."),
        "401": error_response(UNAUTHENTICATED),
        "402": error_response("insufficient_funds: the balance does not cover the price."),
        "403": error_response(
            "limit_reached: the play would exceed the daily or weekly spend limit; the error "
            "also carries period, left_pence and resets_at. Nothing is charged."
        ),
        "404": error_response("game_not_found: no game has this id."),
        "409": error_response(
            "game_not_on_sale: the game is registered but cannot be bought; or "
            "idempotency_conflict: the Idempotency-Key bought another game."
        ),
        "413": error_response("body_too_large."),
        "422": error_response(
            'invalid_request: the body is not {"game": ...} or the key is too long.'
        ),
        "429": error_response("rate_limited."),
        "503": error_response(
            "pool_unavailable: no pool could be laid out; try again. Or database_unavailable: "
            "the database could not be reached; try again with the same Idempotency-Key."
        ),
    },
}

FINISH_OPERATION: dict[str, Any] = {
    "summary": "Finish a play",
    "description": (
        "Mark the play finished and credit its prize exactly once; a repeat gives the same "
        'answer and credits nothing. An optional body {"choices": [...]} records the '
        "player's final choices (they must extend the stored ones). Needs the session "
        "credential of the play's account."
    ),
    "operationId": "finish_api_plays__play_number__finish_post",
    "parameters": [
        {
            "name": "play_number",
            "in": "path",
            "required": True,
            "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"},
        }
    ],
    "requestBody": {
        "required": False,
        "content": {
            "application/json": {
                "schema": {
                    **_object(
                        {
                            "choices": {
                                "type": "array",
                                "maxItems": 64,
                                "items": {"type": "integer", "minimum": 0, "maximum": MAX_CHOICE},
                            }
                        },
                        "FinishBody",
                    ),
                    "additionalProperties": False,
                    "examples": [{"choices": [0, 5, 2]}],
                }
            }
        },
    },
    "responses": {
        "200": _ok(
            "The play is finished; its prize and the balance after it.",
            _object(
                {
                    "play_number": _INT,
                    "prize_pence": _INT,
                    "balance_pence": _INT,
                    "status": {"type": "string", "const": "finished"},
                },
                "Finished",
            ),
        ),
        "401": error_response(UNAUTHENTICATED),
        "400": error_response("malformed_json: a body that is not a JSON object."),
        "404": error_response(PLAY_NOT_FOUND),
        "409": error_response(
            "choices_conflict: the choices differ from the ones recorded (or the play is "
            "finished and its choices are final)."
        ),
        "413": error_response("body_too_large."),
        "422": error_response(
            'invalid_request: a body other than {"choices": [...]}; invalid_choices: a '
            "choice this game does not take."
        ),
        "429": error_response("rate_limited."),
    },
}


DATABASE_FREE = ("/api/games", "/api/keys")  # routes that never touch the database


def document(schema: dict[str, Any]) -> dict[str, Any]:
    """Add the sale operations and the error schema to FastAPI's OpenAPI document."""
    paths = schema.setdefault("paths", {})
    paths["/api/plays"] = {"post": copy.deepcopy(PURCHASE_OPERATION), **paths.get("/api/plays", {})}
    finish_path = {"/api/plays/{play_number}/finish": {"post": copy.deepcopy(FINISH_OPERATION)}}
    ordered: dict[str, Any] = {}
    for path, item in paths.items():  # finish after the play it finishes
        ordered[path] = item
        if path == "/api/plays/{play_number}":
            ordered.update(finish_path)
    schema["paths"] = {**ordered, **finish_path}
    schemas = schema.setdefault("components", {}).setdefault("schemas", {})
    # FastAPI's own 422 (HTTPValidationError) is not what this API answers: app.py turns a
    # validation error into the error shape (422 invalid_request, or 400 malformed_json).
    for item in schema["paths"].values():
        for operation in item.values():
            answer = operation.get("responses", {}).get("422", {})
            if "HTTPValidationError" in str(answer):
                operation["responses"]["422"] = error_response(
                    "invalid_request: a parameter or body of the wrong shape."
                )
    # Any route that reads or writes the database may find it out of reach (app.py).
    lost = "database_unavailable: the database could not be reached; try again."
    for path, item in schema["paths"].items():
        for operation in item.values() if path not in DATABASE_FREE else ():
            answers = operation.setdefault("responses", {})
            if "database_unavailable" not in str(answers.get("503", "")):
                said = answers.get("503", {}).get("description")
                answers["503"] = error_response(f"{said} Or {lost}" if said else lost)
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    schemas[ERROR_SCHEMA] = _object(
        {
            "error": {
                **_object(
                    {"code": {"type": "string"}, "message": {"type": "string"}}, "ErrorDetail"
                ),
                "properties": {
                    "code": {"type": "string"},
                    "message": {"type": "string"},
                    # limit_reached only:
                    "period": {"type": "string", "enum": ["daily", "weekly"]},
                    "left_pence": _INT,
                    "resets_at": _INT,
                },
            }
        },
        ERROR_SCHEMA,
    )
    return schema
