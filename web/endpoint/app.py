"""The signing endpoint as a FastAPI app, assembled: the ledger opened and taken apart into the
services, built once, each concept's routes (web/endpoint/http/routes/) given them, the error
handlers and the middleware added. Every route lives under /api."""

from __future__ import annotations

import gc
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from starlette.types import Receive, Scope, Send

from web.endpoint import testmode
from web.endpoint.http import apidocs, handlers, services
from web.endpoint.http.guards import BodyLimit, HeadAsGet, JsonCORS, api_headers
from web.endpoint.http.metrics import Timing
from web.endpoint.http.routes import (
    accounts,
    log,
    player,
    plays,
    playtime,
    pools,
    protections,
    sales,
    status,
)
from web.endpoint.pools.layout import LayOut
from web.endpoint.sales.ledger import open_ledger
from web.endpoint.settings import Settings
from web.endpoint.testmode import routes as test_routes

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
    # (docs/changelog.md).
    sys.setswitchinterval(SWITCH_INTERVAL)
    if lay_out is None and settings.test_pool_seed:
        lay_out = testmode.fixed_lay_out(settings.test_pool_seed)
    ledger = open_ledger(settings, clock, lay_out)  # taken apart here and by services.build
    if settings.test_mode:  # test mode plugged in here, and only here
        testmode.install(ledger.db, ledger.clock, ledger.pools)
    # Test and real plays never mix.
    testmode.guard(ledger.db, settings.test_mode, ledger.clock.now_ms())
    wrap = testmode.seller if settings.test_mode else None
    given = services.build(ledger, settings, wrap)
    if settings.warm_pools:
        threading.Thread(target=given.pools.warm, name="warm-pools", daemon=True).start()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        async with services.background(given):
            yield

    app = Endpoint(
        lifespan=lifespan,
        title="Lottery signing endpoint",
        version="1",
        openapi_url="/api/openapi.json",
        docs_url=None,  # web/endpoint/http/apidocs.py: served from this origin, not a CDN
        swagger_ui_oauth2_redirect_url=None,
        redoc_url=None,
    )
    app.state.services = given  # for tests and tools holding only the app; no route reads it
    handlers.install(app, given.metrics, given.db.recover)
    routers = [
        m.routes(given)
        for m in (accounts, status, plays, sales, pools, player, playtime, protections, log)
    ]
    routers.append(apidocs.routes())
    if settings.test_mode:
        routers.append(test_routes.routes(given))
    for router in routers:  # flat, as declared (include_router would nest each router)
        app.router.routes.extend(router.routes)
    app.fast_path = sales.PurchaseFastPath(given)  # purchases answered ahead of the middleware
    gc.freeze()  # what start-up built lives on: keep it out of every full collection
    # Middleware added last runs first: CORS outermost, so even the body limit's 413 and every
    # HEAD carry the CORS headers.
    app.add_middleware(Timing, metrics=given.metrics, routes=app.router.routes)  # innermost
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
    """The FastAPI app, with purchases answered by `sales.PurchaseFastPath` before the
    middleware, and its OpenAPI document completed with the API's error shape
    (web/endpoint/http/apidocs.py)."""

    fast_path: sales.PurchaseFastPath | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A purchase to its fast path (which sends nosniff and no-store itself); everything
        else through the whole stack."""
        fast_path = self.fast_path
        if fast_path is not None and fast_path.takes(scope):
            scope["app"] = self
            await fast_path(scope, receive, send)
            return
        if scope["type"] == "http":
            send = api_headers(send)  # nosniff, no-store: on every answer
        await super().__call__(scope, receive, send)

    def openapi(self) -> dict[str, Any]:
        """FastAPI's document of the routes, completed once."""
        if self.openapi_schema is None:
            self.openapi_schema = apidocs.complete(super().openapi())
        return self.openapi_schema
