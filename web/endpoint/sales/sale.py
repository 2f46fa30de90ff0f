"""A sale's record and answer, built in one place for every seller (web/endpoint/sales/seller.py).

The record is the plays row of a pool entry sold to an account: its play number, its signed
outcome token and its book's hash when the hasher made it ahead of the sale
(web/endpoint/sales/presale_hashes.py; else it is recorded just after, off the sale's path:
web/endpoint/sales/hashes.py), and, under LOG_RECORD, the bytes of the sale's record in the
public log (engine/tlog/records.py), which every seller inserts into log_entries in the same
transaction (docs/log.md). The answer is what a
purchase returns: the play number, the token and the balance the sale's own debit left.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from engine.math.leaves import PoolEntry
from engine.payload import Payload
from engine.tlog import records
from web.endpoint import tokens
from web.endpoint.keys import KeyRing
from web.endpoint.pools.cache import PoolCache
from web.endpoint.pools.pools import PoolRow
from web.endpoint.sales.presale_hashes import PresaleHashes

if TYPE_CHECKING:
    from web.endpoint.player.accounts import Account

PLAY_NUMBER_BASE = 10**8  # Play Number = pool sequence × 10^8 + entry index + 1

LOG_RECORD = "log_record"  # a Record's key: the sale's public log record (bytes)

Record = dict[str, Any]  # a plays row (its columns but the id), and LOG_RECORD
Answer = dict[str, Any]  # a purchase's answer: play_number, token, balance_pence


def play_number(pool: PoolRow, index: int) -> int:
    """The Play Number of a pool's entry."""
    return pool.id * PLAY_NUMBER_BASE + index + 1


def outcome(
    pool_cache: PoolCache, holder: str, pool: PoolRow, index: int, now: int, mode: str | None = None
) -> tuple[PoolEntry, int, dict[str, Any]]:
    """A pool entry sold (or given as a try) to `holder`: the entry, its play number and the
    token payload that says so. The pool is read from memory only (loaded before the sale)."""
    entry = pool_cache.loaded(pool.pool_id).entry(index)
    number = play_number(pool, index)
    payload = Payload(
        account=holder,
        game=pool.game,
        model=pool.model,
        play_number=number,
        pool=pool.pool_id,
        index=index,
        prize_pence=entry.prize_pence,
        composition=entry.composition,
        seed=entry.seed.hex(),
        iat=now // 1000,
        mode=mode,
    ).to_json()
    return entry, number, payload


class Records:
    """The records of a process's sales: signed with its key ring, from its pools' files, with
    the book hashes its hasher made ahead."""

    def __init__(self, ring: KeyRing, pool_cache: PoolCache, presale: PresaleHashes) -> None:
        self.ring = ring
        self.pool_cache = pool_cache
        self.presale = presale

    def record(
        self, account: Account, pool: PoolRow, index: int, key: str | None, now: int
    ) -> Record:
        """The plays row of a sale of this pool entry to an account."""
        entry, number, payload = outcome(self.pool_cache, account.public_id, pool, index, now)
        return {
            "play_number": number,
            "account_id": account.pk,
            "game": pool.game,
            "model": pool.model,
            "pool_ref": pool.id,
            "pool_index": index,
            "prize_pence": entry.prize_pence,
            "composition": json.dumps(payload["composition"], separators=(",", ":")),
            "seed": payload["seed"],
            "status": "purchased",
            "token": tokens.sign(self.ring, payload),
            "idempotency_key": key,
            "purchased_at": now,
            "finished_at": None,
            "finished_by": None,
            "book_hash": self.presale.take(pool.id, index),
            "progress_event": 0,
            "choices": "[]",
            LOG_RECORD: log_record(pool, entry, number, now, self.pool_cache),
        }


def log_record(
    pool: PoolRow, entry: PoolEntry, number: int, now: int, pool_cache: PoolCache
) -> bytes:
    """The public log's record of a sale: its play, pool, index, the entry's leaf hash (from
    the pool in memory), its prize tier and time; nothing that names the player."""
    leaf = pool_cache.loaded(pool.pool_id).leaf(entry).hex()
    return records.sale_bytes(number, pool.pool_id, entry.index, leaf, entry.prize_pence, now)


def answer(play_number: int, token: str, balance: int) -> Answer:
    """A purchase's answer: its play, its token and the balance after its own debit."""
    return {"play_number": play_number, "token": token, "balance_pence": int(balance)}


def answer_of(record: Record, balance: int) -> Answer:
    """The answer of a sale of this record."""
    return answer(record["play_number"], record["token"], balance)
