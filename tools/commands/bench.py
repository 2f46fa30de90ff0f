"""`build.py bench --load|--bytes|--engine|--endpoint|--flood|--frames|--paths|--limiter
[--json]`: print benchmark figures; `--load|--endpoint|--flood --against REF [--rounds N]`: this
checkout beside commit REF, in turn; `--endpoint --rounds N`: the medians of N rounds of the
endpoint's benchmark; `--flood --rounds N`: N runs of the reveal flood beside purchases
(tools/bench/flood.py).

Each flag names a module tools.bench.<flag> whose `run() -> dict` measures one
target; the figures are printed as one JSON object keyed by flag (or, with a
single flag, that flag's object alone).
"""

from __future__ import annotations

import argparse
import importlib
import json

BENCHES = ("load", "bytes", "engine", "endpoint", "flood", "frames", "paths", "limiter")
COMPARED = (["load"], ["endpoint"], ["flood"])  # what --against compares, one at a time
ROUNDS = (["endpoint"], ["flood"])  # what --rounds repeats without --against


def main(argv: list[str]) -> int:
    """Run the selected benchmarks and print their figures."""
    parser = argparse.ArgumentParser(prog="build.py bench")
    for name in BENCHES:
        parser.add_argument(f"--{name}", action="store_true", help=f"run the {name} benchmark")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument(
        "--against",
        metavar="REF",
        help="with --load, --endpoint or --flood: this checkout side by side with commit REF",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        help="--against: rounds of runs (--load: 8 visits a page, --endpoint: 5, --flood: 2); "
        "--endpoint alone: the medians of N rounds (1); --flood alone: N runs (2)",
    )
    args = parser.parse_args(argv)
    chosen = [name for name in BENCHES if getattr(args, name)] or list(BENCHES)
    if args.against is not None and chosen not in COMPARED:
        parser.error("--against compares --load, --endpoint or --flood, one at a time")
    if args.rounds is not None and args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.against is None and args.rounds is not None and chosen not in ROUNDS:
        parser.error("--rounds without --against is for --endpoint or --flood alone")
    results = {}
    if args.against is not None:
        module = importlib.import_module(f"tools.bench.{chosen[0]}")
        rounds = [args.rounds] if args.rounds is not None else []
        compared = module.compare(args.against, *rounds)
        print(json.dumps(compared, indent=None if args.json else 2, sort_keys=True))
        return 0
    for name in chosen:
        module = importlib.import_module(f"tools.bench.{name}")
        results[name] = module.run(args.rounds) if args.rounds is not None else module.run()
    out = results[chosen[0]] if len(chosen) == 1 else results
    print(json.dumps(out, indent=None if args.json else 2, sort_keys=True))
    return 0
