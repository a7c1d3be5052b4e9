"""Why a deal is lost (``solver/search/loss_reason.py``): which kind of reason the lost deals of a
range get, and what telling it costs a solve.

    python benchmarks/bench_loss_reason.py --variant russian --deals 1-1000
    python benchmarks/bench_loss_reason.py --variant yukon --deals 1-1000 --max-nodes 300000

Each deal is solved twice, with the reason and with ``solve.loss_reason`` replaced by a
no-op, at the same node budget (the searches are the same; only the reason differs), which
one first alternating from deal to deal (the second solve of a deal finds warmer caches). For
every unsolvable deal the reason's kind is counted: ``chain`` (HOPELESS's derivation, steps
to check on the table), ``pairwise`` (the cards the pairwise test finds unreachable),
``twins`` (HOPELESS's case split on twins) or ``search`` (the size of the tree searched).
Writes ``benchmarks/results/loss_reason_<variant>.json`` with the medians and p90 of the
solve times of the unsolvable deals both ways.
"""

import argparse
import sys
import time
from pathlib import Path

from common import command_line, machine_info, now, parse_deals, percentiles, write_json
from tqdm import tqdm

import solver.search.solve as solve
from solver.game.numbering import deal_board
from solver.game.rules import VARIANTS, Rules
from solver.results.limits import Limits
from solver.results.result import UNSOLVABLE
from solver.search import readiness

RESULTS = Path(__file__).parent / "results"
TOLD = solve.loss_reason


def reason_kind(reason: str) -> str:
    if reason.startswith("The pairwise dead-end test"):
        return "pairwise"
    if reason.startswith("The whole game tree was searched"):
        return "search"
    if reason.startswith("The dead-end test shows it by a case split on twins"):
        return "twins"
    return "chain"


def timed_solve(board, rules: Rules, limits: Limits, reason) -> tuple:
    """The result and wall seconds of one solve, the reason told by ``reason``."""
    solve.loss_reason = reason
    started = time.perf_counter()
    result = solve.solve_position(board, rules, limits)
    return result, time.perf_counter() - started


def measure(args) -> dict:
    rules, limits = (
        Rules(args.variant, args.foundation_return),
        Limits(max_nodes=args.max_nodes, time_limit=None),
    )
    readiness.warm_up()
    kinds, with_reason, without = {"chain": 0, "pairwise": 0, "twins": 0, "search": 0}, [], []
    for number, deal in enumerate(tqdm(parse_deals(args.deals), desc="deals", file=sys.stderr)):
        board = deal_board(args.variant, deal)
        untold = timed_solve(board, rules, limits, lambda *_args: None)[1] if number % 2 else None
        result, seconds = timed_solve(board, rules, limits, TOLD)
        if result.status != UNSOLVABLE:
            continue
        kinds[reason_kind(result.loss_reason)] += 1
        with_reason.append(seconds)
        without.append(untold or timed_solve(board, rules, limits, lambda *_args: None)[1])
    solve.loss_reason = TOLD
    return {
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "rules": rules.label(),
        "deals": args.deals,
        "max_nodes": args.max_nodes,
        "unsolvable": len(with_reason),
        "reasons": kinds,
        "seconds_with_reason": percentiles(with_reason),
        "seconds_without_reason": percentiles(without),
    }


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", choices=VARIANTS, default="russian")
    parser.add_argument("--foundation-return", action="store_true")
    parser.add_argument("--deals", default="1-1000", help="PySolFC deals (default 1-1000)")
    parser.add_argument("--max-nodes", type=int, default=300_000, help="node budget a solve (default 300000)")
    parser.add_argument(
        "--out", default=None, help="JSON file (default benchmarks/results/loss_reason_<variant>.json)"
    )
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    figures = measure(args)
    write_json(args.out or RESULTS / f"loss_reason_{args.variant}.json", figures)
    with_reason, without = figures["seconds_with_reason"], figures["seconds_without_reason"]
    print(
        f"{figures['rules']} {args.deals}: {figures['unsolvable']} unsolvable, reasons {figures['reasons']}; "
        f"solve median {with_reason['median'] * 1e3:.2f} ms with the reason, "
        f"{without['median'] * 1e3:.2f} ms without (p90 {with_reason['p90'] * 1e3:.2f} / "
        f"{without['p90'] * 1e3:.2f} ms)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
