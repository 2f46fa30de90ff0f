"""Signing keys: the development key, keys from configuration, retired keys still published."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from web.endpoint.keys import DEV_KEY_NAME, key_id, load_keyring


def pem(key: Ed25519PrivateKey) -> bytes:
    """A private key as unencrypted PKCS#8 PEM."""
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def test_a_development_key_is_made_once_and_kept_private(tmp_path: Path) -> None:
    first = load_keyring(tmp_path, None, "", None)
    second = load_keyring(tmp_path, None, "", None)
    assert first.kid == second.kid
    mode = (tmp_path / DEV_KEY_NAME).stat().st_mode
    assert stat.S_IMODE(mode) == 0o600


def test_keys_from_a_file_or_the_environment(tmp_path: Path) -> None:
    key = Ed25519PrivateKey.generate()
    path = tmp_path / "prod.pem"
    path.write_bytes(pem(key))
    assert load_keyring(tmp_path, path, "", None).kid == key_id(key.public_key())
    assert load_keyring(tmp_path, None, pem(key).decode(), None).kid == key_id(key.public_key())
    assert not (tmp_path / DEV_KEY_NAME).exists()


def test_retired_keys_are_published_after_the_active_one(tmp_path: Path) -> None:
    old, new = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    retired = tmp_path / "retired"
    retired.mkdir()
    (retired / "2026-01.pem").write_bytes(
        old.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    ring = load_keyring(tmp_path, None, pem(new).decode(), retired)
    kids = [k["kid"] for k in ring.jwks()["keys"]]
    assert kids == [key_id(new.public_key()), key_id(old.public_key())]


def test_a_key_of_another_kind_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="LOTTERY_SIGNING_KEY"):
        load_keyring(tmp_path, None, "-----BEGIN PRIVATE KEY-----\nxx\n", None)
