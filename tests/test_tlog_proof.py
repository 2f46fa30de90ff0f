"""engine/tlog/proof.py: tlog-proof@v1 files and witnesses' add-checkpoint bodies, written and
read back, and malformed ones refused."""

from __future__ import annotations

import base64

import pytest

from engine.tlog.proof import (
    TlogProof,
    TlogProofError,
    consistency_body,
    parse_consistency_body,
)
from engine.tlog.tree import leaf_hash

CHECKPOINT = (
    "log.example\n2\n"
    + base64.b64encode(leaf_hash(b"r")).decode()
    + "\n\n\u2014 log.example AAAAAAAA\n"
)


def test_a_proof_round_trips() -> None:
    proof = TlogProof(5, (leaf_hash(b"a"), leaf_hash(b"b")), CHECKPOINT, b'{"type":"sale"}')
    text = proof.format()
    assert text.startswith("c2sp.org/tlog-proof@v1\nextra ")
    assert TlogProof.parse(text) == proof
    bare = TlogProof(0, (), CHECKPOINT)
    assert bare.format() == "c2sp.org/tlog-proof@v1\nindex 0\n\n" + CHECKPOINT
    assert TlogProof.parse(bare.format()) == bare


@pytest.mark.parametrize(
    "text",
    [
        "c2sp.org/tlog-proof@v2\nindex 0\n\n" + CHECKPOINT,
        "c2sp.org/tlog-proof@v1\n\n" + CHECKPOINT,
        "c2sp.org/tlog-proof@v1\nindex 01\n\n" + CHECKPOINT,
        "c2sp.org/tlog-proof@v1\nindex 1\nAAAA\n\n" + CHECKPOINT,
        "c2sp.org/tlog-proof@v1\nindex 1\n!!\n\n" + CHECKPOINT,
        "c2sp.org/tlog-proof@v1\nindex 1",
    ],
)
def test_malformed_proofs_are_refused(text: str) -> None:
    with pytest.raises(TlogProofError):
        TlogProof.parse(text)


def test_add_checkpoint_bodies() -> None:
    hashes = [leaf_hash(b"a"), leaf_hash(b"b")]
    body = consistency_body(7, hashes, CHECKPOINT)
    assert body.startswith("old 7\n")
    assert parse_consistency_body(body) == (7, hashes, CHECKPOINT)
    assert parse_consistency_body(consistency_body(0, [], CHECKPOINT)) == (0, [], CHECKPOINT)
    for bad in ("old x\n\n" + CHECKPOINT, "7\n\n" + CHECKPOINT, "old 7\nAAAA\n\n" + CHECKPOINT,
                "old 7\n" + "\n".join([base64.b64encode(hashes[0]).decode()] * 64) + "\n\n"
                + CHECKPOINT, "old 7"):  # fmt: skip
        with pytest.raises(TlogProofError):
            parse_consistency_body(bad)
