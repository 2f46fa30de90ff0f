"""The signing endpoint as a FastAPI app; every route lives under /api."""

from __future__ import annotations

import asyncio
import gc
import logging
import secrets
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any

import anyio
from fastapi import Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException
from starlette.routing import Match
from starlette.types import Receive, Scope, Send

from engine import games as registry
from web.endpoint import hashes, player, plays, reveal, sales, tokens
from web.endpoint.database import UNAVAILABLE
from web.endpoint.errors import (
    LIMITED,
    PLAY_NOT_FOUND,
    UNAUTHENTICATED,
    ApiError,
    database_unavailable,
)
from web.endpoint.errors import documented as errors
from web.endpoint.guards import BodyLimit, HeadAsGet, JsonCORS, RateLimit
from web.endpoint.keys import write_secret_once
from web.endpoint.ledger import Account, open_ledger
from web.endpoint.metrics import Metrics, Timing, entries_left, health, unhashed_plays
from web.endpoint.pools import LayOut
from web.endpoint.settings import Settings


class TokenBody(BaseModel):
    """An outcome token to check."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(max_length=tokens.MAX_TOKEN_LENGTH)


class NextEntryBody(BaseModel):
    """Test mode: the prize (and/or composition) the next purchase of a game should draw."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)
    prize_pence: int | None = None
    composition: list[dict[str, str | int]] | None = None


def _session_secret(settings: Settings) -> bytes:
    if settings.session_secret:
        return settings.session_secret.encode()
    path = settings.var_dir / "session-secret"
    write_secret_once(path, secrets.token_hex(32).encode())
    return path.read_text().strip().encode()


SWITCH_INTERVAL = 0.0005  # seconds; sys.setswitchinterval of an endpoint process


