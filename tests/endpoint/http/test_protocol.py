"""The server's limits on a request's head, against a real `build.py endpoint` process over real
sockets: a huge header or too many are refused (431), a slow head is cut off (408)."""

from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
HEADER_TIMEOUT = 2.0


def free_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def peak_rss_kib(pid: int) -> int:
    """The process's peak resident memory so far (VmHWM), in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


def ask(port: int, head: bytes, timeout: float = 10) -> bytes:
    """Send a request's head on a new connection; everything the server answers until it
    closes or stops answering (a 200 keeps the connection open)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as raw:
        raw.sendall(head)
        return read_answer(raw)


def read_answer(raw: socket.socket) -> bytes:
    """What the server sends until it closes, or until its answer is whole."""
    answer = b""
    while chunk := raw.recv(65536):
        answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        length = [line for line in head.split(b"\r\n") if line.startswith(b"content-length: ")]
        if length and len(body) >= int(length[0].split()[1]):
            break
    return answer


def error_code(answer: bytes, status: int) -> str:
    """The JSON error code of a raw answer, checking its status line."""
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 %d " % status), head[:200]
    assert b"content-type: application/json" in head
    assert b"x-content-type-options: nosniff" in head and b"cache-control: no-store" in head
    code: str = json.loads(body)["error"]["code"]
    return code


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int]]:
    """`build.py endpoint` on SQLite in a process of its own; its port and process id."""
    var = tmp_path_factory.mktemp("protocol-var")
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "LOTTERY_VAR_DIR": str(var),
        "LOTTERY_LIMITS_REQUIRED": "0",  # (tests/endpoint/http/routes/test_sales.py is about it)
        "DATABASE_URL": "",
        "LOTTERY_WARM_POOLS": "0",
        "LOTTERY_HEADER_TIMEOUT_SECONDS": str(HEADER_TIMEOUT),
        "PYTHONWARNINGS": "ignore:resource_tracker:UserWarning",
    }
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "tools", "endpoint", "--port", str(port), "--log-level", "error"],
        cwd=ROOT,
        env=env,
    )
    try:
        deadline = time.time() + 60
        while True:
            try:
                if ask(port, b"GET /api/games HTTP/1.1\r\nHost: t\r\n\r\n").startswith(
                    b"HTTP/1.1 200"
                ):
                    break
            except OSError:
                pass
            assert time.time() < deadline and server.poll() is None, "no endpoint"
            time.sleep(0.2)
        yield port, server.pid
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)


def test_a_64_mib_header_is_refused_early_without_the_server_holding_it(
    endpoint: tuple[int, int],
) -> None:
    port, pid = endpoint
    before = peak_rss_kib(pid)
    chunk = b"a" * (1 << 20)
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
        raw.sendall(b"GET /api/games HTTP/1.1\r\nHost: t\r\nX-Big: ")
        try:
            for _ in range(64):
                raw.sendall(chunk)
                if select.select([raw], [], [], 0)[0]:
                    break  # answered before the end: refused
            raw.sendall(b"\r\n\r\n")
        except OSError:
            pass  # refused and closed while we were still sending
        with contextlib.suppress(ConnectionResetError):
            answer = read_answer(raw)
    grown_mib = (peak_rss_kib(pid) - before) / 1024
    assert grown_mib < 24, f"the server's peak memory grew by {grown_mib:.0f} MiB"
    assert error_code(answer, 431) == "headers_too_large"


def test_too_many_header_lines_are_refused(endpoint: tuple[int, int]) -> None:
    port, _ = endpoint
    lines = b"".join(b"X-H%d: v\r\n" % n for n in range(150))
    answer = ask(port, b"GET /api/games HTTP/1.1\r\nHost: t\r\n" + lines + b"\r\n")
    assert error_code(answer, 431) == "headers_too_large"
    within = b"".join(b"X-H%d: v\r\n" % n for n in range(90))
    assert ask(port, b"GET /api/games HTTP/1.1\r\nHost: t\r\n" + within + b"\r\n").startswith(
        b"HTTP/1.1 200"
    )


