"""The non-peeking player's figures: difficulty calibration, greedy and sampling win rates,
and hint latency.

    python benchmarks/bench_player.py calibrate --variant yukon --deals 1-2500 --runs 16
    python benchmarks/bench_player.py calibrate --variant russian --deals 1-40000 --runs 16
    python benchmarks/bench_player.py compare --variant yukon --deals 1-40 --samples 16
    python benchmarks/bench_player.py hint --variant yukon --deals 1-20

``calibrate`` solves each deal (``--time-limit``), rates the solvable ones with the greedy
player (R runs), appends one JSON line per deal to ``--rows`` (run it again to resume), then
prints the failure-rate thresholds that split the solvable deals nearest to thirds, the
split under the thresholds in ``solver.player.difficulty.TIERS``, and per tier how often the
greedy player wins with other seeds (``--check-seed``). Results go to
``benchmarks/results/player_calibration_<variant>.json``.
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from common import command_line, machine_info, now, parse_deals, percentiles, write_json

from solver.numbering import deal_board
from solver.player.difficulty import TIERS, rate_solved, tier_of
from solver.player.greedy import Greedy
from solver.player.hint import hint
from solver.player.sampling import Sampling
from solver.player.view import view_of
from solver.result import SOLVED, Limits
from solver.rules import Rules
from solver.solve import solve_position

RESULTS = Path(__file__).parent / "results"


def calibrate(args) -> None:
    rules = Rules(args.variant)
    rows_path = Path(args.rows or RESULTS / f"player_calibration_{args.variant}.jsonl")
    done = {json.loads(line)["deal"] for line in rows_path.open()} if rows_path.exists() else set()
    started = time.perf_counter()
    with rows_path.open("a") as rows:
        for deal in parse_deals(args.deals):
            if deal in done:
                continue
            board = deal_board(args.variant, deal)
            result = solve_position(board, rules, Limits(time_limit=args.time_limit))
            row = {"deal": deal, "status": result.status}
            if result.status == SOLVED:
                rating = rate_solved(board, rules, result, args.runs, args.seed)
                check = rate_solved(board, rules, result, args.runs, args.check_seed)
                row |= {
                    "failures": rating.failures,
                    "check_failures": check.failures,
                    "length": rating.thoughtful_length,
                    "nodes": rating.solver_nodes,
                }
            rows.write(json.dumps(row) + "\n")
            rows.flush()
    print(f"rated in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    rows = [json.loads(line) for line in rows_path.open()]
    summary = calibration_summary(rows, args)
    print(json.dumps({key: summary[key] for key in ("solvable", "proposed", "split", "per_tier")}, indent=1))
    write_json(RESULTS / f"player_calibration_{args.variant}.json", summary)


def calibration_summary(rows: list[dict], args) -> dict:
    rated = [row for row in rows if row["status"] == SOLVED]
    rates = [row["failures"] / args.runs for row in rated]
    proposed = (nearest_cut(rates, 1 / 3), nearest_cut(rates, 2 / 3))
    per_tier = {}
    for tier in ("easy", "normal", "hard"):
        members = [row for row in rated if tier_of(row["failures"] / args.runs, args.variant) == tier]
        per_tier[tier] = {
            "deals": len(members),
            "share": len(members) / len(rated) if rated else 0.0,
            "greedy_win_rate_other_seed": mean(1 - row["check_failures"] / args.runs for row in members),
            "thoughtful_length_mean": mean(row["length"] for row in members),
            "solver_nodes_median": statistics.median([row["nodes"] for row in members]) if members else None,
        }
    return {
        "benchmark": "bench_player calibrate",
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "variant": args.variant,
        "runs": args.runs,
        "seed": args.seed,
        "check_seed": args.check_seed,
        "deals_run": len(rows),
        "solvable": len(rated),
        "statuses": {
            status: sum(row["status"] == status for row in rows) for status in {r["status"] for r in rows}
        },
        "failure_rate_percentiles": percentiles(rates) if rates else {},
        "greedy_win_rate_on_solvable": 1 - mean(rates),
        "proposed": proposed,
        "thresholds": TIERS[args.variant],
        "split": {tier: figures["share"] for tier, figures in per_tier.items()},
        "per_tier": per_tier,
    }


def nearest_cut(rates: list[float], share: float) -> float:
    """The failure rate v for which the share of rates <= v is nearest ``share``."""
    values = sorted(set(rates))
    return min(values, key=lambda v: abs(sum(rate <= v for rate in rates) / len(rates) - share))


def mean(values) -> float | None:
    values = list(values)
    return sum(values) / len(values) if values else None


def compare(args) -> None:
    """Greedy (per-seed mean over R runs) against sampling (one game per deal)."""
    rules = Rules(args.variant)
    sampling = Sampling(samples=args.samples, max_nodes=args.max_nodes)
    greedy, rows = Greedy(), []
    for deal in parse_deals(args.deals):
        board = deal_board(args.variant, deal)
        started = time.perf_counter()
        won, moves = sampling.play(board, rules, args.seed)
        seconds = time.perf_counter() - started
        greedy_wins = sum(greedy.wins(board, rules, list(range(args.runs))))
        rows.append({"deal": deal, "sampling_won": won, "seconds": seconds, "greedy_wins": greedy_wins})
        print(json.dumps(rows[-1]), file=sys.stderr)
    summary = {
        "benchmark": "bench_player compare",
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "variant": args.variant,
        "settings": sampling.settings(),
        "deals": len(rows),
        "sampling_win_rate": mean(row["sampling_won"] for row in rows),
        "greedy_win_rate": mean(row["greedy_wins"] / args.runs for row in rows),
        "sampling_seconds_per_game": percentiles([row["seconds"] for row in rows]),
        "rows": rows,
    }
    print(json.dumps({key: value for key, value in summary.items() if key != "rows"}, indent=1))
    write_json(RESULTS / f"player_compare_{args.variant}.json", summary)


def hint_latency(args) -> None:
    """Seconds for a default sampling hint at the opening of each deal (after one warm-up)."""
    rules = Rules(args.variant)
    hint(deal_board(args.variant, 1), rules)
    seconds = []
    for deal in parse_deals(args.deals):
        board = deal_board(args.variant, deal)
        started = time.perf_counter()
        answer = hint(board, rules, seed=deal)
        seconds.append(time.perf_counter() - started)
        print(f"{deal}: {answer.text()} [{seconds[-1]:.3f} s]", file=sys.stderr)
    summary = {
        "benchmark": "bench_player hint",
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "variant": args.variant,
        "settings": Sampling().settings(),
        "hidden_cards_at_opening": view_of(deal_board(args.variant, 1), rules).hidden_count,
        "seconds": percentiles(seconds),
    }
    print(json.dumps(summary["seconds"], indent=1))
    write_json(RESULTS / f"player_hint_{args.variant}.json", summary)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("task", choices=("calibrate", "compare", "hint"))
    parser.add_argument("--variant", default="yukon")
    parser.add_argument("--deals", default="1-100")
    parser.add_argument("--runs", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--check-seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=2.0)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--max-nodes", type=int, default=10_000)
    parser.add_argument("--rows", help="the resumable JSON-lines file of calibrate")
    args = parser.parse_args()
    {"calibrate": calibrate, "compare": compare, "hint": hint_latency}[args.task](args)


if __name__ == "__main__":
    main()
