"""`build.py verify --play N (--api URL | --proof F --keys F --commitment F) ...`: check a play.

    build.py verify --play N --api URL [--session-token T] [--proof FILE] [--keys FILE]
                    [--commitment FILE] [--reveal FILE] [--json]

For auditors and players. Fetches the play (GET /api/plays/{N}, as its player: the bearer
token of docs/api.md, Authentication) or reads the same object saved in a file (--proof FILE),
and the published keys (GET /api/keys, or --keys FILE), then checks, step by step:

  1 signature    the outcome token is a JWS signed with EdDSA (Ed25519) by a published key
                 whose kid is its RFC 7638 thumbprint (docs/token.md)
  2 payload      the signed payload is a paid play's (no `mode` claim: a token of mode "try",
                 a free TRY play, is no play of the ledger and is refused) and names this
                 play, its pool and the entry: index, prize, composition and seed (and the
                 play's own prize and composition agree)
  3 leaf         the entry's leaf hash, computed from the documented scheme (docs/math.md);
                 once the pool is revealed, also that the seed and salt derive from its key
                 and that the revealed entry at that index has this outcome, and that
                 the reveal is of a pool of paid plays
  4 merkle       the proof (one sibling per level, depth 8 + ceil(log2(ceil(size/256)))) leads
                 from the leaf to the pool's root
  5 published    that root is the one the endpoint publishes for the pool
                 (GET /api/pools/{game} while current, and its commitment GET
                 /api/pools/{game}/{pool_id}), and that the pool is one of paid plays (the
                 commitment's `kind` is "paid": a pool of kind "try" only gives free plays)

It says what kind of play (the token's mode) and pool (the commitment's kind) it checked.
Exit 0 when every step passes; 1 naming the first that failed.

Offline, without --api: the play, the keys and the pool's commitment as saved from those
routes (--proof, --keys, --commitment; --reveal with GET /api/pools/{game}/{pool_id}/reveal
once the pool is closed), so evidence kept by an auditor can be checked again after the fact;
step 5 then checks the root against the saved commitment.

Independent of the endpoint's code on purpose: the standard library, httpx and cryptography's
Ed25519 only, from docs/token.md and docs/math.md, so this file, its steps (tools/audit/verify.py)
and the documents are all an auditor needs to read.

The play's proof of logging (docs/log.md, "Checking a play offline"):

    build.py verify --tlog-proof FILE|URL --policy FILE [--play N] [--proof FILE]
                    [--reveal FILE] [--json]
    build.py verify --play N --api URL --policy FILE [--session-token T] ...

checks a play-<N>.tlog-proof (c2sp.org/tlog-proof@v1, as saved from GET /api/plays/{N}/proof,
or fetched from that route with --api) with the tlog-policy the auditor trusts: the record is
a sale (of play N), the checkpoint is signed by the policy's log and cosigned by a quorum of its
witnesses, and the inclusion proof puts the record in that tree; with --proof (the play's
detail) the record is this play's entry, with --reveal the revealed pool holds the record's
leaf and prize at its index (tools/audit/verify_tlog_proof.py). A play with no proof, or whose
record is not in the log, fails.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import httpx

from engine.tlog import policy as tlog_policy
from tools.audit.verify import (
    PAID,
    TRY,
    Steps,
    check_leaf,
    check_merkle,
    check_payload,
    check_published,
    check_signature,
    describe,
    fetch,
    play_kind,
    pool_kind,
)
from tools.audit.verify_tlog_proof import check as check_logged


def read_json(path: Path) -> Any:
    """A saved answer of the endpoint (ValueError when it is not JSON)."""
    return json.loads(path.read_text(encoding="utf-8"))


def main(argv: list[str]) -> int:
    """Fetch (or read) the play and the keys, run the steps, print them; 0 if all pass."""
    parser = argparse.ArgumentParser(prog="build.py verify", description=__doc__.split("\n")[0])
    parser.add_argument("--play", type=int, metavar="N", help="the Play Number")
    parser.add_argument("--api", help="the endpoint's base URL, e.g. http://h:8001")
    parser.add_argument("--session-token", metavar="T", help="the player's bearer token")
    parser.add_argument("--proof", type=Path, metavar="FILE", help="the play's detail, saved")
    parser.add_argument("--keys", type=Path, metavar="FILE", help="GET /api/keys, saved")
    parser.add_argument(
        "--commitment", type=Path, metavar="FILE", help="the pool's commitment, saved"
    )
    parser.add_argument("--reveal", type=Path, metavar="FILE", help="the pool's reveal, saved")
    parser.add_argument(
        "--tlog-proof", metavar="FILE|URL", help="the play's proof of logging (tlog-proof@v1)"
    )
    parser.add_argument("--policy", type=Path, metavar="FILE", help="the tlog-policy to trust")
    parser.add_argument("--json", action="store_true", help="print the steps as JSON")
    args = parser.parse_args(argv)
    if args.tlog_proof or args.policy:
        return logged(parser, args)
    if args.play is None:
        parser.error("--play N is needed (or --tlog-proof FILE --policy FILE)")
    if not args.api and not (args.proof and args.keys and args.commitment):
        parser.error("without --api, give --proof, --keys and --commitment (saved answers)")
    steps = Steps()
    client = httpx.Client(base_url=args.api.rstrip("/"), timeout=120) if args.api else None
    try:
        try:
            if args.proof:
                play = read_json(args.proof)
            else:
                assert client is not None
                status, play = fetch(client, f"/api/plays/{args.play}", args.session_token)
                if status != 200:
                    error = (play or {}).get("error", {}) if isinstance(play, dict) else {}
                    raise ValueError(f"GET /api/plays/{args.play}: {status} {error.get('code')}")
            if args.keys:
                jwks = read_json(args.keys)
            else:
                assert client is not None
                status, jwks = fetch(client, "/api/keys")
                if status != 200:
                    raise ValueError(f"GET /api/keys: {status}")
            if not isinstance(jwks, dict):
                raise ValueError("the keys are not a JSON object")
            if not isinstance(play, dict):
                raise ValueError("the play is not a JSON object")
            saved = read_json(args.commitment) if args.commitment else None
            revealed = read_json(args.reveal) if args.reveal else None
            if args.reveal and not isinstance(revealed, dict):
                raise ValueError("the saved reveal is not a JSON object")
        except (httpx.HTTPError, OSError, ValueError) as error:
            print(f"FAIL  fetch: {error}", file=sys.stderr)
            return 1
        ok, why, payload = check_signature(str(play.get("token", "")), jwks)
        steps.add(1, "signature", ok, why)
        steps.add(2, "payload", *check_payload(payload, play, args.play))
        ok, why, commitment, pool_is = check_published(client, play, saved)
        reveal = revealed
        if reveal is None and client and commitment is not None and commitment.get("closed_at"):
            status, body = fetch(
                client, f"/api/pools/{play.get('game')}/{commitment['pool_id']}/reveal"
            )
            reveal = body if status == 200 and isinstance(body, dict) else None
        if pool_is is None and reveal is not None:
            pool_is = pool_kind(reveal)
        okl, whyl, leaf = check_leaf(play.get("entry") or {}, reveal)
        steps.add(3, "leaf", okl, whyl)
        steps.add(4, "merkle", *check_merkle(leaf, play))
        steps.add(5, "published", ok, why)
    finally:
        if client is not None:
            client.close()
    failed, kind = steps.first_failed, play_kind(payload)
    if args.json:
        print(json.dumps({"play_number": args.play, "ok": failed is None, "failed": failed,
                          "play_kind": kind, "pool_kind": pool_is,
                          "steps": steps.steps}, indent=1))  # fmt: skip
    else:
        for s in steps.steps:
            print(f"{s['step']}. {s['name']:<10} {'PASS' if s['ok'] else 'FAIL'}  {s['detail']}")
        what = {PAID: "a paid play", TRY: "a free TRY play"}.get(
            kind or "", f"a play of mode {kind!r}" if kind else "an unreadable token"
        )
        print(
            f"play {args.play} ({what}, from {describe(pool_is)}): "
            + ("every step passes" if failed is None else f"FAILED at {failed}")
        )
    return 0 if failed is None else 1


def logged(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The play's proof of logging checked against the trusted policy, step by step."""
    if not args.policy:
        parser.error("--tlog-proof needs --policy FILE: the tlog-policy you trust")
    if not args.tlog_proof and not (args.api and args.play is not None):
        parser.error("give --tlog-proof FILE|URL, or --play N and --api URL to fetch it")
    try:
        policy = tlog_policy.parse(args.policy.read_text(encoding="utf-8"))
        detail = read_json(args.proof) if args.proof else None
        reveal = args.reveal.read_bytes() if args.reveal else None
        text, missing = read_tlog_proof(args)
    except (OSError, ValueError, httpx.HTTPError) as error:
        print(f"FAIL  fetch: {error}", file=sys.stderr)
        return 1
    steps = check_logged(text, policy, args.play, detail, reveal, missing)
    failed = steps.first_failed
    if args.json:
        out = {"play_number": args.play, "ok": failed is None, "failed": failed}
        print(json.dumps({**out, "steps": steps.steps}, indent=1))
    else:
        for s in steps.steps:
            print(f"{s['step']}. {s['name']:<10} {'PASS' if s['ok'] else 'FAIL'}  {s['detail']}")
        what = f"play {args.play}'s" if args.play is not None else "the"
        verdict = "every step passes" if failed is None else f"FAILED at {failed}"
        print(f"{what} proof of logging: {verdict}")
    return 0 if failed is None else 1


def read_tlog_proof(args: argparse.Namespace) -> tuple[str | None, str]:
    """The proof's text (None when the site has none for the play) and why it is missing."""
    source = args.tlog_proof
    if source and not source.startswith(("http://", "https://")):
        return Path(source).read_text(encoding="utf-8"), ""
    url = source or f"{args.api.rstrip('/')}/api/plays/{args.play}/proof"
    headers = {"Authorization": f"Bearer {args.session_token}"} if args.session_token else {}
    response = httpx.get(url, headers=headers, timeout=60)
    if response.status_code == 200:
        return response.text, ""
    if response.status_code == 404:
        return None, (
            f"GET {url}: 404, the site has no proof that this play was logged: a sale recorded "
            "in no log, or one no checkpoint covers yet"
        )
    raise httpx.HTTPError(f"GET {url}: {response.status_code}")
