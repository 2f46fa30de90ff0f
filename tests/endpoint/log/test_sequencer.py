"""The sequencer (web/endpoint/log/sequencer.py): sales of every seller's paths (single, batch
and, on PostgreSQL, a batch signed ahead) and the pools' commitments appended in their own
transactions, then sequenced: every sale's record is in the log once, each pool's indices
ascend with no gap, the checkpoint verifies with the log key, its root is the tree's from the
served tiles, each play's inclusion proof from GET /api/plays verifies, and successive
checkpoints are consistent."""

from __future__ import annotations

import base64
import itertools
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import event, select

from engine import games
from engine.tlog import records, tiles, tree
from engine.tlog.note import Checkpoint, open_checkpoint
from engine.tlog.proof import TlogProof
from tests.endpoint.conftest import bearer, buy, sequencer_of, session
from tests.endpoint.sales.test_batch import endpoint_process
from web.endpoint.http.services import Services
from web.endpoint.log import nodes
from web.endpoint.log.sequencer import STEPS, Sequencer
from web.endpoint.log.signer import verify
from web.endpoint.sales.postgres_seller import PostgresSeller
from web.endpoint.store.schema import log_checkpoints, log_entries, log_head, plays

LAB_RICHES = games.get("lab-riches")
PRICE = LAB_RICHES.price_pence
QUIET = {"log_interval_ms": 3_600_000}  # (the tests sequence by hand)


@pytest.fixture
def logged(make_app: Callable[..., FastAPI]) -> Iterator[tuple[Services, TestClient]]:
    """An app whose log is sequenced only by the test, and an HTTP client of it."""
    app = make_app(**QUIET)
    with TestClient(app) as client:
        yield app.state.services, client


def sequenced(services: Services) -> list[dict[str, Any]]:
    """The log's records in log order (every row sequenced: none pending)."""
    with services.db.begin() as conn:
        rows = conn.execute(
            select(log_entries.c.log_index, log_entries.c.data).order_by(log_entries.c.id)
        ).all()
    assert all(index is not None for index, _ in rows), "a record left pending"
    rows = sorted(rows, key=lambda row: row[0])
    assert [index for index, _ in rows] == list(range(len(rows)))
    return [records.decode(bytes(data)) for _, data in rows]


def check_sales(services: Services, logged: list[dict[str, Any]]) -> None:
    """Every paid play's record once, each pool's sales in index order with no gap, each
    pool's commitment before its first sale."""
    with services.db.begin() as conn:
        sold = conn.execute(select(plays.c.play_number, plays.c.pool_index)).all()
    sales = [r for r in logged if r["type"] == "sale"]
    assert sorted((r["play"], r["index"]) for r in sales) == sorted(sold)
    committed: set[str] = set()
    per_pool: dict[str, list[int]] = {}
    for record in logged:
        if record["type"] == "commitment":
            committed.add(record["pool"])
        elif record["type"] == "sale":
            assert record["pool"] in committed, "a sale before its pool's commitment"
            per_pool.setdefault(record["pool"], []).append(record["index"])
    for indices in per_pool.values():
        assert indices == list(range(len(indices)))


def check_served(services: Services, client: TestClient) -> Checkpoint:
    """The served checkpoint verifies with the log key, and its root is the tree's read back
    from the served tiles (whose entry bundles hash to their level 0 tiles)."""
    text = client.get("/log/checkpoint").text
    checkpoint, _, _ = open_checkpoint(text, services.log.signer.key, verify)
    fetched: dict[tiles.Tile, list[bytes]] = {}

    def fetch(tile: tiles.Tile) -> list[bytes]:
        if tile not in fetched:
            answer = client.get("/log/" + tiles.path(tile))
            assert answer.status_code == 200, (tile, answer.text)
            fetched[tile] = tiles.split_hashes(answer.content)
        return fetched[tile]

    read = tiles.tile_reader(checkpoint.size, fetch)
    assert tree.tree_hash(checkpoint.size, read) == checkpoint.root
    for bundle in tiles.bundles(checkpoint.size):
        data = client.get("/log/" + tiles.path(bundle)).content
        assert tiles.bundle_leaves(data) == fetch((0, bundle[1], bundle[2]))
    return checkpoint


