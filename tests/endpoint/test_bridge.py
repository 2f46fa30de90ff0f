"""The shell's request operations, written twice (web/shell/js/bridge.js for the page,
backends/endpoint_shell.py's EndpointShell for play-native), held together: one table of cases
run through both against a real endpoint. Pinned: the Idempotency-Key's life (made once per
purchase intent, reused on every retry until an answer, then dropped) and resume precedence
(this device's progress for the same play over the endpoint's kept progress; the endpoint's
for a play this device has none of)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Iterator, MutableMapping
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from backends.endpoint_shell import EndpointShell, HttpResponse
from engine import games
from engine.ui.input import Reply
from tests.endpoint.conftest import serve
from tests.node import node as node_binary

HERE = Path(__file__).resolve().parent
GAME = games.on_sale()[0].table.game
PRICE = games.on_sale()[0].table.price_pence
Step = dict[str, Any]

SESSION: Step = {"shell": {"op": "session"}}
BUY: Step = {"shell": {"op": "purchase", "game": GAME}}
LOST_BUY: Step = {**BUY, "lose_answer": True}  # the purchase arrives; its answer is lost
RESUME: Step = {"shell": {"op": "resume", "game": GAME}}
FINISH: Step = {"shell": {"op": "finish", "game": GAME, "play_number": "{last}", "choices": []}}
# The same account on another device ({last}: the play number the case saw last).
BUY_ELSEWHERE: Step = {"elsewhere": {"method": "POST", "path": "/api/plays", "key": True,
                                     "body": {"game": GAME}}}  # fmt: skip
FINISH_ELSEWHERE: Step = {"elsewhere": {"method": "POST", "path": "/api/plays/{last}/finish",
                                        "body": {"choices": []}}}  # fmt: skip
UNFINISHED: Step = {"elsewhere": {"method": "GET", "path": "/api/plays?status=unfinished"}}
TRY: Step = {"shell": {"op": "try", "game": GAME}}
BREAK: Step = {"shell": {"op": "protect", "what": "break", "length": "24h"}}
PROTECTIONS: Step = {"shell": {"op": "protections"}}
CLOSE: Step = {"shell": {"op": "close_account"}}


def save(index: int) -> Step:
    """The shell keeps how far the play got, on this device and at the endpoint."""
    request = {"op": "save", "game": GAME, "play_number": "{last}", "index": index, "choices": []}
    return {"shell": request}


def progress_elsewhere(event: int) -> Step:
    """Another device of the account got to `event` of the play."""
    body = {"event": event, "choices": []}
    return {"elsewhere": {"method": "PUT", "path": "/api/plays/{last}/progress", "body": body}}


# (what the case shows, its steps, what each step must be seen to do). Plays are lettered in
# the order they are first seen; `charged` counts the prices taken since the case began.
CASES: list[tuple[str, list[Step], list[dict[str, Any]]]] = [
    (
        "a purchase whose answer is lost is retried with the same key: one play, charged once",
        [SESSION, LOST_BUY, LOST_BUY, BUY, SESSION, UNFINISHED],
        [{"ok": True, "charged": 0}, {"ok": False}, {"ok": False}, {"ok": True, "play": "A"},
         {"ok": True, "charged": 1}, {"status": 200, "plays": ["A"]}],
    ),
    (
        "an answered purchase spends its key: the next purchase is another play",
        [SESSION, BUY, BUY, SESSION, UNFINISHED],
        [{"ok": True, "charged": 0}, {"ok": True, "play": "A"}, {"ok": True, "play": "B"},
         {"ok": True, "charged": 2}, {"status": 200, "plays": ["B", "A"]}],
    ),
    (
        "a lost purchase found by resume: the key is still the intent's, a retry replays it",
        [SESSION, LOST_BUY, RESUME, BUY, SESSION],
        [{"ok": True, "charged": 0}, {"ok": False},
         {"ok": True, "found": True, "play": "A", "index": 0}, {"ok": True, "play": "A"},
         {"ok": True, "charged": 1}],
    ),
    (
        "this device's progress in the same play comes before the endpoint's",
        [SESSION, BUY, save(3), progress_elsewhere(5), RESUME],
        [{"ok": True, "charged": 0}, {"ok": True, "play": "A"}, {"ok": True},
         {"status": 200, "play": "A"}, {"ok": True, "found": True, "play": "A", "index": 3}],
    ),
    (
        "a play bought on another device resumes where the endpoint kept it",
        [SESSION, BUY, save(2), BUY_ELSEWHERE, progress_elsewhere(4), RESUME],
        [{"ok": True, "charged": 0}, {"ok": True, "play": "A"}, {"ok": True},
         {"status": 201, "play": "B"}, {"status": 200, "play": "B"},
         {"ok": True, "found": True, "play": "B", "index": 4}],
    ),
    (
        "finished on another device and another bought there: the new one from its start",
        [SESSION, BUY, save(3), FINISH_ELSEWHERE, BUY_ELSEWHERE, RESUME],
        [{"ok": True, "charged": 0}, {"ok": True, "play": "A"}, {"ok": True},
         {"status": 200, "play": "A"}, {"status": 201, "play": "B"},
         {"ok": True, "found": True, "play": "B", "index": 0}],
    ),
    (
        "a break stops this account's paid plays and TRY: refused, saying why, nothing charged",
        [SESSION, BREAK, PROTECTIONS, BUY, TRY, SESSION],
        [{"ok": True, "charged": 0}, {"ok": True, "on_break": True},
         {"ok": True, "on_break": True}, {"ok": False, "code": "break_taken"},
         {"ok": False, "code": "break_taken"}, {"ok": True, "charged": 0}],
    ),
    (
        "closing the account settles its play and signs this device out: then a new guest",
        [SESSION, BUY, CLOSE, SESSION, UNFINISHED],
        [{"ok": True, "charged": 0}, {"ok": True, "play": "A"}, {"ok": True, "settled": 1},
         {"ok": True, "charged": 0}, {"status": 200, "plays": []}],
    ),
    (
        "nothing unfinished: nothing to resume",
        [SESSION, BUY, FINISH, RESUME],
        [{"ok": True, "charged": 0}, {"ok": True, "play": "A"}, {"ok": True, "play": "A"},
         {"ok": True, "found": False}],
    ),
]  # fmt: skip


def seen(steps: list[Step], transcript: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What each step was seen to do, play numbers lettered, the balance as prices charged."""
    letters: dict[int, str] = {}
    began: int | None = None

    def letter(number: int) -> str:
        return letters.setdefault(number, "ABCDEFGH"[len(letters)])

    out: list[dict[str, Any]] = []
    for step, got in zip(steps, transcript, strict=True):
        body = got["body"]
        if "elsewhere" in step:
            view: dict[str, Any] = {"status": got["status"]}
            if "plays" in body:
                view["plays"] = [letter(p["play_number"]) for p in body["plays"]]
        else:
            view = {"ok": got["ok"]}
            op = step["shell"]["op"]
            if got["ok"] and op == "session":
                began = body["balance_pence"] if began is None else began
                view["charged"] = (began - body["balance_pence"]) // PRICE
            if got["ok"] and op in ("protect", "protections"):
                view["on_break"] = body["on_break"]
            if got["ok"] and op == "close_account":
                view["settled"] = body["plays_settled"]
            if not got["ok"] and body.get("code") in ("break_taken", "self_excluded"):
                view["code"] = body["code"]  # (and its until: the game's screen says it)
            if got["ok"] and op == "resume":
                view["found"] = body["found"]
                if body["found"]:
                    view["index"] = body["index"]
        if isinstance(body.get("play_number"), int) and view.get("found") is not False:
            view["play"] = letter(body["play_number"])
        out.append(view)
    return out


