"""The tree's stored nodes (web/endpoint/log/nodes.py): stored in one go, read back as a
tree.Reader (one query a call, those in memory not asked again) and as a tile's range."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from fastapi import FastAPI
from sqlalchemy import event

from engine.tlog import tree
from engine.tlog.tree import Node
from web.endpoint.http.services import Services
from web.endpoint.log import nodes


def built(size: int) -> dict[Node, bytes]:
    """Every node a log of `size` records stores, appended in memory."""
    stored: dict[Node, bytes] = {}

    def read(wanted: Sequence[Node]) -> list[bytes]:
        return [stored[node] for node in wanted]

    for n in range(size):
        stored.update(tree.appended(n, tree.leaf_hash(b"record %d" % n), read))
    return stored


def test_stored_nodes_read_back_as_the_tree(make_app: Callable[..., FastAPI]) -> None:
    services: Services = make_app().state.services
    stored = built(600)
    with services.db.begin() as conn:
        nodes.store(conn, stored)
    with services.db.begin() as conn:
        known: dict[Node, bytes] = {}
        read = nodes.reader(conn, known)
        assert tree.tree_hash(600, read) == tree.tree_hash(600, nodes.reader(conn, dict(stored)))
        assert set(known) == set(tree.subtree_nodes(0, 600))  # (kept for the next call)
        assert nodes.level_range(conn, 8, 0, 2) == [stored[(8, 0)], stored[(8, 1)]]
        assert nodes.level_range(conn, 0, 256, 300) == [stored[(0, n)] for n in range(256, 556)]
        with pytest.raises(KeyError):
            read([(0, 600)])  # not stored


def test_a_proof_s_nodes_are_fetched_in_one_query(make_app: Callable[..., FastAPI]) -> None:
    services: Services = make_app().state.services
    stored = built(1000)
    with services.db.begin() as conn:
        nodes.store(conn, stored)

    def memory(wanted: Sequence[Node]) -> list[bytes]:
        return [stored[node] for node in wanted]

    queries: list[str] = []
    event.listen(services.db.engine, "before_cursor_execute", lambda *a: queries.append(a[2]))
    with services.db.begin() as conn:
        proof = nodes.prefetched(conn, lambda read: tree.prove_inclusion(1000, 777, read))
        consistent = nodes.prefetched(conn, lambda read: tree.prove_consistency(1000, 333, read))
    assert proof == tree.prove_inclusion(1000, 777, memory)
    assert consistent == tree.prove_consistency(1000, 333, memory)
    assert len([q for q in queries if "log_nodes" in q]) == 2
