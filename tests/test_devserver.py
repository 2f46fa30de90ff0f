"""The one local server: precompressed static files, cache headers, the endpoint beside them."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
from pathlib import Path
from urllib.parse import urljoin

import brotli
import pytest
from starlette.testclient import TestClient

from engine import games as registry
from tools.commands.headers import main as headers_main
from web.devserver import create_app, security_headers


@pytest.fixture()
def client(dist_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TestClient:
    monkeypatch.setenv("LOTTERY_VAR_DIR", str(tmp_path / "var"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return TestClient(create_app(dist_dir))


def shell_js(dist_dir: Path) -> str:
    return next(
        p.name for p in dist_dir.iterdir() if re.fullmatch(r"app\.[0-9a-f]{10}\.js", p.name)
    )


def test_precompressed_files_are_served_when_accepted(client: TestClient, dist_dir: Path) -> None:
    name = shell_js(dist_dir)
    original = (dist_dir / name).read_bytes()
    with client:
        br = client.get("/" + name, headers={"Accept-Encoding": "br, gzip"})
        gz = client.get("/" + name, headers={"Accept-Encoding": "gzip"})
        plain = client.get("/" + name, headers={"Accept-Encoding": "identity"})
    assert br.headers["content-encoding"] == "br"
    assert gz.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in plain.headers
    # httpx decodes transparently; the bytes on the wire were the precompressed copies.
    assert br.content == gz.content == plain.content == original
    assert int(br.headers["content-length"]) == len((dist_dir / (name + ".br")).read_bytes())
    assert brotli.decompress((dist_dir / (name + ".br")).read_bytes()) == original
    assert gzip.decompress((dist_dir / (name + ".gz")).read_bytes()) == original


def test_cache_headers(client: TestClient, dist_dir: Path) -> None:
    with client:
        hashed = client.get("/" + shell_js(dist_dir))
        wasm = client.get(
            "/pyodide/" + next((dist_dir / "pyodide").iterdir()).name + "/pyodide.asm.wasm"
        )
        index = client.get("/")
    assert "immutable" in hashed.headers["cache-control"]
    assert "immutable" in wasm.headers["cache-control"]
    assert wasm.headers["content-type"] == "application/wasm"
    assert "immutable" not in index.headers["cache-control"]
    assert "max-age=0" in index.headers["cache-control"]
    assert "<canvas" in index.text


def test_the_endpoint_answers_beside_the_site(client: TestClient) -> None:
    with client:
        games = client.get("/api/games")
        missing = client.get("/api/no-such-route")
    assert games.status_code == 200
    assert [g["id"] for g in games.json()["games"]] == list(registry.ids())
    assert missing.status_code == 404


SECURITY = {
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-embedder-policy": "require-corp",
    "cross-origin-resource-policy": "same-origin",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


def inline_hashes(html: str, tag: str) -> list[str]:
    """CSP source expressions for the inline <tag>s of a page that a browser applies."""
    found = []
    for attrs, text in re.findall(rf"<{tag}([^>]*)>(.*?)</{tag}>", html, re.S):
        if "src=" in attrs or "application/json" in attrs:
            continue
        digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
        found.append(f"'sha256-{digest}'")
    return found


def test_every_static_file_carries_the_security_headers(client: TestClient, dist_dir: Path) -> None:
    html = (dist_dir / "index.html").read_text()
    scripts = " ".join(inline_hashes(html, "script"))
    styles = " ".join(inline_hashes(html, "style"))
    csp = (
        f"default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {scripts}; "
        f"style-src 'self' {styles}; img-src 'self' data: blob:; font-src 'self'; "
        "connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'none'; frame-ancestors 'none'"
    )
    assert scripts and styles  # the nomodule notice; the critical CSS
    version = next((dist_dir / "pyodide").iterdir()).name
    with client:
        for path in ("/", "/" + shell_js(dist_dir), "/sw.js", f"/pyodide/{version}/pyodide.mjs"):
            headers = client.get(path, headers={"Accept-Encoding": "br"}).headers
            assert headers["content-security-policy"] == csp, path
            assert {k: headers.get(k) for k in SECURITY} == SECURITY, path
        api = client.get("/api/games").headers
    # The endpoint's answers are its own: the static files' policy is not stamped on them.
    assert "content-security-policy" not in api


def test_the_policy_names_an_api_on_another_origin(tmp_path: Path) -> None:
    config = json.dumps({"api": "https://api.example.com/v1"})
    page = (
        "<!doctype html><head><style>p{color:red}</style>"
        f'<script id="lottery-config" type="application/json">{config}</script></head>'
        '<body><script type="module" src="/app.js"></script></body>'
    )
    (tmp_path / "index.html").write_text(page)
    csp = security_headers(tmp_path)["Content-Security-Policy"]
    assert "connect-src 'self' https://api.example.com;" in csp
    assert "script-src 'self' 'wasm-unsafe-eval';" in csp  # no inline script: no hash
    assert f"style-src 'self' {inline_hashes(page, 'style')[0]};" in csp
    (tmp_path / "index.html").write_text(page.replace("https://api.example.com/v1", ""))
    assert "connect-src 'self';" in security_headers(tmp_path)["Content-Security-Policy"]


def test_the_headers_are_printed_for_a_static_host(
    dist_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert headers_main(["--dist", str(dist_dir)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"{k}: {v}" for k, v in security_headers(dist_dir).items()]
    assert lines[0].startswith("Content-Security-Policy: default-src 'self'; ")


def test_every_script_names_only_source_maps_that_are_served(
    client: TestClient, dist_dir: Path
) -> None:
    scripts = [p for p in dist_dir.rglob("*") if p.suffix in (".js", ".mjs")]
    assert scripts
    with client:
        for script in scripts:
            url = "/" + script.relative_to(dist_dir).as_posix()
            for name in re.findall(rb"//[#@] sourceMappingURL=(\S+)", script.read_bytes()):
                target = urljoin(url, name.decode())
                assert client.get(target).status_code == 200, f"{url} names {target}"
