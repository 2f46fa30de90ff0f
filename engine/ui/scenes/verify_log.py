"""VERIFY's steps in the public log (docs/log.md, "Checking a play"), after the pool's five:

6. In the public log: the proof's record (its `extra`) is this play's sale (play number, pool,
   index, leaf hash, prize) and its inclusion proof leads to the checkpoint's root.
7. Log signature: the checkpoint is signed by the log key the site's policy names.
8. Witnesses: it is cosigned by a quorum of the policy's witnesses.
9. Same history: it is consistent with the last checkpoint this browser saw (kept on the
   device); then the newer of the two is kept.

Python parses and decides; the shell only checks Ed25519 signatures (Python has none in the
browser). So the scene first asks for the signatures this checkpoint's note needs
(`signature_items`: the (key, message, signature) triples `verified_by` checks), the shell
answers each true or false (`check_signatures`), and steps 7 and 8 run `verified_by` again
with those answers (`found["checked"]`).
"""

from __future__ import annotations

import base64
from typing import Any

from engine.math.leaves import PoolEntry
from engine.money import format_pounds
from engine.tlog import records
from engine.tlog.note import Checkpoint, Note, NoteError, Verify, parse_note, verified_by
from engine.tlog.policy import Policy, PolicyError, parse
from engine.tlog.proof import TlogProof
from engine.tlog.tree import ProofError, check_consistency, check_inclusion, leaf_hash
from engine.ui.scenes.steps import Step

LOGGED, SIGNED, WITNESSED, HISTORY = (
    "In the public log",
    "Log signature",
    "Witnesses",
    "Same history",
)
NOT_YET = "This play is not yet in the public log: try again in a few seconds."
Triple = tuple[bytes, bytes, bytes]  # (public key, message, signature)
# A sale record's fields against this play's, and how a mismatch is said.
WORDS = {
    "type": "type",
    "play": "play number",
    "pool": "pool",
    "index": "entry",
    "leaf": "leaf hash",
    "prize_pence": "prize",
}


def _opened(found: dict[str, Any]) -> tuple[TlogProof, Note, Checkpoint]:
    """The play's tlog-proof, its checkpoint's note and the checkpoint (ValueError if any is
    malformed)."""
    proof = TlogProof.parse(str(found["detail"]["log"]["proof"]))
    note = parse_note(proof.checkpoint)
    return proof, note, Checkpoint.parse(note.text)


def _policy(found: dict[str, Any]) -> Policy | None:
    """The site's tlog-policy, None when the site publishes none (PolicyError if malformed)."""
    text = found.get("policy")
    return parse(text) if isinstance(text, str) and text else None


def _log_keys(policy: Policy, origin: str) -> list[Any]:
    return [key for key, _ in policy.logs if key.name == origin]


def signature_items(found: dict[str, Any]) -> list[Triple]:
    """The signatures the checkpoint's note carries by the policy's log and witnesses, as
    (key, message, signature) for the shell to check; none when there is nothing to check."""
    asked: list[Triple] = []

    def collect(public: bytes, message: bytes, signature: bytes) -> bool:
        asked.append((public, message, signature))
        return True

    try:
        _, note, checkpoint = _opened(found)
        policy = _policy(found)
        if policy is not None:
            verified_by(
                note, [*_log_keys(policy, checkpoint.origin), *policy.witness_keys()], collect
            )
    except (KeyError, TypeError, ValueError, AttributeError):
        pass  # the step that reads it says what is wrong
    return asked


def signature_request(items: list[Triple]) -> dict[str, Any]:
    """The shell's `check_signatures` request for these triples (base64)."""
    b64 = base64.b64encode
    return {
        "items": [
            {"key": b64(k).decode(), "message": b64(m).decode(), "signature": b64(s).decode()}
            for k, m, s in items
        ]
    }


