"""engine/ui/scenes/verify.py (and verify_log.py, its steps in the public log): the steps of a
play's check as the lobby's VERIFY shows them. The log is built here with engine.tlog over real
sale records, its checkpoints signed and cosigned with `cryptography`, and the shell's signature
checks done as the page's shell does them (a real Ed25519 verify of each triple Python asks)."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from backends.canvas import BatchReader, CommandCanvas
from backends.layout import text_boxes
from engine.math import merkle
from engine.math.leaves import PoolEntry
from engine.outcome import Composition
from engine.tlog import note, records
from engine.tlog.note import COSIGNATURE, ED25519, Checkpoint, Key, Signature
from engine.tlog.proof import TlogProof
from engine.tlog.tree import appended, leaf_hash, prove_consistency, prove_inclusion, tree_hash
from engine.ui.app import App
from engine.ui.input import Activate, Reply
from engine.ui.scenes.lobby import LobbyScene
from engine.ui.scenes.verify import STEPS, Step, VerifyScene, run_steps
from engine.ui.scenes.verify_log import NOT_YET, signature_items
from tests.test_ui_remaining import overlapping
from tests.test_ui_scroll import lobby, measure

ORIGIN = "lottery.example/log"
POOL = "lab-riches-0001"
PLAY = 1_000_007


def test_a_step_whose_input_is_malformed_fails_under_its_own_name() -> None:
    # The token checked, but the endpoint's answer has no entry: the second step cannot run.
    steps = run_steps({"signature": {"ok": True, "kid": "k1"}, "payload": {}, "detail": {}})
    assert steps[0] == Step("Signature", True, "The token is signed by the endpoint's key k1.")
    assert steps[1:] == [
        Step("The play's entry", False, "What the endpoint sent for this step is malformed.")
    ]


# ---- a pool, a log of its sales, signed checkpoints ---------------------------------------


def ed25519(name: str, kind: int) -> tuple[Ed25519PrivateKey, Key]:
    private = Ed25519PrivateKey.generate()
    public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return private, Key(name, kind, public)


def shell_verify(public: bytes, message: bytes, signature: bytes) -> bool:
    """What the page's shell does for each item of `check_signatures` (WebCrypto's Ed25519)."""
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def entries() -> list[PoolEntry]:
    """A pool of four entries (real leaves and a real Merkle tree)."""
    prizes = [0, 500, 300, 0]
    return [
        PoolEntry(
            k,
            p,
            Composition.from_json([{"feature": "row", "pence": p}] if p else []),
            bytes([k]) * 16,
            bytes([k + 9]) * 16,
        )
        for k, p in enumerate(prizes)
    ]


@dataclass
class Log:
    """A public log: its records' leaves stored as the endpoint stores them, the log key and
    three witnesses (w1, w2, w3)."""

    stored: dict[tuple[int, int], bytes] = field(default_factory=dict)
    data: list[bytes] = field(default_factory=list)
    log: tuple[Ed25519PrivateKey, Key] = field(default_factory=lambda: ed25519(ORIGIN, ED25519))
    witnesses: dict[str, tuple[Ed25519PrivateKey, Key]] = field(
        default_factory=lambda: {
            n: ed25519(f"{n}.example", COSIGNATURE) for n in ("w1", "w2", "w3")
        }
    )

    def read(self, nodes: Any) -> list[bytes]:
        return [self.stored[n] for n in nodes]

    def append(self, record: dict[str, Any]) -> int:
        data = records.encode(record)
        n = len(self.data)
        self.stored.update(appended(n, leaf_hash(data), self.read))
        self.data.append(data)
        return n

    def checkpoint(
        self, size: int, cosigners: tuple[str, ...] = ("w1", "w2"), root: bytes | None = None
    ) -> str:
        """The signed note of the tree of `size` (its root, or another: a fork), cosigned."""
        text = Checkpoint(ORIGIN, size, root or tree_hash(size, self.read)).text()
        private, key = self.log
        signed = note.Note(text, (Signature(key.name, key.id, private.sign(text.encode())),))
        cosignatures = []
        for name in cosigners:
            w_private, w_key = self.witnesses[name]
            raw = w_private.sign(note.cosigned_message(text, 1_700_000_000))
            cosignatures.append(
                Signature(w_key.name, w_key.id, (1_700_000_000).to_bytes(8, "big") + raw)
            )
        return signed.with_signatures(cosignatures).format()

    def policy(self, quorum: str = "two") -> str:
        lines = [f"log {self.log[1].vkey()}"]
        lines += [f"witness {n} {k.vkey()}" for n, (_, k) in self.witnesses.items()]
        return "\n".join([*lines, "group two 2 w1 w2 w3", f"quorum {quorum}"]) + "\n"

    def consistency(self, old: int, new: int) -> dict[str, Any]:
        proof = prove_consistency(new, old, self.read)
        return {"old": old, "new": new, "proof": [base64.b64encode(h).decode() for h in proof]}


def sale(entry: PoolEntry, play: int = PLAY) -> dict[str, Any]:
    return records.sale(play, POOL, entry.index, entry.leaf().hex(), entry.prize_pence, 1_700_000)


def a_log(pool: list[PoolEntry]) -> tuple[Log, int]:
    """A log with the pool's commitment, two other sales, this play's sale (entry 1) and one
    after it; and the index of this play's sale."""
    log = Log()
    root = merkle.root_of([e.leaf() for e in pool], 2).hex()
    log.append(
        records.commitment("lab-riches", POOL, "paid", "m", 4, root, [[0, 2], [300, 1], [500, 1]])
    )
    log.append(sale(pool[0], PLAY - 1))
    index = log.append(sale(pool[1]))
    log.append(sale(pool[2], PLAY + 1))
    return log, index


