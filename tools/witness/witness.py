"""What a witness answers (c2sp.org/tlog-witness): add-checkpoint checks a log's signed
checkpoint and its consistency proof against the latest checkpoint cosigned for that log and,
if they hold, cosigns it; the monitoring GET serves that latest checkpoint.

The checks, in the spec's order: the origin is a known log's (else 404), a known log key signed
it and no known key's signature fails (403), the old size is not above the size (400), the old
size is the latest cosigned size (409, with that size), and the tree is consistent: an empty
proof from 0, a proof that verifies, the same root at the same size, the empty tree's root at
size 0 (422). A validly signed checkpoint refused by a consistency check is kept as evidence.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.tlog.note import (
    ED25519,
    Checkpoint,
    Key,
    Note,
    NoteError,
    parse_note,
    verified_by,
)
from engine.tlog.proof import TlogProofError, parse_consistency_body
from engine.tlog.tree import EMPTY_ROOT, ProofError, check_consistency
from tools.witness.keys import Cosigner, verify
from tools.witness.state import Refusal, State

TEXT = "text/plain; charset=utf-8"
SIZE = "text/x.tlog.size"


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: its status, body and content type."""

    status: int
    body: str
    content_type: str = TEXT


def read_checkpoint(text: str) -> Checkpoint:
    """A checkpoint from a note's text (NoteError if malformed), except that a size-0
    checkpoint with another root than the empty tree's is returned as it is: the spec answers
    that one with 422, after the checks that come before it."""
    try:
        return Checkpoint.parse(text)
    except NoteError:
        lines = text.split("\n")
        if len(lines) < 4 or lines[1] != "0":
            raise
        empty = base64.b64encode(EMPTY_ROOT).decode()
        checkpoint = Checkpoint.parse("\n".join([lines[0], "0", empty, *lines[3:]]))
        try:
            root = base64.b64decode(lines[2], validate=True)
        except binascii.Error:
            raise NoteError("a checkpoint's root is not base64") from None
        if len(root) != len(EMPTY_ROOT):
            raise
        return dataclasses.replace(checkpoint, root=root)


class Witness:
    """A witness of the given logs, with its key, its state and its clock (Unix seconds)."""

    def __init__(
        self,
        cosigner: Cosigner,
        logs: Iterable[Key],
        state: State,
        clock: Callable[[], int] = lambda: int(time.time()),
    ) -> None:
        self.cosigner = cosigner
        self.state = state
        self.clock = clock
        self.logs: dict[str, list[Key]] = {}
        for key in logs:
            if key.kind != ED25519:
                raise ValueError(f"{key.name}'s key is not a log's (Ed25519 note) key")
            self.logs.setdefault(key.name, []).append(key)

    def add_checkpoint(self, body: bytes) -> Answer:
        """The answer to POST add-checkpoint with this body."""
        try:
            old, proof, text = parse_consistency_body(body.decode("utf-8"))
            note = parse_note(text)
        except (UnicodeDecodeError, TlogProofError, NoteError) as e:
            return Answer(400, f"not an add-checkpoint request: {e}\n")
        origin = note.text.split("\n")[0]
        keys = self.logs.get(origin)
        if keys is None:
            return Answer(404, f"this witness does not witness {origin!r}\n")
        try:
            signed = verified_by(note, keys, verify)
        except NoteError as e:
            return Answer(403, f"{e}\n")
        if not signed:
            return Answer(403, f"no signature of a known key of {origin}\n")
        try:
            checkpoint = read_checkpoint(note.text)
        except NoteError as e:
            return Answer(400, f"not a checkpoint: {e}\n")
        if old > checkpoint.size:
            return Answer(400, f"the old size {old} is above the size {checkpoint.size}\n")
        ids = {(k.name, k.id) for k in signed}
        served = Note(note.text, tuple(s for s in note.signatures if (s.name, s.id) in ids))
        return self._advance(old, proof, checkpoint, served, body.decode())

    def _advance(
        self, old: int, proof: list[bytes], checkpoint: Checkpoint, note: Note, request: str
    ) -> Answer:
        """Check the checkpoint against the latest cosigned and cosign it: one atomic step."""
        with self.state.step(checkpoint.origin) as step:
            latest = step.latest
            have = latest.size if latest else 0
            if old != have:
                return Answer(409, f"{have}\n", SIZE)
            try:
                if checkpoint.size == 0 and checkpoint.root != EMPTY_ROOT:
                    raise ProofError("an empty tree's root must be SHA-256 of nothing")
                old_root = latest.root if latest and old else EMPTY_ROOT
                check_consistency(proof, checkpoint.size, checkpoint.root, old, old_root)
            except ProofError as e:
                now = self.clock()
                evidence = Refusal(
                    checkpoint.origin,
                    old,
                    checkpoint.size,
                    checkpoint.root,
                    422,
                    str(e),
                    request,
                    now,
                )
                step.refuse(evidence)
                return Answer(422, f"{e}\n")
            # never before the last cosignature's time, should the clock step back: each says
            # "the largest tree seen as of this time" (tlog-cosignature)
            now = max(self.clock(), latest.cosigned_at if latest else 1)
            cosignature = self.cosigner.cosign(note.text, now)
            served = note.with_signatures([cosignature]).format()
            step.store(checkpoint.size, checkpoint.root, served, now)
        return Answer(200, cosignature.line())

    def checkpoint(self, hashed: str) -> Answer:
        """The answer to GET <origin hash>/checkpoint: the latest cosigned checkpoint."""
        latest = self.state.by_hash(hashed)
        if latest is None:
            return Answer(404, "this witness has cosigned no checkpoint of that log\n")
        return Answer(200, latest.checkpoint)
