"""How honest the sampling and expert players' confidence is: over every hint along their
games, the share of positions later won against the confidence stated for them.

    nice -n 10 python benchmarks/bench_confidence.py play --variant yukon --deals 1-100
    python benchmarks/bench_confidence.py summary --variants yukon,russian
    nice -n 10 python benchmarks/bench_confidence.py play --policy expert --variant yukon --deals 1-100
    python benchmarks/bench_confidence.py summary --policy expert --variants yukon

``play`` plays each deal once with the sampling player (``--policy expert``: the expert;
seed 0, its default settings unless given) and, for each of its moves, keeps what it said (k
of n sampled worlds won after the move, how many it proved lost) beside two truths: is the
true position after the move winnable (the thoughtful solver, which sees every card, under
``--truth-time-limit``), and was the game then won by the player. One JSON line per deal
goes to
``benchmarks/results/confidence/<variant>.jsonl`` (the expert's: ``<variant>_expert.jsonl``);
running it again skips the deals held. The expert states, for each move of a plan, the
plan's count: the worlds won after the card the plan turns.

``summary`` bins the moves by stated confidence and writes, per variant, each bin's moves,
the share winnable and the share later won (95% Wilson intervals) to
``benchmarks/results/confidence.json``, and the reliability plot ``confidence.png`` (the
expert's: ``confidence_expert.json``, ``confidence_expert.png``).
"""

import argparse
import json
import sys
import time
from pathlib import Path

from common import command_line, machine_info, now, parse_deals, write_json

from solver.common.stats import rate_entry
from solver.game import reference
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.player.policies import make_policy
from solver.results.limits import Limits
from solver.results.result import SOLVED, UNSOLVABLE
from solver.search.solve import solve_position
from study.plots import load_pyplot, save

RESULTS = Path(__file__).parent / "results"
ROWS = RESULTS / "confidence"
# Bins of stated confidence: [low, high), the last one closed (k = n).
BIN_EDGES = (0.0, 0.125, 0.375, 0.625, 0.875, 1.0)


def played_game(deal: int, rules: Rules, sampling, truth: Limits, seed: int) -> dict:
    """One game of ``deal``: every move's stated confidence and the truth after it."""
    moves = []

    def observe(board, move, confidence):
        after = solve_position(reference.apply_move(board, move, rules), rules, truth).status
        moves.append(confidence.as_dict() | {"truth_after": after})

    started = time.process_time()
    won, line = sampling.play(deal_board(rules.variant, deal), rules, seed, observe)
    return {
        "deal": deal,
        "won": won,
        "moves": len(line),
        "at_cap": len(line) >= sampling.max_moves,
        "cpu_seconds": time.process_time() - started,
        "hints": [move | {"game_won": won} for move in moves],
    }


def suffix(policy: str) -> str:
    """What the expert's files add to the sampling player's names."""
    return "" if policy == "sampling" else f"_{policy}"


def play(args) -> None:
    rules = Rules(args.variant)
    given = {"samples": args.samples, "max_nodes": args.max_nodes}
    sampling = make_policy(args.policy, **{name: value for name, value in given.items() if value is not None})
    truth = Limits(time_limit=args.truth_time_limit)
    path = ROWS / f"{args.variant}{suffix(args.policy)}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    done = {row["deal"] for row in read_rows(path)}
    with path.open("a") as rows:
        for deal in parse_deals(args.deals):
            if deal in done:
                continue
            game = played_game(deal, rules, sampling, truth, args.seed)
            game["settings"] = sampling.settings() | {
                "seed": args.seed,
                "truth_time_limit": args.truth_time_limit,
            }
            rows.write(json.dumps(game) + "\n")
            rows.flush()
            print(deal, game["won"], game["moves"], f"{game['cpu_seconds']:.1f} s", file=sys.stderr)


def read_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def bin_of(fraction: float) -> int:
    """The index of the bin of ``fraction`` (1.0 in the last)."""
    return min(sum(fraction >= edge for edge in BIN_EDGES[1:]), len(BIN_EDGES) - 2)