def test_a_head_and_its_body_in_one_read_are_not_taken_for_a_long_head(
    endpoint: tuple[int, int],
) -> None:
    port, _ = endpoint
    body = b'{"code": "' + b"0" * 16_330 + b'"}'
    head = b"POST /api/session HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
    request = head + b"Content-Length: %d\r\n\r\n" % len(body) + body
    assert len(request) > 16_384  # the head's limit, but the head is small
    answer = ask(port, request)
    assert not answer.startswith(b"HTTP/1.1 431"), answer[:200]
    assert not answer.startswith(b"HTTP/1.1 400"), answer[:200]


def test_300_slow_connections_are_closed_within_the_header_timeout(
    endpoint: tuple[int, int],
) -> None:
    port, _ = endpoint
    slow = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(300)]
    silent = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(20)]
    started = time.monotonic()
    try:
        for raw in slow:
            raw.sendall(b"GET /api/games HTTP/1.1\r\nHost: t\r\n")
        answers = {raw: b"" for raw in slow + silent}
        open_ = set(answers)
        while open_ and time.monotonic() - started < HEADER_TIMEOUT + 8:
            for raw in list(open_):  # one more header byte from every slow client, as slowloris
                if raw in slow:
                    with contextlib.suppress(OSError):
                        raw.send(b"X")
            readable, _, _ = select.select(list(open_), [], [], 0.5)
            for raw in readable:
                try:
                    chunk = raw.recv(65536)
                except OSError:
                    chunk = b""
                answers[raw] += chunk
                if not chunk:
                    open_.discard(raw)
        took = time.monotonic() - started
        assert not open_, f"{len(open_)} of 320 connections still open after {took:.1f} s"
        assert took < HEADER_TIMEOUT + 6
        assert all(error_code(answers[raw], 408) == "request_timeout" for raw in slow)
        assert all(answers[raw] == b"" for raw in silent)  # sent nothing: closed, no answer
    finally:
        for raw in slow + silent:
            raw.close()
    # and the server still answers
    assert ask(port, b"GET /api/games HTTP/1.1\r\nHost: t\r\n\r\n").startswith(b"HTTP/1.1 200")


def test_a_kept_alive_connection_s_next_head_has_its_own_timeout(
    endpoint: tuple[int, int],
) -> None:
    port, _ = endpoint
    with socket.create_connection(("127.0.0.1", port), timeout=HEADER_TIMEOUT + 8) as raw:
        raw.sendall(b"GET /api/games HTTP/1.1\r\nHost: t\r\n\r\n")
        assert read_answer(raw).startswith(b"HTTP/1.1 200")
        started = time.monotonic()
        raw.sendall(b"GET /api/games HTTP/1.1\r\nHost: t\r\n")  # and then nothing
        answer = read_answer(raw)
        took = time.monotonic() - started
    assert error_code(answer, 408) == "request_timeout"
    assert HEADER_TIMEOUT - 0.5 < took < HEADER_TIMEOUT + 4


def test_a_body_sent_a_byte_at_a_time_is_cut_off_within_the_header_timeout(
    endpoint: tuple[int, int],
) -> None:
    """A request's body must be whole within the header timeout of its head (before, a client
    sending a body's bytes one now and then held the connection and a route for good)."""
    port, _ = endpoint
    with socket.create_connection(("127.0.0.1", port), timeout=HEADER_TIMEOUT + 8) as raw:
        head = b"POST /api/session HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        raw.sendall(head + b"Content-Length: 100\r\n\r\n{")
        started = time.monotonic()
        answer = b""
        while time.monotonic() - started < HEADER_TIMEOUT + 6:
            with contextlib.suppress(OSError):
                raw.send(b" ")  # a byte of the body every half second, never all 100
            readable, _, _ = select.select([raw], [], [], 0.5)
            if readable:
                answer = read_answer(raw)
                break
        took = time.monotonic() - started
    assert error_code(answer, 408) == "request_timeout", answer[:200]
    assert HEADER_TIMEOUT - 0.5 < took < HEADER_TIMEOUT + 4
    assert ask(port, b"GET /api/games HTTP/1.1\r\nHost: t\r\n\r\n").startswith(b"HTTP/1.1 200")
