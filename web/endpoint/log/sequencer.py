"""The sequencer: the log's pending records given their place in the tree, and a checkpoint
signed, by whichever instance takes the head's lock (docs/log.md, "Sequencing").

Every LOTTERY_LOG_INTERVAL_MS each instance's sequencing process
(web/endpoint/log/sequencing_process.py) runs `step` until it has caught up (at most STEPS
times), then `checkpoint`. A step reads the head's size, up to `batch` pending log_entries
(one snapshot: PostgreSQL's those without an index, in id order; SQLite's, which took their
index as they were appended, those from the head's size on: web/endpoint/log/entries.py) and
the tree's right edge; then, holding nothing, gives PostgreSQL's records the indices size,
size + 1, ..., computes the nodes each completes (engine.tlog.tree.appended), the new root and
the sales by pool and tier; then, in one transaction (on SQLite one for each SQLITE_WRITE
records, SQLITE_PAUSE apart, each leaving the whole tree of its last record), it locks the one
log_head row (PostgreSQL: SELECT ... FOR UPDATE; SQLite: its write lock, which every writing
transaction here takes)
and, only if the head is still the size it read (no other instance sequenced meanwhile; else
it starts again), places PostgreSQL's records, stores the nodes, counts the sales against their
pool's tiers (log_pool_tiers) and sets the head's size and root; then commits. `checkpoint`
then signs the head with the log key, in a transaction of its own holding the head's lock,
unless a checkpoint of its size exists: one checkpoint a run, however many steps it took.
With nothing sequenced nothing is signed. The checkpoint is then handed to the witnesses (off
any sale's path and lock: `cosign`), whose cosignatures are added to its row.

Why a pool's sales are logged in index order: each sale of a pool takes the pool row's lock
and inserts its log_entries row before it commits, so sale i's row is committed (with a smaller
id, and on SQLite a smaller index) before sale i + 1's row is even inserted; a batch inserts
its rows in index order. The sequencer reads committed rows in id order, so whenever it sees
sale i + 1 it sees sale i, and places it first.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import orjson
from sqlalchemy import Connection, bindparam, func, insert, select, update

from engine.tlog import tree
from engine.tlog.note import Signature
from engine.tlog.policy import Policy
from engine.tlog.tree import Node
from web.endpoint.log import nodes
from web.endpoint.log.signer import LogSigner
from web.endpoint.log.witnesses import Witnesses
from web.endpoint.store.database import Database
from web.endpoint.store.schema import log_checkpoints, log_entries, log_head, log_pool_tiers

# pending records sequenced in one step at most
BATCH = 1_000
# On SQLite the records a step writes in one transaction at most: each holds the write lock
# every sale waits for, and one of 1,000 records held it 5-9 ms under load (docs/log.md)
SQLITE_WRITE = 100
# and the pause after each but the last, in seconds: parts written back to back held the lock
# half the time for a tenth of a second each run, and the sales met them in clusters
SQLITE_PAUSE = 0.004
STEPS = 20  # batches in one run at most, before its checkpoint
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
        self.write = min(batch, SQLITE_WRITE) if db.is_sqlite else batch  # records a transaction
        self._size = -1  # the head this process last wrote or read, and its right edge
        self._edge: dict[Node, bytes] = {}
        self._cosigning = threading.Lock()  # held while a checkpoint is with the witnesses

    def run(self) -> list[tuple[int, str]]:
        """Sequence what is pending, a batch a transaction, until a batch is not full (caught
        up) or after STEPS batches (sales outpacing it), then sign a checkpoint of the head
        (`checkpoint`); the checkpoint signed, if one was. (Run until nothing was pending,
        steady sales would keep a run from ever signing.)"""
        for _ in range(STEPS):
            if self.step() < self.batch:
                break
        made = self.checkpoint()
        if made is None:
            return []
        if self.cosign is not None and self._cosigning.acquire(blocking=False):
            # on a thread of its own, one at a time: a slow witness delays cosignatures, never
            # the log (each witness is sent a proof from what it has)
            threading.Thread(target=self._cosign_newest, args=made, daemon=True).start()
        return [made]

    def _cosign_newest(self, size: int, note: str) -> None:
        try:
            self.add_cosignatures(size, note)
        finally:
            self._cosigning.release()

    def step(self) -> int:
        """A batch of pending records sequenced; how many (0: nothing was pending). Its work
        is done between short visits to the database, holding nothing: the first reads the
        head, the batch and the tree's right edge; then, in transactions holding the head's
        lock, each of up to `write` records, it writes what the work made, unless the head
        moved meanwhile (another instance sequenced): then again, or, after a first part
        written, what it wrote. Each part leaves a whole tree: its records' nodes, their
        tiers and the head at their end. (On SQLite each transaction holds the database's one
        write lock, which every sale waits for: the whole step in it stalled sales for 30-90
        ms a second, and its write in one part 5-9 ms under load.)"""
        while True:
            with self.db.read() as conn:
                size, _ = self._head(conn)
                ids, data = self._pending(conn, size)
                if not data:
                    return 0
                known = dict(self._edge) if self._size == size else {}
                nodes.reader(conn, known)(tree.subtree_nodes(0, size))  # (from memory, or read)
            start, done = size, 0
            for at in range(0, len(data), self.write):
                part = data[at : at + self.write]
                new, root = self._work(start + at, part, known)
                end = start + at + len(part)
                tiers, sold = _tiers(part)
                with self.db.begin() as conn:
                    if self._head(conn, lock=True)[0] != start + at:
                        self._size = -1  # (its edge is another's now)
                        break
                    if ids is not None:
                        self._place(conn, ids[at : at + self.write], start + at)
                    nodes.store(conn, new)
                    _count_tiers(conn, tiers, sold)
                    conn.execute(
                        update(log_head)
                        .where(log_head.c.id == 1)
                        .values(size=end, root=root, updated_at=self.now_ms())
                    )
                done = end - start
                self._size = end
                self._edge = {node: known[node] for node in tree.subtree_nodes(0, end)}
                if self.db.is_sqlite and end < start + len(data):
                    time.sleep(SQLITE_PAUSE)  # (the sales' turn with the write lock)
            if done:
                return done
            # (nothing written: another instance sequenced these; read again)

    def checkpoint(self) -> tuple[int, str] | None:
        """A checkpoint of the head signed (its size and note), unless the tree is empty or a
        checkpoint of its size exists (signed by another instance, or by this one's last run:
        with nothing sequenced since, nothing is signed). In a transaction holding the head's
        lock, so that checkpoints are inserted in the order of their sizes; a run that died
        after its steps leaves the head ahead of the last checkpoint, and the next run, any
        instance's, signs it."""
        with self.db.read() as conn:
            if not self._uncheckpointed(conn):
                return None
        with self.db.begin() as conn:
            size, root = self._head(conn, lock=True)
            if not self._uncheckpointed(conn):
                return None
            note = self.signer.sign(size, root)
            conn.execute(
                insert(log_checkpoints).values(size=size, note=note, created_at=self.now_ms())
            )
        return size, note

    def _uncheckpointed(self, conn: Connection) -> bool:
        """Whether the head is a non-empty tree larger than the newest checkpoint."""
        size, _ = self._head(conn)
        newest = conn.execute(select(func.max(log_checkpoints.c.size))).scalar()
        return size > 0 and (newest is None or int(newest) < size)

    def _pending(self, conn: Connection, size: int) -> tuple[list[int] | None, list[bytes]]:
        """Up to a batch of the records still to add to the tree of `size` leaves, in log
        order, and the ids of those this step places (None: placed as they were appended, as
        SQLite's are, entries.index_at_append)."""
        e = log_entries.c
        if self.db.is_sqlite:
            rows = conn.execute(
                select(e.log_index, e.data)
                .where(e.log_index >= size)
                .order_by(e.log_index)
                .limit(self.batch)
            ).all()
            if [int(row[0]) for row in rows] != list(range(size, size + len(rows))):
                raise RuntimeError(f"the log's records after {size} leave a gap")
            return None, [bytes(row[1]) for row in rows]
        rows = conn.execute(
            select(e.id, e.data).where(e.log_index.is_(None)).order_by(e.id).limit(self.batch)
        ).all()
        return [int(row[0]) for row in rows], [bytes(row[1]) for row in rows]

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

    def _work(
        self, size: int, data: list[bytes], known: dict[Node, bytes]
    ) -> tuple[dict[Node, bytes], bytes]:
        """The nodes the records complete when appended to the tree of `size` leaves (whose
        right edge is in `known`, where they are added too), and the new tree's root."""
        new: dict[Node, bytes] = {}
        read = nodes.remembered(known)
        for record in data:
            for node, value in tree.appended(size, tree.leaf_hash(record), read):
                new[node] = value
                known[node] = value
            size += 1
        return new, tree.tree_hash(size, read)

    def _head(self, conn: Connection, lock: bool = False) -> tuple[int, bytes]:
        """The head's size and root; with `lock`, its row locked for this transaction
        (SQLite's transactions each hold the database's write lock already)."""
        query = select(log_head.c.size, log_head.c.root).where(log_head.c.id == 1)
        if lock and not self.db.is_sqlite:
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
        with self.db.read() as conn:
            return nodes.prefetched(conn, lambda read: tree.prove_consistency(size, old, read))