def found_for(
    log: Log, index: int, pool: list[PoolEntry], size: int | None = None, **changes: Any
) -> dict[str, Any]:
    """What the shell's verify_play answers for the play of entry 1: the pool's proof and the
    token (steps 1 to 5 hold), and its log entry with a tlog-proof at the checkpoint of `size`."""
    size = size or len(log.data)
    entry = pool[1]
    tree = merkle.levels([e.leaf() for e in pool], 2)
    claims = {
        "index": 1,
        "prize_pence": entry.prize_pence,
        "seed": entry.seed.hex(),
        "composition": entry.composition.to_json(),
    }
    proof = TlogProof(
        index,
        tuple(prove_inclusion(size, index, log.read)),
        changes.pop("checkpoint", None) or log.checkpoint(size),
        changes.pop("extra", log.data[index]),
    )
    detail = {
        "play_number": PLAY,
        "game": "lab-riches",
        "pool": {"id": POOL, "root": tree[-1][0].hex(), "size": 4},
        "entry": entry.to_json(),
        "proof": [h.hex() for h in merkle.path(tree, 1)],
        "token": "t",
        "log": {"index": index, "size": size, "proof": proof.format()},
    }
    return {
        "detail": detail,
        "signature": {"ok": True, "kid": "k1"},
        "payload": claims,
        "published": {"root": tree[-1][0].hex(), "kind": "paid"},
        "policy": log.policy(),
        "seen": None,
        "consistency": None,
        **changes,
    }


def checked(found: dict[str, Any]) -> list[Step]:
    """The steps, each signature Python asks for checked as the shell checks it."""
    items = signature_items(found)
    return run_steps({**found, "checked": {t: shell_verify(*t) for t in items}})


def damaged(proof: TlogProof, signer: str) -> TlogProof:
    """The proof with one bit of `signer`'s signature on its checkpoint flipped."""
    opened = note.parse_note(proof.checkpoint)
    bad = [
        Signature(s.name, s.id, s.signature[:-1] + bytes([s.signature[-1] ^ 1]))
        if s.name == signer
        else s
        for s in opened.signatures
    ]
    checkpoint = note.Note(opened.text, tuple(bad)).format()
    return TlogProof(proof.index, proof.hashes, checkpoint, proof.extra)


def names(steps: list[Step]) -> list[str]:
    return [s.name for s in steps]


# ---- the nine steps -----------------------------------------------------------------------


def test_a_logged_signed_witnessed_play_passes_all_nine_steps_the_first_time() -> None:
    pool = entries()
    log, index = a_log(pool)
    steps = checked(found_for(log, index, pool))
    assert [s.ok for s in steps] == [True] * 9, steps
    assert names(steps)[5:] == ["In the public log", "Log signature", "Witnesses", "Same history"]
    assert (
        f"Entry {index:,} of the public log is this play's sale (play {PLAY}, entry 1"
        in steps[5].detail
    )
    assert "checkpoint at 4 entries" in steps[5].detail
    assert f"signed by the log key {ORIGIN}" in steps[6].detail
    assert steps[7].detail == (
        "Cosigned by 2 of the policy's 3 witnesses (w1, w2): its quorum, 2 of w1, w2, w3, holds."
    )
    assert "first checkpoint of the public log this browser has seen" in steps[8].detail


def test_a_play_not_yet_in_a_checkpoint_waits_and_fails_nothing() -> None:
    pool = entries()
    log, index = a_log(pool)
    found = found_for(log, index, pool)
    found["detail"]["log"] = None
    assert signature_items(found) == []
    steps = run_steps(found)
    assert [s.ok for s in steps[:5]] == [True] * 5
    assert steps[5] == Step("In the public log", False, NOT_YET, waiting=True)
    assert len(steps) == 6


