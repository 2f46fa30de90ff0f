"""Commit, then reveal: closing a pool and publishing everything that recounts it.

A pool's Merkle root is recorded before its first sale (the commitment). A pool is closed when
it stops selling: sold out (every entry drawn, and the endpoint commits the next pool), or
retired by an operator (`build.py retire-pool`), which closes it at once: its next index is set
to its size, so no endpoint process can draw from it again, and the unsold entries are never
sold. Closing is recorded in `pool_closings`; a pool superseded by a newer one of its game (and
kind) or with every entry drawn is recorded closed the first time anyone asks about it.

Once closed, `GET /api/pools/{game}/{pool_id}/reveal` gives the pool's secret key and the
outcome of every entry in order, so anyone can recompute every seed, salt, leaf and the root
(docs/math.md, "Commit, then reveal"; `build.py audit-pool`). While it sells it is refused
(409 pool_on_sale): the key would tell the seeds, and the entries the prizes, of plays not yet
sold. `GET /api/pools/{game}/{pool_id}` is the pool's public commitment (commitment.json, as
written before the first sale) with when it was committed and closed.
"""

from __future__ import annotations

import base64
import json
import re
import sys
import threading
from collections import OrderedDict
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.responses import Response
from sqlalchemy import Connection, delete, func, insert, select, update

from engine import games
from web.endpoint.errors import ApiError, documented
from web.endpoint.guards import RateLimit
from web.endpoint.ledger import Ledger, check_game, pool_lock
from web.endpoint.schema import plays as plays_table
from web.endpoint.schema import pool_closings, pools, reservations
from web.endpoint.times import iso

RETIRED = "retired"
SOLD_OUT = "sold_out"
PAID = "paid"  # the kind of pool purchases draw from
TRY = "try"  # the kind of a game's pool of free plays (TRY mode)
POOL_ID = re.compile(r"[0-9a-f]{16}")
CACHED_REVEALS = 4  # closed pools whose reveal (about 2.7 bytes an entry) stays in memory
ENTRIES_ENCODING = "base64 of the outcome codes, 2 bytes each, little-endian, in index order"
IMMUTABLE = "public, max-age=31536000, immutable"


def pool_not_found() -> ApiError:
    """The answer for an unknown game or pool (the same answer for both)."""
    return ApiError(404, "pool_not_found", "No pool of this game has this id.")


def find(conn: Connection, game: str, pool_id: str) -> Any:
    """The pools row of a committed pool of a game, or None."""
    if game not in games.ids() or not POOL_ID.fullmatch(pool_id):
        return None
    return conn.execute(
        select(pools).where(pools.c.pool_id == pool_id, pools.c.game == game)
    ).first()


def closing(conn: Connection, row: Any) -> tuple[int, str] | None:
    """(closed_at ms, reason) of a pool recorded closed, or None."""
    found = conn.execute(
        select(pool_closings.c.closed_at, pool_closings.c.reason).where(
            pool_closings.c.pool_ref == row.id
        )
    ).first()
    return None if found is None else (int(found[0]), str(found[1]))


def _successor_created(conn: Connection, row: Any) -> int | None:
    """When the next pool of the same game and kind was committed (None: there is none)."""
    created = conn.execute(
        select(func.min(pools.c.created_at)).where(
            pools.c.game == row.game, pools.c.kind == row.kind, pools.c.id > row.id
        )
    ).scalar()
    return None if created is None else int(created)


def close_if_done(ledger: Ledger, row: Any) -> tuple[int, str] | None:
    """The pool's closing, recording it if the pool has stopped selling without one recorded
    (superseded: closed when its successor was committed; every entry drawn: now)."""
    with ledger.db.begin() as conn:
        done = closing(conn, row)
        if done is not None:
            return done
        current = conn.execute(select(pools.c.next_index).where(pools.c.id == row.id)).scalar_one()
        if _successor_created(conn, row) is None and int(current) < row.size:
            return None  # on sale
    with ledger.db.begin() as conn:  # write: lock the row (like a draw) and look again
        conn.execute(
            update(pools).where(pools.c.id == row.id).values(next_index=pools.c.next_index)
        )
        done = closing(conn, row)
        if done is not None:
            return done
        at = _successor_created(conn, row)
        if at is None:
            at = ledger.now_ms()  # every entry drawn and no successor yet: closed now
        conn.execute(insert(pool_closings).values(pool_ref=row.id, closed_at=at, reason=SOLD_OUT))
        conn.execute(delete(reservations).where(reservations.c.pool_ref == row.id))
        return at, SOLD_OUT


