"""The log's key and policy (web/endpoint/log/signer.py): a checkpoint signed by the log key
under the origin, the key from LOTTERY_LOG_KEY (or a development key kept under var/), the
default policy, and a policy whose log line is another key refused at start."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.tlog import policy
from engine.tlog.note import Key, NoteError, open_checkpoint
from engine.tlog.tree import EMPTY_ROOT, leaf_hash
from web.endpoint.log.signer import LogSigner, load_policy, load_signer, verify
from web.endpoint.settings import Settings


def test_a_checkpoint_is_signed_by_the_log_key_under_its_origin() -> None:
    signer = LogSigner("example.com/log", Ed25519PrivateKey.generate())
    root = leaf_hash(b"x")
    checkpoint, _, _ = open_checkpoint(signer.sign(1, root), signer.key, verify)
    assert (checkpoint.origin, checkpoint.size, checkpoint.root) == ("example.com/log", 1, root)
    other = LogSigner("example.com/log", Ed25519PrivateKey.generate())
    with pytest.raises(NoteError):
        open_checkpoint(signer.sign(0, EMPTY_ROOT), other.key, verify)


def test_the_log_key_from_its_setting_else_one_kept_under_var(tmp_path: Path) -> None:
    private = Ed25519PrivateKey.generate()
    pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    env = {"LOTTERY_VAR_DIR": str(tmp_path), "LOTTERY_LOG_KEY": pem, "LOTTERY_LOG_ORIGIN": "a/b"}
    given = load_signer(Settings.from_env(env))
    assert given.key.public == LogSigner("a/b", private).key.public and given.origin == "a/b"
    made = load_signer(Settings(var_dir=tmp_path))
    assert load_signer(Settings(var_dir=tmp_path)).key == made.key  # kept, the same next time
    assert made.key != given.key and made.origin == "lottery.invalid/log"
    with pytest.raises(ValueError, match="LOTTERY_LOG_ORIGIN"):
        Settings(log_origin="two words")


def test_the_default_policy_is_the_log_key_and_no_quorum(tmp_path: Path) -> None:
    signer = load_signer(Settings(var_dir=tmp_path))
    parsed, text = load_policy(Settings(var_dir=tmp_path), signer.key)
    assert text == f"log {signer.key.vkey()}\nquorum none\n"
    assert parsed.logs == [(signer.key, None)] and parsed.satisfied([])


def test_a_policy_for_another_log_key_is_refused(tmp_path: Path) -> None:
    signer = load_signer(Settings(var_dir=tmp_path))
    stranger = LogSigner(signer.origin, Ed25519PrivateKey.generate()).key
    path = tmp_path / "policy"
    path.write_text(f"log {stranger.vkey()}\nquorum none\n")
    settings = dataclasses.replace(Settings(var_dir=tmp_path), log_policy_file=path)
    with pytest.raises(ValueError, match="must be this endpoint's log key"):
        load_policy(settings, signer.key)
    path.write_text(f"log {signer.key.vkey()}\n")  # no quorum line
    with pytest.raises(ValueError, match="quorum"):
        load_policy(settings, signer.key)
    witness = Key("w.example", 0x04, bytes(32))
    path.write_text(f"log {signer.key.vkey()}\nwitness w {witness.vkey()} http://w\nquorum w\n")
    parsed, _ = load_policy(settings, signer.key)
    assert parsed.witnesses["w"] == policy.Witness("w", witness, "http://w")
