"""The public log read as an auditor reads it (`build.py audit-log`, tools/commands/audit_log.py):
fetch the site's files under a URL prefix (or a mirror's directory), open a checkpoint with a
tlog-policy, fetch and rebuild the tree from its tiles and entry bundles, and mirror them.

Written from the documents (docs/log.md and the C2SP specs it cites), never from the endpoint's
code: the formats come from engine/tlog (pure: hashing, proofs, notes, policies), fetching from
httpx and signatures from cryptography's Ed25519.

The site serves the log under `<prefix>/log/`: `checkpoint`, `policy`, `tile/<L>/<N>[.p/<W>]`
and `tile/entries/<N>[.p/<W>]` (c2sp.org/tlog-tiles). A mirror is a directory with the same
paths, so a mirror is itself a prefix an auditor can audit offline.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

import httpx
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from engine.tlog import tiles, tree
from engine.tlog.note import Checkpoint, NoteError, open_checkpoint, parse_note
from engine.tlog.policy import Policy
from engine.tlog.tiles import WIDTH, Tile

CHECKPOINT, POLICY = "log/checkpoint", "log/policy"
RETRIES = 6  # tries of a GET the site answers 429, each after its Retry-After


class FetchError(Exception):
    """A file of the site that could not be fetched (other than one that is not there)."""


def ed25519(public: bytes, message: bytes, signature: bytes) -> bool:
    """The Verify of engine.tlog.note: an Ed25519 signature checked with cryptography."""
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


class Source:
    """The site's public files under a prefix: an http(s) URL, a file:// URL or a directory."""

    def __init__(self, prefix: str, client: httpx.Client | None = None) -> None:
        parsed = urlparse(prefix)
        self.prefix = prefix.rstrip("/")
        self.directory: Path | None = None
        if parsed.scheme == "file":
            self.directory = Path(unquote(parsed.path))
        elif parsed.scheme not in ("http", "https"):
            self.directory = Path(prefix)
        self.client = client if self.directory is None else None
        if self.directory is None and self.client is None:
            self.client = httpx.Client(timeout=60, follow_redirects=True)

    def get(self, path: str) -> bytes | None:
        """The file at prefix/path, or None when it is not there (404 or no such file)."""
        if self.directory is not None:
            try:
                return (self.directory / path).read_bytes()
            except FileNotFoundError:
                return None
            except OSError as error:
                raise FetchError(f"{self.directory / path}: {error}") from error
        assert self.client is not None
        url = f"{self.prefix}/{path}"
        for _ in range(RETRIES):
            try:
                response = self.client.get(url)
            except httpx.HTTPError as error:
                raise FetchError(f"GET {url}: {error}") from error
            if response.status_code != 429:  # rate limited (a pool's reveal): wait and retry
                break
            time.sleep(wait(response.headers.get("retry-after", "")))
        if response.status_code == 404:
            return None
        if response.status_code != 200:
            raise FetchError(f"GET {url}: {response.status_code}")
        return response.content

    def close(self) -> None:
        if self.client is not None:
            self.client.close()


def wait(retry_after: str) -> float:
    """Seconds to wait from a Retry-After header: its seconds (at most 30), else 1."""
    try:
        return min(30.0, max(0.0, float(retry_after)))
    except ValueError:
        return 1.0


class Mirror:
    """A directory holding a copy of the site's log (and closed pools' reveals) at its paths."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def read(self, path: str) -> bytes | None:
        try:
            return (self.directory / path).read_bytes()
        except FileNotFoundError:
            return None

    def write(self, path: str, data: bytes) -> None:
        """Write a file whole: to a temporary name first, then renamed over the old one."""
        target = self.directory / path
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
        partial.write_bytes(data)
        partial.replace(target)


def open_with_policy(text: str, policy: Policy) -> tuple[Checkpoint, list[str]]:
    """A checkpoint signed by a log of the policy and cosigned by a quorum of its witnesses:
    the checkpoint and the witnesses' names (NoteError saying which part fails)."""
    origin = Checkpoint.parse(parse_note(text).text).origin
    keys = [key for key, _ in policy.logs if key.name == origin]
    if not keys:
        raise NoteError(f"the checkpoint is of log {origin!r}, a log the policy does not list")
    checkpoint, _, found = open_checkpoint(text, keys[0], ed25519, policy.witness_keys())
    names = sorted(policy.names_of(found))
    if not policy.satisfied(names):
        who = ", ".join(names) or "no witness of the policy"
        raise NoteError(
            f"the checkpoint is cosigned by {who}: too few for the policy's quorum "
            f"({policy.quorum})"
        )
    return checkpoint, names


def signed_by_log(text: str, policy: Policy) -> Checkpoint:
    """A checkpoint signed by a log of the policy, its cosignatures not counted (a mirrored
    checkpoint, whose quorum was checked when it was mirrored)."""
    origin = Checkpoint.parse(parse_note(text).text).origin
    keys = [key for key, _ in policy.logs if key.name == origin]
    if not keys:
        raise NoteError(f"the checkpoint is of log {origin!r}, a log the policy does not list")
    return open_checkpoint(text, keys[0], ed25519)[0]


