"""The sequencer: the log's pending records given their place in the tree, and a checkpoint
signed, by whichever instance takes the head's lock (docs/log.md, "Sequencing").

Every LOTTERY_LOG_INTERVAL_MS each instance runs `step` until nothing is pending: in one
transaction it locks the one log_head row (PostgreSQL: SELECT ... FOR UPDATE; SQLite: its
write lock, which every transaction here takes), reads up to BATCH pending log_entries in id
order, gives them the indices size, size + 1, ..., stores the nodes each completes
(engine.tlog.tree.appended), counts the sales against their pool's tiers (log_pool_tiers), sets
the head's size and root and inserts the checkpoint signed by the log key; then commits. With
nothing pending nothing is signed. Its checkpoint is then handed to the witnesses (off any
sale's path and lock: `cosign`), whose cosignatures are added to its row.

Why a pool's sales are logged in index order: each sale of a pool takes the pool row's lock
and inserts its log_entries row before it commits, so sale i's row is committed (with a smaller
id) before sale i + 1's row is even inserted; a batch inserts its rows in index order. The
sequencer reads committed rows in id order, so whenever it sees sale i + 1 it sees sale i, and
places it first.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import orjson
from sqlalchemy import Connection, bindparam, insert, select, update

from engine.tlog import tree
from engine.tlog.note import Signature
from engine.tlog.policy import Policy
from engine.tlog.tree import Node
from web.endpoint.log import nodes
from web.endpoint.log.signer import LogSigner
from web.endpoint.log.witnesses import Witnesses
from web.endpoint.store.database import Database
from web.endpoint.store.schema import log_checkpoints, log_entries, log_head, log_pool_tiers

BATCH = 5_000  # pending records sequenced in one transaction at most
Cosign = Callable[[str, int, Callable[[int], list[bytes]]], list[Signature]]

logger = logging.getLogger("web.endpoint")


class Sequencer:
    """One instance's sequencer over the shared database; `cosign` (the witnesses'
    submitter, web/endpoint/log/witnesses.py) asks for cosignatures of its checkpoints."""

    def __init__(
        self,
        db: Database,
        signer: LogSigner,
        now_ms: Callable[[], int],
        cosign: Cosign | None = None,
        batch: int = BATCH,
    ) -> None:
        self.db = db
        self.signer = signer
        self.now_ms = now_ms
        self.cosign = cosign
        self.batch = batch
        self._size = -1  # the head this process last wrote or read, and its right edge
        self._edge: dict[Node, bytes] = {}
        self._cosigning = threading.Lock()  # held while a checkpoint is with the witnesses

    def run(self) -> list[tuple[int, str]]:
        """Sequence everything pending now, a batch a transaction; the checkpoints signed."""
        signed: list[tuple[int, str]] = []
        while True:
            made = self.step()
            if made is None:
                break
            signed.append(made)
        if signed and self.cosign is not None and self._cosigning.acquire(blocking=False):
            # the newest only, on a thread of its own, one at a time: a slow witness delays
            # cosignatures, never the log (each witness is sent a proof from what it has)
            threading.Thread(target=self._cosign_newest, args=signed[-1], daemon=True).start()
        return signed

    def _cosign_newest(self, size: int, note: str) -> None:
        try:
            self.add_cosignatures(size, note)
        finally:
            self._cosigning.release()

    def step(self) -> tuple[int, str] | None:
        """One transaction: a batch of pending records sequenced and a checkpoint signed
        (its size and note), or None when nothing is pending."""
        with self.db.begin() as conn:
            size, _ = self._lock_head(conn)
            pending = conn.execute(
                select(log_entries.c.id, log_entries.c.data)
                .where(log_entries.c.log_index.is_(None))
                .order_by(log_entries.c.id)
                .limit(self.batch)
            ).all()
            if not pending:
                return None
            known = dict(self._edge) if self._size == size else {}
            read = nodes.reader(conn, known)
            new: dict[Node, bytes] = {}
            start = size
            for _, data in pending:
                for node, value in tree.appended(size, tree.leaf_hash(bytes(data)), read):
                    new[node] = value
                    known[node] = value
                size += 1
            root = tree.tree_hash(size, read)
            now = self.now_ms()
            self._place(conn, [int(row[0]) for row in pending], start)
            nodes.store(conn, new)
            _count_tiers(conn, [bytes(row[1]) for row in pending])
            conn.execute(
                update(log_head)
                .where(log_head.c.id == 1)
                .values(size=size, root=root, updated_at=now)
            )
            note = self.signer.sign(size, root)
            conn.execute(insert(log_checkpoints).values(size=size, note=note, created_at=now))
        edge = tree.subtree_nodes(0, size)
        self._size, self._edge = size, {node: known[node] for node in edge}
        return size, note

    def _place(self, conn: Connection, ids: list[int], start: int) -> None:
        """Give the records of these ids (in order) the indices start, start + 1, ...:
        PostgreSQL in one statement (an UPDATE a row cost 0.1 ms each), SQLite a row at a
        time (no round trips) in the driver's executemany (SQLAlchemy's cost more than the
        updates)."""
        if conn.dialect.name != "postgresql":
            conn.exec_driver_sql(
                "UPDATE log_entries SET log_index = ? WHERE id = ?",
                [(start + k, entry) for k, entry in enumerate(ids)],
            )
            return
        conn.exec_driver_sql(
            "UPDATE log_entries SET log_index = %(start)s + p.k - 1"
            " FROM unnest(%(ids)b::bigint[]) WITH ORDINALITY AS p(id, k)"
            " WHERE log_entries.id = p.id",
            {"start": start, "ids": ids},
        )

    def _lock_head(self, conn: Connection) -> tuple[int, bytes]:
        """The head's size and root, its row locked for this transaction (SQLite's
        transactions each hold the database's write lock already)."""
        query = select(log_head.c.size, log_head.c.root).where(log_head.c.id == 1)
        if not self.db.is_sqlite:
            query = query.with_for_update()
        size, root = conn.execute(query).one()
        return int(size), bytes(root)

    def add_cosignatures(self, size: int, note: str) -> None:
        """Ask the witnesses to cosign a checkpoint (with consistency proofs from what each
        cosigned before) and add the cosignature lines they give to its row."""
        assert self.cosign is not None
        try:
            signatures = self.cosign(note, size, lambda old: self.prove(old, size))
        except Exception:  # (the submitter never raises; a witness is never a sale's problem)
            logger.exception("asking the witnesses to cosign checkpoint %d failed", size)
            return
        if signatures:
            lines = "".join(signature.line() for signature in signatures)
            with self.db.begin() as conn:
                conn.execute(
                    update(log_checkpoints)
                    .where(log_checkpoints.c.size == size)
                    .values(cosignatures=log_checkpoints.c.cosignatures + lines)
                )

    def prove(self, old: int, size: int) -> list[bytes]:
        """The consistency proof from the tree of `old` leaves to the tree of `size`."""
        with self.db.begin() as conn:
            return nodes.prefetched(conn, lambda read: tree.prove_consistency(size, old, read))


