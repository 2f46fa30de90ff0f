"""The log as static tiles (c2sp.org/tlog-tiles): which tiles a tree of a size has, their
paths, and a tree read back from tiles.

Tile (L, N) holds up to 256 consecutive hashes of the tree's level 8 * L, from node N * 256;
its partial form (width W < 256) is served for the tree sizes a checkpoint named. Entry bundle N
holds the same leaves' records, each prefixed by its length (big-endian uint16).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from engine.tlog.tree import HASH_SIZE, Node, leaf_hash, node_hash

HEIGHT = 8
WIDTH = 1 << HEIGHT  # hashes in a full tile
Tile = tuple[int, int, int]  # (level, index, width): level -1 is the entry bundles


def index_path(n: int) -> str:
    """A tile index as its path: 1234067 -> x001/x234/067."""
    parts = []
    while True:
        parts.append(f"{n % 1000:03d}")
        n //= 1000
        if not n:
            break
    parts.reverse()
    return "/".join([*(f"x{p}" for p in parts[:-1]), parts[-1]])


def path(tile: Tile) -> str:
    """The tile's path under the log's prefix: tile/<L>/<N>[.p/<W>], or tile/entries/..."""
    level, n, width = tile
    name = "entries" if level < 0 else str(level)
    tail = "" if width == WIDTH else f".p/{width}"
    return f"tile/{name}/{index_path(n)}{tail}"


def parse_path(text: str) -> Tile:
    """The tile a path names (ValueError for anything that is not a tile's path)."""
    parts = text.split("/")
    if len(parts) < 3 or parts[0] != "tile":
        raise ValueError(f"not a tile path: {text}")
    width = WIDTH
    if len(parts) >= 4 and parts[-2].endswith(".p"):
        if not parts[-1].isdigit() or parts[-1].startswith("0"):
            raise ValueError(f"bad width in {text}")
        width = int(parts[-1])
        parts = [*parts[:-2], parts[-2][:-2]]
        if not 1 <= width < WIDTH:
            raise ValueError(f"bad width in {text}")
    name, digits = parts[1], parts[2:]
    if name == "entries":
        level = -1
    elif name.isdigit() and (name == "0" or not name.startswith("0")) and int(name) < 64:
        level = int(name)
    else:
        raise ValueError(f"bad level in {text}")
    n = 0
    for k, part in enumerate(digits):
        last = k == len(digits) - 1
        if not last:
            if not part.startswith("x"):
                raise ValueError(f"bad index in {text}")
            part = part[1:]
        if len(part) != 3 or not part.isdigit():
            raise ValueError(f"bad index in {text}")
        n = n * 1000 + int(part)
    if index_path(n) != "/".join(digits):
        raise ValueError(f"bad index in {text}")
    return level, n, width


def tiles(size: int) -> Iterator[Tile]:
    """Every hash tile a tree of `size` leaves has (full and the partial ones), level by level."""
    level = 0
    while size >> (HEIGHT * level):
        count = size >> (HEIGHT * level)  # nodes of level 8 * L
        for n in range(count // WIDTH):
            yield level, n, WIDTH
        if count % WIDTH:
            yield level, count // WIDTH, count % WIDTH
        level += 1


def bundles(size: int) -> Iterator[Tile]:
    """Every entry bundle a log of `size` records has."""
    for _, n, width in (t for t in tiles(size) if t[0] == 0):
        yield -1, n, width


def tile_nodes(tile: Tile) -> list[Node]:
    """The nodes a hash tile holds, in order."""
    level, n, width = tile
    return [(HEIGHT * level, n * WIDTH + i) for i in range(width)]


def tile_for(node: Node, size: int) -> tuple[Tile, int]:
    """The smallest tile of a tree of `size` leaves that holds or derives a node, and the
    node's first hash's position in it."""
    level, n = node
    base = level // HEIGHT * HEIGHT
    first = n << (level - base)  # the node's first hash at level `base`
    count = size >> base
    index = first // WIDTH
    width = min(WIDTH, count - index * WIDTH)
    return (base // HEIGHT, index, width), first % WIDTH


def encode_bundle(entries: Sequence[bytes]) -> bytes:
    """An entry bundle: each entry prefixed by its length as a big-endian uint16."""
    out = bytearray()
    for entry in entries:
        if len(entry) >= 1 << 16:
            raise ValueError("an entry is longer than 65,535 bytes")
        out += len(entry).to_bytes(2, "big") + entry
    return bytes(out)


def decode_bundle(data: bytes) -> list[bytes]:
    """An entry bundle's entries (ValueError when it is cut short)."""
    out, at = [], 0
    while at < len(data):
        if at + 2 > len(data):
            raise ValueError("an entry bundle ends inside a length")
        length = int.from_bytes(data[at : at + 2], "big")
        if at + 2 + length > len(data):
            raise ValueError("an entry bundle ends inside an entry")
        out.append(data[at + 2 : at + 2 + length])
        at += 2 + length
    return out


def split_hashes(data: bytes) -> list[bytes]:
    """A hash tile's hashes."""
    if len(data) % HASH_SIZE or not data or len(data) > WIDTH * HASH_SIZE:
        raise ValueError(f"a hash tile of {len(data)} bytes")
    return [data[i : i + HASH_SIZE] for i in range(0, len(data), HASH_SIZE)]


def tile_reader(
    size: int, fetch: Callable[[Tile], Sequence[bytes]]
) -> Callable[[Sequence[Node]], list[bytes]]:
    """A tree.Reader for a tree of `size` leaves read from its tiles: `fetch` returns a tile's
    hashes (remembering them is the caller's); a node between tile levels is hashed from the
    tile below it."""

    def read(nodes: Sequence[Node]) -> list[bytes]:
        out = []
        for node in nodes:
            tile, at = tile_for(node, size)
            span = 1 << (node[0] - tile[0] * HEIGHT)
            hashes = list(fetch(tile)[at : at + span])
            if len(hashes) != span:
                raise KeyError(node)
            while len(hashes) > 1:
                hashes = [node_hash(hashes[i], hashes[i + 1]) for i in range(0, len(hashes), 2)]
            out.append(hashes[0])
        return out

    return read


def bundle_leaves(data: bytes) -> list[bytes]:
    """The leaf hashes of an entry bundle's entries (they must equal its level 0 tile's)."""
    return [leaf_hash(entry) for entry in decode_bundle(data)]
