"""What the routes work with, built once at start and handed to each route module: the
ledger's services (the database, its clock, accounts, pools, keys), the checkout, the plays'
progress and read-back, the settings, the rate limit, sessions, sign-in codes, metrics; and the
one caller dependency.

`create_app` builds one `Services` (`build`) from the opened ledger, taking it apart here: each
part below gets only the services it uses, and no route or sale receives the whole ledger. It
passes the one `Services` to every `routes(services)` (web/endpoint/http/routes/); no route
looks anything up on the app.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection, Request

from engine import games as registry
from web.endpoint.clock import Clock
from web.endpoint.errors import ApiError, rate_limited
from web.endpoint.http import cookies, handlers
from web.endpoint.http.guards import RateLimit
from web.endpoint.http.metrics import Metrics, entries_left, unhashed_plays
from web.endpoint.http.reveal_serving import RevealLimits, reveal_limits
from web.endpoint.keys import KeyRing, write_secret_once
from web.endpoint.log import entries
from web.endpoint.log.reading import LogReader
from web.endpoint.log.sequencing_process import keep_sequencing, sequencing_process
from web.endpoint.log.signer import load_policy, load_signer
from web.endpoint.player import codes, sessions
from web.endpoint.player.accounts import Account, Accounts
from web.endpoint.player.playtime import PlayTimes
from web.endpoint.pools.cache import PoolCache
from web.endpoint.pools.pools import Pools
from web.endpoint.pools.reveal import Reveals
from web.endpoint.sales import hashes
from web.endpoint.sales.checkout import Checkout, Wrap, open_checkout
from web.endpoint.sales.closing import Closing
from web.endpoint.sales.hashing_process import HashingProcess
from web.endpoint.sales.ledger import Ledger
from web.endpoint.sales.plays import ReadBack
from web.endpoint.sales.progress import Progress
from web.endpoint.sales.settlement import Settlement
from web.endpoint.sales.try_mode import FreePlays
from web.endpoint.settings import Settings
from web.endpoint.store.database import Database


def session_secret(settings: Settings) -> bytes:
    """The operator's session secret, or one made once and kept in var/."""
    if settings.session_secret:
        return settings.session_secret.encode()
    path = settings.var_dir / "session-secret"
    write_secret_once(path, secrets.token_hex(32).encode())
    return path.read_text().strip().encode()


class Sweep:
    """Pays overdue plays and prunes old sessions and expired sign-in codes, at most once a
    sweep interval."""

    def __init__(self, settlement: Settlement, devices: sessions.Sessions,
                 codes: codes.SignInCodes, settings: Settings,
                 clock: Callable[[], float]) -> None:  # fmt: skip
        self.settlement = settlement
        self.devices = devices
        self.codes = codes
        self.interval = settings.sweep_interval_seconds
        self.clock = clock
        self.last = clock()
        self._lock = threading.Lock()

    async def maybe(self) -> None:
        """Sweep if the interval has passed and no other request is sweeping."""
        now = self.clock()
        if now - self.last < self.interval or not self._lock.acquire(blocking=False):
            return
        try:
            self.last = now
            await anyio.to_thread.run_sync(self.settlement.finish_expired)
            await anyio.to_thread.run_sync(self.devices.prune)  # sessions past their lifetime
            await anyio.to_thread.run_sync(self.codes.prune)  # sign-in codes past their expiry
        finally:
            self._lock.release()

    async def forever(self) -> None:
        """Sweep on a timer, not only when a request happens to arrive (the app's lifespan)."""
        while True:
            await anyio.sleep(self.interval)
            try:
                await self.maybe()
            except Exception:
                logging.getLogger("web.endpoint").exception("sweeping overdue plays failed")


