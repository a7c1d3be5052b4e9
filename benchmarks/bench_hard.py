"""The hard list: positions and CPU seconds each deal's verdict takes, with each dead-end idea
switched on in turn.

    python benchmarks/bench_hard.py run --out runs/hard.jsonl                   # every configuration
    python benchmarks/bench_hard.py run --configs default --deals 91,137 --out runs/hard.jsonl
    python benchmarks/bench_hard.py table runs/hard.jsonl [runs/hard-before.jsonl ...]

The deals (``--deals``, default ``HARD``) are the hard list of issue 22: PySolFC yukon 91, 137,
173, 192, 274, 454, 531, 644, 681, 823, 988 and KPat 20002, 5000010, 5000064, 5000096 (a ``k``
before a number: KPat numbering), strict rules. Each is solved with a node budget
(``--max-nodes``, default 30,000,000, no time limit: a budget the machine's load cannot shrink)
under each configuration of ``--configs``; a row has the verdict, the positions searched, the
table's peak entries (the distinct positions it kept), the CPU seconds and the dead-end tests'
counters (``solver.search.dead_ends.dead_end_counters``):

    before     the pruning of release 0.1.0 and the pairwise tests as they stood before this
               study: no case split on twins in the search (TWIN_SPLIT off), no pairwise test
               of costly positions of the path (``SearchConfig.costly_after`` 0)
    twins      before + TWIN_SPLIT
    costly     before + the tests of costly positions
    narrow     both (the solver's defaults before the dead tables were widened)
    wide       narrow + WIDE_NOGOODS (the solver's defaults before the root was tested over
               triples)
    root       wide + TRIPLES (the solver's defaults before positions of the path were tested over
               triples)
    default    root + PATH_TRIPLES, paced (the solver's defaults)
    unpaced    default with the tests unpaced (``SearchConfig.tests_on_trial``,
               ``checks_per_table`` and ``splits_on_trial`` 0: the solver's defaults before the
               tests were paced, ``engine.dead_ends.pacing``)
    split_unpaced   default with the case split on twins unpaced (``splits_on_trial`` 0: the
               solver's defaults before the split was paced)

    (before, twins and costly leave WIDE_NOGOODS and the tests over triples off too; every
    configuration but unpaced and split_unpaced is paced)

Each configuration is a ``solver.search.config.SearchConfig`` made from the solver's own
(``dataclasses.replace``), so a checkout from before that config (``solver.search.config``) cannot
be measured with this script. Rows go to ``--out`` as JSON lines, one a deal and configuration,
written as each solve ends; running again skips the rows already there (the study resumes).
``table`` prints a Markdown table of the rows of one or more such files (a file's rows labelled by
its ``label`` field: ``--label``, default the configuration's name).
"""

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

from common import parse_deals, unpaced

from solver.engine import moves
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.search import solve
from solver.search.config import DEFAULT
from solver.search.dead_ends import dead_end_counters

HARD = "91,137,173,192,274,454,531,644,681,823,988,k20002,k5000010,k5000064,k5000096"
TWIN_SPLIT = getattr(moves, "TWIN_SPLIT", 0)
WIDE_NOGOODS = getattr(moves, "WIDE_NOGOODS", 0)
TRIPLES = getattr(moves, "TRIPLES", 0)
PATH_TRIPLES = getattr(moves, "PATH_TRIPLES", 0)
NARROW = moves.ALL_REDUCTIONS & ~(WIDE_NOGOODS | TRIPLES | PATH_TRIPLES)
NO_COSTLY_TESTS = replace(DEFAULT, costly_after=0)
CONFIGS = {  # name: (options, the search's tuning)
    "before": (NARROW & ~TWIN_SPLIT, NO_COSTLY_TESTS),
    "twins": (NARROW, NO_COSTLY_TESTS),
    "costly": (NARROW & ~TWIN_SPLIT, DEFAULT),
    "narrow": (NARROW, DEFAULT),
    "wide": (NARROW | WIDE_NOGOODS, DEFAULT),
    "root": (moves.ALL_REDUCTIONS & ~PATH_TRIPLES, DEFAULT),
    "default": (moves.ALL_REDUCTIONS, DEFAULT),
    "unpaced": (moves.ALL_REDUCTIONS, unpaced()),
    "split_unpaced": (moves.ALL_REDUCTIONS, unpaced(("splits_on_trial",))),
}


