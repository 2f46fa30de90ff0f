"""`build.py rotate-pool-key --new-key-file PATH [--database-url URL]`: change the
pool-encryption key.

Re-seals every pool the database keeps (web/endpoint/pools/vault.py) and its key check with the
new key (64 hex digits in PATH, as LOTTERY_POOL_KEY_FILE), in one transaction, each row read back
and opened with the new key before the commit. The old key is the configured one
(LOTTERY_POOL_KEY or LOTTERY_POOL_KEY_FILE, as for the endpoint): if it is not the one the pools
are sealed with, nothing changes. Stop every endpoint instance first, rotate, then start them
all with the new key: an instance still given the old key refuses to start (docs/deployment.md).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from web.endpoint.pools.vault import Seal, parse_key, rotate
from web.endpoint.sales.ledger import open_ledger
from web.endpoint.settings import Settings


def main(argv: list[str]) -> int:
    """Re-seal the pools with the new key and say how many."""
    parser = argparse.ArgumentParser(
        prog="build.py rotate-pool-key", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--new-key-file", type=Path, required=True, help="the new key: a file of 64 hex digits"
    )
    parser.add_argument("--database-url", help="the endpoint's database (default: DATABASE_URL)")
    args = parser.parse_args(argv)
    try:
        new_key = parse_key(args.new_key_file.read_text(encoding="ascii"), str(args.new_key_file))
        ledger = open_ledger(Settings.for_database(args.database_url), time.time)
    except (OSError, ValueError) as error:  # (PoolKeyMismatch: not the pools' key)
        parser.exit(1, f"rotate-pool-key: {error}\n")
    try:
        rotated = rotate(ledger.pool_cache.vault, Seal(new_key))
    except ValueError as error:
        parser.exit(1, f"rotate-pool-key: {error}\n")
    finally:
        ledger.db.dispose()
    print(f"{len(rotated)} pool(s) and the key check re-sealed with the new key")
    return 0
