"""`build.py retire-pool --game G [--database-url URL] [--close-only] [--json]`: retire a pool.

Closes the game's current pool at once (web/endpoint/reveal.py): no entry of it is sold after
the command returns, its unsold entries never are, and its reveal becomes public at
GET /api/pools/{game}/{pool_id}/reveal. Then, unless --close-only, it lays out the next pool
and commits its root (as the endpoint would at the next sale), so the game stays on sale
without a wait. Run it with the endpoint's configuration (DATABASE_URL or --database-url,
LOTTERY_VAR_DIR, LOTTERY_POOL_DIR shared with the endpoint processes, LOTTERY_POOL_SIZE, the
signing key settings: docs/endpoint.md); running endpoints need no restart.
"""

from __future__ import annotations

import argparse
import json
import time

from engine import games
from web.endpoint import reveal
from web.endpoint.errors import ApiError
from web.endpoint.ledger import open_ledger
from web.endpoint.settings import Settings


def main(argv: list[str]) -> int:
    """Retire the pool, commit the next, print what was done."""
    parser = argparse.ArgumentParser(
        prog="build.py retire-pool", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--game", required=True, choices=games.ids())
    parser.add_argument("--database-url", help="the endpoint's database (default: DATABASE_URL)")
    parser.add_argument(
        "--close-only", action="store_true", help="leave laying out the next pool to the endpoint"
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    ledger = open_ledger(Settings.for_database(args.database_url), time.time)
    db = ledger.db
    try:
        try:
            retired = reveal.retire(ledger, args.game)
        except (LookupError, ApiError) as error:
            parser.exit(1, f"retire-pool: {error}\n")
        result = {"retired": retired, "next": None}
        if not args.close_only:
            ledger.ensure_pool(args.game)
            with db.begin() as conn:
                row = ledger.current_pool(conn, args.game)
            assert row is not None
            result["next"] = {"pool_id": row.pool_id, "root": row.root, "size": row.size}
    finally:
        db.dispose()
    if args.json:
        print(json.dumps(result))
        return 0
    was = "was already closed" if retired["already_closed"] else "is retired"
    print(
        f"pool {retired['pool_id']} of {args.game} {was} ({retired['reason']}, "
        f"{retired['closed_at']}): {retired['sold']:,} of {retired['size']:,} entries sold; "
        f"its reveal: GET /api/pools/{args.game}/{retired['pool_id']}/reveal"
    )
    upcoming = result["next"]
    if upcoming:
        print(
            f"pool {upcoming['pool_id']} (root {upcoming['root']}) is committed for the next sale"
        )
    else:
        print("the endpoint lays out and commits the next pool at the next sale")
    return 0