def retire(ledger: Ledger, game: str, kind: str = PAID) -> dict[str, Any]:
    """Close the game's current pool (of paid plays, or of kind "try": its free plays) at once:
    no entry of it is sold (or given) after this returns.

    Its next index becomes its size (every process's next draw from it finds it spent and
    moves to a new pool), test mode's reservations of it go, and the closing is recorded, in
    one transaction holding the game's pool lock and the pool row's lock (a sale in flight
    commits first). The next pool is laid out by the caller (`Ledger.ensure_pool`) or at the
    next sale. Raises LookupError when the game has no pool yet."""
    check_game(game)
    with ledger.db.begin() as conn:
        ledger.db.advisory_lock(conn, pool_lock(game, kind))
        row = conn.execute(
            select(pools)
            .where(pools.c.game == game, pools.c.kind == kind)
            .order_by(pools.c.id.desc())
            .limit(1)
        ).first()
        if row is None:
            raise LookupError(
                f"{game} has no {'pool of free plays' if kind == TRY else 'pool'} to retire"
            )
        conn.execute(update(pools).where(pools.c.id == row.id).values(next_index=pools.c.size))
        before = done = closing(conn, row)
        if done is None:
            done = (ledger.now_ms(), RETIRED)
            conn.execute(
                insert(pool_closings).values(pool_ref=row.id, closed_at=done[0], reason=done[1])
            )
        conn.execute(delete(reservations).where(reservations.c.pool_ref == row.id))
        sold = _sold(conn, row.id)
    # This process forgets it at once; others find the pool spent at their next draw, and
    # their GET /api/pools/{game} answers are at most POOL_STATUS_TTL old. (A try pool is
    # read afresh at each free play.)
    if kind == PAID:
        ledger._pools.pop(game, None)
        ledger._status.pop(game, None)
    return {
        "game": game,
        "kind": kind,
        "pool_id": row.pool_id,
        "size": row.size,
        "sold": sold,
        "closed_at": iso(done[0]),
        "reason": done[1],
        "already_closed": before is not None,
    }


def _sold(conn: Connection, pool_ref: int) -> int:
    """Plays recorded from a pool (paid plays, or the try plays of a try pool)."""
    total = 0
    tables = [plays_table]
    try_plays = pools.metadata.tables.get("try_plays")
    if try_plays is not None:
        tables.append(try_plays)
    for table in tables:
        total += conn.execute(
            select(func.count()).select_from(table).where(table.c.pool_ref == pool_ref)
        ).scalar_one()
    return int(total)


def little_endian(codes: Any) -> bytes:
    """Outcome codes (an array of unsigned 16-bit integers) as 2-byte little-endian bytes."""
    if sys.byteorder == "little":
        return bytes(codes.tobytes())
    swapped = type(codes)("H", codes)
    swapped.byteswap()
    return bytes(swapped.tobytes())


