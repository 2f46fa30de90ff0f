"""The shell's requests (docs/drawing.md) performed natively, for play-native: EndpointShell
answers a frame's requests against a running endpoint over HTTP, as the page's shell does
(web/shell/js/bridge.js and its modules); tests/endpoint/test_bridge.py runs one table of cases
through both. The window that uses it: backends/native.py."""

from __future__ import annotations

import base64
import contextlib
import json
import time
import uuid
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlencode

import httpx
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from engine.money import format_pounds
from engine.payload import Payload
from engine.ui.input import Event, Reply


def _b64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _signed(item: dict[str, str]) -> bool:
    """Whether a check_signatures item ({key, message, signature}, base64) is a good Ed25519
    signature, as the page's WebCrypto answers it."""
    try:
        key, message, signature = (
            base64.b64decode(item[k]) for k in ("key", "message", "signature")
        )
        Ed25519PublicKey.from_public_bytes(key).verify(signature, message)
    except (InvalidSignature, ValueError, KeyError, TypeError):
        return False
    return True


class HttpResponse(Protocol):
    """What EndpointShell reads of an answer (httpx's and starlette's TestClient's both fit)."""

    @property
    def status_code(self) -> int: ...
    @property
    def content(self) -> bytes: ...
    @property
    def is_error(self) -> bool: ...
    def json(self) -> Any: ...


class HttpClient(Protocol):
    """The HTTP client EndpointShell needs: httpx.Client, or a TestClient in tests."""

    @property
    def headers(self) -> MutableMapping[str, str]: ...
    def request(
        self, method: str, url: str, *, json: Any = None, headers: dict[str, str] | None = None
    ) -> HttpResponse: ...


class Refused(ValueError):
    """A purchase refused for a spend limit, or for the cooling-off after an hour of play: its
    facts as the page reads them (as the shell gives them, web/shell/js/endpoint.js limitDetail),
    its times as the endpoint sent them: the game writes them (Visit.when) on its own screen
    for it (engine/ui/scenes/refusal.py)."""

    def __init__(self, error: dict[str, Any]) -> None:
        code = str(error.get("code"))
        if code == "cooling_off":
            body: dict[str, Any] = {"resumes_at": error.get("resumes_at")}
            said = (
                "Your play session has ended: take a break. Nothing was charged; an unfinished "
                "play can still be finished."
            )
        elif code in ("break_taken", "self_excluded"):  # the player's own break or exclusion
            body = {"until": error.get("until")}
            said = str(error.get("message") or "You are taking a break from play.")
        elif code == "limits_required":
            body = {"missing": list(error.get("missing") or [])}
            said = "Choose a daily and a weekly limit (Limits, in the lobby) before a paid play."
        else:
            left = format_pounds(int(error.get("left_pence") or 0))
            body = {
                "period": error.get("period"),
                "left_pence": int(error.get("left_pence") or 0),
                "resets_at": error.get("resets_at"),
            }
            said = (
                f"Your {error.get('period', 'spend')} limit is reached: {left} left. "
                "Nothing was charged."
            )
        super().__init__(said)
        self.body = {**body, "code": code, "message": said}


# the refusals the game shows on a screen of its own (engine/ui/scenes/refusal.py CODES)
REFUSALS = ("limit_reached", "limits_required", "cooling_off", "break_taken", "self_excluded")
SIGN_IN_PROMPT = "The sign-in code shown on your other device (Account, Get a sign-in code): "