def _answered(found: dict[str, Any]) -> Verify:
    """A Verify that reads the shell's answers (found["checked"]: triple -> bool)."""
    checked: dict[Triple, bool] = found.get("checked") or {}
    return lambda public, message, signature: checked.get((public, message, signature)) is True


def check_logged(found: dict[str, Any]) -> Step:
    """6. The proof's record is this play's sale and leads to the checkpoint's root."""
    detail = found["detail"]
    log = detail.get("log")
    if log is None:
        return Step(LOGGED, False, NOT_YET, waiting=True)
    proof, _, checkpoint = _opened(found)
    if proof.extra is None:
        return Step(LOGGED, False, "The proof does not carry the log's record of the sale.")
    try:
        record = records.decode(proof.extra)
    except records.RecordError:
        return Step(LOGGED, False, "The proof's record is not one of the public log's records.")
    entry = PoolEntry.from_json(detail["entry"])
    pool, play = str(detail["pool"]["id"]), int(detail["play_number"])
    wanted = {
        "type": "sale",
        "play": play,
        "pool": pool,
        "index": entry.index,
        "leaf": entry.leaf().hex(),
        "prize_pence": entry.prize_pence,
    }
    wrong = [WORDS[name] for name, value in wanted.items() if record.get(name) != value]
    if wrong:
        return Step(
            LOGGED,
            False,
            f"The log's record is not this play's sale: its "
            f"{', '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} "
            "not this play's.",
        )
    if proof.index != log["index"] or checkpoint.size != log["size"]:
        return Step(LOGGED, False, "The proof is not for the entry and checkpoint it is sent with.")
    try:
        check_inclusion(
            proof.hashes, checkpoint.size, checkpoint.root, proof.index, leaf_hash(proof.extra)
        )
    except ProofError:
        return Step(
            LOGGED,
            False,
            "The inclusion proof does not lead from the sale's record to the checkpoint's root.",
        )
    return Step(
        LOGGED,
        True,
        f"Entry {proof.index:,} of the public log is this play's sale (play {play}, entry "
        f"{entry.index} of pool {pool}, {format_pounds(entry.prize_pence)}); "
        f"{len(proof.hashes)} hashes lead from it to the root of the log's checkpoint at "
        f"{checkpoint.size:,} entries.",
    )


def check_log_key(found: dict[str, Any]) -> Step:
    """7. The checkpoint is signed by the log key the site's policy names."""
    _, note, checkpoint = _opened(found)
    try:
        policy = _policy(found)
    except PolicyError:
        return Step(SIGNED, False, "The site's log policy does not follow c2sp.org/tlog-policy.")
    if policy is None:
        return Step(
            SIGNED, False, "The site publishes no log policy saying whose key signs its public log."
        )
    origin = checkpoint.origin
    keys = _log_keys(policy, origin)
    if not keys:
        return Step(SIGNED, False, f"The site's log policy names no log called {origin}.")
    try:
        signed = verified_by(note, keys, _answered(found))
    except NoteError:
        return Step(
            SIGNED, False, f"The checkpoint's signature by the log key {origin} does not verify."
        )
    if not signed:
        return Step(
            SIGNED,
            False,
            f"The checkpoint is not signed by the log key {origin} the site's policy names.",
        )
    key = next(iter(signed))
    return Step(
        SIGNED,
        True,
        f"The checkpoint is signed by the log key {key.name} "
        f"({key.id.hex()}) the site's policy names.",
    )


def quorum_words(policy: Policy, name: str) -> str:
    """A quorum (a witness or a group) in words: "2 of w1, w2, w3"."""
    if name in policy.witnesses:
        return f"witness {name}"
    k, members = policy.groups[name]
    count = "all" if k == len(members) else "any" if k == 1 else str(k)
    inner = [m if m in policy.witnesses else f"({quorum_words(policy, m)})" for m in members]
    return f"{count} of {', '.join(inner)}"


