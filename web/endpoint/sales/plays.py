"""A player's plays read back: My Games, a play's detail, its recall (the book rebuilt and its hash
checked), a token checked. Each settles the account's overdue plays
first (sales/settlement.py); progress and the player's finish: sales/progress.py."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select

from engine import games
from web.endpoint import tokens
from web.endpoint.errors import ApiError, not_found_play
from web.endpoint.keys import KeyRing
from web.endpoint.player.accounts import Account
from web.endpoint.pools.cache import PoolCache
from web.endpoint.sales import hashes, hashing_process
from web.endpoint.sales.settlement import Settlement
from web.endpoint.store.database import Database
from web.endpoint.store.schema import plays, pools
from web.endpoint.times import iso

PAGE_SIZE = 20
ASCII_NUMBER = re.compile(r"[0-9]{1,18}")  # str.isdigit() also accepts '²' and '٣'
CURSOR = re.compile(r"[1-9][0-9]{0,9}")  # routes/plays.py's document says the same
MAX_ROW_ID = 2**31 - 1  # the id columns are INTEGER (PostgreSQL: 32-bit)


def parse_play_number(text: str) -> int:
    """A Play Number from a path; 404 for anything that cannot be one."""
    if not ASCII_NUMBER.fullmatch(text):
        raise not_found_play()
    return int(text)


def whole_number(value: object) -> object:
    """A JSON number with no fraction written with one (5.0) as the int it is, since JSON
    Schema, and so the OpenAPI document, counts it an integer; anything else as it is."""
    if type(value) is float and value.is_integer():
        return int(value)
    return value


def parse_cursor(text: str) -> int:
    """A My Games cursor (the id of the last play of the previous page); 400 for any other."""
    if not CURSOR.fullmatch(text):
        raise ApiError(400, "invalid_cursor", "The cursor is not one this endpoint gave.")
    return int(text)


def _own_play(conn: Connection, account: Account, play_number: int) -> Any:
    row = conn.execute(
        select(plays).where(plays.c.play_number == play_number, plays.c.account_id == account.pk)
    ).first()
    if row is None:
        raise not_found_play()
    return row


def price_of(game: str) -> int | None:
    """The price of a play of a game (None for a game no longer registered)."""
    try:
        return games.get(game).price_pence
    except games.UnknownGame:
        return None


@dataclass(frozen=True)
class ReadBack:
    """An account's plays read back from a database: My Games, a play's detail and its recall
    (each after settling the account's overdue plays), a token checked."""

    db: Database
    settlement: Settlement  # the account's overdue plays, settled first
    pool_cache: PoolCache  # a play's committed pool: its entry and Merkle proof
    ring: KeyRing  # the signing keys a token is checked with
    timeout_ms: int  # LOTTERY_PLAY_TIMEOUT_SECONDS, in ms: when an unfinished play expires

    def my_games(
        self, account: Account, cursor: str | None, status: str | None, limit: int
    ) -> dict[str, Any]:
        """A page of the account's plays, newest first, and the cursor of the next page."""
        self.settlement.finish_expired(account)
        query = select(plays).where(plays.c.account_id == account.pk)
        if status == "unfinished":
            query = query.where(plays.c.status == "purchased")
        elif status == "finished":
            query = query.where(plays.c.status == "finished")
        elif status is not None:
            raise ApiError(422, "invalid_status", "status must be 'unfinished' or 'finished'.")
        # (an empty cursor is refused, as the document says; one past every id is the first page)
        if cursor is not None and (before := parse_cursor(cursor)) <= MAX_ROW_ID:
            query = query.where(plays.c.id < before)
        with self.db.begin() as conn:
            rows = conn.execute(query.order_by(plays.c.id.desc()).limit(limit + 1)).all()
        page = rows[:limit]
        return {
            "plays": [
                {
                    "play_number": row.play_number,
                    "game": row.game,
                    "status": row.status,
                    "finished_by": row.finished_by,
                    "price_pence": price_of(row.game),
                    "prize_pence": row.prize_pence,
                    "purchased_at": iso(row.purchased_at),
                    "finished_at": iso(row.finished_at),
                }
                for row in page
            ],
            "next_cursor": str(page[-1].id) if len(rows) > limit else None,
        }

    def play_detail(self, account: Account, play_number: int) -> dict[str, Any]:
        """A play of the account: status, token, pool entry, Merkle proof and root, times."""
        self.settlement.finish_expired(account)
        with self.db.begin() as conn:
            row = _own_play(conn, account, play_number)
            pool = conn.execute(select(pools).where(pools.c.id == row.pool_ref)).one()
        committed = self.pool_cache.get(pool.pool_id)
        return {
            "play_number": row.play_number,
            "game": row.game,
            "model": row.model,
            "status": row.status,
            "price_pence": price_of(row.game),
            "prize_pence": row.prize_pence,
            "composition": json.loads(row.composition),
            "token": row.token,
            "progress": {"event": row.progress_event, "choices": json.loads(row.choices)},
            "book_hash": row.book_hash,
            "pool": {"id": pool.pool_id, "root": pool.root, "size": pool.size},
            "entry": committed.entry(row.pool_index).to_json(),
            "proof": committed.proof(row.pool_index),
            "purchased_at": iso(row.purchased_at),
            "finished_at": iso(row.finished_at),
            "finished_by": row.finished_by,
            "expires_at": iso(row.purchased_at + self.timeout_ms),
        }

    def recall(self, account: Account, play_number: int) -> dict[str, Any]:
        """GET /api/plays/{n}/recall: a finished play of the account with everything needed to
        show it again, after rebuilding its book from the ledger's entry and checking its hash."""
        self.settlement.finish_expired(account)
        with self.db.begin() as conn:
            row = _own_play(conn, account, play_number)
        if row.status != "finished":
            raise ApiError(409, "play_unfinished", "The play is not finished yet; finish it first.")
        composition = json.loads(row.composition)
        try:
            rebuilt = hashing_process.hash_of_row(row.game, row.model, row.composition, row.seed)
        except (ValueError, KeyError, TypeError, AttributeError):
            rebuilt = None
        recorded = row.book_hash
        if recorded is None and rebuilt is not None:
            # Its hasher stopped before hashing it (web/endpoint/sales/hashes.py): recorded now.
            with self.db.begin() as conn:
                hashes.record(conn, play_number, rebuilt)
                recorded = conn.execute(
                    select(plays.c.book_hash).where(plays.c.play_number == play_number)
                ).scalar()
        if recorded is None or rebuilt != recorded:
            raise ApiError(
                409,
                "book_mismatch",
                "The book rebuilt from the ledger's entry is not the one recorded at purchase.",
            )
        return {
            "play_number": row.play_number,
            "game": row.game,
            "model": row.model,
            "status": row.status,
            "finished_by": row.finished_by,
            "prize_pence": row.prize_pence,
            "price_pence": price_of(row.game),
            "composition": composition,
            "seed": row.seed,
            "token": row.token,
            "choices": json.loads(row.choices),
            "book_hash": recorded,
            "purchased_at": iso(row.purchased_at),
            "finished_at": iso(row.finished_at),
        }

    def verify_token(self, account: Account, token: str) -> dict[str, Any]:
        """Check an outcome token: our signature, this account's play, the recorded outcome."""
        try:
            payload = tokens.verify(self.ring, token)
        except tokens.TokenError as error:
            raise ApiError(400, "token_invalid", f"The token is refused: {error}.") from None
        if payload.get("account") != account.public_id:
            raise not_found_play()
        number = payload.get("play_number")
        if not isinstance(number, int):
            raise ApiError(400, "token_invalid", "The token names no play.")
        with self.db.begin() as conn:
            row = _own_play(conn, account, number)
        if row.token != token:
            raise ApiError(400, "token_invalid", "The token is not the one issued for this play.")
        return {"valid": True, "status": row.status, "payload": payload}
