"""The recount of `build.py audit-pool` (tools/commands/audit_pool.py): every entry's seed, salt
and leaf and the Merkle root from a pool's revealed key and entries, from the scheme in
docs/math.md ("Leaf, tree, proof"), and the checks of the reveal against the published
commitment and prize table.

Written independently of the endpoint and engine/math on purpose (that is the point of an
audit): only the standard library, so an auditor can read this file and the document side by
side.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import sys
import time
from array import array
from collections import Counter
from collections.abc import Sequence
from typing import Any

LABEL = b"lottery-pool-entry/1"
CHUNK = 256  # entries whose seeds and salts come from one SHAKE-256 stream
EMPTY = bytes(32)  # a leaf past the end of the pool


def canonical(value: Any) -> bytes:
    """JSON with sorted keys and no spaces, UTF-8: how a composition is hashed."""
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode("utf-8")


def outcome_hash(prize_pence: int, composition: Any) -> bytes:
    """SHA-256(u64be(prize_pence) || composition_json)."""
    return hashlib.sha256(prize_pence.to_bytes(8, "big") + canonical(composition)).digest()


def stream(key: bytes, chunk: int) -> bytes:
    """SHAKE-256("lottery-pool-entry/1" || key || u64be(chunk)), 8192 bytes: 32 per entry."""
    return hashlib.shake_256(LABEL + key + chunk.to_bytes(8, "big")).digest(32 * CHUNK)


def node(left: bytes, right: bytes) -> bytes:
    """SHA-256(0x01 || left || right)."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def depth_of(size: int) -> int:
    """8 + ceil(log2(ceil(size / 256))): the height of the tree, the length of every proof."""
    chunks = -(-size // CHUNK)
    return 8 + (chunks - 1).bit_length()


def root_of(leaves: list[bytes], depth: int) -> bytes:
    """The root of a perfect tree of 2**depth leaves, the given ones first, EMPTY after."""
    level, pad = leaves, EMPTY
    for _ in range(depth):
        if len(level) % 2:
            level = [*level, pad]
        sha = hashlib.sha256
        level = [sha(b"\x01" + level[i] + level[i + 1]).digest() for i in range(0, len(level), 2)]
        pad = node(pad, pad)
    return level[0] if level else pad


def leaves_of(key: bytes, codes: Sequence[int], tails: Sequence[bytes]) -> list[bytes]:
    """Every entry's leaf, SHA-256(0x00 || u64be(index) || seed || salt || outcome), from the key
    and the outcome codes (tails[code]: its outcome hash)."""
    out: list[bytes] = []
    sha = hashlib.sha256
    for first in range(0, len(codes), CHUNK):
        block = stream(key, first // CHUNK)
        out.extend(
            sha(
                b"\x00"
                + (first + at).to_bytes(8, "big")
                + block[32 * at : 32 * at + 32]
                + tails[code]
            ).digest()
            for at, code in enumerate(codes[first : first + CHUNK])
        )
    return out


def parts_key(parts: Any) -> tuple[bytes, ...]:
    """A composition as a multiset of parts (the order the table lists them in may differ)."""
    return tuple(sorted(canonical(part) for part in parts))


def decode_codes(text: str) -> array[int]:
    """The entries field: base64 of 2-byte little-endian outcome codes."""
    raw = base64.b64decode(text, validate=True)
    if len(raw) % 2:
        raise ValueError("an odd number of bytes")
    codes: array[int] = array("H")
    codes.frombytes(raw)
    if sys.byteorder != "little":
        codes.byteswap()
    return codes


class Audit:
    """The checks in order, each passed or failed with a sentence."""

    def __init__(self) -> None:
        self.checks: list[dict[str, Any]] = []

    def check(self, name: str, ok: bool, detail: str) -> bool:
        self.checks.append({"check": name, "ok": ok, "detail": detail})
        return ok

    @property
    def failed(self) -> list[str]:
        return [c["check"] for c in self.checks if not c["ok"]]


def audit(
    reveal: dict[str, Any],
    table: dict[str, Any] | None,
    commitment: dict[str, Any] | None,
    game: str,
    pool_id: str,
) -> tuple[Audit, dict[str, Any]]:
    """Run every check on a reveal; the audit and the recount's figures."""
    result = Audit()
    figures: dict[str, Any] = {}
    try:
        key = bytes.fromhex(reveal["key"])
        codes = decode_codes(reveal["entries"])
        catalogue = [
            (int(item["code"]), int(item["prize_pence"]), item["composition"])
            for item in reveal["catalogue"]
        ]
        size, root_hex = int(reveal["size"]), str(reveal["root"]).lower()
        problems = []
        if reveal.get("game") != game or reveal.get("pool_id") != pool_id:
            problems.append(f"it is pool {reveal.get('pool_id')} of {reveal.get('game')}")
        if len(key) != 32:
            problems.append(f"the key has {len(key)} bytes, not 32")
        if len(codes) != size:
            problems.append(f"it lists {len(codes)} entries for a pool of {size}")
        if [code for code, _, _ in catalogue] != list(range(len(catalogue))):
            problems.append("the catalogue's codes are not 0, 1, 2, ... in order")
        if codes and max(codes) >= len(catalogue):
            problems.append(f"an entry has code {max(codes)}, outside the catalogue")
    except (KeyError, TypeError, ValueError, binascii.Error) as error:
        result.check("reveal", False, f"the reveal cannot be read: {error!r}")
        return result, figures
    if not result.check(
        "reveal",
        not problems,
        "; ".join(problems)
        or f"pool {pool_id} of {game}: {size:,} entries, {len(catalogue)} outcomes, "
        f"{reveal.get('sold')} sold, closed {reveal.get('closed_at')} "
        f"({reveal.get('closed_reason')})",
    ):
        return result, figures

    if table is None:
        result.check("model", False, f"GET /api/games lists no game {game}")
    else:
        result.check(
            "model",
            table.get("model") == reveal.get("model"),
            f"the pool is {reveal.get('model')}, the published prize table {table.get('model')}",
        )

    start = time.perf_counter()
    tails = [outcome_hash(prize, comp) for _, prize, comp in catalogue]
    depth = depth_of(size)
    root = root_of(leaves_of(key, codes, tails), depth)
    figures.update(root=root.hex(), depth=depth, seconds=round(time.perf_counter() - start, 2))
    result.check(
        "root",
        root.hex() == root_hex and pool_id == root_hex[:16],
        f"recomputed {root.hex()} from the key and {size:,} entries (depth {depth}, "
        f"{figures['seconds']} s); revealed {root_hex}",
    )

    recount = Counter(codes)
    if commitment is None:
        result.check("commitment", False, "the pool's commitment could not be fetched")
    else:
        problems = []
        if str(commitment.get("root", "")).lower() != root.hex():
            problems.append(f"it commits to root {commitment.get('root')}")
        if commitment.get("size") != size or commitment.get("model") != reveal.get("model"):
            problems.append(f"it is {commitment.get('size')} plays of {commitment.get('model')}")
        published = [
            (item.get("code"), item.get("prize_pence"), item.get("composition"))
            for item in commitment.get("catalogue", [])
        ]
        if published != catalogue:
            problems.append("its outcome catalogue differs from the reveal's")
        counts = {item.get("code"): item.get("count") for item in commitment.get("catalogue", [])}
        wrong = [c for c, _, _ in catalogue if counts.get(c) != recount.get(c, 0)]
        if wrong:
            problems.append(f"its counts differ from the recount for codes {wrong[:5]}")
        result.check(
            "commitment",
            not problems,
            "; ".join(problems)
            or f"the commitment published before the first sale (committed "
            f"{commitment.get('created_at')}) has the same root, size, model and catalogue",
        )

    if table is None:
        return result, figures
    base = int(table["pool_size"])
    scale, rest = divmod(size, base)
    tiers = {int(tier["prize_pence"]): tier for tier in table["tiers"]}
    by_prize: Counter[int] = Counter()
    by_comp: Counter[tuple[int, tuple[bytes, ...]]] = Counter()
    for code, n in recount.items():
        _, prize, comp = catalogue[code]
        by_prize[prize] += n
        by_comp[prize, parts_key(comp)] += n
    expected_prize = {prize: int(t["count"]) * scale for prize, t in tiers.items()}
    wrong_tiers = [
        f"£{prize / 100:,.2f}: {by_prize.get(prize, 0):,} entries, the table says "
        f"{expected_prize.get(prize, 0):,}"
        for prize in sorted(set(by_prize) | set(expected_prize))
        if by_prize.get(prize, 0) != expected_prize.get(prize, 0)
    ]
    if rest:
        wrong_tiers.insert(0, f"the pool's size {size:,} is not a multiple of {base:,}")
    result.check(
        "tiers",
        not wrong_tiers,
        "; ".join(wrong_tiers[:5])
        or f"{len(expected_prize)} tiers, each exactly {scale} x the table's count "
        f"({sum(n for p, n in by_prize.items() if p > 0):,} winning entries)",
    )
    expected_comp: Counter[tuple[int, tuple[bytes, ...]]] = Counter()
    for prize, tier in tiers.items():
        total = sum(int(c["weight"]) for c in tier["compositions"])
        for comp in tier["compositions"]:
            share = int(tier["count"]) * scale * int(comp["weight"]) // total
            expected_comp[prize, parts_key(comp["parts"])] += share
    wrong_comps = [
        f"a £{prize / 100:,.2f} composition: {by_comp.get((prize, k), 0):,} entries, "
        f"the table says {expected_comp.get((prize, k), 0):,}"
        for prize, k in sorted(set(by_comp) | set(expected_comp))
        if by_comp.get((prize, k), 0) != expected_comp.get((prize, k), 0)
    ]
    result.check(
        "compositions",
        not wrong_comps,
        "; ".join(wrong_comps[:5])
        or f"{len(expected_comp)} compositions, each its exact share of its tier",
    )
    return result, figures
