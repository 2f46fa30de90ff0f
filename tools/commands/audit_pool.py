"""`build.py audit-pool --api URL --game G --pool ID [--reveal FILE] [--json]`: recount a pool.

For auditors. Fetches the pool's reveal (GET /api/pools/{game}/{pool_id}/reveal, or reads a
saved copy with --reveal FILE), its commitment as published before the first sale (GET
/api/pools/{game}/{pool_id}) and the game's prize table (GET /api/games), then recomputes every
entry's seed, salt and leaf and the Merkle root from the revealed key and entries, and checks:

  reveal        the reveal is well formed: this game and pool, a 32-byte key, `size` entries,
                every outcome code in the catalogue
  model         the pool's model is the model of the published prize table
  root          the recomputed root equals the revealed root, and the pool id is its first
                16 hex digits
  commitment    the commitment published before the first sale has the same root, size, model
                and catalogue (and its per-outcome counts equal the recount)
  tiers         the number of entries of each prize equals the table's count x size / base pool
  compositions  the number of entries of each composition equals its exact share of its tier

Exit 0 and a plain report when every check holds; exit 1 naming each failed check.

Written independently of the endpoint and engine/math on purpose (that is the point of an
audit): only the standard library and httpx, from the scheme in docs/math.md ("Leaf, tree,
proof"), so an auditor can read this file, its recount (tools/audit/pool.py) and the document
side by side.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from tools.audit.pool import Audit, audit


def fetch(client: httpx.Client, path: str) -> Any:
    """GET a JSON answer; raises httpx.HTTPError (with the API's error) when not 200."""
    response = client.get(path)
    if response.status_code != 200:
        try:
            error = response.json()["error"]
            why = f"{error['code']}: {error['message']}"
        except (ValueError, KeyError, TypeError):
            why = response.text[:200]
        raise httpx.HTTPError(f"GET {path}: {response.status_code} {why}")
    return response.json()


def report(lines: Callable[[str], None], result: Audit, figures: dict[str, Any]) -> None:
    """The plain report: one line per check."""
    for item in result.checks:
        lines(f"{'PASS' if item['ok'] else 'FAIL'}  {item['check']:<12}  {item['detail']}")
    if result.failed:
        lines(f"the audit FAILED: {', '.join(result.failed)}")
    else:
        lines("the audit passed: the pool held exactly the published prize table, in the order "
              "committed to before its first sale")  # fmt: skip


def main(argv: list[str]) -> int:
    """Fetch, recount, report; 0 when every check holds, 1 naming the failed checks."""
    parser = argparse.ArgumentParser(prog="build.py audit-pool", description=__doc__.split("\n")[0])
    parser.add_argument("--api", required=True, help="the endpoint's base URL, e.g. http://h:8001")
    parser.add_argument("--game", required=True)
    parser.add_argument("--pool", required=True, metavar="ID", help="the pool id (16 hex digits)")
    parser.add_argument("--reveal", type=Path, metavar="FILE", help="a saved reveal to audit")
    parser.add_argument("--json", action="store_true", help="print the checks as JSON")
    args = parser.parse_args(argv)
    base = args.api.rstrip("/")
    with httpx.Client(base_url=base, timeout=120) as client:
        try:
            if args.reveal:
                reveal = json.loads(args.reveal.read_text(encoding="utf-8"))
            else:
                reveal = fetch(client, f"/api/pools/{args.game}/{args.pool}/reveal")
            catalogue = fetch(client, "/api/games")["games"]
        except (httpx.HTTPError, OSError, ValueError) as error:
            print(f"FAIL  fetch         {error}", file=sys.stderr)
            return 1
        table = next((g for g in catalogue if g.get("id") == args.game), None)
        try:
            commitment = fetch(client, f"/api/pools/{args.game}/{args.pool}")
        except (httpx.HTTPError, ValueError):
            commitment = None
    result, figures = audit(reveal, table, commitment, args.game, args.pool)
    if args.json:
        out = {
            "game": args.game,
            "pool_id": args.pool,
            "ok": not result.failed,
            "failed": result.failed,
            "checks": result.checks,
            **figures,
        }
        print(json.dumps(out, indent=1))
    else:
        report(print, result, figures)
    return 1 if result.failed else 0
