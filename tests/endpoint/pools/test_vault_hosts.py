"""Two endpoint instances sharing only PostgreSQL (web/endpoint/pools/vault.py): each its own
process, var directory and EMPTY pool directory (standing in for two hosts), the same keys.
Purchases alternate between them through a pool's rollover, each play shown, finished and
recalled on the other instance, the sold-out pool revealed alike by both; then both sell
under load and one is killed with SIGKILL, and the ledger's invariants are checked: no entry
sold twice, none lost, nothing paid twice. Both sequence one public log (web/endpoint/log/):
they serve the same checkpoints, each consistent with the one before, and every sold play's
record is in it once, each pool's in index order."""

from __future__ import annotations

import base64
import itertools
import secrets
import signal
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import func, select, update

from engine.tlog import records, tiles, tree
from engine.tlog.note import Key, open_checkpoint
from tests.endpoint.sales.test_batch import Buyers, endpoint_process
from web.endpoint.log.signer import LogSigner, verify
from web.endpoint.settings import Settings
from web.endpoint.store.database import Database
from web.endpoint.store.schema import (
    accounts,
    log_checkpoints,
    log_entries,
    plays,
    pools,
    transactions,
)

GAME = "lab-riches"
ALTERNATED = 12  # purchases alternated between the hosts
JUMP_AT, LEFT = 4, 4  # after 4 sales the first pool is moved on to its last 4 entries


def operator_keys() -> dict[str, str]:
    """What the operator gives every instance: the signing key, the session secret, the
    pool-encryption key and the log key (and the log's period, short here)."""
    pem, log_pem = (
        Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        for _ in range(2)
    )
    return {
        "LOTTERY_SIGNING_KEY": pem.decode(),
        "LOTTERY_SESSION_SECRET": secrets.token_hex(32),
        "LOTTERY_POOL_KEY": secrets.token_hex(32),
        "LOTTERY_LOG_KEY": log_pem.decode(),
        "LOTTERY_LOG_INTERVAL_MS": "200",
    }


def log_key(keys: dict[str, str]) -> Key:
    """The log's verifier key, from the operator's log key."""
    private = serialization.load_pem_private_key(keys["LOTTERY_LOG_KEY"].encode(), None)
    assert isinstance(private, Ed25519PrivateKey)
    return LogSigner(Settings().log_origin, private).key


def sequenced(db: Database, hosts: list[httpx.Client]) -> str:
    """Wait until nothing is pending and every host serves the checkpoint covering it all."""
    deadline = time.time() + 30
    while True:
        with db.begin() as conn:
            total = conn.execute(select(func.count()).select_from(log_entries)).scalar_one()
        served = [host.get("/log/checkpoint").text for host in hosts]
        if len(set(served)) == 1 and served[0].split("\n")[1] == str(total):
            return served[0]
        assert time.time() < deadline, "the log was not sequenced"
        time.sleep(0.1)


def check_log(db: Database, host: httpx.Client, key: Key, first_pool_size: int) -> None:
    """One log: its checkpoints each signed by the log key and consistent with the one before,
    its tree (read from the tiles) the newest's root, every sold play's record in it once, each
    pool's sales in index order, and the commitment of each pool before its first sale."""
    with db.begin() as conn:
        notes = (
            conn.execute(select(log_checkpoints.c.note).order_by(log_checkpoints.c.size))
            .scalars()
            .all()
        )
        sold = set(conn.execute(select(plays.c.play_number, plays.c.pool_index)).all())
        first = conn.execute(select(pools.c.pool_id).order_by(pools.c.id).limit(1)).scalar_one()
    points = [open_checkpoint(note, key, verify)[0] for note in notes]
    for old, new in itertools.pairwise(points):
        assert old.size < new.size
        answer = host.get("/api/log/consistency", params={"old": old.size, "new": new.size})
        proof = [base64.b64decode(h) for h in answer.json()["proof"]]
        tree.check_consistency(proof, new.size, new.root, old.size, old.root)
    newest = open_checkpoint(host.get("/log/checkpoint").text, key, verify)[0]
    assert newest == points[-1]

    def fetch(tile: tiles.Tile) -> list[bytes]:
        return tiles.split_hashes(host.get("/log/" + tiles.path(tile)).content)

    assert tree.tree_hash(newest.size, tiles.tile_reader(newest.size, fetch)) == newest.root
    logged = []
    for bundle in tiles.bundles(newest.size):
        data = host.get("/log/" + tiles.path(bundle)).content
        assert tiles.bundle_leaves(data) == fetch((0, bundle[1], bundle[2]))
        logged += [records.decode(entry) for entry in tiles.decode_bundle(data)]
    sales = [(r["play"], r["index"]) for r in logged if r["type"] == "sale"]
    assert len(sales) == len(set(sales)) and set(sales) == sold  # each sold play once
    by_pool: dict[str, list[int]] = {}
    for record in logged:
        if record["type"] == "commitment":
            assert record["pool"] not in by_pool
            by_pool[record["pool"]] = []
        elif record["type"] == "sale":
            by_pool[record["pool"]].append(record["index"])  # (KeyError: sold before committed)
    for pool_id, indices in by_pool.items():
        if pool_id == first:  # its entries before the jump, then its last ones
            assert indices == [*range(JUMP_AT), *range(first_pool_size - LEFT, first_pool_size)]
        else:
            assert indices == list(range(len(indices))), pool_id  # in order, none skipped


def empty_host(tmp_path: Path, name: str) -> tuple[Path, Path]:
    """A host's own directory and its empty pool directory."""
    host = tmp_path / name
    pool_dir = host / "pools"
    pool_dir.mkdir(parents=True, mode=0o700)
    return host, pool_dir


