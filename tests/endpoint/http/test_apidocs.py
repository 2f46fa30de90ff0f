"""/api/docs: Swagger UI from the pinned npm package, served from this origin under a CSP,
rendered by a real Chromium with nothing from another host."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from playwright.sync_api import Browser

from tests.endpoint.conftest import serve
from web.endpoint.http import apidocs

ROOT = Path(__file__).resolve().parents[3]
CSP_WATCH = """document.addEventListener("securitypolicyviolation", (e) => window.cspViolation(
  `${e.effectiveDirective} blocked ${e.blockedURI || "inline"}`));"""


def pinned_version() -> str:
    """swagger-ui-dist's version in package-lock.json."""
    lock = json.loads((ROOT / "package-lock.json").read_text())
    version: str = lock["packages"]["node_modules/swagger-ui-dist"]["version"]
    return version


def test_the_docs_page_takes_nothing_from_another_host_and_carries_a_csp(
    make_app: Callable[..., FastAPI],
) -> None:
    client = TestClient(make_app())
    answer = client.get("/api/docs")
    assert answer.status_code == 200
    policy = answer.headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    html = answer.text
    assert "//" not in html.replace("<!doctype html>", "")  # no URL of another host at all
    urls = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert urls and all(url.startswith("/api/docs/") or url == "data:," for url in urls), urls
    assert "<script>" not in html and "<style" not in html  # nothing inline: the CSP forbids it
    version = pinned_version()
    for name in apidocs.ASSETS:
        url = f"/api/docs/{version}/{name}"
        assert url in urls
        served = client.get(url)
        assert served.status_code == 200
        assert served.content == (ROOT / "node_modules" / "swagger-ui-dist" / name).read_bytes()
        assert "immutable" in served.headers["cache-control"]
    assert client.get(f"/api/docs/{version}/start.js").status_code == 200
    assert client.get(f"/api/docs/{version}/package.json").status_code == 404  # those only
    assert client.get(f"/api/docs/0.0.1/{apidocs.ASSETS[0]}").status_code == 404


def test_without_the_package_the_page_says_where_the_api_s_description_is(
    make_app: Callable[..., FastAPI], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(apidocs, "SWAGGER_UI", tmp_path)  # swagger-ui-dist not installed
    client = TestClient(make_app())
    missing = client.get("/api/docs")
    assert missing.status_code == 503
    error = missing.json()["error"]
    assert error["code"] == "docs_unavailable" and "/api/openapi.json" in error["message"]
    assert client.get("/api/openapi.json").status_code == 200


@pytest.mark.browser
def test_chromium_renders_the_docs_page_with_no_violation_and_no_other_host(
    make_app: Callable[..., FastAPI], browser: Browser
) -> None:
    violations: list[str] = []
    requests: list[str] = []
    with serve(make_app()) as url:
        page = browser.new_page()
        try:
            page.expose_function("cspViolation", lambda text: violations.append(text))
            page.add_init_script(CSP_WATCH)
            page.on("request", lambda r: requests.append(r.url))
            page.goto(f"{url}/api/docs")
            page.wait_for_selector(".opblock", timeout=30_000)
            session = page.locator(".opblock-summary-path", has_text=re.compile(r"^/api/session$"))
            assert session.count() == 1  # (not /api/session/logout...)
        finally:
            page.close()
    assert violations == []
    assert [r for r in requests if not r.startswith((url, "data:"))] == []
