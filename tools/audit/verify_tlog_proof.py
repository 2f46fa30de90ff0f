"""The log steps of `build.py verify --tlog-proof` (tools/commands/verify.py): a play's proof of
logging (c2sp.org/tlog-proof@v1, its `extra` the sale record) checked offline against a
tlog-policy the auditor trusts, and optionally against the pool's reveal and the play's entry.

  1 proof      the file is a tlog-proof@v1 carrying its record (`extra`)
  2 record     the record is a sale record (the log's canonical JSON), of play N if given
  3 log        the checkpoint is signed by a log of the policy
  4 witnesses  it is cosigned by a quorum of the policy's witnesses
  5 inclusion  the record's leaf hash, at `index`, leads by the inclusion proof to the
               checkpoint's root: the sale is in the log every witness saw
  6 play       (with the play's saved detail) the record is this play's: its number, pool,
               entry index, prize and leaf hash (computed from the entry, docs/math.md)
  7 pool       (with the pool's reveal) the revealed pool's leaf at the record's index is the
               record's leaf, and its prize the record's

The log's formats come from engine/tlog (pure); signatures from cryptography's Ed25519.
"""

from __future__ import annotations

import binascii
import hashlib
import json
from typing import Any

from engine.tlog import records, tree
from engine.tlog.note import Checkpoint, NoteError, open_checkpoint, parse_note
from engine.tlog.policy import Policy
from engine.tlog.proof import TlogProof, TlogProofError
from tools.audit.log import ed25519
from tools.audit.pool import CHUNK, decode_codes, outcome_hash, stream
from tools.audit.verify import Steps, leaf_hash


def check(
    text: str | None,
    policy: Policy,
    play: int | None = None,
    detail: dict[str, Any] | None = None,
    reveal: bytes | None = None,
    missing: str = "",
) -> Steps:
    """Every step in order, stopping at the first that fails; `missing` says why there is no
    proof when `text` is None."""
    steps = Steps()
    if text is None:
        steps.add(1, "proof", False, missing or "there is no proof of logging")
        return steps
    try:
        proof = TlogProof.parse(text)
        if proof.extra is None:
            raise TlogProofError("the proof carries no record (no extra line)")
    except TlogProofError as error:
        steps.add(1, "proof", False, str(error))
        return steps
    steps.add(
        1,
        "proof",
        True,
        f"a {len(proof.hashes)}-hash inclusion proof of log entry {proof.index:,}, with its record",
    )
    assert proof.extra is not None
    ok, why, record = check_record(proof.extra, play)
    if not steps.add(2, "record", ok, why):
        return steps
    ok, why, checkpoint, names = check_log(proof.checkpoint, policy)
    if not steps.add(3, "log", ok, why) or checkpoint is None:
        return steps
    quorum = policy.satisfied(names)
    who = ", ".join(names) or "no witness of the policy"
    if not steps.add(
        4,
        "witnesses",
        quorum,
        f"cosigned by {who}: "
        + (
            "the policy's quorum"
            if quorum
            else f"too few for the policy's quorum ({policy.quorum})"
        ),
    ):
        return steps
    try:
        tree.check_inclusion(
            proof.hashes, checkpoint.size, checkpoint.root, proof.index, tree.leaf_hash(proof.extra)
        )
    except tree.ProofError as error:
        steps.add(5, "inclusion", False, f"the record is not in the log: {error}")
        return steps
    steps.add(
        5,
        "inclusion",
        True,
        f"the record is entry {proof.index:,} of the log's "
        f"{checkpoint.size:,}, under root {checkpoint.root.hex()}",
    )
    if detail is not None and not steps.add(6, "play", *same_play(record, detail)):
        return steps
    if reveal is not None:
        steps.add(7, "pool", *in_pool(record, reveal))
    return steps


