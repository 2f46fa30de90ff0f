"""Inputs an attacker sends: each gets a 4xx JSON error, never a 500 (issue: the endpoint under
attack). One regression test per input that once gave a plain-text 500."""

from __future__ import annotations

import base64
import json
import socket
from collections.abc import Callable

import httpx2
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.endpoint.conftest import Clock, bearer, buy, serve, session
from tools.commands.endpoint import proxy_options
from web.endpoint import tokens
from web.endpoint.http.protocol import JsonErrorsProtocol
from web.endpoint.keys import KeyRing, b64url, b64url_decode, key_id
from web.endpoint.pools.pools import POOL_STATUS_TTL
from web.endpoint.settings import Settings


def _error(response: object, status: int) -> str:
    """The error code of a JSON error answer with this status."""
    assert response.status_code == status, (response.status_code, response.text)  # type: ignore[attr-defined]
    body = response.json()  # type: ignore[attr-defined]
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    return str(body["error"]["code"])


@pytest.mark.parametrize(
    "body", [b'{"x": ' + b"1" * 5000 + b"}", b"[" * 5000 + b"]" * 5000], ids=("digits", "nesting")
)
def test_a_body_json_cannot_read_is_malformed_json_on_every_route(
    client: TestClient, body: bytes
) -> None:
    """A 5,000-digit number or 5,000-deep nesting: FastAPI's routes answered 400 http_error."""
    token = session(client)["token"]
    play = buy(client, token).json()["play_number"]
    json_type = {"Content-Type": "application/json"}
    routes = [
        ("POST", "/api/session", {}),
        ("PUT", "/api/limits", bearer(token)),
        ("PUT", f"/api/plays/{play}/progress", bearer(token)),
        ("POST", "/api/tokens/verify", bearer(token)),
        ("POST", "/api/try", {}),
        ("POST", "/api/plays", {**bearer(token), "Idempotency-Key": "digits"}),
        ("POST", f"/api/plays/{play}/finish", bearer(token)),
    ]
    for method, path, headers in routes:
        answer = client.request(method, path, content=body, headers={**headers, **json_type})
        assert _error(answer, 400) == "malformed_json", path


def test_a_deeply_nested_purchase_body_is_400(client: TestClient) -> None:
    auth = {**bearer(session(client)["token"]), "Idempotency-Key": "deep"}
    deep = "[" * 5000 + "]" * 5000
    response = client.post("/api/plays", content=deep, headers=auth)
    assert _error(response, 400) == "malformed_json"


@pytest.mark.parametrize("path", ["/api/plays/%C2%B2", "/api/plays/%D9%A3"])
def test_a_play_number_of_unicode_digits_is_404(client: TestClient, path: str) -> None:
    auth = bearer(session(client)["token"])
    assert _error(client.get(path, headers=auth), 404) == "play_not_found"
    assert _error(client.post(path + "/finish", headers=auth), 404) == "play_not_found"


@pytest.mark.parametrize("cursor", ["%C2%B2", "", "007", "9" * 11, "-1", "0x10"])
def test_a_cursor_that_no_page_gave_is_400(client: TestClient, cursor: str) -> None:
    auth = bearer(session(client)["token"])
    response = client.get(f"/api/plays?cursor={cursor}", headers=auth)
    assert _error(response, 400) == "invalid_cursor"


@pytest.mark.parametrize("cursor", ["2147483648", "9" * 10])
def test_a_cursor_past_every_play_id_is_the_first_page(client: TestClient, cursor: str) -> None:
    """Past the id columns' range (PostgreSQL's 32-bit INTEGER): no play is newer, and no
    overflow; the document's pattern allows ten digits."""
    token = session(client)["token"]
    assert buy(client, token).status_code == 201
    response = client.get(f"/api/plays?cursor={cursor}", headers=bearer(token))
    assert response.status_code == 200 and len(response.json()["plays"]) == 1


def test_a_cursor_the_endpoint_gave_still_pages(client: TestClient) -> None:
    token = session(client)["token"]
    for k in range(3):
        assert buy(client, token, key=f"k{k}").status_code == 201
    first = client.get("/api/plays?limit=2", headers=bearer(token)).json()
    rest = client.get(f"/api/plays?limit=2&cursor={first['next_cursor']}", headers=bearer(token))
    assert rest.status_code == 200 and len(rest.json()["plays"]) == 1


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def test_tokens_with_hostile_segments_are_refused_with_400(client: TestClient) -> None:
    token = session(client)["token"]
    bought = buy(client, token).json()["token"]
    head, body, signature = bought.split(".")
    hostile = [
        f"{head}.{body}é.{signature}",  # a non-ASCII payload segment
        f"{_b64(b'[' * 2000 + b']' * 2000)}.{body}.{signature}",  # a deeply nested header
        f"{head}.{_b64(b'[' * 2000 + b']' * 2000)}.{signature}",
        f"{head}.{body}.{signature}é",
        f"é.{body}.{signature}",
    ]
    for forged in hostile:
        response = client.post("/api/tokens/verify", json={"token": forged}, headers=bearer(token))
        assert _error(response, 400) == "token_invalid", forged[:40]


