"""`build.py audit-log` (tools/commands/audit_log.py, tools/audit/log.py and log_records.py)
against logs a test writes as their operator would (tests/log_site.py) and serves over real
HTTP: an honest log passes with the right prizes remaining; each dishonest one is flagged with a
sentence naming what is wrong and where."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.math.pool import Pool
from engine.tlog import records, tiles
from tests.log_site import (
    TIME,
    Limited,
    Operator,
    commitment,
    new_key,
    reveal_document,
    sale,
    served,
)
from tests.log_site import small_pool as make_pool
from tools.commands import audit_log


@pytest.fixture(scope="module")
def pools() -> tuple[Pool, Pool]:
    return make_pool(), make_pool()


def audit(capsys: pytest.CaptureFixture[str], url: str, *flags: str) -> tuple[int, dict[str, Any]]:
    """Run the command with --json; (exit status, report)."""
    code = audit_log.main([url, *flags, "--json"])
    return code, json.loads(capsys.readouterr().out)


def honest(op: Operator, a: Pool, b: Pool) -> None:
    """Pool a: committed, 10 sales, retired, revealed; pool b: committed, 5 sales, open."""
    op.append(commitment(a))
    for i in range(10):
        op.append(sale(a, 1 + i, i))
    op.append(commitment(b))
    op.append(sale(b, 11, 0))
    op.append(records.closing(a.pool_id, "retired", 10, TIME))
    op.reveal(a, 10)
    for i in range(1, 5):
        op.append(sale(b, 11 + i, i))


def problems(report: dict[str, Any]) -> list[str]:
    return [p["problem"] for p in report["problems"]]


def site(tmp_path: Path, quorum: str = "all") -> tuple[Operator, Path]:
    op = Operator(tmp_path / "site")
    policy = tmp_path / "policy"
    policy.write_text(op.policy(quorum), encoding="utf-8")
    return op, policy


def test_an_honest_log_passes_with_the_prizes_remaining(
    tmp_path: Path, pools: tuple[Pool, Pool], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = pools
    op, policy = site(tmp_path)
    honest(op, a, b)
    op.publish()
    with served(op.site) as url:
        code, report = audit(capsys, url, "--policy", str(policy))
        assert (code, report["failed"], report["problems"]) == (0, [], [])
        assert report["checkpoint"]["size"] == len(op.entries) == 19
        assert report["checkpoint"]["witnesses"] == ["witness0.example", "witness1.example"]
        assert list(report["remaining"]) == [b.pool_id]  # pool a is closed
        sold = Counter(b.entry(i).prize_pence for i in range(5))
        tiers = report["remaining"][b.pool_id]["tiers"]
        expected = [
            {"prize_pence": p, "count": n, "sold": sold[p], "remaining": n - sold[p]}
            for p, n in sorted(b.tier_counts().items())
        ]
        assert tiers == expected and report["remaining"][b.pool_id]["sold"] == 5
        assert audit_log.main([url, "--policy", str(policy)]) == 0
    text = capsys.readouterr().out
    assert f"prizes remaining in pool {b.pool_id}" in text and "the audit passed" in text
    assert "1 reveals agree" in text
    with served(op.site, Limited) as url:  # a reveal rate limited: waited for, not missing
        assert audit(capsys, url, "--policy", str(policy))[0] == 0
    assert Limited.turns == 2


def test_without_a_policy_file_the_sites_own_is_used_and_the_report_says_so(
    tmp_path: Path, pools: tuple[Pool, Pool], capsys: pytest.CaptureFixture[str]
) -> None:
    op, _ = site(tmp_path)
    honest(op, *pools)
    op.write("log/policy", op.policy("any").encode())
    op.publish()
    with served(op.site) as url:
        code, report = audit(capsys, url)
    assert code == 0
    assert "the site's own /log/policy" in report["checks"][0]["detail"]
    assert "proves less" in report["checks"][0]["detail"]


def test_a_mirror_grows_with_the_log_and_audits_offline(
    tmp_path: Path, pools: tuple[Pool, Pool], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = pools
    c = make_pool(300)
    op, policy = site(tmp_path)
    honest(op, a, b)
    op.append(commitment(c))
    for i in range(250):  # past one full tile: 270 records
        op.append(sale(c, 100 + i, i))
    op.publish()
    mirror = tmp_path / "mirror"
    with served(op.site) as url:
        code, first = audit(capsys, url, "--policy", str(policy), "--mirror", str(mirror))
        assert code == 0, first["problems"]
        assert "starts the mirror" in first["checks"][2]["detail"]
        for i in range(250, 300):
            op.append(sale(c, 100 + i, i))
        op.append(records.closing(c.pool_id, "sold_out", 300, TIME))
        op.reveal(c, 300)
        op.publish()
        code, second = audit(capsys, url, "--policy", str(policy), "--mirror", str(mirror))
    assert code == 0, second["problems"]
    assert "extends the mirrored one of 270 records" in second["checks"][2]["detail"]
    assert "(2 fetched, 3 from the mirror)" in second["checks"][3]["detail"]
    assert list(second["remaining"]) == [b.pool_id]
    assert (mirror / "log" / tiles.path((0, 1, 322 - 256))).exists()
    assert (mirror / "api/pools/lab-riches" / c.pool_id / "reveal").exists()
    code, offline = audit(capsys, str(mirror), "--policy", str(policy))  # the site is gone
    assert code == 0 and offline["checkpoint"]["size"] == 322


def test_a_second_tree_of_a_size_the_mirror_holds_is_a_fork(
    tmp_path: Path, pools: tuple[Pool, Pool], capsys: pytest.CaptureFixture[str]
) -> None:
    op, policy = site(tmp_path)
    honest(op, *pools)
    op.publish()
    mirror = tmp_path / "mirror"
    with served(op.site) as url:
        assert audit(capsys, url, "--policy", str(policy), "--mirror", str(mirror))[0] == 0
        other = list(op.entries)
        other[3] = records.encode(sale(pools[0], 99, 2))  # another history of one size
        op.publish(other)
        code, report = audit(capsys, url, "--policy", str(policy), "--mirror", str(mirror))
    assert code == 1 and report["failed"][0] == "consistency"
    detail = report["checks"][2]["detail"]
    assert detail.startswith("FORK: the checkpoint of 19 records") and "same size" in detail
    assert list((mirror / "log/fork").iterdir())  # the second signed checkpoint, as evidence
    mirrored = (mirror / "log/checkpoint").read_text()
    assert mirrored != (op.site / "log/checkpoint").read_text()  # the mirror keeps the first


def test_a_larger_tree_that_rewrites_the_mirrored_one_is_a_fork(
    tmp_path: Path, pools: tuple[Pool, Pool], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = pools
    op, policy = site(tmp_path)
    honest(op, a, b)
    op.publish()
    mirror = tmp_path / "mirror"
    with served(op.site) as url:
        assert audit(capsys, url, "--policy", str(policy), "--mirror", str(mirror))[0] == 0
        other = list(op.entries)
        other[2] = records.encode(sale(a, 2, 1) | {"time": TIME + 1})
        other.append(records.encode(sale(b, 30, 5)))
        op.publish(other)
        code, report = audit(capsys, url, "--policy", str(policy), "--mirror", str(mirror))
    assert code == 1 and report["failed"] == ["consistency"]
    assert "is not consistent with the mirrored checkpoint of 19" in report["checks"][2]["detail"]


def test_a_stale_checkpoint_is_no_fork(
    tmp_path: Path, pools: tuple[Pool, Pool], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = pools
    op, policy = site(tmp_path)
    honest(op, a, b)
    old = op.publish(op.entries[:12])
    mirror = tmp_path / "mirror"
    with served(op.site) as url:
        op.publish()
        assert audit(capsys, url, "--policy", str(policy), "--mirror", str(mirror))[0] == 0
        op.write("log/checkpoint", old.encode())  # a cache serving the checkpoint of 12
        code, report = audit(capsys, url, "--policy", str(policy), "--mirror", str(mirror))
    assert code == 0 and "a stale copy, no fork" in report["checks"][2]["detail"]
    assert "19" in (mirror / "log/checkpoint").read_text().split("\n")[1]  # kept the newer


def sales_of(op: Operator, pool: Pool, indices: list[int]) -> None:
    """Log a pool's commitment and sales of these indices."""
    op.append(commitment(pool))
    for n, i in enumerate(indices):
        op.append(sale(pool, 500 + 10 * len(op.entries) + n, i))