def create_app(
    settings: Settings | None = None,
    *,
    clock: Callable[[], float] = time.time,
    lay_out: LayOut | None = None,
) -> FastAPI:
    """Build the endpoint: open the database (migrating it), load the keys, wire the routes."""
    settings = settings or Settings.from_env()
    # The event loop hands the interpreter lock to the database threads (PostgreSQL's batches),
    # the hashing process's feeder and the WAL checkpointer within 0.5 ms, not Python's 5 ms
    # (docs/endpoint-benchmarks.md).
    sys.setswitchinterval(SWITCH_INTERVAL)
    ledger = open_ledger(settings, clock, lay_out)
    db, ring = ledger.db, ledger.ring
    # Bound to this database: a credential made for another (or a deleted) one never matches.
    secret = _session_secret(settings) + b"/" + db.instance_id().encode()
    limiter = RateLimit(settings.rate_per_second, settings.rate_burst, clock)
    catalogue = {
        "games": [{**game.table.as_json(), "on_sale": game.on_sale} for game in registry.GAMES]
    }
    sweep = {"last": clock(), "lock": threading.Lock()}

    if settings.warm_pools:
        threading.Thread(target=ledger.warm, name="warm-pools", daemon=True).start()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Overdue plays are paid on a timer too, not only when a request happens to arrive.
        async def sweeper() -> None:
            while True:
                await anyio.sleep(settings.sweep_interval_seconds)
                try:
                    await maybe_sweep()
                except Exception:
                    logging.getLogger("web.endpoint").exception("sweeping overdue plays failed")

        # Each sold play's book hash, made ahead of the sale or just after (web/endpoint/hashes.py).
        worker = hashes.HashingProcess(on_restart=metrics.hashing_restarts.inc)
        tasks = [asyncio.create_task(sweeper()),
                 asyncio.create_task(hashes.keep_hashing(ledger, worker))]  # fmt: skip
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            await hashes.hash_before_stopping(ledger, worker)
            worker.shutdown()

    app = Endpoint(
        lifespan=lifespan,
        title="Lottery signing endpoint",
        version="1",
        openapi_url="/api/openapi.json",
        docs_url="/api/docs",
        swagger_ui_oauth2_redirect_url="/api/docs/oauth2-redirect",
        redoc_url=None,
    )
    app.state.ledger = ledger
    app.state.settings = settings
    app.state.limiter = limiter
    metrics = Metrics()
    metrics.watch_pools(lambda: entries_left(ledger))
    metrics.watch_hashing(lambda: unhashed_plays(ledger))
    app.state.metrics = metrics

    def refuse(error: ApiError, headers: dict[str, str] | None = None) -> JSONResponse:
        metrics.errors.labels(str(error.status), error.code).inc()
        return JSONResponse(error.body(), status_code=error.status, headers=headers)

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, error: ApiError) -> JSONResponse:
        return refuse(error)

    def missing_pool(error: Exception) -> JSONResponse:
        logging.getLogger("web.endpoint").error("%s", error)  # the path, for the operator only
        message = "This server is missing the pool's files; see docs/endpoint.md (pools)."
        return refuse(ApiError(503, "pool_files_missing", message))

    async def unavailable(_request: Request, error: Exception) -> JSONResponse:
        await anyio.to_thread.run_sync(db.recover)
        return refuse(database_unavailable(error))

    for kind in UNAVAILABLE:  # a lost connection, on any route: 503, not a 500
        app.add_exception_handler(kind, unavailable)

    @app.exception_handler(FileNotFoundError)
    async def pool_missing(_request: Request, error: FileNotFoundError) -> JSONResponse:
        return missing_pool(error)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        headers = dict(error.headers or {})
        if error.status_code == 405:  # every method some route takes at this path
            headers["Allow"] = ", ".join(allowed_methods(request))
        return refuse(ApiError(error.status_code, code, str(error.detail)), headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = error.errors()
        if any(
            p.get("type") == "json_invalid" or tuple(p.get("loc", ())) == ("body",)
            for p in problems
        ):
            return refuse(ApiError(400, "malformed_json", "The body must be a JSON object."))
        where = ", ".join(
            f"{'.'.join(str(x) for x in p.get('loc', ()))}: {p.get('msg')}" for p in problems[:5]
        )
        return refuse(ApiError(422, "invalid_request", f"The request is not valid ({where})."))

    async def call(fn: Callable[..., Any], *args: Any) -> Any:
        return await db.run(fn, *args)

    async def slow(fn: Callable[..., Any], *args: Any) -> Any:
        return await anyio.to_thread.run_sync(fn, *args)

    app.state.slow = slow

    async def maybe_sweep() -> None:
        now = clock()
        if now - sweep["last"] < settings.sweep_interval_seconds:  # type: ignore[operator]
            return
        lock: threading.Lock = sweep["lock"]  # type: ignore[assignment]
        if lock.acquire(blocking=False):
            try:
                sweep["last"] = now
                await slow(plays.finish_expired, ledger)
            finally:
                lock.release()

    async def authenticate(request: Request, authorization: str | None) -> Account:
        credential = request.cookies.get(settings.cookie_name, "")
        if authorization:
            scheme, _, value = authorization.partition(" ")
            if scheme.lower() != "bearer":
                raise ApiError(401, "unauthenticated", "Use a Bearer token or the session cookie.")
            credential = value.strip()
        if not credential:
            raise ApiError(401, "unauthenticated", "Start a session first (POST /api/session).")
        try:
            subject = tokens.read_session(secret, credential, clock(), settings.session_ttl_seconds)
            pk, public_id = subject.split("/")
            account = Account(int(pk), public_id)
        except (tokens.TokenError, ValueError):
            raise ApiError(401, "unauthenticated", "The session is invalid or expired.") from None
        if not limiter.allow(public_id):
            raise ApiError(429, "rate_limited", "Too many requests; slow down.")
        await maybe_sweep()
        return account

    app.state.authenticate = authenticate
    # Purchases answered ahead of the middleware stack (web/endpoint/sales.py, Shortcut).
    app.shortcut = sales.Shortcut(
        app.state, refuse, missing_pool, settings.max_body_bytes, bool(settings.cors_origins)
    )

    @app.post(
        "/api/session",
        status_code=201,
        responses=errors(
            (400, "malformed_json."),
            (401, "invalid_code: the sign-in code is unknown, expired or used."),
            (403, "cross_site_refused: started from another site's page."),
            (413, "body_too_large."),
            (422, 'invalid_request: a body other than {"code": ...}.'),
            (429, "rate_limited: too many new sessions (or code attempts) from this address."),
        ),
    )
    async def new_session(request: Request, body: player.CodeBody | None = None) -> JSONResponse:
        """Create a guest account with the demo balance and a session credential; with
        {"code"}, sign in the account of a one-time code (POST /api/account/code) instead."""
        if not same_site_or_allowed(request, settings.cors_origins):
            raise ApiError(
                403, "cross_site_refused", "A session can only be started from this site's pages."
            )
        host = request.client.host if request.client else "unknown"
        if not limiter.allow("ip:" + host):
            raise ApiError(429, "rate_limited", "Too many new sessions; slow down.")
        if body is None or body.code is None:  # no body, or {} as the shells send: a new account
            account = await call(ledger.create_account, settings.demo_balance_pence)
            balance = settings.demo_balance_pence
        else:
            account, balance = await call(player.use_code, ledger, body.code)
        credential = tokens.issue_session(secret, f"{account.pk}/{account.public_id}", int(clock()))
        answer = {"account": account.public_id, "balance_pence": balance, "token": credential}
        response = JSONResponse(answer, status_code=201)
        response.set_cookie(
            settings.cookie_name,
            credential,
            max_age=settings.session_ttl_seconds,
            path="/api",
            httponly=True,
            secure=settings.cookie_secure,
            samesite=settings.cookie_samesite,  # type: ignore[arg-type]
        )
        return response

    @app.get("/api/wallet", responses=errors((401, UNAUTHENTICATED), (429, LIMITED)))
    async def wallet(account: Caller) -> dict[str, int]:
        """The account's balance, derived from its transactions."""
        return {"balance_pence": await call(ledger.balance, account)}

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        """Every registered game: price, odds, payout, top prize, prize table, and on_sale."""
        return catalogue

    @app.get(
        "/api/health",
        responses=errors((503, "unhealthy: a check failed; the message names each failing one.")),
    )
    async def healthy() -> dict[str, Any]:
        """For load balancers and monitors: the database, the signing key, a pool on sale."""
        checks = await slow(health, ledger)
        failing = [f"{name}: {found}" for name, found in checks.items() if found != "ok"]
        if failing:
            raise ApiError(503, "unhealthy", "; ".join(failing))
        return {"status": "ok", "checks": checks}

    @app.get("/api/metrics", include_in_schema=False)
    async def prometheus() -> Response:
        """Prometheus metrics (text format); see docs/endpoint.md."""
        body = await slow(metrics.render)
        return Response(body, media_type=CONTENT_TYPE_LATEST)

    @app.get("/api/keys")
    async def keys() -> dict[str, Any]:
        """The public keys outcome tokens are signed with (JWK set; the active key first)."""
        return ring.jwks()

    @app.get(
        "/api/plays",
        responses=errors(
            (400, "invalid_cursor: a cursor this endpoint did not give."),
            (401, UNAUTHENTICATED),
            (422, "invalid_request or invalid_status: a query of the wrong shape."),
            (429, LIMITED),
        ),
    )
    async def my_games(
        account: Caller,
        cursor: Annotated[str | None, Query(max_length=32)] = None,
        status: Annotated[str | None, Query(max_length=16)] = None,
        limit: Annotated[int, Query(ge=1, le=100)] = plays.PAGE_SIZE,
    ) -> dict[str, Any]:
        """My Games: the account's plays, newest first (status=unfinished to resume)."""
        result: dict[str, Any] = await call(plays.my_games, ledger, account, cursor, status, limit)
        return result

    @app.get(
        "/api/plays/{play_number}",
        responses=errors(
            (401, UNAUTHENTICATED),
            (404, PLAY_NOT_FOUND),
            (429, LIMITED),
            (503, "pool_files_missing: this server lacks the pool's files."),
        ),
    )
    async def play(play_number: str, account: Caller) -> dict[str, Any]:
        """One of the account's plays, with its token, pool entry, Merkle proof and root."""
        result: dict[str, Any] = await call(
            plays.play_detail, ledger, account, plays.parse_play_number(play_number)
        )
        return result

    @app.post(
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
    async def verify(body: TokenBody, account: Caller) -> dict[str, Any]:
        """Check an outcome token against the keys, the account and the recorded play."""
        result: dict[str, Any] = await call(plays.verify_token, ledger, account, body.token)
        return result

    @app.get(
        "/api/pools/{game}",
        responses=errors(
            (404, "game_not_found: no game has this id."),
            (409, "game_not_on_sale: the game cannot be bought, so it has no pool."),
            (429, "rate_limited: too many requests from this address."),
            (503, "pool_unavailable: no pool could be laid out."),
        ),
    )
    async def pool(game: str, request: Request) -> dict[str, Any]:
        """The game's current pool: id, size, sold count and Merkle root (at most 1 s old)."""
        host = request.client.host if request.client else "unknown"
        if not limiter.allow("ip:" + host):
            raise ApiError(429, "rate_limited", "Too many requests; slow down.")
        result: dict[str, Any] = await slow(ledger.pool_status, game)
        return result

    # A committed pool's commitment, and its reveal once closed (web/endpoint/reveal.py).
    reveal.add_routes(app, ledger, limiter)

    if settings.test_mode:

        @app.post(
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
        async def next_entry(body: NextEntryBody, account: Caller) -> dict[str, Any]:
            """TEST MODE ONLY: the account's next purchase of the game takes a matching entry."""
            if body.prize_pence is None and body.composition is None:
                raise ApiError(422, "invalid_request", "Give prize_pence or composition.")
            result: dict[str, Any] = await slow(
                plays.reserve_next, ledger, account, body.game, body.prize_pence, body.composition
            )
            return result

    # The player's side: limits, progress, recall, sign-in codes, TRY (web/endpoint/player.py).
    app.router.routes.extend(player.router.routes)
    if settings.test_mode:
        app.router.routes.extend(player.test_router.routes)

    # Purchase and finish: plain Starlette routes, matched first (web/endpoint/sales.py).
    app.router.routes[0:0] = sales.ROUTES
    openapi = app.openapi

    def openapi_with_sales() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = sales.document(openapi())
        return app.openapi_schema

    app.openapi = openapi_with_sales  # type: ignore[method-assign]
    gc.freeze()  # what start-up built lives on: keep it out of every full collection
    # Middleware added last runs first: CORS outermost, so even the body limit's 413 and every
    # HEAD carry the CORS headers.
    app.add_middleware(Timing, metrics=metrics, routes=app.router.routes)  # innermost
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(HeadAsGet)
    if settings.cors_origins:
        app.add_middleware(
            JsonCORS,
            allow_origins=list(settings.cors_origins),
            allow_credentials=True,
            allow_methods=["GET", "HEAD", "POST", "PUT"],
            allow_headers=["Authorization", "Content-Type", "Idempotency-Key"],
            max_age=600,
        )
    return app


class Endpoint(FastAPI):
    """The FastAPI app, with purchases answered by `sales.Shortcut` before the middleware."""

    shortcut: sales.Shortcut | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A purchase to the shortcut; everything else through the whole stack."""
        shortcut = self.shortcut
        if shortcut is not None and shortcut.takes(scope):
            scope["app"] = self
            await shortcut(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def allowed_methods(request: Request) -> list[str]:
    """The methods the request's path answers to, over every route that matches it (the sale
    routes and FastAPI's share paths, so one route's own list is not the path's)."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches(request.scope)
        if match is not Match.NONE:
            methods |= set(getattr(route, "methods", None) or ())
    if "GET" in methods:
        methods.add("HEAD")  # guards.HeadAsGet
    return sorted(methods)


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


async def caller(request: Request) -> Account:
    """The account a request's session credential (bearer token or cookie) names."""
    authorization = request.headers.get("authorization")
    account: Account = await request.app.state.authenticate(request, authorization)
    return account


Caller = Annotated[Account, Depends(caller)]