def check_play(client: TestClient, token: str, number: int, checkpoint: Checkpoint) -> None:
    """A play's proof from GET /api/plays/{n} leads from its sale's record to a checkpoint."""
    shown = client.get(f"/api/plays/{number}", headers=bearer(token)).json()["log"]
    proof = TlogProof.parse(shown["proof"])
    assert proof.extra is not None and records.decode(proof.extra)["play"] == number
    assert (proof.index, shown["index"], shown["size"]) == (
        shown["index"],
        proof.index,
        checkpoint.size,
    )
    tree.check_inclusion(
        proof.hashes, checkpoint.size, checkpoint.root, proof.index, tree.leaf_hash(proof.extra)
    )
    download = client.get(f"/api/plays/{number}/proof", headers=bearer(token))
    assert download.text == shown["proof"]
    assert (
        download.headers["content-disposition"]
        == f'attachment; filename="play-{number}.tlog-proof"'
    )


def test_single_sales_are_logged_once_in_order_and_served(
    logged: tuple[Services, TestClient],
) -> None:
    services, client = logged
    token = session(client)["token"]
    numbers = [buy(client, token).json()["play_number"] for _ in range(3)]
    shown = client.get(f"/api/plays/{numbers[0]}", headers=bearer(token)).json()
    assert shown["log"] is None  # no checkpoint covers it yet
    assert client.get(f"/api/plays/{numbers[0]}/proof", headers=bearer(token)).status_code == 404
    first = sequencer_of(services).run()
    assert len(first) == 1
    old = check_served(services, client)
    numbers += [buy(client, token).json()["play_number"] for _ in range(4)]
    sequencer = sequencer_of(services)
    assert sequencer.run() and sequencer.run() == []  # nothing pending: none
    new = check_served(services, client)
    check_sales(services, sequenced(services))
    for number in numbers:
        check_play(client, token, number, new)
    answer = client.get(f"/api/log/consistency?old={old.size}&new={new.size}").json()
    proof = [base64.b64decode(h) for h in answer["proof"]]
    tree.check_consistency(proof, new.size, new.root, old.size, old.root)


def test_batches_are_logged_in_index_order(logged: tuple[Services, TestClient]) -> None:
    services, client = logged
    seller = services.checkout.seller
    services.pools.ensure(LAB_RICHES.id)
    a, b = services.accounts.create(40 * PRICE), services.accounts.create(40 * PRICE)
    sold = []
    for n in range(4):  # on PostgreSQL the first the long way, the rest signed ahead
        keys = [(b, f"b{n}"), (a, f"a{n}"), (a, f"c{n}")]
        answers = seller.sell_batch(LAB_RICHES, keys)
        assert all(answer is not None for answer in answers)
        sold += answers
    if isinstance(seller, PostgresSeller):
        assert seller.guesses._next  # (the later batches were signed ahead)
    seller.sell(a, LAB_RICHES, "single")
    sequencer_of(services).run()
    check_sales(services, sequenced(services))
    check_served(services, client)


def test_a_sale_rolled_back_leaves_no_record(logged: tuple[Services, TestClient]) -> None:
    services, _ = logged
    services.pools.ensure(LAB_RICHES.id)
    poor = services.accounts.create(PRICE - 1)
    with pytest.raises(Exception):  # noqa: B017 (402: the debit refused, the sale undone)
        services.checkout.seller.sell(poor, LAB_RICHES, "short")
    sequencer_of(services).run()
    assert [r["type"] for r in sequenced(services)] == ["commitment"]


def test_a_sale_refused_within_a_batch_leaves_no_record(
    logged: tuple[Services, TestClient],
) -> None:
    """A batch's sale that fails is rolled back alone (its savepoint; on SQLite the batch's
    records are inserted together before its commit): the others are logged, it is not."""
    services, _ = logged
    services.pools.ensure(LAB_RICHES.id)
    rich, poor = services.accounts.create(10 * PRICE), services.accounts.create(PRICE - 1)
    requests = [(rich, "first"), (poor, "short"), (rich, "third")]
    answers = services.checkout.seller.sell_batch(LAB_RICHES, requests)
    assert [answer is not None for answer in answers] == [True, False, True]
    sequencer_of(services).run()
    log = sequenced(services)
    check_sales(services, log)
    sold = [answer["play_number"] for answer in answers if answer is not None]
    assert [r["play"] for r in log if r["type"] == "sale"] == sold


