"""The steps of `build.py verify` (tools/commands/verify.py), each from docs/token.md and
docs/math.md: the token's signature, its payload, the entry's leaf, the Merkle path and the
published root.

Independent of the endpoint's code on purpose: the standard library, httpx and cryptography's
Ed25519 only, so this file, the command's and the documents are all an auditor needs to read.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import sys
from array import array
from typing import Any

import httpx
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

LABEL = b"lottery-pool-entry/1"
CHUNK = 256
HEX32 = re.compile(r"[0-9a-f]{32}")
PAID, TRY = "paid", "try"  # the kinds of play and of pool (docs/token.md)
KINDS = {PAID: "a pool of paid plays", TRY: "a pool of free TRY plays"}
B64URL = re.compile(r"[A-Za-z0-9_-]*")


def b64url(text: str) -> bytes:
    """base64url without padding (RFC 7515), strictly."""
    if not B64URL.fullmatch(text) or len(text) % 4 == 1:
        raise ValueError("not base64url without padding")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def canonical(value: Any) -> bytes:
    """JSON with sorted keys and no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode("utf-8")


def thumbprint(jwk: dict[str, Any]) -> str:
    """RFC 7638 thumbprint of an Ed25519 JWK: base64url SHA-256 of its required members."""
    members = {"crv": jwk["crv"], "kty": jwk["kty"], "x": jwk["x"]}
    digest = hashlib.sha256(canonical(members)).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def leaf_hash(entry: dict[str, Any]) -> bytes:
    """SHA-256(0x00 || u64be(index) || seed || salt || SHA-256(u64be(prize) || composition))."""
    outcome = hashlib.sha256(
        int(entry["prize_pence"]).to_bytes(8, "big") + canonical(entry["composition"])
    ).digest()
    body = int(entry["index"]).to_bytes(8, "big")
    body += bytes.fromhex(entry["seed"]) + bytes.fromhex(entry["salt"])
    return hashlib.sha256(b"\x00" + body + outcome).digest()