def variant_summary(rows: list[dict]) -> dict:
    """Per confidence bin: hints, the stated mean, and the shares winnable (of those the
    truth decided) and later won; the hints whose samples were all proved lost, apart."""
    hints = [hint for row in rows for hint in row["hints"]]
    bins = []
    for index in range(len(BIN_EDGES) - 1):
        members = [hint for hint in hints if bin_of(hint["fraction"]) == index]
        bins.append(bin_summary(members, BIN_EDGES[index], BIN_EDGES[index + 1]))
    proved = [hint for hint in hints if hint["proved_lost"] == hint["samples"]]
    return {
        "deals": sorted(row["deal"] for row in rows),
        "games": len(rows),
        "games_won": sum(row["won"] for row in rows),
        "games_at_the_move_cap": sum(row["at_cap"] for row in rows),
        "cpu_seconds": sum(row["cpu_seconds"] for row in rows),
        "settings": rows[0]["settings"] if rows else None,
        "hints": len(hints),
        "bins": bins,
        "every_sample_proved_lost": bin_summary(proved, 0.0, 0.0),
    }


def bin_summary(members: list[dict], low: float, high: float) -> dict:
    decided = [hint for hint in members if hint["truth_after"] in (SOLVED, UNSOLVABLE)]
    stated = [hint["fraction"] for hint in members]
    return {
        "confidence_from": low,
        "confidence_to": high,
        "hints": len(members),
        "stated_mean": sum(stated) / len(stated) if stated else None,
        "truth_undecided": len(members) - len(decided),
        "winnable": rate_entry(sum(hint["truth_after"] == SOLVED for hint in decided), len(decided)),
        "later_won": rate_entry(sum(hint["game_won"] for hint in members), len(members)),
    }


def summary(args) -> None:
    variants = {
        variant: variant_summary(read_rows(ROWS / f"{variant}{suffix(args.policy)}.jsonl"))
        for variant in args.variants.split(",")
    }
    write_json(
        RESULTS / f"confidence{suffix(args.policy)}.json",
        {
            "benchmark": "bench_confidence summary",
            "command": command_line(),
            "date": now(),
            "machine": machine_info(),
            "policy": args.policy,
            "bin_edges": BIN_EDGES,
            "variants": variants,
        },
    )
    pyplot = load_pyplot()
    if pyplot is not None:
        save(pyplot, reliability_plot(pyplot, variants), RESULTS / f"confidence{suffix(args.policy)}.png")


def reliability_plot(pyplot, variants: dict):
    """Stated confidence (bin mean) against the share winnable and later won, per variant."""
    figure, axes = pyplot.subplots(1, len(variants), figsize=(5.5 * len(variants), 5), squeeze=False)
    for axis, (variant, figures) in zip(axes[0], variants.items()):
        axis.plot([0, 1], [0, 1], color="grey", linestyle=":", label="calibrated")
        for key, colour, label in (
            ("winnable", "#1f77b4", "position winnable (solver, true cards)"),
            ("later_won", "#d62728", "game then won by the player"),
        ):
            points = [item for item in figures["bins"] if item[key]["deals"]]
            x = [item["stated_mean"] for item in points]
            y = [item[key]["rate"] for item in points]
            error = [
                [rate - item[key]["low"] for rate, item in zip(y, points)],
                [item[key]["high"] - rate for rate, item in zip(y, points)],
            ]
            axis.errorbar(x, y, yerr=error, marker="o", capsize=3, color=colour, label=label)
            for at, item in zip(x, points):
                axis.annotate(str(item["hints"]), (at, 0.02), ha="center", fontsize=7, color="grey")
        axis.set(
            xlim=(-0.03, 1.03),
            ylim=(0, 1.03),
            xlabel="stated confidence (share of sampled worlds won after the move)",
            ylabel="share of positions",
            title=f"{variant}: {figures['hints']} hints in {figures['games']} games",
        )
        axis.legend(loc="upper left", fontsize=8)
    return figure


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    playing = commands.add_parser("play")
    playing.add_argument("--variant", default="yukon")
    playing.add_argument("--deals", default="1-100")
    playing.add_argument("--policy", choices=("sampling", "expert"), default="sampling")
    playing.add_argument("--samples", type=int, default=None, help="the policy's (default: its own)")
    playing.add_argument("--max-nodes", type=int, default=None, help="the policy's (default: its own)")
    playing.add_argument("--truth-time-limit", type=float, default=2.0)
    playing.add_argument("--seed", type=int, default=0)
    summing = commands.add_parser("summary")
    summing.add_argument("--variants", default="yukon,russian")
    summing.add_argument("--policy", choices=("sampling", "expert"), default="sampling")
    args = parser.parse_args()
    (play if args.command == "play" else summary)(args)


if __name__ == "__main__":
    main()
