"""The checks `build.py audit-log` makes of the log's records, in log order (docs/log.md,
"Records" and "Auditing"), and of each revealed pool against its logged sales.

Each problem names the record (its index in the log). Per pool, in log order:
- its commitment comes before its sales, once; its table's counts add up to its size;
- its sales take indices 0, 1, 2, ... once each, none beyond its size, each a tier of its
  table, never more of a tier than the table holds, each play number once in the whole log;
- no sale after its closing, and the closing's `sold` is the number of its sales;
- a reveal only after the closing; the reveal document (fetched) hashes to the reveal record's
  digest, has the commitment's root, size and table, recounts to the committed root
  (tools/audit/pool.py), holds at each sold index the sale's leaf and prize, and says as many
  sold as were logged.
"""

from __future__ import annotations

import binascii
import hashlib
import json
import re
from array import array
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.tlog import records
from tools.audit.pool import decode_codes, depth_of, leaves_of, outcome_hash, root_of

HEX64 = re.compile(r"[0-9a-f]{64}")


@dataclass
class PoolLog:
    """What the log says of one pool so far."""

    record: int  # its commitment's index in the log
    game: str
    kind: str
    model: str
    size: int
    root: str
    table: dict[int, int]  # prize_pence -> count
    flags: bytearray = field(default_factory=bytearray)  # 1 for each index sold
    sales: list[tuple[int, int, bytes, int]] = field(
        default_factory=list
    )  # record, index, leaf, prize
    tiers: Counter[int] = field(default_factory=Counter)
    highest: int = -1
    distinct: int = 0  # indices sold, each counted once
    closing: tuple[int, dict[str, Any]] | None = None
    reveal: tuple[int, str] | None = None


def pence(value: int) -> str:
    return f"£{value / 100:,.2f}"