@pytest.mark.parametrize(
    ("tamper", "step", "words"),
    [
        ("record", "In the public log", "its prize is not this play's"),
        ("other play", "In the public log", "its play number, entry, leaf hash, prize are not"),
        ("proof", "In the public log", "does not lead from the sale's record"),
        ("no record", "In the public log", "does not carry the log's record"),
        ("log signature", "Log signature", "does not verify"),
        ("another log key", "Log signature", "not signed by the log key"),
        ("witness signature", "Witnesses", "w1.example's signature does not verify"),
        ("quorum", "Witnesses", "Cosigned by 1 of the policy's 3 witnesses (w3): fewer than"),
    ],
)
def test_a_tampered_record_proof_signature_or_quorum_fails_at_its_step(
    tamper: str, step: str, words: str
) -> None:
    pool = entries()
    log, index = a_log(pool)
    found = found_for(log, index, pool)
    proof = TlogProof.parse(found["detail"]["log"]["proof"])
    if tamper == "record":  # the sale's prize changed after the checkpoint
        changed = {**records.decode(proof.extra or b""), "prize_pence": 50_000}
        proof = TlogProof(proof.index, proof.hashes, proof.checkpoint, records.encode(changed))
    elif tamper == "other play":  # another play's sale, with its own good proof
        other = found_for(log, index - 1, pool)
        proof = TlogProof.parse(other["detail"]["log"]["proof"])
    elif tamper == "proof":
        first = bytes([proof.hashes[0][0] ^ 1]) + proof.hashes[0][1:]
        proof = TlogProof(proof.index, (first, *proof.hashes[1:]), proof.checkpoint, proof.extra)
    elif tamper == "no record":
        proof = TlogProof(proof.index, proof.hashes, proof.checkpoint)
    elif tamper == "log signature":  # the log's own signature damaged
        proof = damaged(proof, ORIGIN)
    elif tamper == "another log key":  # the policy names a log key that did not sign it
        found["policy"] = found["policy"].replace(
            log.log[1].vkey(), ed25519(ORIGIN, ED25519)[1].vkey()
        )
    elif tamper == "witness signature":
        proof = damaged(proof, "w1.example")
    elif tamper == "quorum":
        found = found_for(log, index, pool, checkpoint=log.checkpoint(4, ("w3",)))
        proof = TlogProof.parse(found["detail"]["log"]["proof"])
    found["detail"]["log"]["proof"] = proof.format()
    steps = checked(found)
    assert [s.ok for s in steps[:-1]] == [True] * (len(steps) - 1)
    assert steps[-1].name == step and not steps[-1].ok and not steps[-1].waiting, steps[-1]
    assert words in steps[-1].detail, steps[-1].detail


def test_a_policy_of_quorum_none_says_no_witness_vouches() -> None:
    pool = entries()
    log, index = a_log(pool)
    found = found_for(log, index, pool, checkpoint=log.checkpoint(4, ()))
    found["policy"] = log.policy("none")
    steps = checked(found)
    assert [s.ok for s in steps] == [True] * 9
    assert steps[7].detail == (
        "The site's policy asks for no witness (quorum none): no witness vouches for this "
        "checkpoint."
    )


def test_without_the_shell_s_answers_no_signature_counts() -> None:
    pool = entries()
    log, index = a_log(pool)
    steps = run_steps(found_for(log, index, pool))  # nothing checked: every Verify says no
    assert steps[-1].name == "Log signature" and not steps[-1].ok


def test_a_newer_checkpoint_consistent_with_the_one_kept_passes_and_a_fork_fails() -> None:
    pool = entries()
    log, index = a_log(pool)
    seen = log.checkpoint(3)
    log.append(sale(pool[3], PLAY + 2))
    later = found_for(log, index, pool, seen=seen, consistency=log.consistency(3, 5))
    steps = checked(later)
    assert steps[-1].ok and "extends the checkpoint at 3 entries" in steps[-1].detail
    # the kept one is newer than the proof's: the consistency goes from the proof's to it
    older = found_for(
        log, index, pool, size=4, seen=log.checkpoint(5), consistency=log.consistency(4, 5)
    )
    assert checked(older)[-1].ok and "saw before extends it" in checked(older)[-1].detail
    # a fork: the browser kept a checkpoint of 3 entries with another root (a split view)
    fork = Log(log=log.log, witnesses=log.witnesses)
    for data in log.data[:2]:
        fork.append(records.decode(data))
    fork.append(sale(pool[2], PLAY + 9))
    forked = found_for(log, index, pool, seen=fork.checkpoint(3), consistency=log.consistency(3, 5))
    steps = checked(forked)
    assert steps[-1].name == "Same history" and not steps[-1].ok
    assert "does not extend the one at 3: the log shows different histories" in steps[-1].detail
    # two trees of one size
    same_size = found_for(log, index, pool, seen=fork.checkpoint(5, root=bytes(32)))
    assert "(a split view)" in checked(same_size)[-1].detail and not checked(same_size)[-1].ok
    # no proof sent
    assert not checked(found_for(log, index, pool, seen=seen))[-1].ok


