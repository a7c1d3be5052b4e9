"""The difficulty ladder: play it on a rule set's solved deals, fit it, calibrate the tiers.

    python benchmarks/bench_ladder.py play --variant yukon --numbering kpat \
        --store runs/yukon-kpat.db --ladder runs/yukon-kpat.ladder.jsonl --count 3000
    python benchmarks/bench_ladder.py calibrate --variant yukon --numbering kpat \
        --store runs/yukon-kpat.db --ladder runs/yukon-kpat.ladder.jsonl --count 3000
    python benchmarks/bench_ladder.py seeds --variant yukon --count 40

``seeds`` takes the first ``--count`` solvable deals that release 0.1.0's rating (16 greedy
games, the same seeds for every deal) failed exactly 8 times
(``benchmarks/results/player_calibration_<variant>.jsonl``), and counts the failures of
those same 16 seeds again and of the ladder's 32 per-deal seeds
(``ladder_seeds_<variant>.json``).

``play`` plays the ladder (``solver.player.ladder.LADDER``) on the store's first ``--count``
solved deals in deal order, one JSON line a deal in ``--ladder`` (run it again to resume).
``calibrate`` fits the Rasch model (``solver.player.rasch``) to those deals' games, skills
and difficulties together, and takes the thirds of the difficulties as the tier thresholds;
it reports the share of deals per tier and each rung's win rate there (intervals clustered
by deal), writes ``benchmarks/results/ladder_<rule set>.json`` and the score distribution
``ladder_<rule set>.png``, and writes the rule set's skills and thresholds into
``solver/player/ladder_calibration.py`` (what ``yukon catalogue build`` scores with).
"""

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from common import command_line, machine_info, now, write_json
from plots import TIER_COLOURS, load_pyplot, save

from solver.atomic import replace_file
from solver.catalogue.candidates import solved_records
from solver.catalogue.ladder_games import LadderGames
from solver.numbering import deal_board
from solver.player import ladder_calibration as calibration_module
from solver.player.difficulty import ladder_tier, run_seeds
from solver.player.greedy import Greedy
from solver.player.ladder import LADDER, deal_seeds
from solver.player.ladder_calibration import LADDER_CALIBRATION
from solver.player.rasch import PRIOR_SD, fit_rasch
from solver.result import TIER_NAMES
from solver.rules import Rules
from solver.stats import clustered_rate_entry

RESULTS = Path(__file__).parent / "results"


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("step", choices=("play", "calibrate", "seeds"))
    parser.add_argument("--variant", required=True)
    parser.add_argument("--foundation-return", action="store_true")
    parser.add_argument("--numbering", default="pysol")
    parser.add_argument("--store", type=Path)
    parser.add_argument("--ladder", type=Path)
    parser.add_argument("--count", type=int, required=True, help="Solved deals, the first in deal order.")
    return parser.parse_args()


def ladder_results(args) -> dict[int, tuple]:
    """The ladder's games on the first ``--count`` solved deals (played where missing)."""
    rules = Rules(args.variant, args.foundation_return)
    games = LadderGames(args.ladder, rules, args.numbering)
    records = solved_records(args.store, None)[: args.count]
    results = {}
    for done, record in enumerate(records, start=1):
        results[record.deal] = games.results(
            record.deal, deal_board(args.variant, record.deal, args.numbering)
        )
        if done % 100 == 0:
            print(f"{now()} {done}/{len(records)} deals", file=sys.stderr, flush=True)
    return results


def thirds(difficulty: np.ndarray) -> list[float]:
    """The thresholds (3 places) nearest the thirds of the difficulties, each halfway
    between two neighbouring values, so that no deal lies near one (deals with the same
    games share one difficulty, and a rounding must not change a tier). Where a third
    falls inside such a group, the group goes whole to the side that leaves the shares
    nearer a third."""
    rounded = np.round(difficulty, 3)
    values = np.unique(rounded)
    cuts = (values[:-1] + values[1:]) / 2  # every threshold that splits two neighbours
    below = np.array([(rounded <= cut).mean() for cut in cuts])
    return [round(float(cuts[np.argmin(np.abs(below - q))]), 3) for q in (1 / 3, 2 / 3)]


