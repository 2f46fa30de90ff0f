"""Operators' view of the endpoint: `GET /api/health` and Prometheus metrics at `/api/metrics`.

Metrics (prometheus-client, one registry per app) count what the endpoint did: purchases and
finishes by game, error answers by code, request latency by route; a gauge reads each game's
unsold entries from the database when scraped. docs/endpoint.md lists them.

Both answers are computed at most once per `LOTTERY_STATUS_CACHE_SECONDS` (1 s) a process and
shared by every request meanwhile (`Cached`), so a flood of them never reaches the database;
the metrics are the operator's only (`operator_only`: a bearer token, LOTTERY_METRICS_TOKEN).
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import anyio
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import func, select, text
from starlette.routing import Match

from engine import games
from web.endpoint.errors import ApiError
from web.endpoint.keys import KeyRing
from web.endpoint.pools.pools import Pools
from web.endpoint.store.database import Database
from web.endpoint.store.schema import plays

T = TypeVar("T")

Scope = dict[str, Any]
Message = dict[str, Any]
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    """The endpoint's counters and histograms, in their own registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.purchases = Counter(
            "lottery_purchases", "Purchases answered 201 (a retry counts again)", ["game"],
            registry=self.registry,
        )  # fmt: skip
        self.finishes = Counter(
            "lottery_finishes", "Finish requests answered", registry=self.registry
        )
        self.errors = Counter(
            "lottery_errors", "Error answers by status and code", ["status", "code"],
            registry=self.registry,
        )  # fmt: skip
        self.latency = Histogram(
            "lottery_request_seconds", "Time to answer a request, by route", ["method", "route"],
            buckets=LATENCY_BUCKETS, registry=self.registry,
        )  # fmt: skip
        self.hashing_restarts = Counter(
            "lottery_hashing_restarts",
            "Book hashing processes started again after theirs died",
            registry=self.registry,
        )
        self.sequencer_restarts = Counter(
            "lottery_log_sequencer_restarts",
            "Log sequencing processes started again after theirs died",
            registry=self.registry,
        )
        self.up = Gauge("lottery_up", "1 while the endpoint serves", registry=self.registry)
        self.up.set(1)
        self._purchases: dict[str, Any] = {}
        self._latency: dict[tuple[str, str], Any] = {}

    def purchased(self, game: str) -> None:
        """Count a purchase answered 201 (the labelled counter looked up once per game)."""
        counter = self._purchases.get(game)
        if counter is None:
            counter = self._purchases[game] = self.purchases.labels(game)
        counter.inc()

    def observe(self, method: str, route: str, seconds: float) -> None:
        """A request's time to answer, into the histogram of its method and route."""
        child = self._latency.get((method, route))
        if child is None:
            child = self._latency[(method, route)] = self.latency.labels(method, route)
        child.observe(seconds)

    def watch_pools(self, entries_left: Callable[[], dict[str, int]]) -> None:
        """Report each game's unsold entries, read when Prometheus scrapes."""
        self.registry.register(
            _Read(entries_left, "lottery_pool_entries_left", "Unsold entries of the current pool")
        )

    def watch_hashing(self, unhashed: Callable[[], dict[str, int]]) -> None:
        """Report the plays sold whose book hash is not recorded yet, read at each scrape."""
        self.registry.register(
            _Read(unhashed, "lottery_plays_unhashed", "Sold plays whose book hash is not recorded")
        )

    def watch_log(self, pending: Callable[[], int]) -> None:
        """Report the public log's records not yet sequenced, read at each scrape."""
        self.registry.register(
            _ReadOne(
                pending,
                "lottery_log_pending_records",
                "Public log records appended but not yet sequenced",
            )
        )

    def render(self) -> bytes:
        """The metrics in Prometheus' text format."""
        return generate_latest(self.registry)


class _Read(Collector):
    """A gauge by game, read from the database when Prometheus scrapes."""

    def __init__(self, read: Callable[[], dict[str, int]], name: str, about: str) -> None:
        self.read, self.name, self.about = read, name, about

    def collect(self) -> Any:
        family = GaugeMetricFamily(self.name, self.about, labels=["game"])
        for game, value in self.read().items():
            family.add_metric([game], value)
        yield family


class _ReadOne(Collector):
    """A gauge read from the database when Prometheus scrapes."""

    def __init__(self, read: Callable[[], int], name: str, about: str) -> None:
        self.read, self.name, self.about = read, name, about

    def collect(self) -> Any:
        yield GaugeMetricFamily(self.name, self.about, value=self.read())


