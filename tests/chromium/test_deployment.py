"""The second deployment shape of docs/deployment.md, for real: dist/ built for an endpoint on
another origin, served by Debian's nginx with the docs' own server block, the endpoint alone
(`build.py endpoint`) on another port, and a browser that plays a Lab Riches play through the
pair (CORS, the session, the service worker) and finds it in the ledger.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.chromium.test_lab_riches import pence_of, play_through
from tools.build.dist import build
from tools.build.localserver import free_port
from tools.build.sources import ROOT

DOCS = ROOT / "docs" / "deployment.md"
BROTLI_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")


def docs_server_block() -> str:
    """The nginx server block docs/deployment.md gives operators, as written there."""
    found = re.search(r"```nginx\n(server \{.*?\n\})\n```", DOCS.read_text(encoding="utf-8"), re.S)
    assert found, "docs/deployment.md has no nginx server block"
    return found[1]


def nginx_or_skip() -> str:
    """The nginx binary with the brotli_static module (build.py test installs both as root)."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists() or not BROTLI_MODULE.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("nginx and libnginx-mod-http-brotli-static are missing in CI")
        pytest.skip("nginx with brotli_static is not installed (Debian: build.py test as root)")
    return nginx


def wait_for(url: str, seconds: float, accept: tuple[int, ...] = (200,)) -> None:
    """Poll url until it answers one of the accepted statuses."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status in accept:
                    return
        except OSError:
            pass
        assert time.monotonic() < deadline, f"{url} did not come up"
        time.sleep(0.25)


@contextmanager
def nginx_serving(dist: Path, port: int, work: Path) -> Iterator[str]:
    """nginx serving dist with the docs' server block on a loopback port."""
    block = docs_server_block()
    block = re.sub(r"listen \d+;", f"listen 127.0.0.1:{port};", block)
    block = block.replace("/srv/lottery/dist", str(dist))
    (work / "logs").mkdir(parents=True, exist_ok=True)
    headers = work / "security-headers.conf"  # as the docs have the operator write it
    printed = subprocess.run(
        [sys.executable, "-m", "tools", "headers", "--dist", str(dist), "--nginx"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    headers.write_text(printed.stdout)
    block = block.replace("/srv/lottery/security-headers.conf", str(headers))
    config = work / "nginx.conf"
    config.write_text(
        f"load_module {BROTLI_MODULE};\n"
        f"pid {work}/nginx.pid;\nerror_log {work}/logs/error.log;\n"
        "daemon off;\nevents {}\n"
        f"http {{\n access_log off;\n client_body_temp_path {work}/tmp;\n{block}\n}}\n"
    )
    proc = subprocess.Popen([nginx_or_skip(), "-c", str(config), "-p", str(work)])
    try:
        url = f"http://localhost:{port}"
        wait_for(url + "/", 20)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


@contextmanager
def endpoint_alone(port: int, var: Path, page_origin: str) -> Iterator[str]:
    """`build.py endpoint` (no static files) on a loopback port, allowing the page's origin."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "LOTTERY_VAR_DIR": str(var),
        "LOTTERY_LIMITS_REQUIRED": "0",  # (tests/endpoint/http/routes/test_sales.py is about it)
        "LOTTERY_CORS_ORIGINS": page_origin,
    }
    env.pop("DATABASE_URL", None)
    cmd = [sys.executable, "-m", "tools", "endpoint", "--port", str(port), "--log-level", "warning"]
    with (var / "endpoint.log").open("w") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            url = f"http://127.0.0.1:{port}"
            wait_for(url + "/api/health", 120)  # up, with its first pool committed
            yield url
        finally:
            proc.terminate()
            proc.wait(10)


def test_a_play_through_nginx_and_the_endpoint_on_another_origin(
    browser: Browser, tmp_path: Path
) -> None:
    nginx_or_skip()
    site_port, api_port = free_port(), free_port()
    page_origin = f"http://localhost:{site_port}"  # another site than 127.0.0.1: no shared cookie
    # A directory nginx's workers (www-data) can read, as on a real host; pytest's are 0700.
    dist = Path(tempfile.mkdtemp(prefix="lottery-site-")) / "dist"
    dist.parent.chmod(0o755)
    build(dist, api_url=f"http://127.0.0.1:{api_port}")
    (tmp_path / "var").mkdir(mode=0o700)
    with (
        endpoint_alone(api_port, tmp_path / "var", page_origin) as api,
        nginx_serving(dist, site_port, tmp_path / "nginx") as site,
    ):
        wasm = next(dist.glob("pyodide/*/pyodide.asm.wasm")).relative_to(dist)
        request = urllib.request.Request(f"{site}/{wasm}", headers={"Accept-Encoding": "br"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.headers["Content-Type"] == "application/wasm"
            assert answer.headers["Content-Encoding"] == "br"
            assert "immutable" in answer.headers["Cache-Control"]
        app = next(dist.glob("app.*.webmanifest")).name  # Debian's mime.types lacks it
        with urllib.request.urlopen(f"{site}/{app}", timeout=10) as answer:
            assert answer.headers["Content-Type"] == "application/manifest+json"

        context = browser.new_context(viewport={"width": 1280, "height": 720})
        page = context.new_page()
        failed: list[str] = []
        # A request the page's own navigations cut short (PLAY, the reload) is not the host's
        # failure: the throwaway worker importing the runtime whose code Chromium keeps
        # (js/runtime.js) may still be loading when the page leaves (net::ERR_ABORTED).
        page.on(
            "requestfailed",
            lambda r: (
                None if r.failure == "net::ERR_ABORTED" else failed.append(f"{r.url}: {r.failure}")
            ),
        )
        violations: list[str] = []
        page.on(
            "console", lambda m: violations.append(m.text) if "Content Security" in m.text else None
        )
        page.goto(site + "/?fast=1")  # the lobby, then the game it opens
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        page.get_by_role("button", name="PLAY Lab Riches").click()
        page.wait_for_url("**/?game=lab-riches&fast=1", timeout=30_000)
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        assert page.evaluate("() => window.crossOriginIsolated")  # the docs' headers, served
        expect(page.locator("#log")).to_contain_text("Balance £", timeout=30_000)
        page.get_by_role("button", name="PLAY", exact=True).click()
        expect(page.get_by_role("button", name="GO", exact=True)).to_be_enabled(timeout=60_000)
        play_through(page)
        narrated = pence_of(page.locator("#log").inner_text())
        page.get_by_role("button", name="FINISH", exact=True).click()
        expect(page.get_by_role("button", name="PLAY AGAIN", exact=True)).to_be_visible(
            timeout=30_000
        )
        # The ledger, asked as the page asks it (from its origin, with its credential).
        plays = page.evaluate(LEDGER, api)
        assert [(p["status"], p["prize_pence"]) for p in plays] == [("finished", narrated)]
        # The service worker took the page: a reload is served by it.
        page.reload()
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        assert page.evaluate("() => navigator.serviceWorker.controller !== null")
        assert failed == [] and violations == []
        context.close()
    shutil.rmtree(dist.parent, ignore_errors=True)


LEDGER = """async (api) => {
  const token = JSON.parse(localStorage.getItem('lottery.bearer') || 'null');
  const headers = token ? {Authorization: 'Bearer ' + token} : {};
  const answer = await fetch(api + '/api/plays', {credentials: 'include', headers});
  if (!answer.ok) throw new Error('GET /api/plays: ' + answer.status);
  return (await answer.json()).plays;
}"""