class EndpointShell:
    """The shell's requests (docs/drawing.md) performed natively against a running endpoint."""

    def __init__(self, client: HttpClient, ask: Callable[[str], str | None] | None = None) -> None:
        self.client = client
        # How a sign-in code is asked for (play-native: the terminal); None: this window
        # cannot sign in to another account.
        self.ask = ask
        self.keys: dict[str, Ed25519PublicKey] = {}
        self.purchase_key: str | None = None
        self.progress: dict[str, Any] = {}
        self.began: tuple[float, int] | None = None  # (monotonic time, balance) at the start
        self.kept: dict[str, Any] | None = None  # the log's checkpoint VERIFY kept (its size)

    def _call(self, method: str, path: str, body: Any = None, **headers: str) -> dict[str, Any]:
        response = self.client.request(method, path, json=body, headers=headers)
        data: dict[str, Any] = response.json() if response.content else {}
        if response.status_code == 402:
            raise ValueError("Insufficient funds: your balance does not cover this play.")
        error = data.get("error", {}) if response.is_error else {}
        if error.get("code") in REFUSALS:
            raise Refused(error)
        if response.is_error:
            raise ValueError(error.get("message", f"HTTP {response.status_code}"))
        return data

    def _text(self, path: str) -> str | None:
        """A text document of the endpoint's (the log's policy), None when it serves none."""
        response = self.client.request("GET", path)
        return None if response.is_error else response.content.decode()

    def log_parts(self, detail: dict[str, Any]) -> dict[str, Any]:
        """What VERIFY's log steps read beside the play (js/bridge.js verify_play): the log's
        policy, the checkpoint this window kept and the consistency proof between the two."""
        log, kept = detail.get("log"), self.kept
        if not log:
            return {"policy": None, "seen": None, "consistency": None}
        consistency = None
        if kept and kept["size"] != log["size"]:
            old, new = sorted((int(kept["size"]), int(log["size"])))
            with contextlib.suppress(ValueError):  # then the step says no proof came
                consistency = self._call("GET", f"/api/log/consistency?old={old}&new={new}")
        return {"policy": self._text("/log/policy"), "seen": kept and kept["checkpoint"],
                "consistency": consistency}  # fmt: skip

    def verify(self, token: str) -> dict[str, Any]:
        """The payload of an outcome token whose Ed25519 signature checks out against /api/keys."""
        head, body, signature = token.split(".")
        kid = json.loads(_b64(head)).get("kid")
        if not self.keys:
            for jwk in self._call("GET", "/api/keys").get("keys", []):
                self.keys[jwk["kid"]] = Ed25519PublicKey.from_public_bytes(_b64(jwk["x"]))
        try:
            self.keys[kid].verify(_b64(signature), f"{head}.{body}".encode())
        except (KeyError, InvalidSignature):
            raise ValueError("This play could not be verified, so it cannot be shown.") from None
        payload: dict[str, Any] = json.loads(_b64(body))
        Payload.from_json(payload)  # a well-formed outcome, or PayloadError (a ValueError)
        return payload

    def sign_in(self, before: Any) -> dict[str, Any]:
        """Sign this window in to the account of a code shown on another device, as the page
        does (js/bridge.js signin): the reality check's net spend carries on across the switch,
        so its start balance moves by the change of balance."""
        if self.ask is None:
            raise ValueError("Sign in with a code in the browser; this window keeps its account.")
        typed = (self.ask(SIGN_IN_PROMPT) or "").strip()
        if not typed:
            return {"cancelled": True}
        made = self._call("POST", "/api/session", {"code": typed.upper()})
        self.client.headers["Authorization"] = f"Bearer {made['token']}"
        after = int(made["balance_pence"])
        if self.began is not None and isinstance(before, int):
            self.began = (self.began[0], self.began[1] + after - before)
        return {"balance_pence": after, "session": self._session(after)}

    def log_out(self, every: bool) -> dict[str, Any]:
        """Log this window (or every device of the account) out, as the page does; the window
        then goes on as a new guest, as the page's next load does."""
        ended = self._call("POST", "/api/session/logout-all" if every else "/api/session/logout")
        made = self._call("POST", "/api/session", {})
        self.client.headers["Authorization"] = f"Bearer {made['token']}"
        self.began = None
        balance = int(made["balance_pence"])
        return {
            **ended,
            "every": every,
            "balance_pence": balance,
            "session": self._session(balance),
        }

    def _session(self, balance: int) -> dict[str, int]:
        """The window's session for the reality check (begun at its first balance): the time
        since and the balance it began with."""
        if self.began is None:
            self.began = (time.monotonic(), balance)
        elapsed = int((time.monotonic() - self.began[0]) * 1000)
        return {"elapsed_ms": elapsed, "start_balance_pence": self.began[1]}

    def perform(self, request: dict[str, Any]) -> dict[str, Any]:
        """Do one request; raises ValueError with a sentence for the player."""
        op = request["op"]
        if op == "session":
            try:
                wallet = self._call("GET", "/api/wallet")
            except ValueError:
                made = self._call("POST", "/api/session", {})
                self.client.headers["Authorization"] = f"Bearer {made['token']}"
                wallet = {"balance_pence": made["balance_pence"]}
            return {**wallet, "session": self._session(wallet["balance_pence"])}
        if op == "purchase":
            self.purchase_key = self.purchase_key or uuid.uuid4().hex
            bought = self._call(
                "POST",
                "/api/plays",
                {"game": request["game"]},
                **{"Idempotency-Key": self.purchase_key},
            )
            payload = self.verify(bought["token"])
            self.purchase_key = None
            self.progress = {
                "play_number": bought["play_number"],
                "token": bought["token"],
                "index": 0,
                "choices": [],
            }
            return {**bought, "payload": payload}
        if op == "resume":
            plays = self._call("GET", "/api/plays?status=unfinished").get("plays", [])
            mine = next((p for p in plays if p["game"] == request["game"]), None)
            if mine is None:
                return {"found": False}
            detail = self._call("GET", f"/api/plays/{mine['play_number']}")
            token = detail["token"]
            same = self.progress.get("token") == token
            kept = detail.get("progress") or {}  # played on another device: the endpoint's
            index = self.progress.get("index", 0) if same else kept.get("event", 0)
            choices = self.progress.get("choices", []) if same else kept.get("choices", [])
            body = {"play_number": mine["play_number"], "token": token, "index": index,
                    "choices": choices}  # fmt: skip
            return {"found": True, **body, "payload": self.verify(token)}
        if op == "save" and self.progress.get("play_number") == request["play_number"]:
            self.progress["index"] = request["index"]
            self.progress["choices"] = request.get("choices", [])
            kept = {"event": request["index"], "choices": self.progress["choices"]}
            self._call("PUT", f"/api/plays/{request['play_number']}/progress", kept)
        if op == "finish":
            body = {"choices": request.get("choices", [])}
            return self._call("POST", f"/api/plays/{request['play_number']}/finish", body)
        if op == "try":
            drawn = self._call("POST", "/api/try", {"game": request["game"]})
            return {**drawn, "payload": self.verify(drawn["token"])}
        if op == "recall":
            play = self._call("GET", f"/api/plays/{int(request['play_number'])}/recall")
            return {**play, "payload": self.verify(play["token"])}
        if op == "verify_play":
            detail = self._call("GET", f"/api/plays/{int(request['play_number'])}")
            claims: dict[str, Any] | None = None
            with contextlib.suppress(ValueError):  # then the signature step fails, in words
                claims = self.verify(detail["token"])
            signature = {"ok": claims is not None}
            pool = self._call("GET", f"/api/pools/{detail['game']}/{detail['pool']['id']}")
            return {"detail": detail, "signature": signature, "payload": claims,
                    "published": {"root": pool.get("root"), "kind": pool.get("kind")},
                    **self.log_parts(detail)}  # fmt: skip
        if op == "check_signatures":
            return {"ok": [_signed(item) for item in request.get("items") or []]}
        if op == "keep_checkpoint":
            self.kept = {"size": int(request["size"]), "checkpoint": str(request["checkpoint"])}
        if op == "remaining":
            return self._call("GET", f"/api/pools/{request['game']}/remaining")
        if op == "reality_seen":
            return self._call("POST", "/api/play-time/reality-check", {})
        if op == "code":
            return self._call("POST", "/api/account/code", {})
        if op == "signin":
            return self.sign_in(request.get("balance_pence"))
        if op == "logout":
            return self.log_out(bool(request.get("every")))
        if op == "limits":
            return self._call("GET", "/api/limits")
        if op == "set_limits":
            wanted = {k: request[k] for k in ("daily_pence", "weekly_pence") if k in request}
            return self._call("PUT", "/api/limits", wanted)
        if op == "protections":
            return self._call("GET", "/api/protections")
        if op == "protect":  # a break, a self-exclusion, or play asked back after one
            what = str(request.get("what"))
            if what not in ("break", "exclusion", "return"):
                raise ValueError(f"Unknown protection {what!r}.")
            fields = {k: request[k] for k in ("length", "understood") if k in request}
            return self._call("POST", f"/api/protections/{what}", fields)
        if op == "my_data":  # the player's data, saved where the window was started
            data = self._call("GET", "/api/account/data")
            path = Path(f"lottery-account-{data['account']['id']}.json").resolve()
            path.write_text(json.dumps(data, indent=1))
            return {"saved": True, "name": str(path), "plays": len(data.get("plays", []))}
        if op == "close_account":
            closed = self._call("POST", "/api/account/close", {"confirm": True})
            self.client.headers.pop("Authorization", None)  # the next page: a new guest
            return closed
        if op == "plays":
            query = {"limit": str(request.get("limit") or 20)}
            if request.get("cursor"):
                query["cursor"] = str(request["cursor"])
            return self._call("GET", "/api/plays?" + urlencode(query))
        return {}

    def answer(self, requests: list[dict[str, Any]]) -> list[Event]:
        """Replies to a frame's requests, as the browser shell would send them."""
        replies: list[Event] = []
        for request in requests:
            try:
                replies.append(Reply(request["id"], True, self.perform(request)))
            except Refused as refused:
                replies.append(Reply(request["id"], False, refused.body))
            except (ValueError, httpx.HTTPError) as error:
                message = str(error) if isinstance(error, ValueError) else "The connection failed."
                replies.append(Reply(request["id"], False, {"message": message}))
        return replies
