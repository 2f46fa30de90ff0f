"""The player's own data: everything the endpoint keeps about an account, as one JSON document
the player downloads from Account (GET /api/account/data; docs/player.md, docs/api.md).

Its paid plays each with their token, composition, book hash and the Merkle proof of their
entry in the committed pool (what VERIFY checks), its free plays, its ledger rows, its spend
limits and every change of them asked, its breaks, exclusions and returns, its run of play, and
its sign-ins (each device's session and each sign-in code, by their times: never a credential or
a code's hash).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, select

from web.endpoint.player import limits, protections
from web.endpoint.pools.cache import PoolCache
from web.endpoint.sales.plays import price_of
from web.endpoint.store.schema import (
    accounts,
    limit_changes,
    play_time,
    plays,
    pools,
    sessions,
    sign_in_codes,
    transactions,
    try_plays,
)
from web.endpoint.times import iso

FORMAT = "lottery-account-data/1"


def _rows(conn: Connection, table: Any, account_pk: int, order: Any) -> list[Any]:
    return list(conn.execute(select(table).where(table.c.account_id == account_pk).order_by(order)))


def gather(conn: Connection, pool_cache: PoolCache, account_pk: int, now: int) -> dict[str, Any]:
    """The account's data document at `now` (read in one transaction)."""
    account = conn.execute(select(accounts).where(accounts.c.id == account_pk)).one()
    laid = {row.id: row for row in conn.execute(select(pools.c.id, pools.c.pool_id, pools.c.root))}
    pool_ids = {pk: row.pool_id for pk, row in laid.items()}
    return {
        "format": FORMAT,
        "made_at": iso(now),
        "account": {
            "id": account.public_id,
            "created_at": iso(account.created_at),
            "closed_at": iso(account.closed_at),
            "balance_pence": account.balance_pence,
        },
        "plays": [
            _play(row, laid[row.pool_ref], pool_cache.get)
            for row in _rows(conn, plays, account_pk, plays.c.id)
        ],
        "free_plays": [
            {
                "play_number": row.play_number,
                "game": row.game,
                "prize_pence": row.prize_pence,
                "pool": pool_ids[row.pool_ref],
                "pool_index": row.pool_index,
                "played_at": iso(row.created_at),
            }
            for row in _rows(conn, try_plays, account_pk, try_plays.c.id)
        ],
        "transactions": [
            {
                "kind": row.kind,
                "amount_pence": row.amount_pence,
                "play_number": row.play_number,
                "at": iso(row.created_at),
            }
            for row in _rows(conn, transactions, account_pk, transactions.c.id)
        ],
        "limits": limits.get_limits(conn, account_pk, now),
        "limit_changes": [
            {
                "period": row.period,
                "asked_pence": row.asked_pence,
                "asked_at": iso(row.asked_at),
                "effective_at": iso(row.effective_at),
            }
            for row in _rows(conn, limit_changes, account_pk, limit_changes.c.id)
        ],
        "protections": protections.status(conn, account_pk, now),
        "breaks_and_exclusions": protections.history(conn, account_pk),
        "play_time": _play_time(conn, account_pk),
        "sign_ins": [
            {
                "started_at": iso(row.created_at),
                "last_used_at": iso(row.last_used_at),
                "ended_at": iso(row.ended_at),
            }
            for row in _rows(conn, sessions, account_pk, sessions.c.created_at)
        ],
        "sign_in_codes": [
            {
                "made_at": iso(row.created_at),
                "expires_at": iso(row.expires_at),
                "used_at": iso(row.used_at),
            }
            for row in _rows(conn, sign_in_codes, account_pk, sign_in_codes.c.id)
        ],
    }


def _play(row: Any, laid: Any, pool: Callable[[str], Any]) -> dict[str, Any]:
    """A paid play with its proof (`laid`: its pools row), as GET /api/plays/{n} gives it."""
    committed = pool(laid.pool_id)
    return {
        "play_number": row.play_number,
        "game": row.game,
        "model": row.model,
        "status": row.status,
        "price_pence": price_of(row.game),
        "prize_pence": row.prize_pence,
        "composition": json.loads(row.composition),
        "token": row.token,
        "book_hash": row.book_hash,
        "pool": {"id": laid.pool_id, "root": laid.root},
        "entry": committed.entry(row.pool_index).to_json(),
        "proof": committed.proof(row.pool_index),
        "purchased_at": iso(row.purchased_at),
        "finished_at": iso(row.finished_at),
        "finished_by": row.finished_by,
    }


def _play_time(conn: Connection, account_pk: int) -> dict[str, Any] | None:
    t = play_time.c
    row = conn.execute(select(play_time).where(t.account_id == account_pk)).first()
    if row is None:
        return None
    return {
        "run_started_at": iso(row.run_started_at),
        "last_play_at": iso(row.last_play_at),
        "reality_check_due_at": iso(row.reality_due_at),
        "reality_check_seen_at": iso(row.reality_acked_at),
    }