def _other_spelling(segment: str) -> str:
    """The same bytes spelled differently: the last character's unused low bits set."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    unused = {2: 4, 3: 2}[len(segment) % 4]  # bits of the last character that carry nothing
    last = alphabet.index(segment[-1])
    return segment[:-1] + alphabet[last | (1 << unused) - 1]


def test_the_verifier_itself_accepts_only_canonical_base64url() -> None:
    """Not only the stored-token comparison: tokens.verify refuses another spelling itself."""
    signing = Ed25519PrivateKey.generate()
    kid = key_id(signing.public_key())
    ring = KeyRing(signing, kid, {kid: signing.public_key()})
    token = tokens.sign(ring, {"play_number": 1})
    head, body, signature = token.split(".")
    assert tokens.verify(ring, token) == {"play_number": 1}
    respelled = [
        f"{head}.{body}.{_other_spelling(signature)}",
        f"{head}.{_other_spelling(body)}.{signature}" if len(body) % 4 else None,
        f"{head}.{body}.{signature.replace('-', '+').replace('_', '/')}",
        f"{head}.{body}.{signature}==",
        f"{head} .{body}.{signature}",
    ]
    for forged in filter(None, respelled):
        if forged != token:
            with pytest.raises(tokens.TokenError):
                tokens.verify(ring, forged)
    with pytest.raises(ValueError):
        b64url_decode(_other_spelling(b64url(b"\xff")))


def test_the_public_pool_status_is_cheap_cached_and_limited(
    make_app: Callable[..., FastAPI], clock: Clock
) -> None:
    client = TestClient(make_app(rate_per_second=1.0, rate_burst=5))
    token = session(client)["token"]
    first = client.get("/api/pools/lab-riches").json()
    assert first["sold"] == 0
    assert buy(client, token).status_code == 201
    assert client.get("/api/pools/lab-riches").json()["sold"] == 0  # served from the cache
    clock.advance(POOL_STATUS_TTL)
    assert client.get("/api/pools/lab-riches").json()["sold"] == 1  # the pool's own counter
    statuses = [client.get("/api/pools/lab-riches").status_code for _ in range(10)]
    assert 429 in statuses  # anonymous, so limited per address
    assert _error(client.get("/api/pools/lab-riches"), 429) == "rate_limited"


def test_a_cross_site_page_cannot_start_a_session(make_app: Callable[..., FastAPI]) -> None:
    client = TestClient(make_app(cors_origins=("https://play.example",)))
    evil = {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    assert (
        _error(client.post("/api/session", headers={**evil, **form}), 403) == "cross_site_refused"
    )
    assert "set-cookie" not in client.post("/api/session", headers=evil).headers
    no_origin = {"Sec-Fetch-Site": "cross-site"}
    assert _error(client.post("/api/session", headers=no_origin), 403) == "cross_site_refused"
    own = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    assert client.post("/api/session", headers=own).status_code == 201
    allowed = {"Origin": "https://play.example", "Sec-Fetch-Site": "cross-site"}
    assert client.post("/api/session", headers=allowed).status_code == 201  # the static host
    assert client.post("/api/session").status_code == 201  # not a browser: no such headers


@pytest.mark.parametrize(
    ("proxies", "limited"), [((), True), (("10.9.9.9",), True), (("127.0.0.1",), False)]
)
def test_forwarded_addresses_are_believed_only_from_configured_proxies(
    make_app: Callable[..., FastAPI], proxies: tuple[str, ...], limited: bool
) -> None:
    """A local client that sends a new X-Forwarded-For each time must not get a new bucket."""
    app = make_app(rate_per_second=0.001, rate_burst=2, trusted_proxies=proxies)
    options = proxy_options(Settings(trusted_proxies=proxies))
    with serve(app, **options) as url, httpx2.Client(base_url=url) as http:
        codes = [
            http.post("/api/session", headers={"X-Forwarded-For": f"203.0.113.{k}"}).status_code
            for k in range(4)
        ]
    assert (429 in codes) == limited, codes


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("DELETE", "/api/games", "GET, HEAD"),
        ("PUT", "/api/plays", "GET, HEAD, POST"),  # the sale route and My Games share the path
        ("GET", "/api/plays/1/finish", "POST"),
        ("PATCH", "/api/session", "POST"),
    ],
)
def test_405_says_which_methods_the_path_takes(
    client: TestClient, method: str, path: str, allow: str
) -> None:
    response = client.request(method, path)
    assert _error(response, 405) == "method_not_allowed"
    assert response.headers["allow"] == allow


@pytest.mark.parametrize("path", ["/api/games", "/api/keys", "/api/openapi.json", "/api/wallet"])
def test_head_answers_wherever_get_does(client: TestClient, path: str) -> None:
    token = session(client)["token"]
    got, head = client.get(path, headers=bearer(token)), client.head(path, headers=bearer(token))
    assert head.status_code == got.status_code == 200
    assert head.content == b"" and head.headers["content-length"] == got.headers["content-length"]
    assert head.headers["content-type"] == got.headers["content-type"]


def test_cors_refusals_and_413s_speak_json_with_cors_headers(
    make_app: Callable[..., FastAPI],
) -> None:
    client = TestClient(make_app(cors_origins=("https://play.example",), max_body_bytes=100))
    preflight = {"Access-Control-Request-Method": "POST"}
    refused = client.options("/api/plays", headers={"Origin": "https://evil.example", **preflight})
    assert _error(refused, 400) == "cors_refused"
    mine = {"Origin": "https://play.example"}
    allowed = client.options("/api/plays", headers={**mine, **preflight})
    assert allowed.status_code == 200
    too_big = client.post("/api/session", content=b"x" * 200, headers=mine)
    assert _error(too_big, 413) == "body_too_large"
    assert too_big.headers["access-control-allow-origin"] == "https://play.example"


def test_the_server_s_own_400_is_json(make_app: Callable[..., FastAPI]) -> None:
    """A request uvicorn cannot parse never reaches a route; its 400 is still the error shape."""
    with serve(make_app(), http=JsonErrorsProtocol) as url:
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as raw:
            raw.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
            answer = b""
            while chunk := raw.recv(65536):
                answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400") and b"content-type: application/json" in head
    assert json.loads(body)["error"]["code"] == "bad_http_request"