class Reveals:
    """The two public routes of a committed pool, with their caches."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self._reveals: OrderedDict[str, bytes] = OrderedDict()
        self._commitments: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def _row(self, game: str, pool_id: str) -> Any:
        with self.ledger.db.begin() as conn:
            row = find(conn, game, pool_id)
        if row is None:
            raise pool_not_found()
        return row

    def commitment(self, game: str, pool_id: str) -> dict[str, Any]:
        """commitment.json of a committed pool, with created_at and closed_at (null while it
        sells) and closed_reason."""
        row = self._row(game, pool_id)
        committed = self._commitments.get(pool_id)
        if committed is None:
            path = self.ledger.pool_files.path(pool_id) / "commitment.json"
            committed = json.loads(path.read_text(encoding="utf-8"))  # FileNotFoundError: 503
            self._commitments[pool_id] = committed
        done = close_if_done(self.ledger, row)
        return {
            **committed,
            "created_at": iso(row.created_at),
            "closed_at": iso(done[0]) if done else None,
            "closed_reason": done[1] if done else None,
        }

    def reveal(self, game: str, pool_id: str) -> bytes:
        """The reveal of a closed pool as JSON bytes (built once, then cached)."""
        with self._lock:
            cached = self._reveals.get(pool_id)
            if cached is not None:
                self._reveals.move_to_end(pool_id)
        if cached is not None:
            self._row(game, pool_id)  # the same pool id under another game is still 404
            return cached
        row = self._row(game, pool_id)
        done = close_if_done(self.ledger, row)
        if done is None:
            raise ApiError(
                409,
                "pool_on_sale",
                "This pool is still on sale; it is revealed once it is sold out or retired.",
            )
        pool = self.ledger.pool_files.get(pool_id)
        with self.ledger.db.begin() as conn:
            sold = _sold(conn, row.id)
        body = {
            "game": row.game,
            "pool_id": row.pool_id,
            "model": row.model,
            "size": row.size,
            "depth": pool.depth,
            "root": row.root,  # as recorded before the first sale
            "created_at": iso(row.created_at),
            "closed_at": iso(done[0]),
            "closed_reason": done[1],
            "sold": sold,
            "key": pool.key.hex(),
            "catalogue": [
                {"code": code, "prize_pence": prize, "composition": comp.to_json()}
                for code, (prize, comp) in enumerate(pool.catalogue)
            ],
            "entries_encoding": ENTRIES_ENCODING,
            "entries": base64.b64encode(little_endian(pool.codes)).decode("ascii"),
        }
        data = json.dumps(body, separators=(",", ":")).encode("utf-8")
        with self._lock:
            self._reveals[pool_id] = data
            while len(self._reveals) > CACHED_REVEALS:
                self._reveals.popitem(last=False)
        return data


LIMITED = "rate_limited: too many requests from this address."
NOT_FOUND = "pool_not_found: no such game, or no pool of the game has this id."
FILES = "pool_files_missing: this server lacks the pool's files."


def add_routes(app: FastAPI, ledger: Ledger, limiter: RateLimit) -> Reveals:
    """Register GET /api/pools/{game}/{pool_id} and .../reveal (no credential; each client
    address shares the rate limit of GET /api/pools/{game})."""
    reveals = Reveals(ledger)

    def limit(request: Request) -> None:
        host = request.client.host if request.client else "unknown"
        if not limiter.allow("ip:" + host):
            raise ApiError(429, "rate_limited", "Too many requests; slow down.")

    @app.get(
        "/api/pools/{game}/{pool_id}",
        responses=documented((404, NOT_FOUND), (429, LIMITED), (503, FILES)),
    )
    async def pool_commitment(game: str, pool_id: str, request: Request) -> dict[str, Any]:
        """A committed pool's public commitment (as published before its first sale: root,
        size, leaf scheme, outcome catalogue with counts), when it was committed and closed."""
        limit(request)
        result: dict[str, Any] = await anyio.to_thread.run_sync(reveals.commitment, game, pool_id)
        return result

    @app.get(
        "/api/pools/{game}/{pool_id}/reveal",
        response_class=Response,
        responses={
            200: {
                "description": (
                    "The closed pool: game, pool_id, model, size, depth, root, created_at, "
                    "closed_at, closed_reason, sold, key (hex), catalogue [{code, prize_pence, "
                    f"composition}}], entries_encoding, entries ({ENTRIES_ENCODING})."
                ),
                "content": {"application/json": {"schema": {"type": "object"}}},
            },
            **documented(
                (404, NOT_FOUND),
                (409, "pool_on_sale: the pool still sells; it is revealed once closed."),
                (429, LIMITED),
                (503, FILES),
            ),
        },
    )
    async def pool_reveal(game: str, pool_id: str, request: Request) -> Response:
        """A closed pool's secret key and every entry's outcome, so anyone can recount it."""
        limit(request)
        data = await anyio.to_thread.run_sync(reveals.reveal, game, pool_id)
        return Response(data, media_type="application/json", headers={"Cache-Control": IMMUTABLE})

    return reveals