def hard_deals(text: str) -> list[tuple[str, int]]:
    """``91,k20002`` -> [("pysol", 91), ("kpat", 20002)]."""
    deals = []
    for part in text.split(","):
        numbering = "kpat" if part.startswith("k") else "pysol"
        deals += [(numbering, deal) for deal in parse_deals(part.lstrip("k"), numbering)]
    return deals


def solve_one(numbering: str, deal: int, config: str, max_nodes: int) -> dict:
    options, tuning = CONFIGS[config]
    started = time.process_time()
    result = solve.solve_position(
        deal_board("yukon", deal, numbering),
        Rules("yukon"),
        Limits(max_nodes=max_nodes, time_limit=None),
        options,
        config=tuning,
    )
    return {
        "numbering": numbering,
        "deal": deal,
        "config": config,
        "status": result.status,
        "nodes": result.nodes,
        "peak_table_entries": result.peak_table_entries,
        "cpu_seconds": round(time.process_time() - started, 3),
        "max_nodes": max_nodes,
    } | dead_end_counters()


def run(args) -> int:
    out = Path(args.out)
    done = set()
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            done.add((row["numbering"], row["deal"], row["config"]))
    with out.open("a") as rows:
        for numbering, deal in hard_deals(args.deals):
            for config in args.configs.split(","):
                if (numbering, deal, config) in done:
                    continue
                row = solve_one(numbering, deal, config, args.max_nodes) | {"label": args.label or config}
                rows.write(json.dumps(row) + "\n")
                rows.flush()
                print(json.dumps(row), file=sys.stderr, flush=True)
    return 0


def table(args) -> int:
    rows = [json.loads(line) for path in args.files for line in Path(path).read_text().splitlines()]
    labels = list(dict.fromkeys(row["label"] for row in rows))
    deals = list(dict.fromkeys((row["numbering"], row["deal"]) for row in rows))
    cells = {(row["numbering"], row["deal"], row["label"]): row for row in rows}
    print("| deal | " + " | ".join(labels) + " |")
    print("| --- |" + " ---: |" * len(labels))
    for numbering, deal in deals:
        shown = []
        for label in labels:
            row = cells.get((numbering, deal, label))
            if row is None:
                shown.append("")
                continue
            verdict = {"solved": "won", "unsolvable": "lost"}.get(row["status"], "unknown")
            shown.append(f"{verdict} {row['nodes'] / 1e6:.2f} M, {row['cpu_seconds']:.1f} s")
        name = f"KPat {deal}" if numbering == "kpat" else f"PySolFC {deal}"
        print(f"| {name} | " + " | ".join(shown) + " |")
    return 0


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=("run", "table"))
    parser.add_argument("files", nargs="*", help="table: the JSON-lines files to read")
    parser.add_argument(
        "--deals", default=HARD, help="run: deals, a k before KPat numbers (default the hard list)"
    )
    parser.add_argument(
        "--configs", default="before,twins,costly,default", help="run: configurations, in turn"
    )
    parser.add_argument("--max-nodes", type=int, default=30_000_000, help="run: node budget a solve")
    parser.add_argument("--label", default=None, help="run: the rows' label (default the configuration)")
    parser.add_argument("--out", default="runs/hard.jsonl", help="run: JSON-lines file, appended to")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    return run(args) if args.what == "run" else table(args)


if __name__ == "__main__":
    sys.exit(main())
