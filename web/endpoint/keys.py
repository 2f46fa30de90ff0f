"""Ed25519 signing keys: loading from configuration, the development key, JWK publication."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

DEV_KEY_NAME = "signing-key.pem"


def b64url(data: bytes) -> str:
    """Base64url without padding (RFC 7515)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


B64URL = re.compile(r"[A-Za-z0-9_-]*")


def b64url_decode(text: str) -> bytes:
    """Decode canonical base64url without padding (RFC 7515); ValueError for anything else:
    another alphabet ('+', '/', non-ASCII), padding, a length no encoding has, or unused bits
    that are not zero (so each byte string has exactly one accepted text)."""
    if not isinstance(text, str) or not B64URL.fullmatch(text) or len(text) % 4 == 1:
        raise ValueError("not base64url")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if b64url(data) != text:
        raise ValueError("not canonical base64url")
    return data


def raw_public(key: Ed25519PublicKey) -> bytes:
    """The 32 raw bytes of a public key."""
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(key: Ed25519PublicKey) -> str:
    """The RFC 7638 JWK thumbprint of the public key (base64url SHA-256)."""
    canonical = json.dumps(
        {"crv": "Ed25519", "kty": "OKP", "x": b64url(raw_public(key))},
        separators=(",", ":"),
        sort_keys=True,
    )
    return b64url(hashlib.sha256(canonical.encode()).digest())


def jwk(key: Ed25519PublicKey) -> dict[str, str]:
    """The public JWK of a key, as served at /api/keys."""
    return {
        "kty": "OKP",
        "crv": "Ed25519",
        "kid": key_id(key),
        "x": b64url(raw_public(key)),
        "alg": "EdDSA",
        "use": "sig",
    }


def write_secret_once(path: Path, data: bytes) -> None:
    """Create a private (0600) file unless it exists; concurrent first runs keep one winner."""
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    with contextlib.suppress(FileExistsError):
        os.link(temp, path)  # atomic: fails if another process got there first
    temp.unlink()


def _load_pem(data: bytes, origin: str) -> Ed25519PrivateKey | Ed25519PublicKey:
    try:
        if b"PRIVATE" in data:
            private = serialization.load_pem_private_key(data, password=None)
            if isinstance(private, Ed25519PrivateKey):
                return private
        else:
            public = serialization.load_pem_public_key(data)
            if isinstance(public, Ed25519PublicKey):
                return public
    except ValueError as error:
        raise ValueError(f"{origin}: not a readable PEM key ({error})") from None
    raise ValueError(f"{origin}: not an Ed25519 key")


@dataclass(frozen=True)
class KeyRing:
    """The active signing key and every public key a token may still be checked against."""

    signing: Ed25519PrivateKey
    kid: str
    public: dict[str, Ed25519PublicKey]

    def jwks(self) -> dict[str, list[dict[str, str]]]:
        """The JWK set: the active key first, then retired keys still accepted."""
        ordered = [self.kid, *sorted(k for k in self.public if k != self.kid)]
        return {"keys": [jwk(self.public[k]) for k in ordered]}

    @classmethod
    def of(cls, signing: Ed25519PrivateKey, retired: list[Ed25519PublicKey] = []) -> KeyRing:  # noqa: B006
        """A key ring signing with `signing` and also accepting the retired public keys."""
        public = {key_id(k): k for k in retired}
        kid = key_id(signing.public_key())
        public[kid] = signing.public_key()
        return cls(signing, kid, public)


def _retired(directory: Path | None) -> list[Ed25519PublicKey]:
    if directory is None or not directory.is_dir():
        return []
    keys = []
    for path in sorted(directory.glob("*.pem")):
        key = _load_pem(path.read_bytes(), str(path))
        keys.append(key.public_key() if isinstance(key, Ed25519PrivateKey) else key)
    return keys


def load_keyring(
    var_dir: Path, key_file: Path | None, key_pem: str, retired_dir: Path | None
) -> KeyRing:
    """The key ring from configuration; a development key is created under var/ if none is set."""
    key = load_private_key(var_dir / DEV_KEY_NAME, key_file, key_pem, "LOTTERY_SIGNING_KEY")
    return KeyRing.of(key, _retired(retired_dir))


def load_private_key(
    dev_path: Path, key_file: Path | None, key_pem: str, setting: str
) -> Ed25519PrivateKey:
    """An Ed25519 private key from its setting's PEM text, else its file, else a development
    key created once at `dev_path` (one host only). The signing key's and the log key's."""
    if key_pem:
        origin, data = setting, key_pem.encode()
    elif key_file is not None:
        origin, data = str(key_file), key_file.read_bytes()
    else:
        if not dev_path.exists():
            pem = Ed25519PrivateKey.generate().private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
            write_secret_once(dev_path, pem)
        origin, data = str(dev_path), dev_path.read_bytes()
    key = _load_pem(data, origin)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{origin}: the key must be an Ed25519 private key")
    return key
