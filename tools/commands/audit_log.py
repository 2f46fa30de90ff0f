"""`build.py audit-log URL [--policy FILE] [--mirror DIR] [--json]`: audit the public log.

For auditors. URL is the site's origin (its log at URL/log/, its pools at URL/api/pools/), a
file:// URL or a directory holding a mirror of it. Checks, in order:

  policy       whose signatures count: --policy FILE, the policy the auditor trusts, or else
               the site's own URL/log/policy (which proves less: the site chose it)
  checkpoint   URL/log/checkpoint is signed by a log of the policy and cosigned by a quorum of
               its witnesses
  consistency  with --mirror DIR, the checkpoint's tree and the one mirrored by an earlier
               audit are one history (a consistency proof from the tiles): two trees of one
               size, or a tree that does not extend the mirrored one, is a FORK
  tree         every tile and entry bundle the checkpoint needs, the tree rebuilt from the
               records up: each record hashes to its leaf, each tile's hashes to the tiles
               below, and the root is the checkpoint's (a record changed after it was logged
               fails here)
  records      every record in log order (tools/audit/log_records.py): each pool committed
               before its sales, its indices sold 0, 1, 2, ... once each with no gap and none
               beyond its size, tiers of its table and never beyond their counts, nothing
               sold after its closing, the closing's count its sales'; each revealed pool's
               reveal (URL/api/pools/{game}/{pool}/reveal) hashes to the logged digest, has
               the committed root, size and table, and at each sold index the sale's leaf and
               prize, and as many sold as logged

Then the prizes remaining per tier of each open pool (its table minus its logged sales). With
--mirror DIR, every tile, the checkpoint and each reveal checked are kept in DIR at the site's
paths, so the next audit fetches only what is new, and `build.py audit-log DIR` audits offline.
Exit 0 when everything holds; 1 naming each failure, the records' by their index in the log.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

from engine.tlog import policy as tlog_policy
from engine.tlog import tiles
from engine.tlog.note import Checkpoint, NoteError
from tools.audit.log import (
    CHECKPOINT,
    POLICY,
    FetchError,
    Mirror,
    Source,
    Tiles,
    check_tiles,
    consistent,
    fetch_tiles,
    open_with_policy,
    records,
    signed_by_log,
)
from tools.audit.log_records import Records, pence
from tools.audit.pool import Audit

SHOWN = 50  # problems printed (all of them in --json)


def read_policy(source: Source, path: Path | None, result: Audit) -> tlog_policy.Policy | None:
    """The policy to trust: the auditor's file, else the site's own (and the report says so)."""
    try:
        if path is not None:
            text, where = path.read_text(encoding="utf-8"), f"the auditor's policy {path}"
        else:
            data = source.get(POLICY)
            if data is None:
                raise FetchError(f"the site serves no {POLICY}")
            text = data.decode("utf-8")
            where = (
                "the site's own /log/policy (no --policy FILE given: trusting the site's "
                "own choice of log key and witnesses proves less)"
            )
        policy = tlog_policy.parse(text)
    except (OSError, UnicodeDecodeError, FetchError, tlog_policy.PolicyError) as error:
        result.check("policy", False, f"no policy to check the checkpoint with: {error}")
        return None
    logs = ", ".join(key.name for key, _ in policy.logs)
    result.check(
        "policy",
        True,
        f"{where}: log {logs}, {len(policy.witnesses)} witnesses, quorum {policy.quorum}",
    )
    return policy


def run(source: Source, policy_file: Path | None, mirror: Mirror | None) -> dict[str, Any]:
    """Every check in order; the report as a JSON-ready dict."""
    result = Audit()
    out: dict[str, Any] = {"checks": result.checks, "problems": [], "remaining": {}}
    policy = read_policy(source, policy_file, result)
    if policy is None:
        return out
    try:
        data = source.get(CHECKPOINT)
        if data is None:
            raise FetchError(f"the site serves no {CHECKPOINT}")
        text = data.decode("utf-8")
        checkpoint, witnesses = open_with_policy(text, policy)
    except (FetchError, UnicodeDecodeError, NoteError) as error:
        result.check("checkpoint", False, str(error))
        return out
    out["checkpoint"] = {
        "origin": checkpoint.origin,
        "size": checkpoint.size,
        "root": checkpoint.root.hex(),
        "witnesses": witnesses,
    }
    result.check(
        "checkpoint",
        True,
        f"{checkpoint.origin}: {checkpoint.size:,} records, root "
        f"{checkpoint.root.hex()}, signed by the log, cosigned by "
        f"{', '.join(witnesses) or 'no witness (the quorum is none)'}",
    )
    old = mirrored_checkpoint(mirror, policy, result)
    try:
        got, problems = rebuild(checkpoint, source, mirror)
    except FetchError as error:
        result.check("tree", False, str(error))
        return out
    fork = None
    if mirror is not None and not problems:
        fork = check_consistency(checkpoint, data, old, got, mirror, result)
    out["problems"] = [{"record": None, "problem": p} for p in problems]
    fetched = len(got.data) - len(got.mirrored)
    rebuilt = (
        f"{len(got.data)} tiles and bundles ({fetched} fetched, {len(got.mirrored)} from the "
        "mirror) rebuild to the checkpoint's root from its records"
    )
    if not result.check("tree", not problems, f"{len(problems)} problems" if problems else rebuilt):
        return out
    log, reveals = audit_records(got, source, mirror)
    out["problems"] += [{"record": at, "problem": text} for at, text in log.problems]
    counts = ", ".join(
        f"{log.count[k]:,} {k}s" for k in ("commitment", "sale", "closing", "reveal")
    )
    result.check(
        "records",
        not log.problems,
        f"{len(log.problems)} problems in the records"
        if log.problems
        else f"{checkpoint.size:,} records ({counts}), every pool's "
        f"sales in order and once each, {len(reveals)} reveals agree",
    )
    out["remaining"] = log.remaining()
    if mirror is not None and not fork:
        for tile, raw in got.data.items():
            if tile not in got.mirrored:
                mirror.write("log/" + tiles.path(tile), raw)
        for path, raw in reveals.items():
            mirror.write(path, raw)
        if old is None or checkpoint.size >= old.size:
            mirror.write(CHECKPOINT, data)
    return out


def rebuild(
    checkpoint: Checkpoint, source: Source, mirror: Mirror | None
) -> tuple[Tiles, list[str]]:
    """The checkpoint's tiles (the mirror's where it has them) and the problems rebuilding its
    tree; when the mirror's tiles and the site's new ones disagree, the site's alone, to tell
    a fork (the site's tree holds, but not with the mirror's) from a record changed."""
    got = fetch_tiles(checkpoint.size, source, mirror, use_mirror=True)
    problems = check_tiles(got, checkpoint.root)
    if problems and got.mirrored:
        got = fetch_tiles(checkpoint.size, source, mirror, use_mirror=False)
        problems = check_tiles(got, checkpoint.root)
    return got, problems


def check_consistency(
    checkpoint: Checkpoint,
    data: bytes,
    old: Checkpoint | None,
    got: Tiles,
    mirror: Mirror,
    result: Audit,
) -> str | None:
    """The consistency check with the mirrored checkpoint; the fork in words, if any (its
    signed checkpoint kept in the mirror's log/fork/ as evidence)."""
    if old is None:
        result.check(
            "consistency",
            True,
            f"no checkpoint mirrored yet in {mirror.directory}: this audit starts the mirror",
        )
        return None
    fork = consistent(old, checkpoint, got, lambda: from_mirror(mirror, old.size))
    result.check("consistency", fork is None, fork or consistency_words(old, checkpoint))
    if fork:
        name = hashlib.sha256(data).hexdigest()[:16]
        mirror.write(f"log/fork/checkpoint-{checkpoint.size}-{name}", data)
    return fork


def mirrored_checkpoint(
    mirror: Mirror | None, policy: tlog_policy.Policy, result: Audit
) -> Checkpoint | None:
    """The checkpoint an earlier audit mirrored (checked again: signed by the policy's log)."""
    data = mirror.read(CHECKPOINT) if mirror is not None else None
    if data is None:
        return None
    try:
        return signed_by_log(data.decode("utf-8"), policy)
    except (UnicodeDecodeError, NoteError) as error:
        result.check("mirror", False, f"the mirrored checkpoint does not verify: {error}")
        return None


def from_mirror(mirror: Mirror, size: int) -> Tiles:
    """The mirrored tree's tiles (checked when they were mirrored)."""
    return fetch_tiles(size, Source(str(mirror.directory)), None, use_mirror=False)


def consistency_words(old: Checkpoint, new: Checkpoint) -> str:
    if new.size < old.size:
        return (
            f"the site's checkpoint ({new.size:,} records) is older than the mirrored one "
            f"({old.size:,}) and a prefix of it: a stale copy, no fork"
        )
    return (
        f"the checkpoint's tree extends the mirrored one of {old.size:,} records (root "
        f"{old.root.hex()}): one history"
    )


def audit_records(
    got: Tiles, source: Source, mirror: Mirror | None
) -> tuple[Records, dict[str, bytes]]:
    """Every record checked, then each revealed pool against its reveal; the reveals that
    hash to their logged digests, by path (to mirror)."""
    log = Records()
    for at, data in enumerate(records(got)):
        log.add(at, data)
    log.finish()
    good: dict[str, bytes] = {}
    for name, pool in log.pools.items():
        if pool.reveal is None:
            continue
        path = f"api/pools/{pool.game}/{name}/reveal"
        document = mirror.read(path) if mirror is not None else None
        try:
            document = document or source.get(path)
        except FetchError:
            document = None
        log.check_reveal(name, document)
        if document is not None and hashlib.sha256(document).hexdigest() == pool.reveal[1]:
            good[path] = document
    return log, good


def report(out: dict[str, Any]) -> list[str]:
    """The plain report's lines."""
    lines = [
        f"{'PASS' if c['ok'] else 'FAIL'}  {c['check']:<12} {c['detail']}" for c in out["checks"]
    ]
    for item in out["problems"][:SHOWN]:
        lines.append(f"      {item['problem']}")
    if len(out["problems"]) > SHOWN:
        lines.append(f"      ... and {len(out['problems']) - SHOWN} more (--json lists them all)")
    size = out.get("checkpoint", {}).get("size")
    for name, pool in out["remaining"].items():
        lines.append(
            f"prizes remaining in pool {name} ({pool['game']}, {pool['model']}), from "
            f"the log's checkpoint of {size:,} records: {pool['sold']:,} of "
            f"{pool['size']:,} sold"
        )
        for tier in reversed(pool["tiers"]):
            lines.append(
                f"  {pence(tier['prize_pence']):>14}  {tier['remaining']:>10,} of "
                f"{tier['count']:,} left"
            )
    failed = [c["check"] for c in out["checks"] if not c["ok"]]
    lines.append(
        f"the audit FAILED: {', '.join(failed)}"
        if failed
        else "the audit passed: one history, every sale in order, once, from its committed pool"
    )
    return lines


def main(argv: list[str]) -> int:
    """Audit, report; 0 when every check holds, 1 naming the failures."""
    parser = argparse.ArgumentParser(prog="build.py audit-log", description=__doc__.split("\n")[0])
    parser.add_argument("url", help="the site's origin, a file:// URL or a mirror's directory")
    parser.add_argument("--policy", type=Path, metavar="FILE", help="the tlog-policy to trust")
    parser.add_argument("--mirror", type=Path, metavar="DIR", help="keep and extend a mirror")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    source = Source(args.url)
    try:
        out = run(source, args.policy, Mirror(args.mirror) if args.mirror else None)
    finally:
        source.close()
    failed = [c["check"] for c in out["checks"] if not c["ok"]]
    out["ok"], out["failed"] = not failed, failed
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print("\n".join(report(out)))
    return 1 if failed else 0
