"""engine/tlog/tiles.py: tile paths as c2sp.org/tlog-tiles writes them, the tiles a tree has,
and a tree read back from its tiles gives the same roots and proofs as the stored nodes."""

from __future__ import annotations

import pytest

from engine.tlog import tiles, tree
from engine.tlog.tree import leaf_hash
from tests.test_tlog_tree import Store, mth


@pytest.mark.parametrize(
    ("tile", "path"),
    [
        ((0, 1234067, 256), "tile/0/x001/x234/067"),
        ((1, 0, 17), "tile/1/000.p/17"),
        ((2, 1000, 256), "tile/2/x001/000"),
        ((-1, 5, 3), "tile/entries/005.p/3"),
        ((63, 999, 255), "tile/63/999.p/255"),
    ],
)
def test_paths(tile: tiles.Tile, path: str) -> None:
    assert tiles.path(tile) == path
    assert tiles.parse_path(path) == tile


@pytest.mark.parametrize(
    "path",
    ["tile/0/1", "tile/0/x1/000", "tile/0/001/000", "tile/64/000", "tile/00/000",
     "tile/0/000.p/0", "tile/0/000.p/256", "tile/0/000.p/07", "tiles/0/000", "tile/x/000"],
)  # fmt: skip
def test_bad_paths_are_refused(path: str) -> None:
    with pytest.raises(ValueError):
        tiles.parse_path(path)


def test_the_specs_tree_of_70000() -> None:
    got = list(tiles.tiles(70_000))
    assert len([t for t in got if t[0] == 0 and t[2] == 256]) == 273
    assert [t for t in got if t[2] != 256] == [(0, 273, 112), (1, 1, 17), (2, 0, 1)]
    assert [t for t in got if t[0] == 1] == [(1, 0, 256), (1, 1, 17)]
    assert list(tiles.tiles(256)) == [(0, 0, 256), (1, 0, 1)]


def test_bundles_round_trip() -> None:
    entries = [b"", b"a", b"x" * 300]
    assert tiles.decode_bundle(tiles.encode_bundle(entries)) == entries
    with pytest.raises(ValueError):
        tiles.decode_bundle(tiles.encode_bundle(entries)[:-1])


def test_a_tree_read_from_its_tiles() -> None:
    size = 256 * 3 + 70
    store = Store()
    leaves = [leaf_hash(str(i).encode()) for i in range(size)]
    for leaf in leaves:
        store.append(leaf)
    served = {t: store.read(tiles.tile_nodes(t)) for t in tiles.tiles(size)}
    fetched: list[tiles.Tile] = []

    def fetch(tile: tiles.Tile) -> list[bytes]:
        fetched.append(tile)
        return served[tile]

    read = tiles.tile_reader(size, fetch)
    assert tree.tree_hash(size, read) == mth(leaves)
    for index in (0, 255, 256, 700, size - 1):
        assert tree.prove_inclusion(size, index, read) == tree.prove_inclusion(
            size, index, store.read
        )
    for old in (1, 256, 300, 512, size - 1):
        assert tree.prove_consistency(size, old, read) == tree.prove_consistency(
            size, old, store.read
        )
    assert set(fetched) <= set(served)
    # a smaller tree's partial tile
    small = tiles.tile_reader(300, lambda t: store.read(tiles.tile_nodes(t)))
    assert tree.tree_hash(300, small) == mth(leaves[:300])
