"""http/routes/accounts.py: sessions, credentials and the wallet, end to end in process,
on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.endpoint.conftest import Clock, bearer, session


def test_session_creates_a_guest_with_the_demo_balance(client: TestClient) -> None:
    response = client.post("/api/session")
    assert response.status_code == 201
    body = response.json()
    assert body["balance_pence"] == 5_000
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    assert client.get("/api/wallet").json()["balance_pence"] == 5_000  # by cookie
    fresh = TestClient(client.app)
    assert fresh.get("/api/wallet", headers=bearer(body["token"])).json()["balance_pence"] == 5_000


def test_demo_balance_is_configurable(make_app: Callable[..., FastAPI]) -> None:
    client = TestClient(make_app(demo_balance_pence=1_234))
    assert session(client)["balance_pence"] == 1_234
    assert client.get("/api/wallet").json()["balance_pence"] == 1_234


def test_missing_forged_and_expired_credentials_are_401(client: TestClient, clock: Clock) -> None:
    token = session(client)["token"]
    bare = TestClient(client.app)
    assert bare.get("/api/wallet").status_code == 401
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    for credential in (forged, "nonsense", token + "x"):
        response = bare.get("/api/wallet", headers=bearer(credential))
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "unauthenticated"
    clock.advance(31 * 24 * 3600)
    assert bare.get("/api/wallet", headers=bearer(token)).status_code == 401


def test_a_credential_for_another_database_is_refused(
    make_app: Callable[..., FastAPI], tmp_path: Path
) -> None:
    first = TestClient(make_app())
    token = session(first)["token"]
    # same var/ (same session secret), a fresh database: account 1 there is someone else
    other = TestClient(make_app(database_url=f"sqlite:///{tmp_path / 'other.sqlite3'}"))
    session(other)
    assert other.get("/api/wallet", headers=bearer(token)).status_code == 401
    assert first.get("/api/wallet", headers=bearer(token)).status_code == 200
