"""Outcome tokens (JWS compact, EdDSA) and session credentials (HMAC-SHA256)."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import Any

from cryptography.exceptions import InvalidSignature

from web.endpoint.keys import KeyRing, b64url, b64url_decode

MAX_TOKEN_LENGTH = 8_192


class TokenError(ValueError):
    """A token or credential that is malformed, forged, expired or not for this caller."""


def sign(ring: KeyRing, payload: Mapping[str, Any]) -> str:
    """Sign a payload as a JWS compact serialization with the ring's active key."""
    header = {"alg": "EdDSA", "kid": ring.kid, "typ": "JWT"}
    head = b64url(json.dumps(header, separators=(",", ":")).encode())
    body = b64url(json.dumps(payload, separators=(",", ":"), sort_keys=True).encode())
    signing_input = f"{head}.{body}".encode("ascii")
    return f"{head}.{body}.{b64url(ring.signing.sign(signing_input))}"


def verify(ring: KeyRing, token: str) -> dict[str, Any]:
    """The payload of a token signed by one of the ring's keys; raises TokenError otherwise."""
    if not isinstance(token, str) or len(token) > MAX_TOKEN_LENGTH or token.count(".") != 2:
        raise TokenError("not a JWS compact token")
    head, body, signature = token.split(".")
    try:
        header = json.loads(b64url_decode(head))
        sig = b64url_decode(signature)
        b64url_decode(body)  # every segment canonical base64url (ASCII) before anything else
    except (ValueError, RecursionError):  # RecursionError: JSON nested deeper than the parser goes
        raise TokenError("malformed token") from None
    if not isinstance(header, dict) or header.get("alg") != "EdDSA":
        raise TokenError("token algorithm must be EdDSA")
    key = ring.public.get(str(header.get("kid")))
    if key is None:
        raise TokenError("token signed by an unknown key")
    try:
        key.verify(sig, f"{head}.{body}".encode("ascii"))
    except InvalidSignature:
        raise TokenError("bad token signature") from None
    try:
        payload = json.loads(b64url_decode(body))
    except (ValueError, RecursionError):
        raise TokenError("malformed token payload") from None
    if not isinstance(payload, dict):
        raise TokenError("token payload must be an object")
    return payload


def issue_session(secret: bytes, account: str, issued_at: int, nonce: str = "") -> str:
    """A session credential for an account: base64url(account:issued[:nonce]) . base64url(HMAC);
    the nonce makes each credential, and so its session (player/sessions.py), unique."""
    text = f"{account}:{issued_at}:{nonce}" if nonce else f"{account}:{issued_at}"
    body = b64url(text.encode())
    mac = hmac.new(secret, body.encode(), hashlib.sha256).digest()
    return f"{body}.{b64url(mac)}"


def read_session(secret: bytes, credential: str, now: float, ttl_seconds: int) -> tuple[str, int]:
    """The account a session credential names and when it was issued (epoch seconds); raises
    TokenError if forged or expired."""
    if not credential or len(credential) > 512 or credential.count(".") != 1:
        raise TokenError("malformed credential")
    body, mac = credential.split(".")
    expected = b64url(hmac.new(secret, body.encode(), hashlib.sha256).digest())
    if not hmac.compare_digest(expected, mac):
        raise TokenError("forged credential")
    try:
        account, issued, *nonce = b64url_decode(body).decode().split(":")
        issued_at = int(issued)
        if len(nonce) > 1:
            raise ValueError("too many parts")
    except ValueError:
        raise TokenError("malformed credential") from None
    if not issued_at <= now + 60 or now - issued_at > ttl_seconds:
        raise TokenError("expired credential")
    return account, issued_at
