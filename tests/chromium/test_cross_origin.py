"""The static site and the endpoint on two origins, with the site cross-origin isolated.

The site is served with `Cross-Origin-Embedder-Policy: require-corp`; its calls to an endpoint
on another origin are CORS requests, which need the endpoint's CORS answer
(`Access-Control-Allow-Origin: <the site>`, `Access-Control-Allow-Credentials: true`) and no
`Cross-Origin-Resource-Policy`. The page's `connect-src` names the endpoint's origin.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.chromium.conftest import Watch
from tests.chromium.test_lab_riches import DESKTOP
from tests.endpoint.conftest import serve
from tools.build.localserver import free_port, local_server
from web.devserver import create_app


async def no_api(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The static host has no endpoint: anything but a file is a 404."""
    await send({"type": "http.response.start", "status": 404, "headers": []})
    await send({"type": "http.response.body", "body": b""})


@pytest.fixture(scope="module")
def two_origins(dist_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    """[site, endpoint]: dist/ pointing at the endpoint (as `build.py dist --api-url` makes
    it), served alone on one origin; the endpoint (CORS for the site) on another."""
    port = free_port()
    site = f"http://127.0.0.1:{port}"
    with local_server(dist_dir, env={"LOTTERY_CORS_ORIGINS": site}) as endpoint:
        static = tmp_path_factory.mktemp("static") / "dist"
        shutil.copytree(dist_dir, static)
        html = (static / "index.html").read_text()
        assert '"api":""' in html
        (static / "index.html").write_text(html.replace('"api":""', f'"api":"{endpoint}"'))
        for kind in ("br", "gz"):
            (static / f"index.html.{kind}").unlink()
        with serve(create_app(static, api=no_api), port):
            yield [site, endpoint]


def test_a_play_against_an_endpoint_on_another_origin(
    browser: Browser, two_origins: list[str]
) -> None:
    site, endpoint = two_origins
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page, site)
    api: list[dict[str, str]] = []
    page.on("response", lambda r: api.append(r.headers) if r.url.startswith(endpoint) else None)
    response = page.goto(site + "/?game=lab-riches&fast=1")
    assert response is not None
    assert f"connect-src 'self' {endpoint};" in response.headers["content-security-policy"]
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    expect(page.locator("#log")).to_contain_text("Balance £")
    page.get_by_role("button", name="PLAY", exact=True).click()
    expect(page.get_by_role("button", name="GO", exact=True)).to_be_visible(timeout=60_000)
    expect(page.locator("#log")).to_contain_text("Main game.")
    assert page.evaluate("window.crossOriginIsolated") is True
    assert len(api) >= 4  # session, unfinished plays, the purchase, the keys
    for headers in api:
        assert headers["access-control-allow-origin"] == site
        assert headers["access-control-allow-credentials"] == "true"
        assert "cross-origin-resource-policy" not in headers
    assert watch.errors == [] and watch.violations == []
    assert watch.foreign and all(url.startswith(endpoint + "/api/") for url in watch.foreign)
    context.close()
