"""The endpoint benchmarks' load generator: keep-alive HTTP/1.1 clients (a minimal asyncio
client, so the clients cost as little CPU as possible on the same machine), each its own
player, buying plays of GAME back to back and finishing them."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from typing import Any

from engine import games

GAME = games.on_sale()[0].id  # the game the buyers buy, the first on sale (Lab Riches): one
# pool, as a busy game's


class Conn:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    async def call(
        self, method: str, path: str, body: dict[str, Any] | None, headers: dict[str, str]
    ) -> tuple[int, dict[str, Any]]:
        """Send one request and read the whole response."""
        data = json.dumps(body).encode() if body is not None else b""
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(data)}"]
        if body is not None:
            lines.append("Content-Type: application/json")
        lines += [f"{k}: {v}" for k, v in headers.items()]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        payload = await self.reader.readexactly(length)
        return status, json.loads(payload) if payload else {}


async def player(port: int) -> tuple[Conn, dict[str, str]]:
    """Open a connection, start a session, choose its spend limits and buy one play (the
    first lays out the pool)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    conn = Conn(reader, writer)
    status, me = await conn.call("POST", "/api/session", None, {})
    assert status == 201, me
    auth = {"Authorization": f"Bearer {me['token']}"}
    # The operator's defaults: a paid play needs a daily and a weekly limit (LIMITS_REQUIRED)
    limits = {"daily_pence": 10**9, "weekly_pence": 10**9}
    status, chosen = await conn.call("PUT", "/api/limits", limits, auth)
    assert status == 200, chosen
    status, first = await conn.call(
        "POST", "/api/plays", {"game": GAME}, {**auth, "Idempotency-Key": "warm"}
    )
    assert status == 201, first
    return conn, auth


async def buy_until(conn: Conn, auth: dict[str, str], end: float, times: list[float]) -> list[int]:
    """Buy plays back to back until the end time; returns their Play Numbers."""
    bought: list[int] = []
    while time.perf_counter() < end:
        headers = {**auth, "Idempotency-Key": secrets.token_hex(8)}
        start = time.perf_counter()
        status, play = await conn.call("POST", "/api/plays", {"game": GAME}, headers)
        times.append(time.perf_counter() - start)
        assert status == 201, play
        bought.append(play["play_number"])
    return bought


async def finish_all(
    conn: Conn, auth: dict[str, str], numbers: list[int], times: list[float]
) -> None:
    """Finish each play."""
    for number in numbers:
        start = time.perf_counter()
        status, done = await conn.call("POST", f"/api/plays/{number}/finish", None, auth)
        times.append(time.perf_counter() - start)
        assert status == 200, done


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of the sorted values lie, in milliseconds."""
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000, 2)