class Records:
    """Every record checked in log order; `problems` holds (record index, sentence)."""

    def __init__(self) -> None:
        self.pools: dict[str, PoolLog] = {}
        self.plays: dict[int, int] = {}  # play number -> record index
        self.problems: list[tuple[int | None, str]] = []
        self.count: Counter[str] = Counter()

    def problem(self, at: int | None, text: str) -> None:
        self.problems.append((at, text))

    def add(self, at: int, data: bytes) -> None:
        """Check the record at index `at` against what came before it."""
        try:
            record = records.decode(data)
        except records.RecordError as error:
            self.problem(at, f"record {at} is not one of the log's records: {error}")
            return
        kind = record["type"]
        self.count[kind] += 1
        pool = self.pools.get(record["pool"])
        if kind == "commitment":
            self.commitment(at, record, pool)
        elif pool is None:
            self.problem(
                at,
                f"record {at}: a {kind} of pool {record['pool']}, "
                "whose commitment is not logged before it",
            )
        elif kind == "sale":
            self.sale(at, record, pool)
        elif kind == "closing":
            self.closing(at, record, pool)
        else:
            self.reveal(at, record, pool)

    def commitment(self, at: int, record: dict[str, Any], pool: PoolLog | None) -> None:
        name = record["pool"]
        if pool is not None:
            self.problem(
                at, f"record {at}: pool {name} committed again (first at record {pool.record})"
            )
            return
        table: Counter[int] = Counter()
        try:
            for prize, count in record["table"]:
                table[int(prize)] += int(count)
        except (TypeError, ValueError):
            self.problem(at, f"record {at}: pool {name}'s table is not [[prize, count], ...]")
        if sum(table.values()) != record["size"]:
            self.problem(
                at,
                f"record {at}: pool {name}'s table holds {sum(table.values()):,} "
                f"entries, not its size {record['size']:,}",
            )
        if not HEX64.fullmatch(record["root"]) or record["root"][:16] != name:
            self.problem(
                at, f"record {at}: pool {name} is not named by its root's first 16 hex digits"
            )
        self.pools[name] = PoolLog(
            at,
            record["game"],
            record["kind"],
            record["model"],
            record["size"],
            record["root"],
            dict(table),
            bytearray(record["size"]),
        )

    def sale(self, at: int, record: dict[str, Any], pool: PoolLog) -> None:
        name, index, prize = record["pool"], record["index"], record["prize_pence"]
        where = f"record {at}: sale of index {index} of pool {name}"
        first = self.plays.setdefault(record["play"], at)
        if first != at:
            self.problem(at, f"{where}: play {record['play']} was logged before, at record {first}")
        if pool.kind != "paid":
            self.problem(
                at, f"{where}: the pool is of kind {pool.kind!r}; only paid plays are sold"
            )
        if pool.closing is not None:
            self.problem(
                at,
                f"{where}: the pool was closed at record {pool.closing[0]}; "
                "no sale may follow its closing",
            )
        if not HEX64.fullmatch(record["leaf"]):
            self.problem(at, f"{where}: its leaf is not 64 lower-case hex digits")
        expected = pool.distinct
        if index >= pool.size:
            self.problem(at, f"{where}: beyond the pool's size {pool.size:,}")
        elif pool.flags[index]:
            first_sale = next(r for r, i, _, _ in pool.sales if i == index)
            self.problem(at, f"{where}: index {index} sold twice (first at record {first_sale})")
        elif index < pool.highest:
            self.problem(at, f"{where}: out of order, sold after index {pool.highest}")
        elif index != expected:
            self.problem(
                at,
                f"{where}: out of order, the next index in order is {expected} "
                f"(index {expected} to {index - 1} skipped so far)",
            )
        if index < pool.size and not pool.flags[index]:
            pool.flags[index] = 1
            pool.distinct += 1
        pool.highest = max(pool.highest, index)
        if prize not in pool.table:
            self.problem(at, f"{where}: its prize {pence(prize)} is no tier of the pool's table")
        elif pool.tiers[prize] >= pool.table[prize]:
            self.problem(
                at, f"{where}: a {pence(prize)} prize beyond the table's {pool.table[prize]:,}"
            )
        pool.tiers[prize] += 1
        leaf = bytes.fromhex(record["leaf"]) if HEX64.fullmatch(record["leaf"]) else b""
        pool.sales.append((at, index, leaf, prize))

    def closing(self, at: int, record: dict[str, Any], pool: PoolLog) -> None:
        name = record["pool"]
        if pool.closing is not None:
            self.problem(
                at, f"record {at}: pool {name} closed again (first at record {pool.closing[0]})"
            )
            return
        pool.closing = (at, record)
        sold = len(pool.sales)
        if pool.kind == "paid" and record["sold"] != sold:  # free TRY plays are not logged
            self.problem(
                at,
                f"record {at}: pool {name}'s closing says {record['sold']:,} sold; "
                f"the log holds {sold:,} sales of it",
            )
        if record["reason"] not in ("sold_out", "retired"):
            self.problem(at, f"record {at}: pool {name} closed for {record['reason']!r}")
        elif record["reason"] == "sold_out" and record["sold"] != pool.size:
            self.problem(
                at,
                f"record {at}: pool {name} 'sold out' with {record['sold']:,} of "
                f"{pool.size:,} sold",
            )

    def reveal(self, at: int, record: dict[str, Any], pool: PoolLog) -> None:
        name = record["pool"]
        if pool.reveal is not None:
            self.problem(
                at, f"record {at}: pool {name} revealed again (first at record {pool.reveal[0]})"
            )
            return
        if pool.closing is None:
            self.problem(at, f"record {at}: pool {name} revealed before it was closed")
        if not HEX64.fullmatch(record["digest"]):
            self.problem(at, f"record {at}: pool {name}'s reveal digest is not SHA-256 hex")
        pool.reveal = (at, record["digest"])

    def finish(self) -> None:
        """The checks that need the whole log: no index below a pool's highest sold one
        left unsold (a gap)."""
        for name, pool in self.pools.items():
            top = min(pool.highest + 1, pool.size)
            missing = [i for i in range(top) if not pool.flags[i]]
            if missing:
                shown = ", ".join(map(str, missing[:10])) + (" ..." if len(missing) > 10 else "")
                self.problem(
                    pool.record,
                    f"pool {name} (committed at record {pool.record}): "
                    f"index {shown} never sold, below sold index {pool.highest}: "
                    "a gap",
                )

    def check_reveal(self, name: str, document: bytes | None) -> None:
        """A revealed pool against its reveal document (None: it could not be fetched)."""
        pool = self.pools[name]
        assert pool.reveal is not None
        at, digest = pool.reveal
        if document is None:
            self.problem(
                at,
                f"record {at}: pool {name}'s reveal is logged, but the site "
                "serves no reveal document for it",
            )
            return
        served = hashlib.sha256(document).hexdigest()
        if served != digest:
            self.problem(
                at,
                f"record {at}: pool {name}'s reveal document hashes to {served}, "
                f"not the logged digest {digest}",
            )
        try:
            reveal = json.loads(document)
            key = bytes.fromhex(reveal["key"])
            codes = decode_codes(reveal["entries"])
            catalogue = [(int(i["prize_pence"]), i["composition"]) for i in reveal["catalogue"]]
            size, root, sold = int(reveal["size"]), str(reveal["root"]), int(reveal["sold"])
            if len(codes) != size or (codes and max(codes) >= len(catalogue)):
                raise ValueError("its entries do not fit its size and catalogue")
        except (KeyError, TypeError, ValueError, binascii.Error) as error:
            self.problem(at, f"record {at}: pool {name}'s reveal cannot be read: {error!r}")
            return
        self.compare(name, pool, at, size, root, sold, key, codes, catalogue)

    def compare(
        self,
        name: str,
        pool: PoolLog,
        at: int,
        size: int,
        root: str,
        sold: int,
        key: bytes,
        codes: array[int],
        catalogue: list[tuple[int, Any]],
    ) -> None:
        """The revealed pool against its commitment record and its sale records."""
        where = f"pool {name} (committed at record {pool.record}, revealed at record {at})"
        if (size, root) != (pool.size, pool.root):
            self.problem(
                at,
                f"{where}: revealed as {size:,} entries with root {root}, "
                f"committed as {pool.size:,} with root {pool.root}",
            )
            return
        tails = [outcome_hash(prize, comp) for prize, comp in catalogue]
        leaves = leaves_of(key, codes, tails)
        made = root_of(leaves, depth_of(size)).hex()
        if made != pool.root:
            self.problem(
                at, f"{where}: the revealed entries make root {made}, not the committed {pool.root}"
            )
        held: Counter[int] = Counter()
        for code, n in Counter(codes).items():
            held[catalogue[code][0]] += n
        if dict(held) != pool.table:
            self.problem(
                at,
                f"{where}: the revealed pool's tiers {sorted(held.items())} are "
                f"not the committed table {sorted(pool.table.items())}",
            )
        if pool.kind == "paid" and sold != len(pool.sales):
            self.problem(
                at,
                f"{where}: the reveal says {sold:,} sold, the log holds {len(pool.sales):,} sales",
            )
        for record, index, leaf, prize in pool.sales:
            if index >= size:
                continue
            if leaf != leaves[index]:
                self.problem(
                    record,
                    f"record {record}: sale of index {index} of pool {name} "
                    f"logged leaf {leaf.hex()}, the revealed pool's leaf there is "
                    f"{leaves[index].hex()}",
                )
            if prize != catalogue[codes[index]][0]:
                self.problem(
                    record,
                    f"record {record}: sale of index {index} of pool {name} "
                    f"logged a {pence(prize)} prize, the revealed entry's is "
                    f"{pence(catalogue[codes[index]][0])}",
                )

    def remaining(self) -> dict[str, dict[str, Any]]:
        """Prizes remaining per tier of each open pool of paid plays: its table minus its
        logged sales."""
        out: dict[str, dict[str, Any]] = {}
        for name, pool in self.pools.items():
            if pool.closing is not None or pool.kind != "paid":
                continue
            tiers = [
                {
                    "prize_pence": prize,
                    "count": count,
                    "sold": pool.tiers[prize],
                    "remaining": count - pool.tiers[prize],
                }
                for prize, count in sorted(pool.table.items())
            ]
            out[name] = {
                "game": pool.game,
                "model": pool.model,
                "size": pool.size,
                "sold": len(pool.sales),
                "tiers": tiers,
            }
        return out