def check_witnesses(found: dict[str, Any]) -> Step:
    """8. A quorum of the policy's witnesses cosigned the checkpoint."""
    _, note, _ = _opened(found)
    policy = _policy(found)
    assert policy is not None  # step 7 held
    try:
        cosigned = verified_by(note, policy.witness_keys(), _answered(found))
    except NoteError as error:
        return Step(WITNESSED, False, f"A witness's cosignature does not verify ({error}).")
    names = sorted(policy.names_of(cosigned))
    who = ", ".join(names)
    if policy.quorum == "none":
        also = f" {len(names)} of its witnesses cosigned it all the same: {who}." if names else ""
        return Step(
            WITNESSED,
            True,
            "The site's policy asks for no witness (quorum none): no "
            f"witness vouches for this checkpoint.{also}",
        )
    said = f"Cosigned by {len(names)} of the policy's {len(policy.witnesses)} witnesses"
    said += f" ({who})" if names else ""
    quorum = quorum_words(policy, policy.quorum)
    if policy.satisfied(names):
        return Step(WITNESSED, True, f"{said}: its quorum, {quorum}, holds.")
    return Step(WITNESSED, False, f"{said}: fewer than its quorum, {quorum}.")


def _seen(found: dict[str, Any]) -> Checkpoint | None:
    """The checkpoint this browser kept (a signed note), None if none or unreadable."""
    try:
        return Checkpoint.parse(parse_note(str(found["seen"])).text) if found.get("seen") else None
    except NoteError:
        return None


def check_history(found: dict[str, Any]) -> Step:
    """9. The checkpoint and the last one this browser saw are of one history."""
    _, _, now = _opened(found)
    seen = _seen(found)
    if seen is None or seen.origin != now.origin:
        return Step(
            HISTORY,
            True,
            "This is the first checkpoint of the public log this browser "
            "has seen: it is kept on this device to compare with the "
            "next.",
        )
    split = "the log shows different histories to different people (a split view)."
    if seen.size == now.size:
        if seen.root == now.root:
            return Step(
                HISTORY,
                True,
                f"It is the checkpoint at {now.size:,} entries this browser saw before.",
            )
        return Step(
            HISTORY,
            False,
            f"This browser saw a checkpoint at {now.size:,} entries "
            f"before with another root: {split}",
        )
    old, new = (seen, now) if seen.size < now.size else (now, seen)
    shown = found.get("consistency")
    if not shown:
        return Step(
            HISTORY,
            False,
            "The endpoint sent no proof that the log at "
            f"{new.size:,} entries extends the one at {old.size:,} "
            "(one of them this browser saw before).",
        )
    if shown["old"] != old.size or shown["new"] != new.size:
        return Step(
            HISTORY, False, "The endpoint's consistency proof is for other sizes of the log."
        )
    proof = [base64.b64decode(h, validate=True) for h in shown["proof"]]
    try:
        check_consistency(proof, new.size, new.root, old.size, old.root)
    except ProofError:
        return Step(
            HISTORY,
            False,
            f"The log at {new.size:,} entries does not extend the one at {old.size:,}: {split}",
        )
    if new is now:
        return Step(
            HISTORY,
            True,
            f"It extends the checkpoint at {old.size:,} entries this "
            "browser saw before, with the same history; it is kept on "
            "this device in its place.",
        )
    return Step(
        HISTORY,
        True,
        f"The checkpoint at {new.size:,} entries this browser saw "
        "before extends it, with the same history.",
    )


def to_keep(found: dict[str, Any]) -> dict[str, Any] | None:
    """What the shell keeps on the device once every step held (`keep_checkpoint`): this
    checkpoint when it is the first seen of its log or newer than the one kept, else None."""
    proof, _, now = _opened(found)
    seen = _seen(found)
    if seen is None or seen.origin != now.origin or seen.size < now.size:
        return {"size": now.size, "checkpoint": proof.checkpoint}
    return None
