"""`build.py bench --load|--engine|--endpoint|--frames|--paths [--json]`: print benchmark figures;
`--load|--endpoint --against REF [--rounds N]`: this checkout beside commit REF, in turn;
`--endpoint --rounds N`: the medians of N rounds of the endpoint's benchmark.

Each flag names a module tools.bench_<flag> whose `run() -> dict` measures one
target; the figures are printed as one JSON object keyed by flag (or, with a
single flag, that flag's object alone).
"""

from __future__ import annotations

import argparse
import importlib
import json

BENCHES = ("load", "engine", "endpoint", "frames", "paths")


def main(argv: list[str]) -> int:
    """Run the selected benchmarks and print their figures."""
    parser = argparse.ArgumentParser(prog="build.py bench")
    for name in BENCHES:
        parser.add_argument(f"--{name}", action="store_true", help=f"run the {name} benchmark")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument(
        "--against",
        metavar="REF",
        help="with --load or --endpoint: this checkout side by side with commit REF, in turn",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        help="--against: rounds of runs (--load: 8 visits a page, --endpoint: 5); --endpoint "
        "alone: the medians of N rounds (1)",
    )
    args = parser.parse_args(argv)
    chosen = [name for name in BENCHES if getattr(args, name)] or list(BENCHES)
    if args.against is not None and chosen not in (["load"], ["endpoint"]):
        parser.error("--against compares --load or --endpoint, one at a time")
    if args.rounds is not None and args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.against is None and args.rounds is not None and chosen != ["endpoint"]:
        parser.error("--rounds without --against is for --endpoint alone")
    results = {}
    if args.against is not None:
        module = importlib.import_module(f"tools.bench_{chosen[0]}")
        rounds = [args.rounds] if args.rounds is not None else []
        compared = module.compare(args.against, *rounds)
        print(json.dumps(compared, indent=None if args.json else 2, sort_keys=True))
        return 0
    for name in chosen:
        module = importlib.import_module(f"tools.bench_{name}")
        results[name] = module.run(args.rounds) if args.rounds is not None else module.run()
    out = results[chosen[0]] if len(chosen) == 1 else results
    print(json.dumps(out, indent=None if args.json else 2, sort_keys=True))
    return 0
