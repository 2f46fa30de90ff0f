"""A witness's key: an Ed25519 private key in a PKCS#8 PEM file only its owner can read, named
by the witness's name, whose public half is a cosignature verifier key (c2sp.org/tlog-cosignature
v1, type 0x04), and the Ed25519 check every signed note of the witness goes through."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from engine.tlog.note import COSIGNATURE, Key, Signature, cosigned_message


class KeyFileError(ValueError):
    """A key file that exists already (new) or is no Ed25519 private key (load)."""


def verify(public: bytes, message: bytes, signature: bytes) -> bool:
    """Whether an Ed25519 signature over the message verifies under the public key."""
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass(frozen=True)
class Cosigner:
    """A witness's name and private key: it cosigns checkpoints at a given time."""

    name: str
    private: Ed25519PrivateKey

    @property
    def key(self) -> Key:
        """The witness's verifier key (the vkey a log's operator lists in its policy)."""
        raw = self.private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        return Key(self.name, COSIGNATURE, raw)

    def cosign(self, checkpoint: str, time: int) -> Signature:
        """The cosignature line's content for a checkpoint's text at a time (seconds, > 0)."""
        if time <= 0:
            raise ValueError("a cosignature's time must be after the epoch")
        signed = self.private.sign(cosigned_message(checkpoint, time))
        return Signature(self.name, self.key.id, time.to_bytes(8, "big") + signed)


def new_key(path: Path, name: str) -> Cosigner:
    """Make a key and write it to a new file of mode 0600 (KeyFileError if the file exists)."""
    private = Ed25519PrivateKey.generate()
    pem = private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError as e:
        raise KeyFileError(f"{path} exists: a witness never overwrites its key") from e
    with os.fdopen(fd, "wb") as out:
        out.write(pem)
        out.flush()
        os.fsync(out.fileno())
    return Cosigner(name, private)


def load_key(path: Path, name: str) -> Cosigner:
    """The witness's key from its PEM file (KeyFileError if it is no Ed25519 private key)."""
    try:
        private = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (ValueError, TypeError) as e:
        raise KeyFileError(f"{path} is not an unencrypted PKCS#8 PEM private key") from e
    if not isinstance(private, Ed25519PrivateKey):
        raise KeyFileError(f"{path} is not an Ed25519 key")
    return Cosigner(name, private)
