"""What the log's routes serve, read from the database (web/endpoint/http/routes/log.py;
docs/log.md): the newest checkpoint with its cosignatures, hash tiles and entry bundles
(c2sp.org/tlog-tiles) up to its size, consistency proofs between checkpointed sizes, a sale's
proof (c2sp.org/tlog-proof@v1) and prizes remaining per tier."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, func, select

from engine.tlog import tiles, tree
from engine.tlog.note import NoteError, open_checkpoint
from engine.tlog.policy import Policy
from engine.tlog.proof import TlogProof
from web.endpoint.log import nodes
from web.endpoint.log.signer import LogSigner, verify
from web.endpoint.store.database import Database
from web.endpoint.store.schema import log_checkpoints, log_entries, log_pool_tiers, plays

CANDIDATES = 64  # the newest checkpoints covering a sale looked at for one meeting the quorum


class NotInLog(LookupError):
    """A tile beyond the newest checkpoint, or a size no checkpoint has."""


def newest(conn: Connection) -> tuple[int, str] | None:
    """The newest checkpoint's size and its note with the cosignatures it has."""
    row = conn.execute(
        select(log_checkpoints.c.size, log_checkpoints.c.note, log_checkpoints.c.cosignatures)
        .order_by(log_checkpoints.c.size.desc())
        .limit(1)
    ).first()
    return None if row is None else (int(row[0]), row[1] + row[2])


class LogReader:
    """The log as its routes serve it, read from one database, with the policy its
    checkpoints are judged by."""

    def __init__(self, db: Database, signer: LogSigner, policy: Policy, policy_text: str) -> None:
        self.db = db
        self.signer = signer
        self.policy = policy
        self.policy_text = policy_text

    def checkpoint(self) -> str | None:
        """The newest checkpoint, signed, with its cosignatures (None before the first)."""
        with self.db.read() as conn:
            found = newest(conn)
        return None if found is None else found[1]

    def tile(self, tile: tiles.Tile) -> bytes:
        """A hash tile or an entry bundle within the newest checkpoint (NotInLog beyond)."""
        level, n, width = tile
        with self.db.read() as conn:
            found = newest(conn)
            size = 0 if found is None else found[0]
            count = size if level < 0 else size >> (tiles.HEIGHT * max(level, 0))
            first = n * tiles.WIDTH
            if first + width > count:
                raise NotInLog(tiles.path(tile))
            if level >= 0:
                return b"".join(nodes.level_range(conn, tiles.HEIGHT * level, first, width))
            rows = conn.execute(
                select(log_entries.c.data)
                .where(log_entries.c.log_index >= first, log_entries.c.log_index < first + width)
                .order_by(log_entries.c.log_index)
            ).all()
        return tiles.encode_bundle([bytes(row[0]) for row in rows])

    def consistency(self, old: int, new: int) -> list[bytes]:
        """The consistency proof between two checkpointed sizes, old <= new."""
        if not 0 <= old <= new:
            raise NotInLog(f"no consistency proof from {old} to {new}")
        with self.db.read() as conn:
            sizes = set(
                conn.execute(
                    select(log_checkpoints.c.size).where(log_checkpoints.c.size.in_([old, new]))
                ).scalars()
            )
            if {old, new} - sizes - {0}:
                raise NotInLog(f"no checkpoint of size {old} and {new}")
            return nodes.prefetched(conn, lambda read: tree.prove_consistency(new, old, read))

    def play_proof(self, play_number: int, account_id: int) -> dict[str, Any] | None:
        """A play's place in the log, for its own account: {index, size, proof (tlog-proof@v1
        text)} once a checkpoint covers its sale, else None; LookupError for no such play of
        the account."""
        with self.db.read() as conn:
            row = conn.execute(
                select(log_entries.c.log_index, log_entries.c.data)
                .select_from(
                    plays.outerjoin(log_entries, log_entries.c.play_number == plays.c.play_number)
                )
                .where(plays.c.play_number == play_number, plays.c.account_id == account_id)
            ).first()
            if row is None:
                raise LookupError(play_number)
            if row[0] is None:
                return None
            index, data = int(row[0]), bytes(row[1])
            chosen = self._covering(conn, index)
            if chosen is None:
                return None
            size, note = chosen
            proof = nodes.prefetched(conn, lambda read: tree.prove_inclusion(size, index, read))
        text = TlogProof(index, tuple(proof), note, extra=data).format()
        return {"index": index, "size": size, "proof": text}

    def _covering(self, conn: Connection, index: int) -> tuple[int, str] | None:
        """The newest checkpoint covering leaf `index` that meets the policy's quorum, else the
        newest covering it."""
        rows = conn.execute(
            select(log_checkpoints.c.size, log_checkpoints.c.note, log_checkpoints.c.cosignatures)
            .where(log_checkpoints.c.size > index)
            .order_by(log_checkpoints.c.size.desc())
            .limit(CANDIDATES)
        ).all()
        for size, note, cosignatures in rows:
            if self.meets_quorum(note + cosignatures):
                return int(size), note + cosignatures
        return None if not rows else (int(rows[0][0]), rows[0][1] + rows[0][2])

    def meets_quorum(self, text: str) -> bool:
        """Whether a checkpoint's verified cosignatures meet the policy's quorum."""
        if self.policy.quorum == "none":
            return True
        try:
            _, _, found = open_checkpoint(text, self.signer.key, verify, self.policy.witness_keys())
        except NoteError:
            return False
        return self.policy.satisfied(self.policy.names_of(found))

    def remaining(self, pool_id: str) -> tuple[int, list[dict[str, int]]]:
        """The newest checkpoint's size and a pool's tiers as the log tells them: prize,
        count, sold and remaining, the highest prize first."""
        t = log_pool_tiers.c
        size = select(func.max(log_checkpoints.c.size)).scalar_subquery()
        with self.db.read() as conn:  # (one statement: the size and counts of one moment)
            rows = conn.execute(
                select(t.prize_pence, t.count, t.sold, size)
                .where(t.pool_id == pool_id)
                .order_by(t.prize_pence.desc())
            ).all()
            if not rows:
                found = newest(conn)
                return (0 if found is None else found[0]), []
        tiers = [
            {
                "prize_pence": int(prize),
                "count": int(count),
                "sold": int(sold),
                "remaining": int(count) - int(sold),
            }
            for prize, count, sold, _ in rows
        ]
        return int(rows[0][3] or 0), tiers