def witnesses_of(policy: Policy) -> Cosign | None:
    """The submitter asking the policy's witnesses (those with a URL) to cosign
    (web/endpoint/log/witnesses.py), or None when there is none to ask."""
    if not any(witness.url for witness in policy.witnesses.values()):
        return None
    cosign: Cosign = Witnesses(policy).cosign
    return cosign


Tiers = list[dict[str, Any]]
Sold = Counter[tuple[str, int]]


def _tiers(data: list[bytes]) -> tuple[Tiers, Sold]:
    """Prizes remaining, as the log tells them: the tiers of the commitments among these
    records and, by pool and tier, the sales among them."""
    tiers: Tiers = []
    sold: Sold = Counter()
    for raw in data:
        record = orjson.loads(raw)  # (json.loads was a fifth of a step)
        if record["type"] == "commitment":
            tiers += [
                {"pool_id": record["pool"], "prize_pence": prize, "count": count, "sold": 0}
                for prize, count in record["table"]
            ]
        elif record["type"] == "sale":
            sold[(record["pool"], int(record["prize_pence"]))] += 1
    return tiers, sold


def _count_tiers(conn: Connection, tiers: Tiers, sold: Sold) -> None:
    """A batch's commitments' tiers inserted and its sales counted against their pool's tier
    (in the sequencer's transaction)."""
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
