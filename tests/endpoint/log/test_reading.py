"""What the log's routes read (web/endpoint/log/reading.py): a play's proof leads to the newest
checkpoint covering its sale that the policy's quorum of witnesses cosigned, else to the newest
covering it; cosignatures are added to their checkpoint's row. The witness is a real one
(`build.py witness serve` in its own process) asked by the endpoint's real submitter
(web/endpoint/log/witnesses.py), as an operator's policy file names it; when it is down, sales
go on and checkpoints wait uncosigned."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi import FastAPI

from engine import games
from engine.tlog.note import open_checkpoint
from engine.tlog.proof import TlogProof
from tests.endpoint.conftest import sequencer_of
from tests.witness_log import new_witness_key, witness_server
from web.endpoint.http.services import Services
from web.endpoint.log.signer import LogSigner, verify

GAME = games.get("lab-riches")


def test_a_proof_leads_to_the_newest_checkpoint_meeting_the_quorum(
    make_app: Callable[..., FastAPI], tmp_path: Path
) -> None:
    private = Ed25519PrivateKey.generate()
    pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    log = LogSigner("lottery.invalid/log", private).key
    key_file, _ = new_witness_key(tmp_path, "witness.example/w1")
    with witness_server(key_file, "witness.example/w1", tmp_path / "state.db", [log]) as witness:
        policy = tmp_path / "policy"
        policy.write_text(f"log {log.vkey()}\nwitness w {witness.vkey} {witness.url}\nquorum w\n")
        app = make_app(log_key_pem=pem, log_policy_file=policy, log_interval_ms=3_600_000)
        services: Services = app.state.services
        services.pools.ensure(GAME.id)
        buyer = services.accounts.create(10 * GAME.price_pence)
        sell, sequencer = services.checkout.seller.sell, sequencer_of(services)

        def sequenced() -> int:
            """Sequence what is pending; the checkpoint's size, once the witness is asked."""
            [(size, _)] = sequencer.run()
            with sequencer._cosigning:  # (its thread asking the witnesses is done)
                return size

        first = sell(buyer, GAME, "a")["play_number"]
        sell(buyer, GAME, "b")
        assert sequenced() == 3  # the commitment and two sales, cosigned
        sell(buyer, GAME, "c")
        newer = sequenced()  # cosigned with a consistency proof from 3 to 4
        witness.process.terminate()  # the witness is down from now on
        witness.process.wait(timeout=20)
        began = time.monotonic()
        last = sell(buyer, GAME, "d")["play_number"]  # a sale does not wait for witnesses
        assert time.monotonic() - began < 2
        newest = sequenced()

    shown = services.log.play_proof(first, buyer.pk)
    assert shown is not None and shown["size"] == newer == 4
    proof = TlogProof.parse(shown["proof"])
    _, _, found = open_checkpoint(proof.checkpoint, log, verify, [witness.key])
    assert list(found) == [witness.key]  # cosigned by the real witness: the quorum met
    assert services.log.meets_quorum(proof.checkpoint)
    shown = services.log.play_proof(last, buyer.pk)
    assert shown is not None and shown["size"] == newest == 5  # only the newest covers it
    assert services.log.checkpoint() == TlogProof.parse(shown["proof"]).checkpoint
    assert not services.log.meets_quorum(TlogProof.parse(shown["proof"]).checkpoint)
