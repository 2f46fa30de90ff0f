"""The tree's stored nodes in `log_nodes`, read as an engine.tlog.tree.Reader: each call one
query for the nodes asked (a hash tile's, one range query)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from sqlalchemy import Connection, select, tuple_

from engine.tlog.tree import Node, Reader
from web.endpoint.store.schema import log_nodes

IN_LIST = 500  # nodes asked in one query at most
T = TypeVar("T")


def reader(conn: Connection, known: dict[Node, bytes] | None = None) -> Reader:
    """A Reader of the stored nodes on this connection: those in `known` from memory, the
    others queried and added to `known`."""
    memory = known if known is not None else {}

    def read(nodes: Sequence[Node]) -> list[bytes]:
        missing = [node for node in dict.fromkeys(nodes) if node not in memory]
        for at in range(0, len(missing), IN_LIST):
            chunk = missing[at : at + IN_LIST]
            rows = conn.execute(
                select(log_nodes.c.level, log_nodes.c.n, log_nodes.c.hash).where(
                    tuple_(log_nodes.c.level, log_nodes.c.n).in_(chunk)
                )
            ).all()
            memory.update({(int(level), int(n)): bytes(value) for level, n, value in rows})
        return [memory[node] for node in nodes]  # KeyError: a node not stored

    return read


def remembered(known: dict[Node, bytes]) -> Reader:
    """A Reader of these nodes only (KeyError for any other): the sequencer's, once it has
    read the tree's right edge."""

    def read(nodes: Sequence[Node]) -> list[bytes]:
        return [known[node] for node in nodes]

    return read


def prefetched(conn: Connection, work: Callable[[Reader], T]) -> T:
    """`work` run with a Reader of the stored nodes that asks the database once: which nodes
    a proof reads does not depend on their hashes, so a first run with stand-in hashes names
    them all, fetched in one query for the real run."""
    wanted: dict[Node, bytes] = {}

    def note(asked: Sequence[Node]) -> list[bytes]:
        wanted.update(dict.fromkeys(asked, bytes(32)))
        return [bytes(32)] * len(asked)

    work(note)
    known: dict[Node, bytes] = {}
    read = reader(conn, known)
    read(list(wanted))
    return work(read)


def level_range(conn: Connection, level: int, first: int, count: int) -> list[bytes]:
    """The stored hashes of nodes (level, first) .. (level, first + count - 1), in order."""
    rows = conn.execute(
        select(log_nodes.c.hash)
        .where(
            log_nodes.c.level == level,
            log_nodes.c.n >= first,
            log_nodes.c.n < first + count,
        )
        .order_by(log_nodes.c.n)
    ).all()
    return [bytes(row[0]) for row in rows]


def store(conn: Connection, nodes: dict[Node, bytes]) -> None:
    """Store new nodes (the sequencer's, in its transaction): on PostgreSQL in one statement
    (as many rows, psycopg's pipelined executemany, took 0.1 ms a node), its arrays sent in
    binary (%b: as text, psycopg escaped each hash, 7 us a node), on SQLite in the driver's
    executemany."""
    if not nodes:
        return
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(
            "INSERT INTO log_nodes (level, n, hash) SELECT * FROM"
            " unnest(%(levels)b::smallint[], %(ns)b::bigint[], %(hashes)b::bytea[])",
            {
                "levels": [level for level, _ in nodes],
                "ns": [n for _, n in nodes],
                "hashes": list(nodes.values()),
            },
        )
        return
    # SQLite: the driver's own executemany (SQLAlchemy's made a dict of parameters a node, most
    # of a sequencer's step)
    rows = [(level, n, value) for (level, n), value in nodes.items()]
    conn.exec_driver_sql("INSERT INTO log_nodes (level, n, hash) VALUES (?, ?, ?)", rows)