def check_ledger(db: Database, first_pool_size: int) -> int:
    """Every invariant over the two hosts' database; returns the plays sold."""
    with db.begin() as conn:
        entries = conn.execute(select(plays.c.pool_ref, plays.c.pool_index)).all()
        rows = conn.execute(select(pools).where(pools.c.kind == "paid").order_by(pools.c.id)).all()
        charged = conn.execute(
            select(func.count()).where(transactions.c.kind == "purchase")
        ).scalar_one()
        prizes = conn.execute(
            select(transactions.c.play_number, transactions.c.amount_pence).where(
                transactions.c.kind == "prize"
            )
        ).all()
        won = conn.execute(
            select(plays.c.play_number, plays.c.prize_pence).where(
                plays.c.status == "finished", plays.c.prize_pence > 0
            )
        ).all()
        balances = dict(conn.execute(select(accounts.c.id, accounts.c.balance_pence)).all())
        sums = dict(
            conn.execute(
                select(transactions.c.account_id, func.sum(transactions.c.amount_pence)).group_by(
                    transactions.c.account_id
                )
            ).all()
        )
    assert len(set(entries)) == len(entries)  # no entry sold twice
    assert len(rows) >= 2, "the first pool never rolled over"
    for number, row in enumerate(rows):
        sold = {index for ref, index in entries if ref == row.id}
        if number == 0:  # its entries before the jump, and its last ones: none lost
            assert row.size == first_pool_size and row.next_index == row.size
            assert sold == set(range(JUMP_AT)) | set(range(row.size - LEFT, row.size))
        else:
            assert sold == set(range(row.next_index)), row.pool_id  # none skipped
    assert charged == len(entries)  # one debit per play
    assert sorted(prizes) == sorted(won)  # each finished winning play paid once, its prize
    assert balances == sums and min(balances.values()) >= 0
    return len(entries)


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_two_hosts_sharing_only_postgresql_sell_recall_and_reveal_every_pool(
    database_url: str, tmp_path: Path
) -> None:
    keys = operator_keys()
    (host_a, pools_a), (host_b, pools_b) = empty_host(tmp_path, "a"), empty_host(tmp_path, "b")
    db = Database(Settings(database_url=database_url).db_url)
    with ExitStack() as stack:
        server_a, base_a = stack.enter_context(
            endpoint_process(host_a, pools_a, database_url, **keys)
        )
        _, base_b = stack.enter_context(endpoint_process(host_b, pools_b, database_url, **keys))
        hosts = [
            stack.enter_context(httpx.Client(base_url=b, timeout=120)) for b in (base_a, base_b)
        ]
        token = hosts[0].post("/api/session").json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        first_pool: dict[str, Any] = {}
        for n in range(ALTERNATED):
            seller, other = hosts[n % 2], hosts[1 - n % 2]
            if n == JUMP_AT:  # (as if sold on: the rollover comes within the alternation)
                with db.begin() as conn:
                    first_pool = dict(conn.execute(select(pools)).one()._mapping)
                    conn.execute(update(pools).values(next_index=pools.c.size - LEFT))
            headers = {**auth, "Idempotency-Key": secrets.token_hex(8)}
            bought = seller.post("/api/plays", json={"game": GAME}, headers=headers)
            assert bought.status_code == 201, bought.text
            number = bought.json()["play_number"]
            shown = other.get(f"/api/plays/{number}", headers=auth)
            assert shown.status_code == 200, shown.text
            again = seller.get(f"/api/plays/{number}", headers=auth).json()
            for field in ("entry", "proof", "pool", "token", "composition", "prize_pence"):
                assert shown.json()[field] == again[field], field  # (book_hash: once hashed)
            done = other.post(f"/api/plays/{number}/finish", json={"choices": []}, headers=auth)
            assert done.status_code == 200 and done.json()["status"] == "finished", done.text
            recalled = [h.get(f"/api/plays/{number}/recall", headers=auth) for h in hosts]
            assert [r.status_code for r in recalled] == [200, 200], recalled[0].text
            assert recalled[0].json() == recalled[1].json()
        old = f"/api/pools/{GAME}/{first_pool['pool_id']}"
        reveals = [h.get(f"{old}/reveal") for h in hosts]  # each builds it from the database
        assert [r.status_code for r in reveals] == [200, 200], reveals[0].text
        assert reveals[0].json() == reveals[1].json()
        assert reveals[0].json()["root"] == first_pool["root"]
        assert {p.name for p in pools_a.iterdir()} & {p.name for p in pools_b.iterdir()}
        sequenced(db, hosts)  # both serve the one log's same checkpoint
        check_log(db, hosts[0], log_key(keys), first_pool["size"])

        buyers = [Buyers(base_a, 8), Buyers(base_b, 8)]
        for group in buyers:
            group.wait_for(50)
        server_a.send_signal(signal.SIGKILL)  # mid-load: sales are in flight
        server_a.wait(timeout=10)
        buyers[1].wait_for(len(buyers[1].statuses) + 50)  # the other host sells on
        for group in buyers:
            group.stop()
        headers = {**auth, "Idempotency-Key": secrets.token_hex(8)}
        assert hosts[1].post("/api/plays", json={"game": GAME}, headers=headers).status_code == 201
        sequenced(db, hosts[1:])  # (what the killed host sold, committed, is sequenced too)
        check_log(db, hosts[1], log_key(keys), first_pool["size"])
    assert set(buyers[0].statuses) == set(buyers[1].statuses) == {201}
    answered = ALTERNATED + 1 + sum(group.statuses.count(201) for group in buyers)
    assert check_ledger(db, first_pool["size"]) >= answered  # every 201 was committed
    db.dispose()
