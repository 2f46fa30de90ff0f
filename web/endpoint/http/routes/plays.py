"""A player's plays: My Games, one play, checking a token, saving progress, recalling a
finished play (docs/api.md). Buying and finishing are in web/endpoint/http/routes/sales.py."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt

from web.endpoint import tokens
from web.endpoint.errors import (
    LIMITED,
    PLAY_NOT_FOUND,
    POOL_UNREADABLE,
    UNAUTHENTICATED,
    ApiError,
    not_found_play,
)
from web.endpoint.errors import documented as errors
from web.endpoint.http.services import Services
from web.endpoint.player.accounts import Account
from web.endpoint.sales import plays
from web.endpoint.sales.progress import CHOICES, MAX_CHOICE, MAX_CHOICES, MAX_EVENT

# An integer, also written 5.0 (an integer to JSON Schema), never true or "5" (after the
# bounds, so the document keeps them as its minimum and maximum).
WHOLE = BeforeValidator(plays.whole_number)
WholeNumber = Annotated[StrictInt, WHOLE]
Choice = Annotated[StrictInt, Field(ge=0, le=MAX_CHOICE), WHOLE]
# What the document says of My Games' query; anything else is refused by plays.my_games with
# its own code (400 invalid_cursor, 422 invalid_status), so the two agree.
CURSOR = {"pattern": f"^{plays.CURSOR.pattern}$"}  # a play's id, as next_cursor gives it
STATUS = {"enum": ["unfinished", "finished"]}
Cursor = Annotated[str | None, Query(max_length=32, json_schema_extra=CURSOR)]
Status = Annotated[str | None, Query(max_length=16, json_schema_extra=STATUS)]
Limit = Annotated[int, Query(ge=1, le=100)]


class TokenBody(BaseModel):
    """An outcome token to check."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(max_length=tokens.MAX_TOKEN_LENGTH)


class ProgressBody(BaseModel):
    """How far the player has got: an event index and their choices so far."""

    model_config = ConfigDict(extra="forbid")
    event: WholeNumber = Field(ge=0, le=MAX_EVENT)
    choices: list[Choice] = Field(default_factory=list, max_length=MAX_CHOICES)


def routes(services: Services) -> APIRouter:
    """GET /api/plays, GET /api/plays/{n}, GET .../proof, POST /api/tokens/verify,
    PUT .../progress and GET .../recall."""
    router = APIRouter()
    caller = Depends(services.caller)
    readback = services.readback

    @router.get(
        "/api/plays",
        responses=errors(
            (400, "invalid_cursor: a cursor this endpoint did not give."),
            (401, UNAUTHENTICATED),
            (422, "invalid_request or invalid_status: a query of the wrong shape."),
            (429, LIMITED),
        ),
    )
    async def my_games(
        account: Account = caller,
        cursor: Cursor = None,
        status: Status = None,
        limit: Limit = plays.PAGE_SIZE,
    ) -> dict[str, Any]:
        """My Games: the account's plays, newest first (status=unfinished to resume)."""
        found = await services.again(readback.my_games, account, cursor, status, limit)
        result: dict[str, Any] = found
        return result

    @router.get(
        "/api/plays/{play_number}",
        responses=errors(
            (401, UNAUTHENTICATED),
            (404, PLAY_NOT_FOUND),
            (429, LIMITED),
            (503, POOL_UNREADABLE),
        ),
    )
    async def play(play_number: str, account: Account = caller) -> dict[str, Any]:
        """One of the account's plays, with its token, pool entry, Merkle proof and root, and
        its place in the public log ("log": null until a checkpoint covers its sale, then
        {index, size, proof: c2sp.org/tlog-proof@v1 text})."""
        number = plays.parse_play_number(play_number)
        result: dict[str, Any] = await services.again(readback.play_detail, account, number)
        result["log"] = await services.again(services.log.play_proof, number, account.pk)
        return result

    @router.get(
        "/api/plays/{play_number}/proof",
        response_class=Response,
        responses={
            200: {
                "description": "The play's c2sp.org/tlog-proof@v1 file (its sale's record as "
                "`extra`), as `build.py verify` reads it.",
                "content": {"text/plain": {"schema": {"type": "string"}}},
            },
            **errors(
                (401, UNAUTHENTICATED),
                (404, PLAY_NOT_FOUND + " not_in_log: no checkpoint covers its sale yet."),
                (429, LIMITED),
            ),
        },
    )
    async def proof(play_number: str, account: Account = caller) -> Response:
        """The play's proof of logging as a file (play-<N>.tlog-proof)."""
        number = plays.parse_play_number(play_number)
        try:
            found = await services.again(services.log.play_proof, number, account.pk)
        except LookupError:
            raise not_found_play() from None
        if found is None:
            raise ApiError(404, "not_in_log", "No checkpoint covers this sale yet; try soon.")
        disposition = f'attachment; filename="play-{number}.tlog-proof"'
        return Response(
            found["proof"],
            media_type="text/plain; charset=utf-8",
            headers={"Content-Disposition": disposition},
        )

    @router.post(
        "/api/tokens/verify",
        responses=errors(
            (400, "malformed_json, or token_invalid: the token fails its checks."),
            (401, UNAUTHENTICATED),
            (404, "play_not_found: the token is for a play of another account."),
            (413, "body_too_large."),
            (422, 'invalid_request: the body is not {"token": ...}.'),
            (429, LIMITED),
        ),
    )
    async def verify(body: TokenBody, account: Account = caller) -> dict[str, Any]:
        """Check an outcome token against the keys, the account and the recorded play."""
        result: dict[str, Any] = await services.again(readback.verify_token, account, body.token)
        return result

    @router.put(
        "/api/plays/{play_number}/progress",
        responses=errors(
            (400, "malformed_json."),
            (401, UNAUTHENTICATED),
            (404, PLAY_NOT_FOUND),
            (
                409,
                "play_finished: the play is finished; choices_conflict: the choices differ "
                "from the ones recorded.",
            ),
            (413, "body_too_large."),
            (
                422,
                f"invalid_request: not {{event: 0-10000, choices: {CHOICES} (64 at most)}}; "
                "invalid_choices: a choice this game does not take.",
            ),
            (429, LIMITED),
        ),
    )
    async def progress(
        play_number: str, body: ProgressBody, account: Account = caller
    ) -> dict[str, Any]:
        """Record how far the player has got in an unfinished play, to resume it anywhere."""
        number = plays.parse_play_number(play_number)
        result: dict[str, Any] = await services.again(
            services.progress.save, account, number, body.event, body.choices
        )
        return result

    @router.get(
        "/api/plays/{play_number}/recall",
        responses=errors(
            (401, UNAUTHENTICATED),
            (404, PLAY_NOT_FOUND),
            (
                409,
                "play_unfinished: the play is not finished; book_mismatch: the book rebuilt "
                "from the ledger's entry is not the one recorded at purchase.",
            ),
            (429, LIMITED),
        ),
    )
    async def recall(play_number: str, account: Account = caller) -> dict[str, Any]:
        """A finished play, to show it again: entry, token, choices and the checked book
        hash."""
        number = plays.parse_play_number(play_number)
        result: dict[str, Any] = await services.again(readback.recall, account, number)
        return result

    return router
