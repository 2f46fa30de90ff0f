"""What the log's routes read (web/endpoint/log/reading.py): a play's proof leads to the newest
checkpoint covering its sale that the policy's quorum of witnesses cosigned, else to the newest
covering it; cosignatures are added to their checkpoint's row."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi import FastAPI

from engine import games
from engine.tlog.note import COSIGNATURE, Key, Signature, cosigned_message, open_checkpoint
from engine.tlog.proof import TlogProof
from engine.tlog.tree import check_consistency
from web.endpoint.http.services import Services
from web.endpoint.keys import raw_public
from web.endpoint.log.signer import LogSigner, verify

GAME = games.get("lab-riches")


class Witness:
    """A witness's cosigning, with its own Ed25519 key (what web/endpoint/log/witnesses.py
    gets back from a witness): it checks the consistency proof it is given from the size it
    cosigned last."""

    def __init__(self, log: Key) -> None:
        self.private = Ed25519PrivateKey.generate()
        self.key = Key("witness.example", COSIGNATURE, raw_public(self.private.public_key()))
        self.log = log
        self.last: tuple[int, bytes] = (0, b"")

    def cosign(self, note: str, size: int, prove: Callable[[int], list[bytes]]) -> list[Signature]:
        checkpoint, _, _ = open_checkpoint(note, self.log, verify)
        if self.last[0]:
            check_consistency(prove(self.last[0]), size, checkpoint.root, *self.last)
        self.last = (size, checkpoint.root)
        time = 1_700_000_000
        signed = self.private.sign(cosigned_message(checkpoint.text(), time))
        return [Signature(self.key.name, self.key.id, time.to_bytes(8, "big") + signed)]


def test_a_proof_leads_to_the_newest_checkpoint_meeting_the_quorum(
    make_app: Callable[..., FastAPI], tmp_path: Path
) -> None:
    private = Ed25519PrivateKey.generate()
    pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    log = LogSigner("lottery.invalid/log", private).key
    witness = Witness(log)
    policy = tmp_path / "policy"
    policy.write_text(f"log {log.vkey()}\nwitness w {witness.key.vkey()}\nquorum w\n")
    app = make_app(log_key_pem=pem, log_policy_file=policy, log_interval_ms=3_600_000)
    services: Services = app.state.services
    services.pools.ensure(GAME.id)
    buyer = services.accounts.create(10 * GAME.price_pence)
    sell, sequencer = services.checkout.seller.sell, services.sequencer
    sequencer.cosign = witness.cosign  # (the witnesses' submitter, web/endpoint/log/witnesses.py)

    def sequenced() -> int:
        """Sequence what is pending; the checkpoint's size, once the witness has answered."""
        [(size, _)] = sequencer.run()
        with sequencer._cosigning:  # (its thread asking the witnesses is done)
            return size

    first = sell(buyer, GAME, "a")["play_number"]
    sell(buyer, GAME, "b")
    assert sequenced() == 3  # the commitment and two sales, cosigned
    sell(buyer, GAME, "c")
    newer = sequenced()  # cosigned with a consistency proof from 3 to 4
    sequencer.cosign = None  # the witness is down from now on
    last = sell(buyer, GAME, "d")["play_number"]
    newest = sequenced()

    shown = services.log.play_proof(first, buyer.pk)
    assert shown is not None and shown["size"] == newer == 4
    proof = TlogProof.parse(shown["proof"])
    _, _, found = open_checkpoint(proof.checkpoint, log, verify, [witness.key])
    assert list(found) == [witness.key]  # cosigned: the quorum met
    shown = services.log.play_proof(last, buyer.pk)
    assert shown is not None and shown["size"] == newest == 5  # only the newest covers it
    assert services.log.checkpoint() == TlogProof.parse(shown["proof"]).checkpoint
    assert not services.log.meets_quorum(TlogProof.parse(shown["proof"]).checkpoint)
