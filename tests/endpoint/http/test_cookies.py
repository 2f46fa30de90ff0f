"""The session cookie (web/endpoint/http/cookies.py): __Host- and Secure over HTTPS, the plain
cookie over HTTP (development, tests), and logging out clears whichever the browser holds.

Real app, real HTTP exchanges (httpx keeps and sends cookies as a browser would).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from web.endpoint.settings import Settings

NAME = "lottery_session"


def attributes(header: str) -> tuple[str, set[str]]:
    """A Set-Cookie header's cookie name and its attributes (lower-case, values kept)."""
    first, *rest = [part.strip() for part in header.split(";")]
    return first.split("=", 1)[0], {part.lower() for part in rest}


def test_over_https_the_cookie_is_host_prefixed_and_secure(app: FastAPI) -> None:
    browser = TestClient(app, base_url="https://games.example")
    made = browser.post("/api/session")
    name, attrs = attributes(made.headers["set-cookie"])
    assert name == f"__Host-{NAME}"
    assert {"secure", "httponly", "path=/", "samesite=lax"} <= attrs
    assert not any(a.startswith("domain") for a in attrs)
    assert browser.get("/api/wallet").status_code == 200  # sent back over HTTPS
    out = browser.post("/api/session/logout")
    cleared = out.headers.get_list("set-cookie")
    assert any(c.startswith(f'__Host-{NAME}=""') and "Max-Age=0" in c for c in cleared)
    assert browser.get("/api/wallet").status_code == 401


def test_over_plain_http_the_cookie_stays_usable(app: FastAPI) -> None:
    """http://127.0.0.1 in development: a Secure cookie would never come back."""
    browser = TestClient(app, base_url="http://127.0.0.1:8000")
    name, attrs = attributes(browser.post("/api/session").headers["set-cookie"])
    assert name == NAME and "path=/api" in attrs and "secure" not in attrs
    assert browser.get("/api/wallet").status_code == 200


def test_secure_can_be_forced_on(make_app: Callable[..., FastAPI]) -> None:
    app = make_app(cookie_secure=True)
    name, attrs = attributes(TestClient(app).post("/api/session").headers["set-cookie"])
    assert name == f"__Host-{NAME}" and "secure" in attrs and "path=/" in attrs


def test_a_cookie_from_before_the_prefix_still_signs_in_over_https(app: FastAPI) -> None:
    token = TestClient(app).post("/api/session").json()["token"]
    upgraded = TestClient(app, base_url="https://games.example", cookies={NAME: token})
    assert upgraded.get("/api/wallet").status_code == 200


@pytest.mark.parametrize(("raw", "value"), [("", None), ("auto", None), ("1", True), ("0", False)])
def test_cookie_secure_is_auto_unless_set(raw: str, value: bool | None) -> None:
    assert Settings.from_env({"LOTTERY_COOKIE_SECURE": raw}).cookie_secure is value
    with pytest.raises(ValueError, match="auto, 1 or 0"):
        Settings.from_env({"LOTTERY_COOKIE_SECURE": "maybe"})
