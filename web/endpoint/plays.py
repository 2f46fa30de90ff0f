"""After purchase: finish (credit once), automatic finish, My Games, play detail, test reserve."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, insert, select, update

from engine.outcome import Composition
from web.endpoint import tokens
from web.endpoint.errors import ApiError, not_found_play
from web.endpoint.ledger import Account, Ledger, check_game, entry_taken
from web.endpoint.schema import plays, pools, reservations

PAGE_SIZE = 20
SWEEP_BATCH = 500


def iso(ms: int | None) -> str | None:
    """An epoch-milliseconds time as ISO 8601 UTC, e.g. 2026-05-09T07:35:25.123Z."""
    if ms is None:
        return None
    moment = datetime.fromtimestamp(ms / 1000, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


ASCII_NUMBER = re.compile(r"[0-9]{1,18}")  # str.isdigit() also accepts '²' and '٣'
MAX_ROW_ID = 2**31 - 1  # the id columns are INTEGER (PostgreSQL: 32-bit)


def parse_play_number(text: str) -> int:
    """A Play Number from a path; 404 for anything that cannot be one."""
    if not ASCII_NUMBER.fullmatch(text):
        raise not_found_play()
    return int(text)


def parse_cursor(text: str) -> int:
    """A My Games cursor (the id of the last play of the previous page); 400 for any other."""
    if not ASCII_NUMBER.fullmatch(text) or not 0 < int(text) <= MAX_ROW_ID:
        raise ApiError(400, "invalid_cursor", "The cursor is not one this endpoint gave.")
    return int(text)


def finish(ledger: Ledger, account: Account, play_number: int) -> dict[str, Any]:
    """Mark a play finished and credit its prize exactly once; a repeat credits nothing."""
    with ledger.db.begin() as conn:
        done = _finish(ledger, conn, account.pk, play_number, ledger.now_ms(), "player")
        if done is None:
            row = ledger.sql.play_outcome.row(conn, number=play_number, account=account.pk)
            if row is None:
                raise not_found_play()
            done = int(row[0])
        balance = ledger.sql.balance.value(conn, account=account.pk)
    return {
        "play_number": play_number,
        "prize_pence": done,
        "balance_pence": int(balance),
        "status": "finished",
    }


def _finish(
    ledger: Ledger, conn: Connection, account_pk: int, play_number: int, now: int, by: str
) -> int | None:
    """Finish a purchased play and credit it; None if it is not a purchased play of the account."""
    sql = ledger.sql
    prize = sql.finish.value(conn, number=play_number, account=account_pk, now=now, by=by)
    if prize is None:
        return None
    if prize > 0:
        sql.credit.run(conn, account=account_pk, amount=prize)
        # unique (play_number, kind): a second prize credit for one play cannot be recorded
        sql.add_transaction.run(
            conn,
            account_id=account_pk,
            kind="prize",
            amount_pence=prize,
            play_number=play_number,
            created_at=now,
        )
    return int(prize)


def finish_expired(ledger: Ledger, account: Account | None = None) -> int:
    """Finish and pay every purchased play older than the play timeout; returns how many."""
    now = ledger.now_ms()
    cutoff = now - ledger.play_timeout_ms
    count = 0
    while True:
        query = select(plays.c.play_number, plays.c.account_id).where(
            plays.c.status == "purchased", plays.c.purchased_at <= cutoff
        )
        if account is not None:
            query = query.where(plays.c.account_id == account.pk)
        with ledger.db.begin() as conn:
            rows = conn.execute(query.limit(SWEEP_BATCH)).all()
            for row in rows:
                if _finish(ledger, conn, row.account_id, row.play_number, now, "auto") is not None:
                    count += 1
        if len(rows) < SWEEP_BATCH:
            return count


def my_games(
    ledger: Ledger, account: Account, cursor: str | None, status: str | None, limit: int
) -> dict[str, Any]:
    """A page of the account's plays, newest first, and the cursor of the next page."""
    finish_expired(ledger, account)
    query = select(plays).where(plays.c.account_id == account.pk)
    if status == "unfinished":
        query = query.where(plays.c.status == "purchased")
    elif status == "finished":
        query = query.where(plays.c.status == "finished")
    elif status is not None:
        raise ApiError(422, "invalid_status", "status must be 'unfinished' or 'finished'.")
    if cursor:
        query = query.where(plays.c.id < parse_cursor(cursor))
    with ledger.db.begin() as conn:
        rows = conn.execute(query.order_by(plays.c.id.desc()).limit(limit + 1)).all()
    page = rows[:limit]
    return {
        "plays": [
            {
                "play_number": row.play_number,
                "game": row.game,
                "status": row.status,
                "prize_pence": row.prize_pence,
                "purchased_at": iso(row.purchased_at),
                "finished_at": iso(row.finished_at),
            }
            for row in page
        ],
        "next_cursor": str(page[-1].id) if len(rows) > limit else None,
    }


