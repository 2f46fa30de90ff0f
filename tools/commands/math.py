"""`build.py math [--json] [--report DIR]`: every registered game's prize table and its exact
figures (engine/games.py)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from engine.games import ids, load_table
from engine.math.figures import feature_share, show2, tier_odds
from engine.money import format_pounds


def summary(game_id: str) -> str:
    """A few lines of plain text about a game's table."""
    table = load_table(game_id)
    lines = [
        f"{table.name} ({table.model}): price {format_pounds(table.price_pence)}, "
        f"pool {table.base_pool_size:,}, odds 1 in {show2(table.odds_one_in)} "
        f"(exactly {table.odds_one_in}), payout {show2(table.rtp * 100)}% (exactly {table.rtp})"
    ]
    for prize, odds in tier_odds(table).items():
        count = table.tier(prize).count
        lines.append(f"  {format_pounds(prize):>14}  {count:>9,}  1 in {show2(odds)}")
    shares = ", ".join(f"{f} {show2(s * 100)}%" for f, s in feature_share(table).items())
    lines.append(f"  payout by feature: {shares}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Print the tables (as JSON with --json) and write a PAR report with --report DIR."""
    parser = argparse.ArgumentParser(prog="build.py math")
    parser.add_argument("--json", action="store_true", help="print the tables as a JSON list")
    parser.add_argument("--report", type=Path, metavar="DIR", help="write the PAR sheet here")
    parser.add_argument(
        "--certify",
        type=Path,
        nargs="*",
        default=[],
        metavar="FILE",
        help="`build.py certify --json` reports to include in the PAR sheet",
    )
    args = parser.parse_args(argv)
    if args.json:
        print(json.dumps([load_table(game).as_json() for game in ids()], indent=1))
    elif not args.report:
        print("\n\n".join(summary(game) for game in ids()))
    if args.report:
        from tools.audit.par_report import write_report

        path = write_report(args.report, args.certify)
        if not args.json:
            print(f"PAR report: {path}")
    return 0
