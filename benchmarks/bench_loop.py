"""Where the search's time goes, one reduction at a time: positions, CPU seconds and positions
per CPU second of each deal with every default reduction, then with each switched off in turn.

    python benchmarks/bench_loop.py --deals 395,539,885,943,1000,1015 --max-nodes 20000000

A reduction is a dead-end test or a move filter (``solver/engine/moves.py``): switched off, the
search spends less per position and may need many more positions. The ratio of positions per
second with and without it is its share of the loop; the ratio of positions is what it saves.
Writes ``benchmarks/results/loop_<deals>.json``.
"""

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

from common import command_line, machine_info, now, parse_deals, write_json

from solver.engine import moves
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.search.config import DEFAULT, SearchConfig
from solver.search.readiness import warm_up
from solver.search.solve import solve_position

RESULTS = Path(__file__).parent / "results"
SWITCHES = {  # the options each row switches off
    "default": 0,
    "no HOPELESS": moves.HOPELESS | moves.TWIN_SPLIT,
    "no TWIN_SPLIT": moves.TWIN_SPLIT,
    "no SAFE_FOUNDATION": moves.SAFE_FOUNDATION,
    "no KINGS_KEEP_PACKETS": moves.KINGS_KEEP_PACKETS,
    "no pairwise tests": moves.EVERY_PAIR_TEST,
    "pairwise test on the root only": moves.H2_SEARCH | moves.NOGOODS | moves.WIDE_NOGOODS,
    "no tests of costly positions": 0,  # SearchConfig.costly_after 0
}


def measure(board, rules: Rules, options: int, max_nodes: int, config: SearchConfig) -> dict:
    """One solve's verdict, positions and CPU seconds (process time) under ``config``."""
    started = time.process_time()
    limits = Limits(time_limit=None, max_nodes=max_nodes)
    result = solve_position(board, rules, limits, options, config=config)
    cpu = time.process_time() - started
    return {
        "status": result.status,
        "nodes": result.nodes,
        "cpu_seconds": cpu,
        "per_second": result.nodes / cpu,
    }


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", default="395,539,885,943,1000,1015", help="PySolFC yukon deals")
    parser.add_argument("--foundation-return", action="store_true")
    parser.add_argument("--max-nodes", type=int, default=20_000_000, help="positions a solve (default 20 M)")
    parser.add_argument(
        "--switches", default=",".join(SWITCHES), help="which rows, of: " + ", ".join(SWITCHES)
    )
    parser.add_argument("--out", default=None, help="JSON file (default results/loop_<deals>.json)")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    rules = Rules("yukon", args.foundation_return)
    warm_up()
    machine = machine_info()
    rows = []
    for deal in parse_deals(args.deals):
        board = deal_board("yukon", deal, "pysol")
        for name in args.switches.split(","):
            row = {"deal": deal, "switches": name}
            config = replace(DEFAULT, costly_after=0) if name == "no tests of costly positions" else DEFAULT
            row |= measure(board, rules, moves.ALL_REDUCTIONS & ~SWITCHES[name], args.max_nodes, config)
            rows.append(row)
            print(
                f"{deal:>6} {name:<30} {row['status']:<10} {row['nodes']:>11,} positions "
                f"{row['cpu_seconds']:7.2f} s {row['per_second'] / 1e6:5.2f} M/s",
                flush=True,
            )
    settings = {"deals": args.deals, "rules": rules.label(), "max_nodes": args.max_nodes}
    data = {"benchmark": "bench_loop", "command": command_line(), "date": now(), "machine": machine}
    out = args.out or RESULTS / f"loop_{args.deals.replace(',', '_')}.json"
    write_json(out, data | {"settings": settings, "rows": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
