"""A play's proof of logging (c2sp.org/tlog-proof@v1): the record's index in the log, its
inclusion proof, and the checkpoint (with witnesses' cosignatures) the proof leads to.

    c2sp.org/tlog-proof@v1
    [extra <base64>]
    index <N>
    <base64 hash>          the inclusion proof, the leaf's sibling first
    ...
    <blank line>
    <the checkpoint, a signed note>

Here `extra` is the logged record itself (its bytes), so the file alone rebuilds the leaf.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass

from engine.tlog.tree import HASH_SIZE

HEADER = "c2sp.org/tlog-proof@v1"


class TlogProofError(ValueError):
    """A proof file that is not a tlog-proof@v1."""


@dataclass(frozen=True)
class TlogProof:
    index: int
    hashes: tuple[bytes, ...]
    checkpoint: str  # the signed note, verbatim
    extra: bytes | None = None

    def format(self) -> str:
        lines = [HEADER]
        if self.extra is not None:
            lines.append("extra " + base64.b64encode(self.extra).decode())
        lines.append(f"index {self.index}")
        lines += [base64.b64encode(h).decode() for h in self.hashes]
        return "\n".join(lines) + "\n\n" + self.checkpoint

    @classmethod
    def parse(cls, text: str) -> TlogProof:
        head, sep, checkpoint = text.partition("\n\n")
        if not sep:
            raise TlogProofError("a tlog proof has no checkpoint")
        lines = head.split("\n")
        if lines[0] != HEADER:
            raise TlogProofError(f"a tlog proof must begin with {HEADER}")
        rest = lines[1:]
        extra = None
        try:
            if rest and rest[0].startswith("extra "):
                extra = base64.b64decode(rest.pop(0)[6:], validate=True)
            if not rest or not rest[0].startswith("index "):
                raise TlogProofError("a tlog proof has no index line")
            digits = rest.pop(0)[6:]
            if not digits.isdigit() or (digits != "0" and digits.startswith("0")):
                raise TlogProofError("a tlog proof's index is not a number")
            hashes = tuple(base64.b64decode(line, validate=True) for line in rest)
        except binascii.Error as e:
            raise TlogProofError("a tlog proof has a line that is not base64") from e
        if any(len(h) != HASH_SIZE for h in hashes) or len(hashes) > 63:
            raise TlogProofError("a tlog proof's inclusion proof is malformed")
        return cls(int(digits), hashes, checkpoint, extra)


def consistency_body(old: int, proof: Sequence[bytes], checkpoint: str) -> str:
    """A witness's add-checkpoint request (c2sp.org/tlog-witness): the old size, the
    consistency proof from it, a blank line and the checkpoint."""
    lines = [f"old {old}", *(base64.b64encode(h).decode() for h in proof)]
    return "\n".join(lines) + "\n\n" + checkpoint


def parse_consistency_body(text: str) -> tuple[int, list[bytes], str]:
    """(old size, consistency proof, checkpoint) from an add-checkpoint request."""
    head, sep, checkpoint = text.partition("\n\n")
    if not sep:
        raise TlogProofError("the request has no checkpoint")
    lines = head.split("\n")
    if not lines[0].startswith("old "):
        raise TlogProofError("the request has no old size line")
    digits = lines[0][4:]
    if not digits.isdigit() or (digits != "0" and digits.startswith("0")):
        raise TlogProofError("the old size is not a number")
    if len(lines) - 1 > 63:
        raise TlogProofError("more than 63 consistency proof lines")
    try:
        proof = [base64.b64decode(line, validate=True) for line in lines[1:]]
    except binascii.Error as e:
        raise TlogProofError("a consistency proof line is not base64") from e
    if any(len(h) != HASH_SIZE for h in proof):
        raise TlogProofError("a consistency proof line is not a SHA-256 hash")
    return int(digits), proof, checkpoint