def fold(hashes: list[bytes]) -> bytes:
    """The hash of a full tile's subtree: its 256 hashes paired up to one."""
    while len(hashes) > 1:
        hashes = [tree.node_hash(hashes[i], hashes[i + 1]) for i in range(0, len(hashes), 2)]
    return hashes[0]


@dataclass
class Tiles:
    """The tiles and entry bundles of a tree of `size` leaves, as fetched, and where from."""

    size: int
    data: dict[Tile, bytes] = field(default_factory=dict)
    mirrored: set[Tile] = field(default_factory=set)  # read from the mirror, not fetched

    def hashes(self, tile: Tile) -> list[bytes]:
        return tiles.split_hashes(self.data[tile])

    def reader(self) -> tree.Reader:
        return tiles.tile_reader(self.size, self.hashes)


def needed(size: int) -> list[Tile]:
    """Every entry bundle and hash tile a tree of `size` leaves has."""
    return [*tiles.bundles(size), *tiles.tiles(size)]


def load_tile(
    tile: Tile, source: Source, mirror: Mirror | None, use_mirror: bool
) -> tuple[bytes, bool]:
    """(a tile's bytes, whether they came from the mirror); a partial tile the site no longer
    serves is cut from its full tile (c2sp.org/tlog-tiles allows deleting it)."""
    path = "log/" + tiles.path(tile)
    if use_mirror and mirror is not None:
        data = mirror.read(path)
        if data is not None:
            return data, True
    data = source.get(path)
    if data is None and tile[2] < WIDTH:
        full = source.get("log/" + tiles.path((tile[0], tile[1], WIDTH)))
        if full is not None:
            data = cut(full, tile)
    if data is None:
        raise FetchError(f"the site does not serve {path}")
    return data, False


def cut(full: bytes, tile: Tile) -> bytes:
    """A partial tile of width W from its full tile: the first W hashes or entries."""
    level, _, width = tile
    if level >= 0:
        return full[: width * tree.HASH_SIZE]
    return tiles.encode_bundle(tiles.decode_bundle(full)[:width])


def fetch_tiles(size: int, source: Source, mirror: Mirror | None, use_mirror: bool) -> Tiles:
    """Every tile and bundle of the tree, from the mirror when it has them (if use_mirror)."""
    out = Tiles(size)
    for tile in needed(size):
        out.data[tile], mirrored = load_tile(tile, source, mirror, use_mirror)
        if mirrored:
            out.mirrored.add(tile)
    return out


def check_tiles(got: Tiles, root: bytes) -> list[str]:
    """Rebuild the tree from the records up: each bundle's records hash to its level 0 tile,
    each hash of a higher tile is the hash of the full tile below it, and the tree's root is
    the checkpoint's. The problems, each naming the record or tile."""
    problems: list[str] = []
    for tile in needed(got.size):
        level, n, width = tile
        name = tiles.path(tile)
        try:
            if level < 0:
                entries = tiles.decode_bundle(got.data[tile])
                hashes = got.hashes((0, n, width))
                if len(entries) != width:
                    problems.append(f"{name} holds {len(entries)} records, not {width}")
                for at, (entry, leaf) in enumerate(zip(entries, hashes, strict=False)):
                    if tree.leaf_hash(entry) != leaf:
                        problems.append(
                            f"record {n * WIDTH + at} does not hash to its leaf in "
                            f"{tiles.path((0, n, width))}: it was changed after it was logged"
                        )
                continue
            hashes = got.hashes(tile)
            if len(hashes) != width:
                problems.append(f"{name} holds {len(hashes)} hashes, not {width}")
            if level == 0:
                continue
            for at, value in enumerate(hashes):
                below = (level - 1, n * WIDTH + at, WIDTH)
                if fold(got.hashes(below)) != value:
                    problems.append(f"hash {at} of {name} is not the hash of {tiles.path(below)}")
        except ValueError as error:
            problems.append(f"{name} cannot be read: {error}")
    if not problems:
        made = tree.tree_hash(got.size, got.reader())
        if made != root:
            problems.append(f"the tiles make root {made.hex()}, not the checkpoint's {root.hex()}")
    return problems


def records(got: Tiles) -> list[bytes]:
    """The log's records in order, from its entry bundles."""
    out: list[bytes] = []
    for tile in tiles.bundles(got.size):
        out.extend(tiles.decode_bundle(got.data[tile]))
    return out


def consistent(
    old: Checkpoint, new: Checkpoint, new_tiles: Tiles, old_tiles: Callable[[], Tiles]
) -> str | None:
    """None when one checkpoint's tree is a prefix of the other's (checked with a consistency
    proof made from the larger tree's tiles), else the fork in words."""
    try:
        if new.size >= old.size:
            proof = tree.prove_consistency(new.size, old.size, new_tiles.reader())
            tree.check_consistency(proof, new.size, new.root, old.size, old.root)
        else:
            larger = old_tiles()
            proof = tree.prove_consistency(old.size, new.size, larger.reader())
            tree.check_consistency(proof, old.size, old.root, new.size, new.root)
    except (tree.ProofError, KeyError, ValueError, FetchError) as error:
        return (
            f"FORK: the checkpoint of {new.size} records (root {new.root.hex()}) is not "
            f"consistent with the mirrored checkpoint of {old.size} (root {old.root.hex()}): "
            f"{error}"
        )
    return None