class Timing:
    """ASGI middleware: each request's latency into the histogram, labelled by its route."""

    def __init__(self, app: Any, metrics: Metrics, routes: list[Any]) -> None:
        self.app = app
        self.metrics = metrics
        self.routes = routes  # the app's routes, to name a request the router did not label

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        """Time the request; the label is the matched route's path template, or 'unmatched'."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        try:
            await self.app(scope, receive, send)
        finally:
            elapsed = time.perf_counter() - started
            self.metrics.observe(scope["method"], self._route(scope), elapsed)

    def _route(self, scope: Scope) -> str:
        route = scope.get("route")  # FastAPI's routes label the scope; plain Starlette ones not
        if route is None:
            route = next((r for r in self.routes if r.matches(scope)[0] is Match.FULL), None)
        return str(getattr(route, "path", "unmatched"))


def health(db: Database, ring: KeyRing, pools: Pools) -> dict[str, str]:
    """Each check and what it found ('ok' or why not): the database answers, the signing key
    signs what its public key verifies, and every game on sale has a pool with entries left."""
    checks: dict[str, str] = {}
    try:  # (tried again on a new connection after a lost one: a restart is no failed check)
        checks.update(db.again(_pools, db, pools))
        checks["database"] = "ok"
    except Exception as error:  # any failure to reach or read the database
        checks["database"] = f"failing ({type(error).__name__})"
    try:
        probe = b"lottery-health"
        ring.public[ring.kid].verify(ring.signing.sign(probe), probe)
        checks["signing_key"] = "ok"
    except Exception as error:  # a key that cannot sign or does not match its public key
        checks["signing_key"] = f"unusable ({type(error).__name__})"
    return dict(sorted(checks.items()))


def _pools(db: Database, pools: Pools) -> dict[str, str]:
    """The pool check of each game on sale (the database answers, or this raises)."""
    checks: dict[str, str] = {}
    with db.begin() as conn:
        conn.execute(text("SELECT 1"))
        for game in games.on_sale():
            row = pools.current(conn, game.id)
            if row is None:
                checks[f"pool:{game.id}"] = "no pool committed yet"
            elif row.next_index >= row.size:
                checks[f"pool:{game.id}"] = "the current pool is sold out"
            else:
                checks[f"pool:{game.id}"] = "ok"
    return checks


def entries_left(db: Database, pools: Pools) -> dict[str, int]:
    """Unsold entries of each game on sale's current pool (0 when it has none yet)."""
    left: dict[str, int] = {}
    with db.begin() as conn:
        for game in games.on_sale():
            row = pools.current(conn, game.id)
            left[game.id] = 0 if row is None else max(0, row.size - row.next_index)
    return left


def unhashed_plays(db: Database) -> dict[str, int]:
    """Sold plays of each game on sale with no book hash recorded yet (the hasher's backlog,
    counted on its partial index): one that keeps growing means the hasher is short of CPU."""
    counted = {game.id: 0 for game in games.on_sale()}
    query = (
        select(plays.c.game, func.count()).where(plays.c.book_hash.is_(None)).group_by(plays.c.game)
    )
    with db.begin() as conn:
        for game, count in conn.execute(query).all():
            if game in counted:
                counted[game] = int(count)
    return counted


class Cached(Generic[T]):
    """A value computed (in a worker thread) at most once per `ttl` seconds, however often it is
    asked for: the callers meanwhile share the last one, and those who come while it is being
    computed wait for it rather than compute it again."""

    def __init__(
        self, compute: Callable[[], T], ttl: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.compute = compute
        self.ttl = ttl
        self.clock = clock
        self._value: tuple[float, T] | None = None
        self._lock: anyio.Lock | None = None  # (made in the event loop that uses it)

    async def get(self) -> T:
        """The value, at most `ttl` seconds old."""
        if self._fresh():
            assert self._value is not None
            return self._value[1]
        if self._lock is None:
            self._lock = anyio.Lock()
        async with self._lock:
            if not self._fresh():
                started = self.clock()
                value = await anyio.to_thread.run_sync(self.compute)
                self._value = (started, value)
            assert self._value is not None
            return self._value[1]

    def _fresh(self) -> bool:
        return self._value is not None and self.clock() - self._value[0] < self.ttl


def operator_only(authorization: str | None, token: str) -> None:
    """Let through a request bearing the operator's metrics token; without a token configured
    the metrics are not served at all (404, as for a route that does not exist), and without
    the right one 401."""
    if not token:
        raise ApiError(404, "not_found", "Not Found")
    scheme, _, given = (authorization or "").partition(" ")
    right = hmac.compare_digest(given.strip().encode(), token.encode())
    if scheme.lower() != "bearer" or not right:
        raise ApiError(401, "unauthenticated", "The metrics need the operator's bearer token.")