def _own_play(conn: Connection, account: Account, play_number: int) -> Any:
    row = conn.execute(
        select(plays).where(plays.c.play_number == play_number, plays.c.account_id == account.pk)
    ).first()
    if row is None:
        raise not_found_play()
    return row


def play_detail(ledger: Ledger, account: Account, play_number: int) -> dict[str, Any]:
    """A play of the account: status, token, pool entry, Merkle proof and root, times."""
    finish_expired(ledger, account)
    with ledger.db.begin() as conn:
        row = _own_play(conn, account, play_number)
        pool = conn.execute(select(pools).where(pools.c.id == row.pool_ref)).one()
    committed = ledger.pool_files.get(pool.pool_id)
    return {
        "play_number": row.play_number,
        "game": row.game,
        "model": row.model,
        "status": row.status,
        "prize_pence": row.prize_pence,
        "composition": json.loads(row.composition),
        "token": row.token,
        "pool": {"id": pool.pool_id, "root": pool.root, "size": pool.size},
        "entry": committed.entry(row.pool_index).to_json(),
        "proof": committed.proof(row.pool_index),
        "purchased_at": iso(row.purchased_at),
        "finished_at": iso(row.finished_at),
        "finished_by": row.finished_by,
        "expires_at": iso(row.purchased_at + ledger.play_timeout_ms),
    }


def verify_token(ledger: Ledger, account: Account, token: str) -> dict[str, Any]:
    """Check an outcome token: our signature, this account's play, the recorded outcome."""
    try:
        payload = tokens.verify(ledger.ring, token)
    except tokens.TokenError as error:
        raise ApiError(400, "token_invalid", f"The token is refused: {error}.") from None
    if payload.get("account") != account.public_id:
        raise not_found_play()
    number = payload.get("play_number")
    if not isinstance(number, int):
        raise ApiError(400, "token_invalid", "The token names no play.")
    with ledger.db.begin() as conn:
        row = _own_play(conn, account, number)
    if row.token != token:
        raise ApiError(400, "token_invalid", "The token is not the one issued for this play.")
    return {"valid": True, "status": row.status, "payload": payload}


def reserve_next(
    ledger: Ledger, account: Account, game: str, prize: int | None, composition: Any
) -> dict[str, Any]:
    """Test mode: make the account's next purchase of a game take a matching unsold entry."""
    check_game(game)
    wanted = None
    if composition is not None:
        try:
            wanted = Composition.from_json(composition)
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise ApiError(422, "invalid_composition", f"Bad composition: {error}.") from None
    ledger.ensure_pool(game)
    with ledger.db.begin() as conn:
        pool = ledger.current_pool(conn, game)
        assert pool is not None
        conn.execute(
            update(pools).where(pools.c.id == pool.id).values(next_index=pools.c.next_index)
        )  # lock the pool row like a draw does
        conn.execute(
            reservations.delete().where(
                reservations.c.account_id == account.pk, reservations.c.game == game
            )
        )
        for index in ledger.pool_files.matching(pool.pool_id, prize, wanted):
            if index < pool.next_index or entry_taken(conn, pool.id, index):
                continue
            conn.execute(
                insert(reservations).values(
                    account_id=account.pk, game=game, pool_ref=pool.id, pool_index=index
                )
            )
            return {"game": game, "pool": pool.pool_id, "index": index}
    raise ApiError(404, "no_matching_entry", "No unsold entry of the current pool matches.")
