"""tools/witness/keys.py and `build.py witness new-key`: a new Ed25519 key in a 0600 PKCS#8 PEM
file never overwritten, its cosignature verifier key, cosignatures that verify."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ec import SECP256R1, generate_private_key

from engine.tlog.note import COSIGNATURE, Checkpoint, Key, Note, verified_by
from engine.tlog.tree import EMPTY_ROOT
from tests.witness_log import ROOT, new_witness_key
from tools.witness.keys import KeyFileError, load_key, new_key, verify


def test_a_new_key_is_a_0600_pem_that_loads_again(tmp_path: Path) -> None:
    made = new_key(tmp_path / "w.pem", "witness.test")
    assert stat.S_IMODE(os.stat(tmp_path / "w.pem").st_mode) == 0o600
    assert (tmp_path / "w.pem").read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    loaded = load_key(tmp_path / "w.pem", "witness.test")
    assert loaded.key == made.key and made.key.kind == COSIGNATURE
    assert Key.parse(made.key.vkey()) == made.key


def test_a_key_file_is_never_overwritten(tmp_path: Path) -> None:
    first = new_key(tmp_path / "w.pem", "witness.test")
    with pytest.raises(KeyFileError, match="never overwrites"):
        new_key(tmp_path / "w.pem", "witness.test")
    assert load_key(tmp_path / "w.pem", "witness.test").key == first.key


def test_only_an_ed25519_key_loads(tmp_path: Path) -> None:
    ec = generate_private_key(SECP256R1()).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    (tmp_path / "ec.pem").write_bytes(ec)
    (tmp_path / "junk.pem").write_bytes(b"not a key")
    for name in ("ec.pem", "junk.pem"):
        with pytest.raises(KeyFileError):
            load_key(tmp_path / name, "witness.test")


def test_a_cosignature_verifies_with_its_time(tmp_path: Path) -> None:
    cosigner = new_key(tmp_path / "w.pem", "witness.test")
    text = Checkpoint("example.test/log", 0, EMPTY_ROOT).text()
    note = Note(text, (cosigner.cosign(text, 1_800_000_000),))
    assert verified_by(note, [cosigner.key], verify) == {cosigner.key: 1_800_000_000}
    with pytest.raises(ValueError):
        cosigner.cosign(text, 0)  # tlog-witness: the time must not be zero


def test_the_command_prints_the_vkey_and_refuses_to_overwrite(tmp_path: Path) -> None:
    key_file, vkey = new_witness_key(tmp_path, "witness.test/w1")
    assert load_key(key_file, "witness.test/w1").key == Key.parse(vkey)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    again = [sys.executable, "-m", "tools", "witness", "new-key", "--name", "w", "--key"]
    done = subprocess.run(
        [*again, str(key_file)], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 1 and "never overwrites" in done.stderr
    bad = [sys.executable, "-m", "tools", "witness", "new-key", "--name", "a+b", "--key"]
    named = subprocess.run([*bad, str(tmp_path / "x")], cwd=ROOT, env=env, capture_output=True)
    assert named.returncode == 2 and not (tmp_path / "x").exists()
