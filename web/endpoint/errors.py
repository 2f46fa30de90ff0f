"""API errors: one exception type, rendered as {"error": {"code", "message", ...}}, and how the
OpenAPI document describes the answers a route may give in that shape."""

from __future__ import annotations

import logging
from typing import Any


class ApiError(Exception):
    """An error the API reports to the caller with a status, a code and a sentence."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra or {}  # more keys inside "error" (e.g. limit_reached's period)
        self.headers = headers or {}  # HTTP headers of the answer (e.g. a 429's Retry-After)

    def body(self) -> dict[str, dict[str, Any]]:
        """The JSON error object."""
        return {"error": {**self.extra, "code": self.code, "message": self.message}}


# (shown to players as it is by the page: no API words; docs/api.md tells clients to retry a
# purchase with the same Idempotency-Key, as the page does)
DATABASE_UNAVAILABLE = (
    "The game's database cannot be reached just now; try again in a moment. A purchase that "
    "went through is never charged twice."
)


def database_unavailable(error: BaseException) -> ApiError:
    """The answer when the database cannot be reached (database.UNAVAILABLE), said in the
    log too."""
    logging.getLogger("web.endpoint").warning("database unavailable: %s", error)
    return ApiError(503, "database_unavailable", DATABASE_UNAVAILABLE)


def rate_limited(message: str, seconds: int) -> ApiError:
    """The 429 answer, with a Retry-After of at least a second: when the caller may ask again."""
    return ApiError(429, "rate_limited", message, headers={"Retry-After": str(max(1, seconds))})


def not_found_play() -> ApiError:
    """The one answer for unknown plays and other players' plays alike."""
    return ApiError(404, "play_not_found", "There is no such play on this account.")


def unknown_game(game: str) -> ApiError:
    """The answer for a game id that is not in the registry (engine/games.py)."""
    return ApiError(404, "game_not_found", f"There is no game {game[:64]!r}.")


def not_on_sale(game_id: str, name: str) -> ApiError:
    """The answer for a registered game that cannot be bought yet (docs/api.md)."""
    return ApiError(
        409, "game_not_on_sale", f"{name} ({game_id}) is not on sale: no play of it can be bought."
    )


ERROR_SCHEMA = "ApiError"  # the OpenAPI schema of the error shape (web/endpoint/http/apidocs.py)
# What the routes' error answers say, where several routes give the same one
UNAUTHENTICATED = "unauthenticated: missing, forged or expired credential."
LIMITED = "rate_limited: too many requests."
PLAY_NOT_FOUND = "play_not_found: no such play on this account (a try play is none either)."
POOL_UNREADABLE = "pool_unreadable: this server cannot open the pool's data."


def error_response(description: str) -> dict[str, Any]:
    """An OpenAPI response of the API's error shape, with what its codes mean."""
    ref = {"$ref": f"#/components/schemas/{ERROR_SCHEMA}"}
    return {"description": description, "content": {"application/json": {"schema": ref}}}


def documented(*answers: tuple[int, str]) -> dict[int | str, dict[str, Any]]:
    """The error answers a route documents: (status, the codes it may carry and when)."""
    return {status: error_response(text) for status, text in answers}
