"""A closed pool's reveal as static files (web/endpoint/pools/reveal_files.py): written once,
precompressed, negotiated, and served (web/endpoint/http/reveal_serving.py)."""

from __future__ import annotations

import gzip
from collections.abc import Callable
from pathlib import Path

import brotli
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.endpoint.conftest import buy, session
from web.endpoint.pools import reveal

GAME = "lab-riches"


def closed_pool(app: FastAPI) -> str:
    """Buy a play of a fresh pool and retire that pool; its id."""
    client = TestClient(app)
    token = session(client)["token"]
    assert buy(client, token).status_code == 201
    return str(reveal.retire(app.state.services.pools, GAME)["pool_id"])


def test_a_reveal_is_written_once_precompressed_and_negotiated(
    make_app: Callable[..., FastAPI], pool_dir: Path
) -> None:
    app = make_app()
    pool_id = closed_pool(app)
    client = TestClient(app)
    url = f"/api/pools/{GAME}/{pool_id}/reveal"

    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200, plain.text
    assert "content-encoding" not in plain.headers and plain.headers["vary"] == "Accept-Encoding"
    assert plain.json()["pool_id"] == pool_id and plain.json()["closed_reason"] == "retired"
    on_disk = pool_dir / pool_id / (plain.headers["etag"].strip('"') + ".json")  # (its name)
    assert on_disk.read_bytes() == plain.content and on_disk.stat().st_mode & 0o777 == 0o600
    compressed = on_disk.with_name(on_disk.name + ".br"), on_disk.with_name(on_disk.name + ".gz")
    assert brotli.decompress(compressed[0].read_bytes()) == plain.content
    assert gzip.decompress(compressed[1].read_bytes()) == plain.content

    tags: dict[str | None, str] = {None: plain.headers["etag"]}
    for accept, coding in [("gzip, br", "br"), ("gzip", "gzip"), ("br;q=0, gzip;q=0.5", "gzip"),
                           ("br;q=0, gzip;q=0", None), ("*", "br")]:  # fmt: skip
        answer = client.get(url, headers={"Accept-Encoding": accept})
        assert answer.status_code == 200 and answer.content == plain.content, accept  # decoded
        assert answer.headers.get("content-encoding") == coding, accept
        assert tags.setdefault(coding, answer.headers["etag"]) == answer.headers["etag"], accept
        if coding:
            assert int(answer.headers["content-length"]) < len(plain.content) / 4, accept
    assert len(set(tags.values())) == 3  # one ETag per encoding

    for coding, tag in tags.items():
        accept = coding or "identity"
        again = client.get(url, headers={"Accept-Encoding": accept, "If-None-Match": tag})
        assert again.status_code == 304 and again.content == b"", accept
        assert again.headers["etag"] == tag
    other = client.get(url, headers={"Accept-Encoding": "br", "If-None-Match": tags["gzip"]})
    assert other.status_code == 200

    # another process of the deployment (another app on the same database and pool files)
    # serves the same file; written once, it is not built again
    mtime = on_disk.stat().st_mtime_ns
    second = TestClient(make_app()).get(url, headers={"Accept-Encoding": "identity"})
    assert second.content == plain.content and on_disk.stat().st_mtime_ns == mtime