class LossyClient:
    """An httpx client whose next answer can be lost on the way back (the request arrives)."""

    def __init__(self, inner: httpx.Client) -> None:
        self.inner = inner
        self.lose_next = False

    @property
    def headers(self) -> MutableMapping[str, str]:
        """The client's default headers (the shell sets its bearer token here)."""
        return self.inner.headers

    def request(
        self, method: str, url: str, *, json: Any = None, headers: dict[str, str] | None = None
    ) -> HttpResponse:
        """Send; then, if told to, lose the answer as a dropped connection would."""
        response = self.inner.request(method, url, json=json, headers=headers)
        if self.lose_next:
            self.lose_next = False
            raise httpx.ReadError("the answer was lost", request=response.request)
        return response


def run_native(api: str, steps: list[Step]) -> list[dict[str, Any]]:
    """One case through backends/endpoint_shell.py's EndpointShell (play-native's shell)."""
    transcript: list[dict[str, Any]] = []
    last: int | None = None
    with httpx.Client(base_url=api) as inner:
        client = LossyClient(inner)
        shell = EndpointShell(client)
        for n, step in enumerate(steps):
            if "elsewhere" in step:
                call = step["elsewhere"]
                headers = {"Authorization": inner.headers["Authorization"]}
                if call.get("key"):
                    headers["Idempotency-Key"] = f"elsewhere-{n}-{id(shell)}"
                path = call["path"].replace("{last}", str(last))
                done = httpx.request(call["method"], api + path, json=call.get("body"),
                                     headers=headers)  # fmt: skip
                got: dict[str, Any] = {"status": done.status_code, "body": done.json()}
            else:
                client.lose_next = bool(step.get("lose_answer"))
                request = {**step["shell"], "id": str(n)}
                if request.get("play_number") == "{last}":
                    request["play_number"] = last
                [reply] = shell.answer([request])
                assert isinstance(reply, Reply)
                got = {"ok": reply.ok, "body": reply.body}
            if isinstance(got["body"].get("play_number"), int):
                last = got["body"]["play_number"]
            transcript.append(got)
    return transcript


def run_page(api: str, cases: list[list[Step]]) -> list[list[dict[str, Any]]]:
    """The cases through web/shell/js/bridge.js, in Node (tests/endpoint/bridge_cases.mjs)."""
    node = node_binary()
    done = subprocess.run(
        [node, str(HERE / "bridge_cases.mjs")],
        input=json.dumps({"api": api, "cases": cases}),
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    transcripts: list[list[dict[str, Any]]] = json.loads(done.stdout)
    return transcripts


@pytest.fixture
def api(make_app: Callable[..., FastAPI]) -> Iterator[str]:
    """A real endpoint on a loopback port (the shells speak HTTP to it)."""
    with serve(make_app()) as url:
        yield url


def test_the_page_and_play_native_do_the_same_requests(api: str) -> None:
    names = [name for name, _, _ in CASES]
    page = run_page(api, [steps for _, steps, _ in CASES])
    for name, (_, steps, expected), transcript in zip(names, CASES, page, strict=True):
        assert seen(steps, transcript) == expected, f"bridge.js: {name}"
    for name, steps, expected in CASES:
        assert seen(steps, run_native(api, steps)) == expected, f"endpoint_shell.py: {name}"