# ---- the scene: the shell asked, the steps said and drawn ---------------------------------


def run_scene(
    found: dict[str, Any], size: tuple[int, int], later: dict[str, Any] | None = None
) -> tuple[App, VerifyScene, list[dict[str, Any]], list[str]]:
    """VERIFY of the play, the shell answering verify_play with `found` and check_signatures
    with real checks; every request the scene made, and what it said. With `later`, Check
    again is pressed and the shell answers it with `later`."""
    visit = lobby()
    LobbyScene(visit)
    visit.scene("my-games")  # which makes VERIFY
    scene = visit.scene("verify")
    assert isinstance(scene, VerifyScene)
    scene.play_number = PLAY  # as My Games' VERIFY sets it (check) before going there
    app = App(scene, *size)
    canvas = CommandCanvas(*size, measure)
    asked: list[dict[str, Any]] = []
    said: list[str] = []
    events: list[Any] = []
    for k in range(16):
        if k == 8 and later is not None:
            events.append(Activate("again"))
            found = later
        result = app.frame(k * 16.0, events, canvas)
        said += result.narration
        events = []
        for request in result.requests:
            asked.append(request)
            if request["op"] == "verify_play":
                events.append(Reply(request["id"], True, found))
            elif request["op"] == "check_signatures":
                fields = ("key", "message", "signature")
                items = [[base64.b64decode(i[f]) for f in fields] for i in request["items"]]
                ok = [shell_verify(*item) for item in items]
                events.append(Reply(request["id"], True, {"ok": ok}))
            else:
                events.append(Reply(request["id"], True, {}))
    return app, scene, asked, said


@pytest.mark.parametrize("size", [(1280, 720), (390, 844), (360, 640), (844, 390)])
def test_the_scene_asks_the_shell_to_check_signatures_then_keeps_the_checkpoint(
    size: tuple[int, int],
) -> None:
    pool = entries()
    log, index = a_log(pool)
    found = found_for(log, index, pool)
    _, scene, asked, said = run_scene(found, size)
    ops = [r["op"] for r in asked if r["op"] != "session"]
    assert ops == ["verify_play", "check_signatures", "keep_checkpoint"]
    assert len(next(r for r in asked if r["op"] == "check_signatures")["items"]) == 3
    kept = next(r for r in asked if r["op"] == "keep_checkpoint")
    assert (
        kept["size"] == 4
        and kept["checkpoint"] == TlogProof.parse(found["detail"]["log"]["proof"]).checkpoint
    )
    assert len(scene.steps) == len(STEPS) and all(s.ok for s in scene.steps)
    assert "Step 8, Witnesses: passed. Cosigned by 2 of the policy's 3 witnesses" in " ".join(said)
    assert said[-1].startswith("Every step passed: this paid play")
    # every step's title drawn on the screen, inside it from side to side
    canvas = CommandCanvas(*size, measure)
    scene.draw(canvas)
    texts = text_boxes(BatchReader().read(canvas.flush()), measure)
    assert overlapping(texts) == []
    for k, step in enumerate(scene.steps, 1):
        title = next(t for t in texts if t["text"] == f"✓ {k}. {step.name}")
        x, _, w, _ = title["box"]
        assert x >= 0 and x + w <= size[0]


def test_a_play_not_yet_logged_is_said_plainly_and_nothing_is_kept() -> None:
    pool = entries()
    log, index = a_log(pool)
    found = found_for(log, index, pool)
    found["detail"]["log"] = None
    _, scene, asked, said = run_scene(found, (390, 844))
    assert [r["op"] for r in asked if r["op"] != "session"] == ["verify_play"]
    assert f"Step 6, In the public log: not yet. {NOT_YET}" in said
    assert said[-1] == f"Steps 1 to 5 passed. {NOT_YET}"
    assert scene.steps[-1].waiting
    assert [c.label for c in scene.controls()] == ["Back to My Games", "Check again"]
    # a few seconds later a checkpoint covers it: Check again runs every step
    _, scene, asked, said = run_scene(found, (390, 844), later=found_for(log, index, pool))
    ops = [r["op"] for r in asked if r["op"] != "session"]
    assert ops == ["verify_play", "verify_play", "check_signatures", "keep_checkpoint"]
    assert said[-1].startswith("Every step passed") and len(scene.steps) == len(STEPS)
    assert [c.label for c in scene.controls()] == ["Back to My Games"]