def witnesses_of(policy: Policy) -> Cosign | None:
    """The submitter asking the policy's witnesses (those with a URL) to cosign
    (web/endpoint/log/witnesses.py), or None when there is none to ask."""
    if not any(witness.url for witness in policy.witnesses.values()):
        return None
    cosign: Cosign = Witnesses(policy).cosign
    return cosign


def _count_tiers(conn: Connection, data: list[bytes]) -> None:
    """Prizes remaining, as the log tells them: a commitment's tiers inserted, each sale
    counted against its pool's tier (in the sequencer's transaction)."""
    tiers: list[dict[str, Any]] = []
    sold: Counter[tuple[str, int]] = Counter()
    for raw in data:
        record = orjson.loads(raw)  # (json.loads was a fifth of a step)
        if record["type"] == "commitment":
            tiers += [
                {"pool_id": record["pool"], "prize_pence": prize, "count": count, "sold": 0}
                for prize, count in record["table"]
            ]
        elif record["type"] == "sale":
            sold[(record["pool"], int(record["prize_pence"]))] += 1
    if tiers:
        conn.execute(insert(log_pool_tiers), tiers)
    if sold:
        t = log_pool_tiers.c
        conn.execute(
            update(log_pool_tiers)
            .where(t.pool_id == bindparam("pool"), t.prize_pence == bindparam("prize"))
            .values(sold=t.sold + bindparam("more")),
            [{"pool": p, "prize": prize, "more": n} for (p, prize), n in sold.items()],
        )