@pytest.mark.parametrize(
    ("indices", "at", "words"),
    [
        ([0, 2, 1, 3], 3, "out of order, the next index in order is 1"),
        ([0, 2, 1, 3], 4, "out of order, sold after index 2"),
        ([0, 1, 3, 4], 4, "index 2 to 2 skipped so far"),
        ([0, 1, 1, 2], 4, "index 1 sold twice (first at record 3)"),
        ([0, 1, 100], 4, "beyond the pool's size 100"),
    ],
)
def test_sales_out_of_order_skipped_or_sold_twice_are_flagged(
    tmp_path: Path,
    pools: tuple[Pool, Pool],
    capsys: pytest.CaptureFixture[str],
    indices: list[int],
    at: int,
    words: str,
) -> None:
    op, policy = site(tmp_path)
    a = pools[0]
    op.append(sale(a, 1, 0))
    op.append(commitment(a))
    for n, i in enumerate(indices):
        op.append(sale(a, 500 + n, i % a.size) | {"index": i})
    op.publish()
    with served(op.site) as url:
        code, report = audit(capsys, url, "--policy", str(policy))
    assert code == 1 and report["failed"] == ["records"]
    found = problems(report)
    assert "record 0: a sale of pool" in found[0] and "commitment is not logged before" in found[0]
    assert any(p.startswith(f"record {at}: sale of index") and words in p for p in found), found
    if indices == [0, 1, 3, 4]:
        assert any("index 2 never sold, below sold index 4: a gap" in p for p in found)


