"""The public log's routes (web/endpoint/http/routes/log.py): the checkpoint as text, tiles by
their c2sp.org/tlog-tiles paths with their cache headers and 404s beyond the newest
checkpoint, the policy, consistency proofs between checkpointed sizes only."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from engine import games
from engine.tlog import policy, tiles, tree
from engine.tlog.note import open_checkpoint
from tests.endpoint.conftest import bearer, buy, sequencer_of, session
from web.endpoint.http.services import Services
from web.endpoint.log.signer import verify

QUIET = {"log_interval_ms": 3_600_000}  # (sequenced by hand)
GAME = games.get("lab-riches")


@pytest.fixture
def served(make_app: Callable[..., FastAPI]) -> Iterator[tuple[Services, TestClient, str]]:
    """An app with 300 records in its log (a full tile and a partial one), a client and a
    session's token."""
    app = make_app(**QUIET)
    services: Services = app.state.services
    with TestClient(app) as client:
        token = session(client)["token"]
        assert client.get("/log/checkpoint").status_code == 404  # none signed yet
        services.pools.ensure(GAME.id)  # (the pool's commitment, then 299 sales)
        buyer = services.accounts.create(299 * GAME.price_pence)
        for n in range(0, 299, 50):
            keys = [(buyer, f"k{k}") for k in range(n, min(n + 50, 299))]
            assert None not in services.checkout.seller.sell_batch(GAME, keys)
        sequencer_of(services).run()
        yield services, client, token


def test_the_checkpoint_is_signed_text_fetched_afresh(
    served: tuple[Services, TestClient, str],
) -> None:
    services, client, _ = served
    answer = client.get("/log/checkpoint")
    assert answer.headers["content-type"] == "text/plain; charset=utf-8"
    assert answer.headers["cache-control"] == "no-cache"
    checkpoint, _, _ = open_checkpoint(answer.text, services.log.signer.key, verify)
    assert (checkpoint.origin, checkpoint.size) == ("lottery.invalid/log", 300)


def test_tiles_by_path_with_their_cache_headers(served: tuple[Services, TestClient, str]) -> None:
    _, client, _ = served
    full = client.get("/log/tile/0/000")
    assert full.status_code == 200 and len(full.content) == 256 * 32
    assert full.headers["content-type"] == "application/octet-stream"
    assert full.headers["cache-control"] == "public, max-age=31536000, immutable"
    partial = client.get("/log/tile/0/001.p/44")
    assert partial.status_code == 200 and len(partial.content) == 44 * 32
    assert partial.headers["cache-control"] == "public, max-age=60"
    assert len(client.get("/log/tile/1/000.p/1").content) == 32
    bundle = client.get("/log/tile/entries/001.p/44").content
    assert tiles.bundle_leaves(bundle) == tiles.split_hashes(partial.content)
    assert tiles.split_hashes(full.content)[255] == tree.leaf_hash(
        tiles.decode_bundle(client.get("/log/tile/entries/000").content)[255]
    )


@pytest.mark.parametrize(
    "path",
    [
        "0/001",  # full, beyond the checkpoint (300 leaves)
        "0/001.p/45",
        "1/000",
        "2/000.p/1",
        "entries/002.p/1",
        "0/1",  # not a tile's path
        "0/000.p/256",
        "0/x000/000",
        "64/000",
    ],
)
def test_a_tile_beyond_the_checkpoint_or_not_a_tile_is_404(
    served: tuple[Services, TestClient, str], path: str
) -> None:
    _, client, _ = served
    answer = client.get(f"/log/tile/{path}")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_in_log"


def test_the_policy_is_the_log_key_with_no_quorum(served: tuple[Services, TestClient, str]) -> None:
    services, client, _ = served
    text = client.get("/log/policy").text
    assert policy.parse(text).logs == [(services.log.signer.key, None)]
    assert policy.parse(text).quorum == "none"


def test_consistency_only_between_checkpointed_sizes(
    served: tuple[Services, TestClient, str],
) -> None:
    services, client, token = served
    buy(client, token)
    sequencer_of(services).run()
    assert client.get("/api/log/consistency?old=300&new=301").status_code == 200
    assert client.get("/api/log/consistency?old=0&new=301").json()["proof"] == []
    for old, new in [(299, 301), (301, 300), (300, 302)]:
        answer = client.get(f"/api/log/consistency?old={old}&new={new}")
        assert answer.status_code == 404, (old, new)
    assert client.get("/api/log/consistency?old=-1&new=3").status_code == 422


def test_a_play_s_proof_is_its_own_account_s(served: tuple[Services, TestClient, str]) -> None:
    _, client, token = served
    number = buy(client, token).json()["play_number"]
    other = session(client)["token"]
    assert client.get(f"/api/plays/{number}/proof", headers=bearer(other)).status_code == 404
    unlogged = client.get(f"/api/plays/{number}/proof", headers=bearer(token))
    assert unlogged.status_code == 404 and unlogged.json()["error"]["code"] == "not_in_log"
