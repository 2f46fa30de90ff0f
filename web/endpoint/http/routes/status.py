"""What anyone may read about the endpoint itself: the games catalogue, the signing keys, its
health (for load balancers) and, for the operator, its Prometheus metrics."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST

from web.endpoint.errors import ApiError
from web.endpoint.errors import documented as errors
from web.endpoint.http.metrics import Cached, health, operator_only
from web.endpoint.http.services import Services


def routes(services: Services) -> APIRouter:
    """GET /api/games, /api/keys, /api/health and /api/metrics; no credential but the
    operator's for the metrics."""
    router = APIRouter()
    settings = services.settings
    # Public and unlimited: computed at most once a LOTTERY_STATUS_CACHE_SECONDS (metrics.py).
    checked = (services.db, services.ring, services.pools)
    health_now = Cached(lambda: health(*checked), settings.status_cache_seconds)
    metrics_now = Cached(services.metrics.render, settings.status_cache_seconds)

    @router.get("/api/games")
    async def games() -> dict[str, Any]:
        """Every registered game: price, odds, payout, top prize, prize table, and on_sale."""
        return services.catalogue

    @router.get(
        "/api/health",
        responses=errors((503, "unhealthy: a check failed; the message names each failing one.")),
    )
    async def healthy() -> dict[str, Any]:
        """For load balancers and monitors: the database, the signing key, a pool on sale
        (at most LOTTERY_STATUS_CACHE_SECONDS old)."""
        checks = await health_now.get()
        failing = [f"{name}: {found}" for name, found in checks.items() if found != "ok"]
        if failing:
            raise ApiError(503, "unhealthy", "; ".join(failing), {"test_mode": settings.test_mode})
        return {"status": "ok", "checks": checks, "test_mode": settings.test_mode}

    @router.get("/api/metrics", include_in_schema=False)
    async def prometheus(request: Request) -> Response:
        """Prometheus metrics (text format), for the operator's token only; docs/endpoint.md."""
        operator_only(request.headers.get("authorization"), settings.metrics_token)
        body = await metrics_now.get()
        return Response(body, media_type=CONTENT_TYPE_LATEST)

    @router.get("/api/keys")
    async def keys() -> dict[str, Any]:
        """The public keys outcome tokens are signed with (JWK set; the active key first)."""
        return services.ring.jwks()

    return router