def test_a_sale_after_its_pools_closing_and_wrong_sold_counts_are_flagged(
    tmp_path: Path, pools: tuple[Pool, Pool], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = pools
    op, policy = site(tmp_path)
    sales_of(op, a, [0, 1, 2])
    op.append(records.closing(a.pool_id, "retired", 2, TIME))  # record 4: three were sold
    op.append(sale(a, 9, 3))  # record 5
    op.reveal(a, 3)  # record 6: says 3, the log holds 4
    sales_of(op, b, [0])
    op.append(records.closing(b.pool_id, "sold_out", 1, TIME))
    op.publish()
    with served(op.site) as url:
        code, report = audit(capsys, url, "--policy", str(policy))
    found = problems(report)
    assert code == 1
    assert f"record 4: pool {a.pool_id}'s closing says 2 sold; the log holds 3 sales of it" in found
    assert any(
        p.startswith("record 5: sale of index 3") and "closed at record 4" in p for p in found
    )
    assert any("the reveal says 3 sold, the log holds 4 sales" in p for p in found)
    assert f"record 9: pool {b.pool_id} 'sold out' with 1 of 100 sold" in found


def test_a_pool_of_free_plays_has_no_logged_sales(
    tmp_path: Path, pools: tuple[Pool, Pool], capsys: pytest.CaptureFixture[str]
) -> None:
    """Free TRY plays are not logged: a try pool closes and reveals with its plays drawn and
    no sales in the log, and a sale from it is flagged."""
    a, b = pools
    op, policy = site(tmp_path)
    op.append(commitment(a, kind="try"))
    op.append(records.closing(a.pool_id, "retired", 7, TIME))
    op.reveal(a, 7, reveal_document(a, 7, kind="try"))
    op.append(commitment(b, kind="try"))
    op.append(sale(b, 1, 0))
    op.publish()
    with served(op.site) as url:
        code, report = audit(capsys, url, "--policy", str(policy))
    assert code == 1 and report["remaining"] == {}
    assert problems(report) == [
        f"record 4: sale of index 0 of pool {b.pool_id}: the pool is of kind 'try'; only "
        "paid plays are sold"
    ]


def test_a_record_changed_after_a_checkpoint_is_flagged(
    tmp_path: Path, pools: tuple[Pool, Pool], capsys: pytest.CaptureFixture[str]
) -> None:
    op, policy = site(tmp_path)
    honest(op, *pools)
    op.publish()
    bundle = op.site / "log" / tiles.path((-1, 0, 19))
    entries = tiles.decode_bundle(bundle.read_bytes())
    entries[4] = records.encode(sale(pools[0], 5, 3) | {"prize_pence": 0})
    bundle.write_bytes(tiles.encode_bundle(entries))
    with served(op.site) as url:
        code, report = audit(capsys, url, "--policy", str(policy))
        assert code == 1 and report["failed"] == ["tree"]
        assert problems(report) == [
            "record 4 does not hash to its leaf in tile/0/000.p/19: it was changed after it "
            "was logged"
        ]
        op.publish([*op.entries[:4], entries[4], *op.entries[5:]])
        (op.site / "log/checkpoint").write_text(op.checkpoint(op.entries))  # the old checkpoint
        code, report = audit(capsys, url, "--policy", str(policy))
    assert code == 1 and report["failed"] == ["tree"]
    assert problems(report)[0].startswith("the tiles make root")
    assert "not the checkpoint's" in problems(report)[0]


def revealed_log(op: Operator, pool: Pool, document: bytes | None = None) -> None:
    sales_of(op, pool, [0, 1, 2])
    op.append(records.closing(pool.pool_id, "retired", 3, TIME))
    op.reveal(pool, 3, document)


def test_a_pool_revealed_different_from_its_commitment_is_flagged(
    tmp_path: Path, pools: tuple[Pool, Pool], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = pools
    op, policy = site(tmp_path)
    revealed_log(op, a, reveal_document(a, 3, key=b.key.hex()))  # not the key committed to
    op.publish()
    with served(op.site) as url:
        code, report = audit(capsys, url, "--policy", str(policy))
    found = problems(report)
    assert code == 1 and report["failed"] == ["records"]
    assert any(
        "the revealed entries make root" in p and f"not the committed {a.root.hex()}" in p
        for p in found
    )
    assert any(p.startswith("record 1: sale of index 0") and "logged leaf" in p for p in found)


def test_a_revealed_root_or_a_document_other_than_the_logged_one_is_flagged(
    tmp_path: Path, pools: tuple[Pool, Pool], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = pools
    op, policy = site(tmp_path)
    revealed_log(op, a, reveal_document(b, 3, pool_id=a.pool_id))  # another pool, a's name
    op.publish()
    honest_document = reveal_document(a, 3)
    with served(op.site) as url:
        found = problems(audit(capsys, url, "--policy", str(policy))[1])
        assert any(f"committed as 100 with root {a.root.hex()}" in p for p in found), found
        op.write(f"api/pools/lab-riches/{a.pool_id}/reveal", honest_document)  # not the logged
        found = problems(audit(capsys, url, "--policy", str(policy))[1])
    digest = hashlib.sha256(honest_document).hexdigest()
    logged = records.decode(op.entries[5])["digest"]
    assert found == [
        f"record 5: pool {a.pool_id}'s reveal document hashes to {digest}, not the logged "
        f"digest {logged}"
    ]


def test_sales_whose_leaf_or_prize_is_not_the_revealed_entrys_are_flagged(
    tmp_path: Path, pools: tuple[Pool, Pool], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = pools
    op, policy = site(tmp_path)
    op.append(commitment(a))
    op.append(sale(a, 1, 0))
    op.append(sale(b, 2, 1) | {"pool": a.pool_id})  # b's entry sold as a's index 1
    wrong = next(p for p in a.tier_counts() if p != a.entry(2).prize_pence)
    op.append(sale(a, 3, 2) | {"prize_pence": wrong})
    op.append(records.closing(a.pool_id, "retired", 3, TIME))
    op.reveal(a, 3)
    op.publish()
    with served(op.site) as url:
        found = problems(audit(capsys, url, "--policy", str(policy))[1])
    leaf = b.entry(1).leaf().hex()
    assert any(
        p.startswith(f"record 2: sale of index 1 of pool {a.pool_id} logged leaf {leaf}")
        for p in found
    )
    assert any(p.startswith("record 3: sale of index 2") and "logged a £" in p for p in found)


def test_a_checkpoint_not_signed_by_the_policys_log_is_refused(
    tmp_path: Path, pools: tuple[Pool, Pool], capsys: pytest.CaptureFixture[str]
) -> None:
    op, policy = site(tmp_path)
    honest(op, *pools)
    op.publish(log_private=new_key("impostor", 1)[0])
    with served(op.site) as url:
        code, report = audit(capsys, url, "--policy", str(policy))
    assert code == 1 and report["failed"] == ["checkpoint"]
    assert "signature does not verify" in report["checks"][1]["detail"]


def test_too_few_witnesses_for_the_quorum_are_refused(
    tmp_path: Path, pools: tuple[Pool, Pool], capsys: pytest.CaptureFixture[str]
) -> None:
    op, policy = site(tmp_path, quorum="all")
    honest(op, *pools)
    op.publish(cosigners=[1])
    with served(op.site) as url:
        code, report = audit(capsys, url, "--policy", str(policy))
        assert code == 1 and report["failed"] == ["checkpoint"]
        assert report["checks"][1]["detail"] == (
            "the checkpoint is cosigned by witness1.example: too few for the policy's quorum "
            "(witnesses)"
        )
        policy.write_text(op.policy("any"), encoding="utf-8")
        assert audit(capsys, url, "--policy", str(policy))[0] == 0