def calibrate(args, results: dict[int, tuple]) -> dict:
    """The joint fit, the thresholds, and per tier the share and each rung's win rate."""
    deals = sorted(results)
    wins = np.array([[w for w, _g in results[deal]] for deal in deals], dtype=float)
    games = np.array([[g for _w, g in results[deal]] for deal in deals], dtype=float)
    fit = fit_rasch(wins, games)
    thresholds = thirds(fit.difficulty)
    tiers = [ladder_tier(round(float(value), 3), thresholds) for value in fit.difficulty]
    by_tier = {}
    for tier in TIER_NAMES:
        rows = [at for at, name in enumerate(tiers) if name == tier]
        by_tier[tier] = {
            "deals": len(rows),
            "share": len(rows) / len(deals),
            "difficulty": {"min": float(fit.difficulty[rows].min()), "max": float(fit.difficulty[rows].max())}
            if rows
            else None,
            "rungs": {
                rung.name: clustered_rate_entry([results[deals[at]][index] for at in rows])
                for index, rung in enumerate(LADDER)
            },
        }
    return {
        "rule_set": Rules(args.variant, args.foundation_return).label(),
        "numbering": args.numbering,
        "deals": {"count": len(deals), "first": deals[0], "last": deals[-1]},
        "model": {"model": "rasch", "prior_sd": PRIOR_SD, "converged": fit.converged},
        "skills": {rung.name: round(float(skill), 3) for rung, skill in zip(LADDER, fit.skill)},
        "thresholds": thresholds,
        "overall": {
            rung.name: clustered_rate_entry([results[deal][index] for deal in deals])
            for index, rung in enumerate(LADDER)
        },
        "tiers": by_tier,
        "mean_standard_error": float(fit.standard_error.mean()),
        "difficulty": [round(float(value), 3) for value in fit.difficulty],
    }


def plot(figures: dict, path: Path) -> None:
    """The histogram of the difficulties, coloured by tier, the thresholds marked."""
    pyplot = load_pyplot()
    if pyplot is None:
        return
    values = np.array(figures["difficulty"])
    figure, axis = pyplot.subplots(figsize=(8, 3.6))
    bins = np.linspace(values.min(), values.max(), 41)
    for tier in TIER_NAMES:
        chosen = [v for v in values if ladder_tier(v, figures["thresholds"]) == tier]
        share = 100 * figures["tiers"][tier]["share"]
        axis.hist(chosen, bins=bins, color=TIER_COLOURS[tier], label=f"{tier} ({share:.1f}%)")
    for threshold in figures["thresholds"]:
        axis.axvline(threshold, color="black", linewidth=0.8, linestyle="--")
    axis.set_xlabel("difficulty (Rasch logits; higher is harder)")
    axis.set_ylabel("solvable deals")
    deals = figures["deals"]
    axis.set_title(
        f"{figures['rule_set']} ({figures['numbering']} deals {deals['first']}-{deals['last']}, "
        f"{deals['count']} solvable): ladder difficulty"
    )
    axis.legend()
    figure.tight_layout()
    save(pyplot, figure, path)


def seeds(args) -> None:
    """Failures of the deals release 0.1.0 failed 8 of 16 times: same seeds, per-deal seeds."""
    rows = [json.loads(line) for line in (RESULTS / f"player_calibration_{args.variant}.jsonl").open()]
    deals = [row["deal"] for row in rows if row.get("status") == "solved" and row.get("failures") == 8]
    rules, greedy = Rules(args.variant), Greedy()
    same, fresh = [], []
    for deal in deals[: args.count]:
        board = deal_board(args.variant, deal)
        same.append(16 - sum(greedy.wins(board, rules, run_seeds(0, 16))))
        fresh.append(32 - sum(greedy.wins(board, rules, deal_seeds("greedy", deal, 32))))
    figures = {"deals": deals[: args.count], "same_16_seeds": same, "per_deal_32_seeds": fresh}
    print(f"same 16 seeds: {sorted(same)}\nper-deal 32 seeds: {sorted(fresh)}")
    write_json(
        RESULTS / f"ladder_seeds_{args.variant}.json", {"command": command_line(), "date": now()} | figures
    )


def main() -> None:
    args = arguments()
    if args.step == "seeds":
        return seeds(args)
    results = ladder_results(args)
    if args.step == "play":
        return
    figures = calibrate(args, results)
    name = figures["rule_set"].replace("+", "-") + ("" if args.numbering == "pysol" else f"-{args.numbering}")
    plot(figures, RESULTS / f"ladder_{name}.png")
    write_json(
        RESULTS / f"ladder_{name}.json",
        {"benchmark": "bench_ladder", "command": command_line(), "date": now(), "machine": machine_info()}
        | figures,
    )
    calibrations = LADDER_CALIBRATION | {
        figures["rule_set"]: {
            "skills": tuple(figures["skills"].values()),
            "thresholds": tuple(figures["thresholds"]),
        }
    }
    write_calibration(calibrations)
    print(f"{figures['rule_set']}: {calibrations[figures['rule_set']]} -> {calibration_module.__file__}")


def write_calibration(calibrations: dict) -> None:
    """Rewrite ``solver/player/ladder_calibration.py`` with ``calibrations``, its docstring kept."""
    path = Path(calibration_module.__file__)
    lines = [
        f'    "{label}": {{"skills": {tuple(entry["skills"])}, "thresholds": {tuple(entry["thresholds"])}}},'
        for label, entry in sorted(calibrations.items())
    ]
    text = f'"""{calibration_module.__doc__}"""\n\nLADDER_CALIBRATION = {{\n' + "\n".join(lines) + "\n}\n"
    replace_file(path, text.encode("utf-8"))


if __name__ == "__main__":
    main()
