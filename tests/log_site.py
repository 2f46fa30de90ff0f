"""A public log's site as the tests build it, playing the operator (honest or not): real Ed25519
keys, records appended to an RFC 6962 tree with engine.tlog, tiles and entry bundles written
at their c2sp.org/tlog-tiles paths, checkpoints signed and cosigned, small real pools laid out
with engine.math and their reveals, all served over real HTTP by a static file server.

The operator controls every file the site serves: an attack is a file written differently.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from engine.games import load_table
from engine.math.pool import Pool
from engine.tlog import note, records, tiles, tree
from engine.tlog.note import COSIGNATURE, ED25519, Checkpoint, Key, Note, Signature
from engine.tlog.policy import Policy, Witness
from engine.tlog.proof import TlogProof

ORIGIN = "lottery.example/log"
GAME = "lab-riches"
TIME = 1_800_000_000_000


def new_key(name: str, kind: int) -> tuple[Ed25519PrivateKey, Key]:
    private = Ed25519PrivateKey.generate()
    public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return private, Key(name, kind, public)


def small_pool(size: int = 100) -> Pool:
    """A real Lab Riches pool of `size` entries (a small base pool of the game's two lowest
    tiers: 60 % losing, 40 % the next prize), under a fresh secret key."""
    table = load_table(GAME)
    tiers = (
        dataclasses.replace(table.tiers[0], count=size * 6 // 10),
        dataclasses.replace(table.tiers[1], count=size * 4 // 10),
    )
    small = dataclasses.replace(table, base_pool_size=size, tiers=tiers)
    return Pool.lay_out(small, size, key=secrets.token_bytes(32), entropy=secrets.token_bytes)


def commitment(pool: Pool, kind: str = "paid") -> dict[str, Any]:
    table = [[prize, count] for prize, count in sorted(pool.tier_counts().items())]
    return records.commitment(
        GAME, pool.pool_id, kind, pool.model, pool.size, pool.root.hex(), table
    )


def sale(pool: Pool, play: int, index: int) -> dict[str, Any]:
    entry = pool.entry(index)
    return records.sale(play, pool.pool_id, index, entry.leaf().hex(), entry.prize_pence, TIME)


def reveal_document(pool: Pool, sold: int, **changes: Any) -> bytes:
    """A closed pool's reveal, as GET /api/pools/{game}/{pool_id}/reveal serves it (with
    any field changed as given)."""
    body = {
        "game": GAME,
        "pool_id": pool.pool_id,
        "kind": "paid",
        "model": pool.model,
        "size": pool.size,
        "depth": pool.depth,
        "root": pool.root.hex(),
        "created_at": "2027-01-01T00:00:00Z",
        "closed_at": "2027-01-02T00:00:00Z",
        "closed_reason": "retired",
        "sold": sold,
        "key": pool.key.hex(),
        "catalogue": [
            {"code": code, "prize_pence": prize, "composition": comp.to_json()}
            for code, (prize, comp) in enumerate(pool.catalogue)
        ],
        "entries_encoding": "base64 of the outcome codes, 2 bytes each, little-endian",
        "entries": base64.b64encode(pool.codes.tobytes()).decode("ascii"),
    } | changes
    return json.dumps(body, separators=(",", ":")).encode("utf-8")


class Operator:
    """A log's operator: its log key, its witnesses' keys (a test lends them, to cosign what it
    likes), its records, and the site directory it writes."""

    def __init__(self, site: Path, witnesses: int = 2) -> None:
        self.site = site
        self.log_private, self.log_key = new_key(ORIGIN, ED25519)
        self.witnesses = [new_key(f"witness{i}.example", COSIGNATURE) for i in range(witnesses)]
        self.entries: list[bytes] = []

    def append(self, record: dict[str, Any] | bytes) -> int:
        """Append a record (or raw bytes); its index."""
        self.entries.append(record if isinstance(record, bytes) else records.encode(record))
        return len(self.entries) - 1

    def nodes(self, entries: list[bytes]) -> dict[tree.Node, bytes]:
        stored: dict[tree.Node, bytes] = {}
        for n, entry in enumerate(entries):
            read = lambda nodes: [stored[x] for x in nodes]  # noqa: E731
            stored.update(tree.appended(n, tree.leaf_hash(entry), read))
        return stored

    def write(self, path: str, data: bytes) -> None:
        target = self.site / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)

    def checkpoint(
        self,
        entries: list[bytes],
        cosigners: list[int] | None = None,
        log_private: Ed25519PrivateKey | None = None,
    ) -> str:
        """A checkpoint of these entries' tree, signed (by the log's key unless another is
        given) and cosigned by the witnesses listed (all by default)."""
        stored = self.nodes(entries)
        root = tree.tree_hash(len(entries), lambda nodes: [stored[x] for x in nodes])
        text = Checkpoint(ORIGIN, len(entries), root).text()
        signer = log_private or self.log_private
        sigs = [Signature(ORIGIN, self.log_key.id, signer.sign(text.encode()))]
        for i in range(len(self.witnesses)) if cosigners is None else cosigners:
            private, key = self.witnesses[i]
            raw = private.sign(note.cosigned_message(text, TIME // 1000))
            sigs.append(Signature(key.name, key.id, (TIME // 1000).to_bytes(8, "big") + raw))
        return Note(text, tuple(sigs)).format()

    def publish(self, entries: list[bytes] | None = None, **how: Any) -> str:
        """Write the tiles and bundles of these entries' tree (the operator's own, by default)
        and its checkpoint at log/checkpoint; the checkpoint."""
        entries = self.entries if entries is None else entries
        stored = self.nodes(entries)
        for tile in tiles.tiles(len(entries)):
            self.write(
                "log/" + tiles.path(tile), b"".join(stored[n] for n in tiles.tile_nodes(tile))
            )
        for tile in tiles.bundles(len(entries)):
            _, n, width = tile
            bundle = tiles.encode_bundle(entries[n * tiles.WIDTH : n * tiles.WIDTH + width])
            self.write("log/" + tiles.path(tile), bundle)
        text = self.checkpoint(entries, **how)
        self.write("log/checkpoint", text.encode())
        return text

    def policy(self, quorum: str = "all") -> str:
        """The log's tlog-policy: its key, its witnesses in a group, the quorum that group
        with threshold `quorum` (all, any or k), or none."""
        policy = Policy(logs=[(self.log_key, None)])
        for _, key in self.witnesses:
            policy.witnesses[key.name] = Witness(key.name, key)
        if quorum == "none":
            policy.quorum = "none"
        else:
            members = tuple(policy.witnesses)
            k = {"all": len(members), "any": 1}.get(quorum) or int(quorum)
            policy.groups["witnesses"] = (k, members)
            policy.quorum = "witnesses"
        return policy.format()

    def proof(self, index: int, checkpoint: str, entries: list[bytes] | None = None) -> str:
        """Record `index`'s tlog-proof@v1 under a checkpoint of these entries' tree."""
        entries = self.entries if entries is None else entries
        stored = self.nodes(entries)
        hashes = tree.prove_inclusion(len(entries), index, lambda nodes: [stored[x] for x in nodes])
        return TlogProof(index, tuple(hashes), checkpoint, entries[index]).format()

    def reveal(self, pool: Pool, sold: int, document: bytes | None = None) -> bytes:
        """Serve a pool's reveal and log its digest; the document."""
        document = document or reveal_document(pool, sold)
        self.write(f"api/pools/{GAME}/{pool.pool_id}/reveal", document)
        self.append(records.reveal(pool.pool_id, hashlib.sha256(document).hexdigest(), TIME))
        return document


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class Limited(Quiet):
    """A site that answers a pool's reveal 429 (Retry-After: 0) every other time, as the
    endpoint's limits on reveals may."""

    turns = 0

    def do_GET(self) -> None:
        if self.path.endswith("/reveal"):
            Limited.turns += 1
            if Limited.turns % 2:
                self.send_response(429)
                self.send_header("Retry-After", "0")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
        super().do_GET()


@contextmanager
def served(directory: Path, handler: type[Quiet] = Quiet) -> Iterator[str]:
    """A static file server over a directory, in a thread; its URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