def test_a_run_that_died_after_its_steps_is_signed_by_the_next(
    logged: tuple[Services, TestClient],
) -> None:
    """Steps place records and move the head; the run's checkpoint comes after them, in a
    transaction of its own. A run that dies between (its steps committed, nothing signed)
    leaves the head ahead of the newest checkpoint: the next run, with nothing pending, signs
    the head; a run after that signs nothing."""
    services, client = logged
    token = session(client)["token"]
    numbers = [buy(client, token).json()["play_number"] for _ in range(2)]
    assert sequencer_of(services).step() == 3  # the commitment and two sales; then it "died"
    assert client.get("/log/checkpoint").status_code == 404
    [(size, _)] = sequencer_of(services).run()
    assert size == 3 and sequencer_of(services).run() == []
    checkpoint = check_served(services, client)
    for number in numbers:
        check_play(client, token, number, checkpoint)


def test_a_run_signs_after_at_most_steps_batches(logged: tuple[Services, TestClient]) -> None:
    """Sales outpacing the sequencer (every batch full) would keep a run from signing: it
    signs after STEPS batches, and the next run goes on from there."""
    services, _ = logged
    services.pools.ensure(LAB_RICHES.id)
    rich = services.accounts.create(100 * PRICE)
    for n in range(STEPS + 4):
        services.checkout.seller.sell(rich, LAB_RICHES, f"sale {n}")
    pending = STEPS + 5  # and the commitment
    sequencer = sequencer_of(services)
    sequencer.batch = 1
    assert [size for size, _ in sequencer.run()] == [STEPS]
    assert [size for size, _ in sequencer.run()] == [pending]
    check_sales(services, sequenced(services))


def merkle_root(leaves: list[bytes]) -> bytes:
    """RFC 6962's tree hash of these records, computed here from its definition."""
    if len(leaves) == 1:
        return tree.leaf_hash(leaves[0])
    k = 1 << ((len(leaves) - 1).bit_length() - 1)  # the largest power of two below the size
    return tree.node_hash(merkle_root(leaves[:k]), merkle_root(leaves[k:]))


def test_a_step_writes_in_parts_each_leaving_the_whole_tree_of_its_end(
    logged: tuple[Services, TestClient],
) -> None:
    """A step's write is split into transactions of `write` records at most (SQLite's
    SQLITE_WRITE, so that no sale waits for the write lock long): each commits the head at
    its end with the root of exactly the records before it, the same as a step of that size
    would have written."""
    services, client = logged
    token = session(client)["token"]
    for _ in range(4):
        buy(client, token)  # (and the pool's commitment: 5 records)
    sequencer = sequencer_of(services)
    sequencer.write = 2
    heads: list[tuple[int, bytes]] = []

    def head_at_commit(conn: Any) -> None:
        size, root = conn.exec_driver_sql("SELECT size, root FROM log_head").one()
        heads.append((int(size), bytes(root)))

    event.listen(services.db.engine, "commit", head_at_commit)
    try:
        assert sequencer.step() == 5
    finally:
        event.remove(services.db.engine, "commit", head_at_commit)
    data = [records.encode(record) for record in sequenced(services)]
    written = [head for head in heads if head[0]]  # (the step's read commits the empty tree)
    assert written == [(size, merkle_root(data[:size])) for size in (2, 4, 5)]
    check_sales(services, sequenced(services))


