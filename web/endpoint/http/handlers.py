"""How exceptions become answers: every error in the API's shape {"error": {"code",
"message"}} and counted (web/endpoint/errors.py), on every route, from one table (`ANSWERS`)
read by the app's handlers and by the purchase's fast path alike (http/routes/sales.py)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.routing import Match

from web.endpoint.errors import ApiError, database_unavailable
from web.endpoint.http.metrics import Metrics
from web.endpoint.pools.vault import PoolKeyMismatch
from web.endpoint.store.database import UNAVAILABLE

MALFORMED = "The body must be a JSON object."


# A pool this server cannot read: neither in its cache nor in the database (a pool committed
# before pools lived there, not moved in), or sealed with another pool-encryption key.
UNREADABLE_POOL = (FileNotFoundError, PoolKeyMismatch)


def pool_unreadable(error: Exception) -> ApiError:
    """The answer when this server cannot read a pool (why goes to the log only)."""
    logging.getLogger("web.endpoint").error("%s", error)
    message = (
        "This server cannot open the pool's data (missing from the database and its cache, "
        "or sealed with another pool-encryption key); see docs/endpoint.md (pools)."
    )
    return ApiError(503, "pool_unreadable", message)


def refuse(
    metrics: Metrics, error: ApiError, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The answer for an ApiError, counted by its status and code."""
    metrics.errors.labels(str(error.status), error.code).inc()
    headers = {**error.headers, **(headers or {})}
    return JSONResponse(error.body(), status_code=error.status, headers=headers or None)


def same(error: Exception) -> ApiError:
    """An ApiError is its own answer."""
    assert isinstance(error, ApiError)
    return error


# The one table from exceptions to answers: (the exceptions, their answer, whether the
# database's connections are recovered first). ApiError first: it is the common one.
ANSWERS: tuple[tuple[tuple[type[Exception], ...], Callable[[Exception], ApiError], bool], ...] = (
    ((ApiError,), same, False),
    (UNREADABLE_POOL, pool_unreadable, False),
    (UNAVAILABLE, database_unavailable, True),  # a lost connection, on any route: 503, not 500
)


async def answer_for(error: Exception, recover: Callable[[], None]) -> ApiError | None:
    """The answer for an exception from ANSWERS (after `recover` when the table says so); None
    for any other exception (the caller's 500)."""
    for kinds, answer, recovers in ANSWERS:
        if isinstance(error, kinds):
            if recovers:
                await anyio.to_thread.run_sync(recover)
            return answer(error)
    return None


def install(app: FastAPI, metrics: Metrics, recover: Callable[[], None]) -> None:
    """Answer the exceptions of ANSWERS (ApiError, a pool it cannot read, a lost database),
    HTTP errors (404, 405 with Allow) and invalid requests (400 or 422) in the API's shape."""

    async def known(_request: Request, error: Exception) -> JSONResponse:
        answer = await answer_for(error, recover)
        assert answer is not None  # (registered below for ANSWERS' exceptions only)
        return refuse(metrics, answer)

    async def http_error(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, HTTPException)
        if error.status_code == 400 and isinstance(error.__cause__, (ValueError, RecursionError)):
            # FastAPI's own for a body json cannot read (a 5,000-digit number, deep nesting)
            return refuse(metrics, ApiError(400, "malformed_json", MALFORMED))
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        headers = dict(error.headers or {})
        if error.status_code == 405:  # every method some route takes at this path
            headers["Allow"] = ", ".join(allowed_methods(request))
        return refuse(metrics, ApiError(error.status_code, code, str(error.detail)), headers)

    async def invalid(_request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RequestValidationError)
        problems = error.errors()
        if any(
            p.get("type") == "json_invalid" or tuple(p.get("loc", ())) == ("body",)
            for p in problems
        ):
            return refuse(metrics, ApiError(400, "malformed_json", MALFORMED))
        where = ", ".join(
            f"{'.'.join(str(x) for x in p.get('loc', ()))}: {p.get('msg')}" for p in problems[:5]
        )
        return refuse(
            metrics, ApiError(422, "invalid_request", f"The request is not valid ({where}).")
        )

    for kinds, _answer, _recovers in ANSWERS:
        for kind in kinds:
            app.add_exception_handler(kind, known)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(RequestValidationError, invalid)


def allowed_methods(request: Request) -> list[str]:
    """The methods the request's path answers to, over every route that matches it (several
    routes share a path, so one route's own list is not the path's)."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches(request.scope)
        if match is not Match.NONE:
            methods |= set(getattr(route, "methods", None) or ())
    if "GET" in methods:
        methods.add("HEAD")  # guards.HeadAsGet
    return sorted(methods)
