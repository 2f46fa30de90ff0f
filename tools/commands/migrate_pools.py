"""`build.py migrate-pools [--database-url URL] [--pool-dir DIR]`: move a pool directory into
the database.

Endpoints before pools lived in the database (web/endpoint/pools/vault.py) kept each committed
pool only in LOTTERY_POOL_DIR, which every instance had to share. This stores every committed
pool the database lacks from that directory, each checked leaf by leaf against its
commitment and the root the database recorded, its key and entries sealed with the
pool-encryption key (LOTTERY_POOL_KEY or LOTTERY_POOL_KEY_FILE: the one every instance will be
given). Safe to run again, and while endpoints run; docs/deployment.md.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from web.endpoint.pools.vault import move_in
from web.endpoint.sales.ledger import open_ledger
from web.endpoint.settings import Settings


def main(argv: list[str]) -> int:
    """Move the pools in and say which."""
    parser = argparse.ArgumentParser(
        prog="build.py migrate-pools", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--database-url", help="the endpoint's database (default: DATABASE_URL)")
    parser.add_argument("--pool-dir", type=Path, help="the pool directory (default: the settings')")
    args = parser.parse_args(argv)
    settings = Settings.for_database(args.database_url)
    ledger = open_ledger(settings, time.time)
    try:
        moved = move_in(ledger.pool_cache.vault, args.pool_dir or settings.pools_path)
    except (OSError, ValueError) as error:
        parser.exit(1, f"migrate-pools: {error}\n")
    finally:
        ledger.db.dispose()
    for pool_id in moved:
        print(f"moved in {pool_id}")
    print(f"{len(moved)} pool(s) moved into the database")
    return 0