def test_a_step_whose_head_moved_meanwhile_starts_again(
    logged: tuple[Services, TestClient],
) -> None:
    """A step works outside any lock; when another instance's sequencer moved the head in
    that time, its work is thrown away and it sequences again from the new head: no index
    twice, no record lost, every checkpoint the tree's."""
    services, client = logged
    token = session(client)["token"]
    for _ in range(3):
        buy(client, token)
    mine = sequencer_of(services)
    other = Sequencer(services.db, mine.signer, services.clock.now_ms)
    moved: list[list[tuple[int, str]]] = []

    class Overtaken(Sequencer):
        def _work(self, *args: Any) -> Any:
            if not moved:  # the other instance sequences these records, and more are sold
                moved.append(other.run())
                for _ in range(2):
                    buy(client, token)
            return super()._work(*args)

    late = Overtaken(services.db, mine.signer, services.clock.now_ms)
    signed = late.run()
    [(first, _)] = moved[0]
    assert [size for size, _ in signed] == [first + 2]  # its second try: the two sold after
    check_sales(services, sequenced(services))
    check_served(services, client)


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_two_sequencers_racing_never_fork(make_app: Callable[..., FastAPI]) -> None:
    """Two instances' sequencers (threads) and sales racing: sizes strictly grow, every
    checkpoint is consistent with the one before it, no index twice."""
    one, two = make_app(**QUIET).state.services, make_app(**QUIET).state.services
    one.pools.ensure(LAB_RICHES.id)
    two.pools.ensure(LAB_RICHES.id)
    buyers = [one.accounts.create(200 * PRICE) for _ in range(4)]
    failed: list[Exception] = []

    def sell(services: Services, account: Any, tag: str) -> None:
        try:
            for n in range(40):
                services.checkout.seller.sell(account, LAB_RICHES, f"{tag}{n}")
        except Exception as error:
            failed.append(error)

    def sequence(services: Services) -> None:
        try:
            while any(thread.is_alive() for thread in sellers):
                sequencer_of(services).run()
        except Exception as error:
            failed.append(error)

    sellers = [threading.Thread(target=sell, args=(s, a, f"{k}-")) for k, (s, a) in
               enumerate(zip([one, two, one, two], buyers, strict=True))]  # fmt: skip
    threads = sellers + [threading.Thread(target=sequence, args=(s,)) for s in (one, two)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert failed == []
    sequencer_of(one).run()
    logged = sequenced(one)
    check_sales(one, logged)
    with one.db.begin() as conn:
        notes = conn.execute(
            select(log_checkpoints.c.size, log_checkpoints.c.note).order_by(
                log_checkpoints.c.created_at, log_checkpoints.c.size
            )
        ).all()
    sizes = [size for size, _ in notes]
    assert sizes == sorted(set(sizes)) and sizes[-1] == len(logged)
    assert len(sizes) > 4  # (the sequencers took turns while the sales went on)
    points = [open_checkpoint(note, one.log.signer.key, verify)[0] for _, note in notes]
    with one.db.begin() as conn:
        read = nodes.reader(conn)
        for old, new in itertools.pairwise(points):
            proof = tree.prove_consistency(new.size, old.size, read)
            tree.check_consistency(proof, new.size, new.root, old.size, old.root)
            assert tree.tree_hash(new.size, read) == new.root


def test_a_sale_committed_before_a_crash_is_sequenced_after_the_restart(
    make_app: Callable[..., FastAPI], database_url: str, tmp_path: Path, pool_dir: Path
) -> None:
    app = make_app(**QUIET)
    client = TestClient(app)
    token = session(client)["token"]
    assert buy(client, token).status_code == 201  # the pool committed and its files saved
    quiet = {"LOTTERY_LOG_INTERVAL_MS": "3600000"}
    with endpoint_process(tmp_path, pool_dir, database_url, **quiet) as (server, base):
        with httpx.Client(base_url=base, timeout=30) as http:
            headers = {**bearer(token), "Idempotency-Key": "before the crash"}
            bought = http.post("/api/plays", json={"game": LAB_RICHES.id}, headers=headers)
            assert bought.status_code == 201, bought.text
        server.send_signal(signal.SIGKILL)  # before any sequencing
        server.wait(timeout=10)
    number = bought.json()["play_number"]
    services: Services = app.state.services
    with services.db.begin() as conn:
        index = conn.execute(
            select(log_entries.c.log_index).where(log_entries.c.play_number == number)
        ).scalar_one()
        size = conn.execute(select(log_head.c.size)).scalar_one()
    # committed with its sale, not yet in the tree (PostgreSQL's without an index, SQLite's
    # its index as it was appended)
    assert index is None if services.db.url.startswith("postgresql") else index >= size
    with (
        endpoint_process(tmp_path, pool_dir, database_url, LOTTERY_LOG_INTERVAL_MS="50") as (
            _,
            base,
        ),
        httpx.Client(base_url=base, timeout=30) as http,
    ):
        deadline = time.time() + 30
        while (shown := http.get(f"/api/plays/{number}", headers=bearer(token))).json()[
            "log"
        ] is None:
            assert time.time() < deadline, "the sale was never sequenced"
            time.sleep(0.05)
    proof = TlogProof.parse(shown.json()["log"]["proof"])
    checkpoint, _, _ = open_checkpoint(proof.checkpoint, services.log.signer.key, verify)
    assert proof.extra is not None and records.decode(proof.extra)["play"] == number
    leaf = tree.leaf_hash(proof.extra)
    tree.check_inclusion(proof.hashes, checkpoint.size, checkpoint.root, proof.index, leaf)
    check_sales(services, sequenced(services))