def check_record(extra: bytes, play: int | None) -> tuple[bool, str, dict[str, Any]]:
    """Step 2: a sale record, of play N when N is given."""
    try:
        record = records.decode(extra)
    except records.RecordError as error:
        return False, f"the proof's record is not one of the log's: {error}", {}
    if record["type"] != "sale":
        return False, f"the proof's record is a {record['type']}, not a sale", record
    if play is not None and record["play"] != play:
        return False, f"the record is of play {record['play']}, not play {play}", record
    return (
        True,
        (
            f"sale of play {record['play']}: index {record['index']} of pool {record['pool']}, "
            f"prize {record['prize_pence']}p, leaf {record['leaf']}"
        ),
        record,
    )


def check_log(text: str, policy: Policy) -> tuple[bool, str, Checkpoint | None, list[str]]:
    """Step 3: the checkpoint signed by a log of the policy; with the witnesses that cosigned."""
    try:
        origin = Checkpoint.parse(parse_note(text).text).origin
        keys = [key for key, _ in policy.logs if key.name == origin]
        if not keys:
            raise NoteError(f"the checkpoint is of log {origin!r}, which the policy does not list")
        checkpoint, _, found = open_checkpoint(text, keys[0], ed25519, policy.witness_keys())
    except NoteError as error:
        return False, str(error), None, []
    why = f"checkpoint {checkpoint.origin} of {checkpoint.size:,} entries, signed by its log key"
    return True, why, checkpoint, sorted(policy.names_of(found))


def same_play(record: dict[str, Any], detail: dict[str, Any]) -> tuple[bool, str]:
    """Step 6: the record names this play's entry (GET /api/plays/{N}, saved)."""
    entry, pool = detail.get("entry") or {}, detail.get("pool") or {}
    try:
        leaf = leaf_hash(entry).hex()
    except (KeyError, TypeError, ValueError) as error:
        return False, f"the play's entry cannot be read: {error!r}"
    want = {
        "play": detail.get("play_number"),
        "pool": pool.get("id"),
        "index": entry.get("index"),
        "prize_pence": entry.get("prize_pence"),
        "leaf": leaf,
    }
    wrong = [name for name, value in want.items() if record.get(name) != value]
    if wrong:
        return False, "the logged sale and the play's entry differ in: " + ", ".join(wrong)
    return True, f"the logged sale is play {want['play']}'s entry, leaf {leaf}"


def in_pool(record: dict[str, Any], document: bytes) -> tuple[bool, str]:
    """Step 7: the revealed pool holds the record's leaf and prize at its index."""
    try:
        reveal = json.loads(document)
        key, codes = bytes.fromhex(reveal["key"]), decode_codes(reveal["entries"])
        catalogue = [(int(i["prize_pence"]), i["composition"]) for i in reveal["catalogue"]]
        index = record["index"]
        if reveal.get("pool_id") != record["pool"]:
            return False, f"the reveal is of pool {reveal.get('pool_id')}, not {record['pool']}"
        if not 0 <= index < len(codes):
            return False, f"index {index} is outside the revealed pool of {len(codes):,}"
        prize, composition = catalogue[codes[index]]
        at = 32 * (index % CHUNK)
        seed_salt = stream(key, index // CHUNK)[at : at + 32]
        body = index.to_bytes(8, "big") + seed_salt + outcome_hash(prize, composition)
        leaf = hashlib.sha256(b"\x00" + body).digest()  # docs/math.md, "Leaf, tree, proof"
    except (KeyError, TypeError, ValueError, IndexError, binascii.Error) as error:
        return False, f"the reveal cannot be read: {error!r}"
    if leaf.hex() != record["leaf"]:
        return False, f"the revealed pool's leaf at index {index} is {leaf.hex()}, not the logged"
    if prize != record["prize_pence"]:
        return (
            False,
            f"the revealed entry's prize is {prize}p, not the logged {record['prize_pence']}p",
        )
    return True, f"the revealed pool's entry {index} has the logged leaf and prize {prize}p"
