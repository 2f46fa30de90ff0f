"""`build.py settle [--database-url URL] [--json]`: settle every overdue play once.

A play not finished within the play timeout (LOTTERY_PLAY_TIMEOUT_SECONDS, 24 h) is finished
with finished_by "auto" and its prize credited, exactly as the endpoint's own sweeper does; this
command does it on demand, e.g. from cron or before a report. It prints how many plays it
settled. Safe to run while endpoints serve and with other settlers at once (docs/endpoint.md,
Settlement). With LOTTERY_TEST_MODE=1 it reads the ledger's clock as moved on by
`POST /api/test/clock` (kept in the database's meta table).

Configuration comes from LOTTERY_* variables and DATABASE_URL (docs/endpoint.md).
"""

from __future__ import annotations

import argparse
import json
import time

from web.endpoint.sales.settlement import settle
from web.endpoint.sales.statements import Statements
from web.endpoint.settings import Settings
from web.endpoint.store.database import Database
from web.endpoint.testmode.clock import read_clock_offset


def main(argv: list[str]) -> int:
    """Settle the overdue plays; print how many (JSON with --json)."""
    parser = argparse.ArgumentParser(prog="build.py settle")
    parser.add_argument("--database-url", help="the ledger's database (default: DATABASE_URL)")
    parser.add_argument("--json", action="store_true", help='print {"settled": N} only')
    args = parser.parse_args(argv)
    settings = Settings.for_database(args.database_url)
    db = Database(settings.db_url, settings.db_pool_size, settings.db_connect_timeout_seconds)
    try:
        db.migrate()
        offset = read_clock_offset(db) if settings.test_mode else 0
        now = int(time.time() * 1000) + offset
        timeout_ms = settings.play_timeout_seconds * 1000
        settled = settle(db, Statements(db.engine.dialect), now, timeout_ms)
    finally:
        db.dispose()
    if args.json:
        print(json.dumps({"settled": settled, "now": now}))
    else:
        print(f"settled {settled} overdue play{'' if settled == 1 else 's'}")
    return 0