def depth_of(size: int) -> int:
    """8 + ceil(log2(ceil(size / 256)))."""
    return 8 + (-(-size // CHUNK) - 1).bit_length()


def climb(leaf: bytes, index: int, siblings: list[bytes]) -> bytes:
    """Up the tree: at level k the sibling is on the left when bit k of the index is 1."""
    value = leaf
    for sibling in siblings:
        pair = sibling + value if index & 1 else value + sibling
        value = hashlib.sha256(b"\x01" + pair).digest()
        index >>= 1
    return value


class Steps:
    """Each step's verdict, in order."""

    def __init__(self) -> None:
        self.steps: list[dict[str, Any]] = []

    def add(self, number: int, name: str, ok: bool, detail: str) -> bool:
        self.steps.append({"step": number, "name": name, "ok": ok, "detail": detail})
        return ok

    @property
    def first_failed(self) -> str | None:
        return next((s["name"] for s in self.steps if not s["ok"]), None)


def check_signature(token: str, jwks: dict[str, Any]) -> tuple[bool, str, Any]:
    """Step 1: (ok, why, the payload as parsed from the signed bytes)."""
    try:
        head, body, sig = token.split(".")
        header = json.loads(b64url(head))
        payload = json.loads(b64url(body))
        signature = b64url(sig)
    except (ValueError, AttributeError) as error:
        return False, f"the token is not a compact JWS: {error}", None
    if header.get("alg") != "EdDSA":
        return False, f"the header's alg is {header.get('alg')!r}, not EdDSA", payload
    keys = [k for k in jwks.get("keys", []) if k.get("kid") == header.get("kid")]
    if not keys:
        return False, f"no published key has kid {header.get('kid')!r}", payload
    jwk = keys[0]
    try:
        if jwk.get("kty") != "OKP" or jwk.get("crv") != "Ed25519":
            return False, "the published key is not an Ed25519 key", payload
        if thumbprint(jwk) != jwk["kid"]:
            return False, "the published key's kid is not its RFC 7638 thumbprint", payload
        public = Ed25519PublicKey.from_public_bytes(b64url(jwk["x"]))
        public.verify(signature, f"{head}.{body}".encode("ascii"))
    except InvalidSignature:
        return False, f"the signature does not verify under key {jwk['kid']}", payload
    except (ValueError, KeyError, TypeError) as error:
        return False, f"the published key cannot be used: {error}", payload
    return True, f"Ed25519 signature verifies under published key {jwk['kid']}", payload


def play_kind(payload: Any) -> str | None:
    """The kind of play a token signs: "paid" without a `mode` claim, else its mode ("try": a
    free play of TRY mode); None without a readable payload."""
    if not isinstance(payload, dict):
        return None
    return str(payload["mode"]) if "mode" in payload else PAID


def pool_kind(published: Any) -> str | None:
    """The kind of pool a commitment or reveal says it is ("paid" or "try"), or None."""
    kind = published.get("kind") if isinstance(published, dict) else None
    return kind if isinstance(kind, str) else None


def describe(kind: str | None) -> str:
    """A pool's kind in words."""
    return KINDS.get(kind or "", f"a pool of kind {kind!r}" if kind else "a pool of no kind")


def check_payload(payload: Any, play: dict[str, Any], number: int) -> tuple[bool, str]:
    """Step 2: the signed claims against the play and its entry; only a paid play's token
    (no `mode` claim) is a play of the ledger."""
    if not isinstance(payload, dict):
        return False, "there is no readable payload"
    kind = play_kind(payload)
    if kind == TRY:
        return False, (
            'the token is a free TRY play\'s (mode "try"): drawn from a pool of free plays, '
            "no play of the ledger, so it cannot prove a paid play"
        )
    if kind != PAID:
        return False, f"the token's mode {kind!r} is not a paid play's (no mode claim)"
    entry, pool = play.get("entry") or {}, play.get("pool") or {}
    expected = {
        "play_number": number,
        "game": play.get("game"),
        "model": play.get("model"),
        "pool": pool.get("id"),
        "index": entry.get("index"),
        "prize_pence": entry.get("prize_pence"),
        "composition": entry.get("composition"),
        "seed": entry.get("seed"),
    }
    wrong = [name for name, value in expected.items() if payload.get(name) != value]
    if play.get("play_number") != number:
        wrong.append("the play's own number")
    if play.get("prize_pence") != entry.get("prize_pence"):
        wrong.append("the play's prize")
    if play.get("composition") != entry.get("composition"):
        wrong.append("the play's composition")
    if wrong:
        return False, "the signed payload and the play's entry differ in: " + ", ".join(wrong)
    return True, (
        f"the token signs paid play {number}: entry {entry.get('index')} of pool "
        f"{pool.get('id')}, "
        f"prize {entry.get('prize_pence')}p, seed {entry.get('seed')}"
    )


def check_leaf(entry: dict[str, Any], reveal: dict[str, Any] | None) -> tuple[bool, str, Any]:
    """Step 3: the leaf hash (and, when the pool is revealed, the seed and salt)."""
    try:
        if not (HEX32.fullmatch(entry["seed"]) and HEX32.fullmatch(entry["salt"])):
            return False, "the seed and salt must be 32 lower-case hex digits each", None
        parts = entry["composition"]
        total = sum(int(part["pence"]) for part in parts)
        if total != int(entry["prize_pence"]):
            return False, f"the composition adds up to {total}p, not the prize", None
        leaf = leaf_hash(entry)
    except (KeyError, TypeError, ValueError) as error:
        return False, f"the entry cannot be read: {error!r}", None
    detail = f"leaf {leaf.hex()}"
    if reveal is None:
        return True, detail + " (seed and salt checkable once the pool is revealed)", leaf
    try:
        key, index = bytes.fromhex(reveal["key"]), int(entry["index"])
        at = 32 * (index % CHUNK)
        material = LABEL + key + (index // CHUNK).to_bytes(8, "big")
        block = hashlib.shake_256(material).digest(at + 32)[at:]
        codes: array[int] = array("H")
        codes.frombytes(base64.b64decode(reveal["entries"], validate=True))
        if sys.byteorder != "little":
            codes.byteswap()
        item = reveal["catalogue"][codes[index]]
    except (KeyError, TypeError, ValueError, IndexError, binascii.Error) as error:
        return False, f"the pool's reveal cannot be read: {error!r}", leaf
    if block != bytes.fromhex(entry["seed"]) + bytes.fromhex(entry["salt"]):
        return False, "the seed and salt do not derive from the revealed key", leaf
    if [item["prize_pence"], item["composition"]] != [entry["prize_pence"], entry["composition"]]:
        return False, "the revealed pool holds another outcome at this index", leaf
    if pool_kind(reveal) != PAID:
        return False, f"the reveal is of {describe(pool_kind(reveal))}, not of paid plays", leaf
    return True, detail + "; seed and salt derive from the revealed key", leaf


def check_merkle(leaf: bytes | None, play: dict[str, Any]) -> tuple[bool, str]:
    """Step 4: the sibling path from the leaf to the pool's root."""
    if leaf is None:
        return False, "there is no leaf to climb from"
    try:
        pool, index = play["pool"], int(play["entry"]["index"])
        siblings = [bytes.fromhex(s) for s in play["proof"]]
        root = bytes.fromhex(pool["root"])
        depth = depth_of(int(pool["size"]))
    except (KeyError, TypeError, ValueError) as error:
        return False, f"the proof cannot be read: {error!r}"
    if len(siblings) != depth or any(len(s) != 32 for s in siblings) or len(root) != 32:
        return False, f"the proof has {len(siblings)} siblings; a pool of its size needs {depth}"
    if not 0 <= index < int(pool["size"]):
        return False, f"index {index} is outside the pool"
    if pool.get("id") != pool["root"][:16]:
        return False, "the pool id is not the first 16 hex digits of its root"
    reached = climb(leaf, index, siblings)
    if not hmac.compare_digest(reached, root):
        return False, f"the path leads to {reached.hex()}, not the pool's root {root.hex()}"
    return True, f"{depth} siblings lead from the leaf to root {root.hex()}"


def fetch(client: httpx.Client, path: str, token: str | None = None) -> tuple[int, Any]:
    """(status, JSON body or None) of a GET."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = client.get(path, headers=headers)
    try:
        return response.status_code, response.json()
    except ValueError:
        return response.status_code, None


def check_published(
    client: httpx.Client | None, play: dict[str, Any], saved: Any = None
) -> tuple[bool, str, Any, str | None]:
    """Step 5: the root against what the endpoint publishes, or against a saved commitment
    (`saved`), and that the pool is one of paid plays; also returns the commitment and the
    kind of pool it is."""
    game, pool = play.get("game"), play.get("pool") or {}
    root, pool_id = pool.get("root"), pool.get("id")
    kind: str | None = None
    if saved is not None:
        if not isinstance(saved, dict) or saved.get("pool_id") != pool_id:
            return False, f"the saved commitment is not pool {pool_id}'s", None, None
        kind = pool_kind(saved)
        if saved.get("root") != root:
            return False, f"the saved commitment has root {saved.get('root')}", saved, kind
        why = (
            f"root {root} is the one in the saved commitment (committed {saved.get('created_at')})"
        )
        return (*paid_pool(kind, pool_id, why), saved, kind)
    assert client is not None
    seen: list[str] = []
    status, current = fetch(client, f"/api/pools/{game}")
    if status == 200 and isinstance(current, dict) and current.get("pool_id") == pool_id:
        if current.get("root") != root:
            return False, f"GET /api/pools/{game} publishes root {current.get('root')}", None, None
        seen.append(f"GET /api/pools/{game}")
        kind = PAID  # the route publishes only the pool purchases draw from
    status, commitment = fetch(client, f"/api/pools/{game}/{pool_id}")
    if status == 200 and isinstance(commitment, dict):
        kind = pool_kind(commitment) or kind  # an older endpoint's says none
        if commitment.get("root") != root:
            why = f"the pool's commitment has root {commitment.get('root')}"
            return False, why, commitment, kind
        seen.append(f"its commitment (committed {commitment.get('created_at')})")
    else:
        commitment = None
    if not seen:
        return False, f"the endpoint publishes no pool {pool_id} of {game}", None, None
    why = f"root {root} is the one published: " + " and ".join(seen)
    return (*paid_pool(kind, pool_id, why), commitment, kind)


def paid_pool(kind: str | None, pool_id: Any, why: str) -> tuple[bool, str]:
    """Step 5's verdict on the kind of pool: only a pool of paid plays holds a paid play."""
    if kind == PAID:
        return True, f"{why}; pool {pool_id} is {describe(kind)}"
    if kind is None:
        return False, f"{why}, but it does not say what kind of pool {pool_id} is (paid or try)"
    return False, f"{why}, but pool {pool_id} is {describe(kind)}: no paid play comes from it"