@dataclass(frozen=True)
class Services:
    """Everything a route needs, made once per app."""

    settings: Settings
    db: Database
    clock: Clock  # the ledger's clock (`Clock.seconds`: the process's)
    accounts: Accounts
    pools: Pools
    pool_cache: PoolCache  # the pools' files and entries, in this process's memory
    ring: KeyRing
    checkout: Checkout
    progress: Progress  # a play's progress and its finish by the player
    readback: ReadBack  # My Games, a play's detail and recall, a token checked
    free_plays: FreePlays  # TRY mode
    limiter: RateLimit
    sessions: sessions.Sessions
    codes: codes.SignInCodes
    metrics: Metrics
    sweep: Sweep
    reveals: Reveals
    reveal_limits: RevealLimits
    playtime: PlayTimes
    log: LogReader  # the public log as its routes serve it
    closing: Closing  # an account closed (settled, then unlinked from its devices)
    catalogue: dict[str, Any] = field(default_factory=dict)

    async def caller(self, request: Request) -> Account:
        """The account a request's session credential (bearer token or cookie) names: 401
        without a valid one, 429 over the account's rate. The one caller dependency."""
        credential = cookies.credential(request, self.settings)
        if not credential:
            raise ApiError(401, "unauthenticated", "Start a session first (POST /api/session).")
        account = await self.sessions.check(credential)  # forged, expired, ended or idle: 401
        if not self.limiter.allow(account.public_id):
            wait = self.limiter.retry_after(account.public_id)
            raise rate_limited("Too many requests; slow down.", wait)
        await self.sweep.maybe()
        return account

    def limit_address(self, request: HTTPConnection, message: str = "") -> None:
        """429 when the request's client address is over its rate (routes without a caller)."""
        host = request.client.host if request.client else "unknown"
        if not self.limiter.allow("ip:" + host):
            wait = self.limiter.retry_after("ip:" + host)
            raise rate_limited(message or "Too many requests; slow down.", wait)

    def refuse(self, error: ApiError) -> JSONResponse:
        """The answer for an ApiError, counted by its status and code."""
        return handlers.refuse(self.metrics, error)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """fn(*args) on the database's threads (web/endpoint/store/database.py)."""
        return await self.db.run(fn, *args)

    async def again(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`run`, for work safe to do twice: tried again on a new connection after a lost one
        (`Database.again`). Work not safe to do twice goes through `run`: a 503 instead."""
        return await self.db.run_again(fn, *args)

    async def slow(self, fn: Callable[..., Any], *args: Any) -> Any:
        """fn(*args) on a worker thread: work that may lay out a pool or take long."""
        return await anyio.to_thread.run_sync(fn, *args)


def build(ledger: Ledger, settings: Settings, wrap_seller: Wrap | None = None) -> Services:
    """The services of an app over an open ledger, each part given the services it uses (its
    seller wrapped by `wrap_seller`)."""
    db, clock, pools, cache = ledger.db, ledger.clock, ledger.pools, ledger.pool_cache
    ring, sql, timeout_ms, seconds = ledger.ring, ledger.sql, ledger.play_timeout_ms, clock.seconds
    # Bound to this database: a credential made for another (or a deleted) one never matches.
    secret = session_secret(settings) + b"/" + db.instance_id().encode()
    devices = sessions.Sessions(db, secret, seconds, settings)
    metrics = Metrics()
    metrics.watch_pools(lambda: db.again(entries_left, db, pools))
    metrics.watch_hashing(lambda: db.again(unhashed_plays, db))
    metrics.watch_log(lambda: db.again(entries.pending, db))
    catalogue = {
        "games": [{**game.table.as_json(), "on_sale": game.on_sale} for game in registry.GAMES]
    }
    playing = PlayTimes(db, clock, settings)
    sign_in = codes.SignInCodes(db, clock, codes.code_key(secret))
    settlement = Settlement(db, sql, clock, timeout_ms)
    signer = load_signer(settings)
    policy, policy_text = load_policy(settings, signer.key)
    checkout = open_checkout(  # one seller, chosen here
        db, sql, clock, pools, cache, ring, playing, settings.limits_required, wrap_seller
    )
    return Services(
        settings=settings,
        db=db,
        clock=clock,
        accounts=ledger.accounts,
        pools=pools,
        pool_cache=cache,
        ring=ring,
        checkout=checkout,
        progress=Progress(db, sql, clock, timeout_ms),
        readback=ReadBack(db, settlement, cache, ring, timeout_ms),
        free_plays=FreePlays(db, sql, clock, pools, cache, ring),
        limiter=RateLimit(settings.rate_per_second, settings.rate_burst, seconds),
        sessions=devices,
        codes=sign_in,
        metrics=metrics,
        sweep=Sweep(settlement, devices, sign_in, settings, seconds),
        reveals=Reveals(pools),
        reveal_limits=reveal_limits(settings, seconds),
        playtime=playing,
        log=LogReader(db, signer, policy, policy_text),
        closing=Closing(db, sql, clock, devices),
        catalogue=catalogue,
    )


@asynccontextmanager
async def background(services: Services) -> AsyncIterator[None]:
    """The work an endpoint process does beside its requests, while it serves: sweeping
    overdue plays on a timer, hashing each sold play's book (web/endpoint/sales/hashes.py) and
    sequencing the public log (web/endpoint/log/sequencing_process.py), each of the last two in
    a process of its own."""
    db, cache, settings = services.db, services.pool_cache, services.settings
    worker = HashingProcess(on_restart=services.metrics.hashing_restarts.inc)
    sequencing = sequencing_process(settings, services.metrics.sequencer_restarts.inc)
    sources = hashes.Sources(db, services.pools.selling.rows, services.checkout.presale, cache.path)
    tasks = [asyncio.create_task(services.sweep.forever()),
             asyncio.create_task(hashes.keep_hashing(sources, worker)),
             asyncio.create_task(keep_sequencing(sequencing, settings))]  # fmt: skip
    try:
        yield
    finally:
        cache.lay_outs.stop()  # a pool being laid out: neither waited for nor left
        for task in tasks:
            task.cancel()
        await hashes.hash_before_stopping(db, worker)
        worker.shutdown()
        sequencing.shutdown()
