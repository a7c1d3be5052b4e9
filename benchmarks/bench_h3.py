"""The test over triples of facts (h^3, ``solver/engine/dead_ends/h3.py``): where it flags what pairs do not,
what a call costs, and that it never flags a position of a winning line. The engine runs it on
the root of a deal that proved hard (docs/hard-tail.md, "Triples at the root"); inside the
search, on costly positions, it cost far more than it saved (the patch ``h3_search.patch``
on top of f38384a, with the kernel of that time; in git history, see docs/research-notes.md).

    python benchmarks/bench_h3.py roots --numbering kpat --deals 3000105,9000098
    python benchmarks/bench_h3.py sample --numbering kpat --deals 9000156,5000064 --samples 30
    python benchmarks/bench_h3.py lines --every 100

``roots`` tests each deal's opening position with the pairwise test and with triples (strict
rules, or ``--foundation-return``) and times the call of triples. ``sample`` runs the full
search of lost deals and, every ``--every`` positions, tests the position the search stands on
(every one of them is lost) with the pairwise test and, where that says alive, with triples:
how many each flags, and what a call of triples costs. ``lines`` tests every position of every
``--every``-th one-deck catalogue line: a flagged one is a soundness bug (exit 1). Writes
``benchmarks/results/h3_<what>.json``.
"""

import argparse
import json
import sys
import time
from pathlib import Path

from common import parse_deals, percentiles, write_figures

from solver.engine import layout, moves, search
from solver.engine.dead_ends import arrays, h2, h3
from solver.game.board import read_board
from solver.game.notation import replay_tokens
from solver.game.numbering import NUMBERINGS, deal_board
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.search import readiness, searching
from solver.search.budget import Budget
from solver.search.dead_ends import dead_end_tables
from solver.search.packing import pack

RESULTS = Path(__file__).parent / "results"
CATALOGUE = Path(__file__).parent.parent / "catalogue"


def sample(args) -> dict:
    rules, rows = Rules("yukon"), []
    readiness.warm_up()
    for deal in parse_deals(args.deals):
        packed = pack(deal_board("yukon", deal, args.numbering), rules)
        tables = arrays.make_tables()
        h2.build_tables(packed.state, packed.params, tables)
        dead_ends = dead_end_tables(packed)
        dead_ends.header[arrays.HEADER_PAIRS_ON] = 1
        searched = searching.Search(packed, search.DFS, moves.ALL_REDUCTIONS, 0, 1 << 30, dead_ends=dead_ends)
        budget = Budget(Limits(time_limit=None))
        counts, milliseconds, status = {"positions": 0, "pairs": 0, "triples_only": 0, "neither": 0}, [], None
        while counts["positions"] < args.samples and status not in (search.EXHAUSTED, search.SOLVED):
            status = searched.run(budget, node_cap=int(searched.control[layout.CONTROL_NODES]) + args.every)
            state = packed.state.copy()
            counts["positions"] += 1
            if h2.h2_dead(state, packed.params, tables):
                counts["pairs"] += 1
                continue
            started = time.process_time()
            dead = h3.h3_dead(state, packed.params, tables)
            milliseconds.append((time.process_time() - started) * 1000)
            counts["triples_only" if dead else "neither"] += 1
        rows.append(
            {"deal": deal, "numbering": args.numbering, **counts, "triples_ms": percentiles(milliseconds)}
        )
        print(json.dumps(rows[-1]), file=sys.stderr)
    return {"every": args.every, "samples": args.samples, "rows": rows}


def roots(args) -> dict:
    rules, rows = Rules("yukon", args.foundation_return), []
    tables = arrays.make_tables()
    for deal in parse_deals(args.deals):
        packed = pack(deal_board("yukon", deal, args.numbering), rules)
        h2.build_tables(packed.state, packed.params, tables)
        pairs = bool(h2.h2_dead(packed.state, packed.params, tables))
        started = time.process_time()
        triples = bool(h3.h3_dead(packed.state, packed.params, tables))
        rows.append(
            {"deal": deal, "pairs": pairs, "triples": triples, "ms": (time.process_time() - started) * 1000}
        )
        print(json.dumps(rows[-1]), file=sys.stderr)
    flagged = [row["deal"] for row in rows if row["triples"]]
    return {"rules": rules.label(), "numbering": args.numbering, "flagged": flagged, "rows": rows}


def lines(args) -> dict:
    checked, flagged = 0, []
    tables = arrays.make_tables()
    for path in sorted(CATALOGUE.glob("*-*.json")):
        if path.name.startswith("milligan"):
            continue
        for entry in json.loads(path.read_text())["entries"][:: args.every]:
            rules = Rules(entry["variant"], entry["foundation_return"])
            root = read_board(entry["board"], rules)
            packed_root = pack(root, rules)
            h2.build_tables(packed_root.state, packed_root.params, tables)
            steps = replay_tokens(root, entry["solution"].split(), rules)
            for board in [root, *(after for _token, _move, after in steps)]:
                checked += 1
                if h3.h3_dead(pack(board, rules).state, packed_root.params, tables):
                    flagged.append({"rules": rules.label(), "deal": entry["deal"], "board": board.to_text()})
    return {"every": args.every, "positions": checked, "flagged": flagged}


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=("roots", "sample", "lines"))
    parser.add_argument("--deals", default="9000156,5000064,3000028,1000051", help="roots, sample: deals")
    parser.add_argument(
        "--numbering", choices=NUMBERINGS, default="kpat", help="roots, sample: deal numbering"
    )
    parser.add_argument("--foundation-return", action="store_true", help="roots: with foundation return")
    parser.add_argument("--samples", type=int, default=30, help="sample: positions tested a deal")
    parser.add_argument(
        "--every",
        type=int,
        default=None,
        help="sample: positions between two (300,000); lines: every N-th line (100)",
    )
    parser.add_argument("--out", default=None, help="JSON file (default benchmarks/results/h3_<what>.json)")
    args = parser.parse_args(argv)
    args.every = args.every or (300_000 if args.what == "sample" else 100)
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    figures = {"roots": roots, "sample": sample, "lines": lines}[args.what](args)
    write_figures(args.out or RESULTS / f"h3_{args.what}.json", f"bench_h3 {args.what}", figures, started)
    print(json.dumps({key: value for key, value in figures.items() if key != "rows"}, indent=2))
    return 1 if args.what == "lines" and figures["flagged"] else 0


if __name__ == "__main__":
    sys.exit(main())
