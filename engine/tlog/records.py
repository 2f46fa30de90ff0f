"""The log's records: what each leaf of the public record says (docs/log.md, "Records").

A record is canonical JSON (sorted keys, no spaces, UTF-8) of one of four types:

commitment  a pool committed, before its first sale: game, pool, kind ("paid" or "try"),
            model, size, root (hex) and table ([[prize_pence, count], ...], prize ascending)
sale        a paid play sold: play (its number), pool, index, leaf (the pool entry's leaf hash,
            hex), prize_pence (its tier) and time (ms since the epoch)
closing     a pool stopped selling: pool, reason ("sold_out" or "retired"), sold, time
reveal      a closed pool's reveal published: pool, digest (SHA-256 hex of its reveal
            document) and time

No record names a player. Free TRY plays are not sales: they are not logged.
"""

from __future__ import annotations

import json
import re
from typing import Any

FIELDS: dict[str, dict[str, type]] = {
    "commitment": {
        "game": str,
        "pool": str,
        "kind": str,
        "model": str,
        "size": int,
        "root": str,
        "table": list,
    },
    "sale": {"play": int, "pool": str, "index": int, "leaf": str, "prize_pence": int, "time": int},
    "closing": {"pool": str, "reason": str, "sold": int, "time": int},
    "reveal": {"pool": str, "digest": str, "time": int},
}


class RecordError(ValueError):
    """A record that is not one of the log's four, or is malformed."""


def encode(record: dict[str, Any]) -> bytes:
    """A record's bytes (checked against its type's fields)."""
    check(record)
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def decode(data: bytes) -> dict[str, Any]:
    """A record from its bytes: canonical JSON of one of the four types (RecordError if not)."""
    try:
        record = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RecordError(f"a record is not JSON: {e}") from e
    if not isinstance(record, dict):
        raise RecordError("a record is not a JSON object")
    check(record)
    if encode(record) != data:
        raise RecordError("a record is not in canonical form")
    return record


def check(record: dict[str, Any]) -> None:
    """RecordError unless the record has exactly its type's fields, each of its type."""
    kind = record.get("type")
    fields = FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise RecordError(f"a record of unknown type {kind!r}")
    if set(record) != {"type", *fields}:
        raise RecordError(f"a {kind} record has fields {sorted(record)}")
    for name, want in fields.items():
        value = record[name]
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise RecordError(f"a {kind} record's {name} is not a {want.__name__}")
        if isinstance(value, int) and value < 0:
            raise RecordError(f"a {kind} record's {name} is negative")


def commitment(
    game: str, pool: str, kind: str, model: str, size: int, root: str, table: list[list[int]]
) -> dict[str, Any]:
    return {
        "type": "commitment",
        "game": game,
        "pool": pool,
        "kind": kind,
        "model": model,
        "size": size,
        "root": root,
        "table": sorted([int(p), int(c)] for p, c in table),
    }


def sale(
    play: int, pool: str, index: int, leaf: str, prize_pence: int, time: int
) -> dict[str, Any]:
    return {
        "type": "sale",
        "play": play,
        "pool": pool,
        "index": index,
        "leaf": leaf,
        "prize_pence": prize_pence,
        "time": time,
    }


# A sale's bytes as encode(sale(...)) writes them, for fields that need no JSON escaping
SALE_BYTES = (
    b'{"index":%d,"leaf":"%s","play":%d,"pool":"%s","prize_pence":%d,"time":%d,"type":"sale"}'
)
PLAIN = re.compile(r"[0-9A-Za-z_.:-]*")  # strings that JSON writes as they are


def sale_bytes(play: int, pool: str, index: int, leaf: str, prize_pence: int, time: int) -> bytes:
    """encode(sale(...)): the same bytes, written without json.dumps when every field is a
    plain one (a sale's record is made on every purchase's path, where encode cost a sale
    about a tenth of its CPU); anything else goes through encode, which checks it."""
    numbers = (play, index, prize_pence, time)
    if (
        all(type(n) is int and n >= 0 for n in numbers)
        and type(pool) is str
        and type(leaf) is str
        and PLAIN.fullmatch(pool)
        and PLAIN.fullmatch(leaf)
    ):
        return SALE_BYTES % (index, leaf.encode(), play, pool.encode(), prize_pence, time)
    return encode(sale(play, pool, index, leaf, prize_pence, time))


def closing(pool: str, reason: str, sold: int, time: int) -> dict[str, Any]:
    return {"type": "closing", "pool": pool, "reason": reason, "sold": sold, "time": time}


def reveal(pool: str, digest: str, time: int) -> dict[str, Any]:
    return {"type": "reveal", "pool": pool, "digest": digest, "time": time}
