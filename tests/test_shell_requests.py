"""The page's bridge (web/shell/js/bridge.js) run in Node for the requests VERIFY's log steps
make, and play-native's EndpointShell given the same: check_signatures answers each Ed25519
signature Python asks about (made here with `cryptography`: a good one, one over another
message, a malformed key) and keep_checkpoint keeps the checkpoint on the device, where the
next verify_play reads it."""

from __future__ import annotations

import base64
import json
import subprocess
from pathlib import Path
from typing import Any

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from backends.endpoint_shell import EndpointShell
from tests.node import node

ROOT = Path(__file__).resolve().parent.parent


def shell(requests: list[dict[str, Any]], stored: dict[str, Any] | None = None) -> dict[str, Any]:
    """The replies of the page's bridge to these requests, and its localStorage after them."""
    done = subprocess.run(
        [node(), str(ROOT / "tests" / "shell_requests.mjs")],
        input=json.dumps({"requests": requests, "stored": stored or {}}),
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def test_check_signatures_answers_each_signature_in_order() -> None:
    private = Ed25519PrivateKey.generate()
    key = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    message = b"lottery.example/log\n4\nAAAA\n"
    good = {"key": b64(key), "message": b64(message), "signature": b64(private.sign(message))}
    other = {**good, "message": b64(b"another checkpoint\n")}
    malformed = {**good, "key": b64(b"short")}
    items = [good, other, malformed, good]
    out = shell([{"id": "1", "op": "check_signatures", "items": items}])
    assert out["replies"] == [
        {"type": "reply", "id": "1", "ok": True, "body": {"ok": [True, False, False, True]}}
    ]
    native = EndpointShell(httpx.Client())  # no request goes to an endpoint for these
    assert native.perform({"op": "check_signatures", "items": items}) == out["replies"][0]["body"]


def test_keep_checkpoint_keeps_it_on_the_device() -> None:
    kept = {"size": 12_345, "checkpoint": "lottery.example/log\n12345\nAAAA\n\n— sig\n"}
    out = shell([{"id": "1", "op": "keep_checkpoint", **kept}], {"lottery.log.checkpoint": None})
    assert out["replies"] == [{"type": "reply", "id": "1", "ok": True, "body": {}}]
    assert out["stored"]["lottery.log.checkpoint"] == kept
    native = EndpointShell(httpx.Client())
    assert native.perform({"op": "keep_checkpoint", **kept}) == {}
    assert native.kept == kept
