"""`build.py retire-pool --game G [--try] [--database-url URL] [--close-only] [--json]`: retire a
pool.

Closes the game's current pool at once (web/endpoint/pools/reveal.py): no entry of it is sold after
the command returns, its unsold entries never are, and its reveal becomes public at
GET /api/pools/{game}/{pool_id}/reveal. Then, unless --close-only, it lays out the next pool
and commits its root (as the endpoint would at the next sale), so the game stays on sale
without a wait. With --try it retires the game's pool of free plays (TRY mode) instead, for
instance so that free plays follow a new prize table at once. Run it with the endpoint's
configuration (DATABASE_URL or --database-url,
LOTTERY_VAR_DIR, the pool-encryption key every endpoint instance has, LOTTERY_POOL_SIZE, the
signing key settings: docs/endpoint.md), on any host; running endpoints need no restart.
"""

from __future__ import annotations

import argparse
import json
import time

from engine import games
from web.endpoint.errors import ApiError
from web.endpoint.pools import reveal
from web.endpoint.pools.pools import PoolKind
from web.endpoint.sales.ledger import open_ledger
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
    parser.add_argument(
        "--try", dest="free", action="store_true", help="the pool of free plays (TRY mode)"
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    ledger = open_ledger(Settings.for_database(args.database_url), time.time)
    db = ledger.db
    try:
        try:
            kind = PoolKind.TRY if args.free else PoolKind.PAID
            retired = reveal.retire(ledger.pools, args.game, kind)
        except (LookupError, ApiError) as error:
            parser.exit(1, f"retire-pool: {error}\n")
        # its reveal written now (web/endpoint/pools/reveal_files.py): no request waits for it
        reveal.write_reveal(ledger.pools, args.game, retired["pool_id"])
        result = {"retired": retired, "next": None}
        if not args.close_only:
            ledger.pools.ensure(args.game, kind=kind)
            with db.begin() as conn:
                row = ledger.pools.current(conn, args.game, kind)
            assert row is not None
            result["next"] = {"pool_id": row.pool_id, "root": row.root, "size": row.size}
    finally:
        db.dispose()
    if args.json:
        print(json.dumps(result))
        return 0
    was = "was already closed" if retired["already_closed"] else "is retired"
    which = "pool of free plays" if args.free else "pool"
    print(
        f"{which} {retired['pool_id']} of {args.game} {was} ({retired['reason']}, "
        f"{retired['closed_at']}): {retired['sold']:,} of {retired['size']:,} entries sold; "
        f"its reveal: GET /api/pools/{args.game}/{retired['pool_id']}/reveal"
    )
    upcoming = result["next"]
    if upcoming:
        print(
            f"{which} {upcoming['pool_id']} (root {upcoming['root']}) is committed for the "
            + ("next free play" if args.free else "next sale")
        )
    else:
        print(f"the endpoint lays out and commits the next {which} when it is next needed")
    return 0
