"""The one local server: precompressed static files, cache headers, the endpoint beside them."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import brotli
import pytest
from starlette.testclient import TestClient

from web.devserver import create_app


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
    assert {g["id"] for g in games.json()["games"]} == {"lab-riches", "power-puck-shot"}
    assert missing.status_code == 404
