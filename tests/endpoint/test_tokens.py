"""Outcome tokens and session credentials: standard JWS, and every tampering refused."""

from __future__ import annotations

import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from fastapi.testclient import TestClient

from engine.payload import Payload
from tests.endpoint.conftest import bearer, buy, session
from web.endpoint import tokens
from web.endpoint.keys import KeyRing, b64url, b64url_decode


def test_a_token_is_standard_jws_checkable_with_the_published_key(client: TestClient) -> None:
    me = session(client)
    play = buy(client, me["token"]).json()
    head, body, signature = play["token"].split(".")
    header = json.loads(b64url_decode(head))
    assert header == {"alg": "EdDSA", "kid": header["kid"], "typ": "JWT"}
    jwks = client.get("/api/keys").json()["keys"]
    key = next(k for k in jwks if k["kid"] == header["kid"])
    assert key["kty"] == "OKP" and key["crv"] == "Ed25519"
    public = Ed25519PublicKey.from_public_bytes(b64url_decode(key["x"]))
    public.verify(b64url_decode(signature), f"{head}.{body}".encode())  # raises if bad
    payload = json.loads(b64url_decode(body))
    detail = client.get(f"/api/plays/{play['play_number']}").json()
    assert payload["account"] == me["account"]
    assert payload["play_number"] == play["play_number"]
    assert payload["game"] == "lab-riches" and payload["model"] == detail["model"]
    assert payload["pool"] == detail["pool"]["id"]
    assert payload["index"] == detail["entry"]["index"]
    assert payload["prize_pence"] == detail["entry"]["prize_pence"]
    assert payload["composition"] == detail["entry"]["composition"]
    assert payload["seed"] == detail["entry"]["seed"] and len(payload["seed"]) == 32
    assert isinstance(payload["iat"], int)
    assert list(payload) == [  # the claims of docs/token.md, keys sorted
        "account", "composition", "game", "iat", "index",
        "model", "play_number", "pool", "prize_pence", "seed",
    ]  # fmt: skip
    assert Payload.from_json(payload).to_json() == payload  # the engine's codec reads it back
    assert body == b64url(json.dumps(payload, separators=(",", ":"), sort_keys=True).encode())
    verdict = client.post("/api/tokens/verify", json={"token": play["token"]}).json()
    assert verdict["valid"] is True and verdict["payload"] == payload


def flip(token: str, position: int) -> str:
    """The token with one character of it changed (still base64url)."""
    old = token[position]
    new = "A" if old != "A" else "B"
    return token[:position] + new + token[position + 1 :]


def test_one_changed_byte_is_refused(client: TestClient) -> None:
    token = buy(client, session(client)["token"]).json()["token"]
    head, body, _ = token.split(".")
    for position in (3, len(head) + 5, len(head) + len(body) + 4, len(token) - 3):
        response = client.post("/api/tokens/verify", json={"token": flip(token, position)})
        assert response.status_code == 400, position
        assert response.json()["error"]["code"] == "token_invalid"


def test_a_token_signed_by_another_key_is_refused(client: TestClient) -> None:
    token = buy(client, session(client)["token"]).json()["token"]
    head, body, _ = token.split(".")
    stranger = KeyRing.of(Ed25519PrivateKey.generate())
    payload = json.loads(b64url_decode(body))
    forged = tokens.sign(stranger, payload)
    assert client.post("/api/tokens/verify", json={"token": forged}).status_code == 400
    # same kid as ours, signed by the stranger: the signature check refuses it
    stolen_kid = f"{head}.{body}.{forged.split('.')[2]}"
    assert client.post("/api/tokens/verify", json={"token": stolen_kid}).status_code == 400
    with pytest.raises(tokens.TokenError):
        tokens.verify(stranger, token)


def test_a_token_for_another_account_is_refused(client: TestClient) -> None:
    token = buy(client, session(client)["token"]).json()["token"]
    other = TestClient(client.app)
    other_token = session(other)["token"]
    response = other.post("/api/tokens/verify", json={"token": token}, headers=bearer(other_token))
    assert response.status_code == 404
    assert client.post("/api/tokens/verify", json={"token": token}).status_code == 200


def test_algorithm_none_and_garbage_are_refused() -> None:
    ring = KeyRing.of(Ed25519PrivateKey.generate())
    good = tokens.sign(ring, {"play_number": 1})
    head, body, _ = good.split(".")
    none = b64url(json.dumps({"alg": "none", "kid": ring.kid}).encode())
    for bad in (f"{none}.{body}.", f"{head}.{body}", "a.b.c", "", f"{head}.{body}.!!"):
        with pytest.raises(tokens.TokenError):
            tokens.verify(ring, bad)
    assert tokens.verify(ring, good) == {"play_number": 1}


def test_session_credentials_are_signed_and_expire() -> None:
    secret = b"s" * 32
    credential = tokens.issue_session(secret, "7/abc", 1_000)
    assert tokens.read_session(secret, credential, 1_000 + 59, 60) == ("7/abc", 1_000)
    with pytest.raises(tokens.TokenError):
        tokens.read_session(secret, credential, 1_000 + 61, 60)
    with pytest.raises(tokens.TokenError):
        tokens.read_session(b"t" * 32, credential, 1_000, 60)
    forged_body = b64url(b"8/abc:1000")
    with pytest.raises(tokens.TokenError):
        tokens.read_session(secret, f"{forged_body}.{credential.split('.')[1]}", 1_000, 60)
