"""After purchase: finish (credit once), automatic finish (settlement), My Games, play detail,
progress and choices, recall, test reserve."""

from __future__ import annotations

import json
import re
from typing import Any

from sqlalchemy import Connection, insert, select, update

from engine import games
from engine.outcome import Composition
from web.endpoint import hashes, hashing_process, tokens
from web.endpoint.database import Database
from web.endpoint.errors import ApiError, not_found_play
from web.endpoint.ledger import Account, Ledger, check_game
from web.endpoint.schema import plays, pools, reservations
from web.endpoint.statements import Statements
from web.endpoint.testmode import entry_taken
from web.endpoint.times import iso

PAGE_SIZE = 20
SWEEP_BATCH = 500
MAX_CHOICES = 64  # choices a play may record (Power Puck Shot: one arrow per shot)
# The largest choice any game takes, from each game's contract (Game.waits; Power Puck Shot's
# arrows: 0-5): the bound of the request's schema; merge_choices checks each game's own.
MAX_CHOICE = max(game.choice_values for game in games.GAMES) - 1
CHOICES = f"[0-{MAX_CHOICE}, ...]"  # (in the documents and messages)
MAX_EVENT = 10_000  # the largest event index progress may record


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


def finish(
    ledger: Ledger, account: Account, play_number: int, choices: list[int] | None = None
) -> dict[str, Any]:
    """Mark a play finished and credit its prize exactly once; a repeat credits nothing.

    With choices, they are recorded as the play's final choices in the same transaction
    (they must extend the stored ones; after the finish they can no longer change)."""
    with ledger.db.begin() as conn:
        if choices is not None:
            row = _locked_play(conn, account.pk, play_number)
            merged = merge_choices(row.game, json.loads(row.choices), choices)
            if row.status != "purchased" and merged != json.loads(row.choices):
                raise ApiError(
                    409, "choices_conflict", "The play is finished: its choices are final."
                )
            _store_progress(conn, play_number, row.progress_event, merged)
        done = _finish(ledger.sql, conn, account.pk, play_number, ledger.now_ms(), "player")
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
    sql: Statements, conn: Connection, account_pk: int, play_number: int, now: int, by: str
) -> int | None:
    """Finish a purchased play and credit it; None if it is not a purchased play of the account."""
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
    return settle(
        ledger.db,
        ledger.sql,
        ledger.now_ms(),
        ledger.play_timeout_ms,
        None if account is None else account.pk,
    )


def settle(
    db: Database, sql: Statements, now: int, timeout_ms: int, account_pk: int | None = None
) -> int:
    """Settle (finish with finished_by "auto" and pay) every purchased play bought at least
    timeout_ms before now, or only those of one account; returns how many this call settled.

    Safe with any number of settlers at once (endpoint sweepers, `build.py settle`): the finish
    is a conditional UPDATE (a play already finished is not finished again) and its prize row is
    unique per play; on PostgreSQL a settler skips the plays another one holds (SKIP LOCKED)."""
    cutoff = now - timeout_ms
    count = 0
    while True:
        query = select(plays.c.play_number, plays.c.account_id).where(
            plays.c.status == "purchased", plays.c.purchased_at <= cutoff
        )
        if account_pk is not None:
            query = query.where(plays.c.account_id == account_pk)
        query = query.order_by(plays.c.play_number).limit(SWEEP_BATCH)
        with db.begin() as conn:
            rows = conn.execute(query.with_for_update(skip_locked=True)).all()
            for row in rows:
                if _finish(sql, conn, row.account_id, row.play_number, now, "auto") is not None:
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
    # (an empty cursor is refused, as the document says; one past every id is the first page)
    if cursor is not None and (before := parse_cursor(cursor)) <= MAX_ROW_ID:
        query = query.where(plays.c.id < before)
    with ledger.db.begin() as conn:
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
    committed = ledger.pool_cache.get(pool.pool_id)
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
        "expires_at": iso(row.purchased_at + ledger.play_timeout_ms),
    }


def price_of(game: str) -> int | None:
    """The price of a play of a game (None for a game no longer registered)."""
    try:
        return games.get(game).price_pence
    except games.UnknownGame:
        return None


def _locked_play(conn: Connection, account_pk: int, play_number: int) -> Any:
    """A play of the account, its row locked to the end of the transaction (PostgreSQL)."""
    row = conn.execute(
        select(plays)
        .where(plays.c.play_number == play_number, plays.c.account_id == account_pk)
        .with_for_update()
    ).first()
    if row is None:
        raise not_found_play()
    return row


def merge_choices(game: str, stored: list[int], given: list[int]) -> list[int]:
    """The stored choices extended by the given ones: 422 for choices the game does not take,
    409 choices_conflict when the two disagree where both have a choice."""
    values = games.get(game).choice_values  # its contract: Game.waits
    if len(given) > MAX_CHOICES or any(not 0 <= choice < values for choice in given):
        allowed = f"0..{values - 1}" if values else "none"
        raise ApiError(422, "invalid_choices", f"This game's choices are {allowed} (at most 64).")
    common = min(len(stored), len(given))
    if stored[:common] != given[:common]:
        raise ApiError(409, "choices_conflict", "These choices differ from the ones recorded.")
    return given if len(given) > len(stored) else stored


def _store_progress(conn: Connection, play_number: int, event: int, choices: list[int]) -> None:
    conn.execute(
        update(plays)
        .where(plays.c.play_number == play_number)
        .values(progress_event=event, choices=json.dumps(choices, separators=(",", ":")))
    )


def save_progress(
    ledger: Ledger, account: Account, play_number: int, event: int, choices: list[int]
) -> dict[str, Any]:
    """PUT /api/plays/{n}/progress: the event the player has reached (never backwards) and
    their choices so far (extending the stored ones), for an unfinished play of the account."""
    now = ledger.now_ms()
    with ledger.db.begin() as conn:
        row = _locked_play(conn, account.pk, play_number)
        finished = row.status != "purchased"
        if not finished and row.purchased_at <= now - ledger.play_timeout_ms:
            _finish(ledger.sql, conn, account.pk, play_number, now, "auto")  # overdue: settle
            finished = True
        if not finished:
            stored = json.loads(row.choices)
            merged = merge_choices(row.game, stored, choices)
            reached = max(int(row.progress_event), event)
            if merged != stored or reached != row.progress_event:
                _store_progress(conn, play_number, reached, merged)
    if finished:  # (raised after the commit, so an overdue play's settlement stands)
        raise ApiError(409, "play_finished", "The play is finished; its progress is final.")
    return {"play_number": play_number, "event": reached, "choices": merged}


def recall(ledger: Ledger, account: Account, play_number: int) -> dict[str, Any]:
    """GET /api/plays/{n}/recall: a finished play of the account with everything needed to
    show it again, after rebuilding its book from the ledger's entry and checking its hash."""
    finish_expired(ledger, account)
    with ledger.db.begin() as conn:
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
        # Its hasher stopped before hashing it (web/endpoint/hashes.py): recorded now.
        with ledger.db.begin() as conn:
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
        for index in ledger.pool_cache.matching(pool.pool_id, prize, wanted):
            if index < pool.next_index or entry_taken(conn, pool.id, index):
                continue
            conn.execute(
                insert(reservations).values(
                    account_id=account.pk, game=game, pool_ref=pool.id, pool_index=index
                )
            )
            return {"game": game, "pool": pool.pool_id, "index": index}
    raise ApiError(404, "no_matching_entry", "No unsold entry of the current pool matches.")
