"""The difficulty ladder: play it on a rule set's solved deals, fit it, calibrate the tiers.

    python benchmarks/bench_ladder.py play --variant yukon --numbering kpat \
        --store runs/yukon-kpat.db --ladder runs/yukon-kpat.ladder.jsonl --count 3000
    python benchmarks/bench_ladder.py calibrate --variant yukon --numbering kpat \
        --store runs/yukon-kpat.db --ladder runs/yukon-kpat.ladder.jsonl --count 3000
    python benchmarks/bench_ladder.py seeds --variant yukon --count 40
    python benchmarks/bench_ladder.py rungs --variant yukon --numbering kpat --catalogue catalogue \
        --ladder runs/rungs_yukon.jsonl --count 20
    python benchmarks/bench_ladder.py play --variant yukon --numbering kpat --catalogue catalogue \
        --ladder runs/yukon-kpat.ladder.jsonl --count 1234
    python benchmarks/bench_ladder.py rescore --variant yukon --numbering kpat --catalogue catalogue \
        --ladder runs/yukon-kpat.ladder.jsonl --count 1234

``seeds`` takes the first ``--count`` solvable deals that release 0.1.0's rating (16 greedy
games, the same seeds for every deal) failed exactly 8 times
(``benchmarks/results/player_calibration_<variant>.jsonl``), and counts the failures of
those same 16 seeds again and of the ladder's 32 per-deal seeds
(``ladder_seeds_<variant>.json``).

``play`` plays the ladder (``solver.player.ladder.LADDER``, its first ``--rungs``) on the
first ``--count`` solved deals in deal order (of ``--store``, of the study's compact table
``--study``, or else of the entries of the rule set's files in ``--catalogue``) and on those
entries, one JSON line a deal in ``--ladder`` (run it again to resume); the entries'
``ladder`` games are read into it first, so only the rungs they lack are played.
``calibrate`` fits the Rasch model (``solver.player.rasch``) to those deals' games, skills
and difficulties together, and takes the thirds of the difficulties as the tier thresholds;
it reports the share of deals per tier and each rung's win rate there (intervals clustered
by deal), writes ``benchmarks/results/ladder_<rule set>.json`` and the score distribution
``ladder_<rule set>.png``, and writes the rule set's skills and thresholds into
``solver/player/ladder_calibration.json`` (package data: what ``yukon catalogue build`` scores with). With
``--catalogue``, it also tiers the shipped entries by the new thresholds: where any entry
would change tier, the calibration keeps the tiers of the rule set's earlier calibration
(a ``tiering``: its rungs, skills and thresholds), which the files then state.
``rescore`` rewrites the shipped files' scores with the calibration (``solver.catalogue.rescore``;
a file of release 0.1.0 keeps its tiers by the greedy failure rate).

``rungs`` measures candidate rungs on the first ``--count`` entries of the rule set's hard
file: CPU seconds a game and games won (``ladder_rungs_<rule set>.json``).
"""

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from common import command_line, machine_info, now, write_json
from ladder_deals import catalogue_files, entry_deals, seeded, solved_deals

from solver.catalogue.files import rule_set_name
from solver.catalogue.ladder_games import LadderGames
from solver.catalogue.rescore import rescore_file
from solver.common.atomic import replace_file
from solver.common.stats import clustered_rate_entry
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.player import ladder_calibration as calibration_module
from solver.player.difficulty import TIERS, ladder_rating, model_header, run_seeds
from solver.player.greedy import Greedy
from solver.player.ladder import LADDER, Rung, deal_seeds
from solver.player.ladder_calibration import LADDER_CALIBRATION
from solver.player.rasch import PRIOR_SD, fit_rasch
from solver.results.result import TIER_NAMES
from study.plots import TIER_COLOURS, load_pyplot, save

RESULTS = Path(__file__).parent / "results"


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("step", choices=("play", "calibrate", "rescore", "rungs", "seeds"))
    parser.add_argument("--variant", required=True)
    parser.add_argument("--foundation-return", action="store_true")
    parser.add_argument("--numbering", default="pysol")
    parser.add_argument("--store", type=Path)
    parser.add_argument("--study", help="The study's compact table of solved deals (instead of --store).")
    parser.add_argument("--catalogue", type=Path, help="The folder of the rule set's shipped files.")
    parser.add_argument("--ladder", type=Path)
    parser.add_argument("--rungs", type=int, default=len(LADDER), help="The first rungs of the ladder.")
    parser.add_argument("--count", type=int, required=True, help="Solved deals, the first in deal order.")
    return parser.parse_args()


def ladder_results(args, catalogues: dict) -> tuple[dict[int, tuple], dict[int, tuple]]:
    """The ladder's games (played where missing) on the first ``--count`` solved deals (the
    calibration deals) and on every deal of the shipped ``catalogues``."""
    games = LadderGames(args.ladder, Rules(args.variant, args.foundation_return), args.numbering)
    print(f"{seeded(games, catalogues)} deals' games taken from the catalogue entries", file=sys.stderr)
    calibration = (solved_deals(args.store, args.study) or entry_deals(catalogues))[: args.count]
    deals = sorted(set(calibration) | set(entry_deals(catalogues)))
    results = {}
    for done, deal in enumerate(deals, start=1):
        results[deal] = games.results(deal, deal_board(args.variant, deal, args.numbering), args.rungs)
        if done % 100 == 0:
            print(f"{now()} {done}/{len(deals)} deals", file=sys.stderr, flush=True)
    return {deal: results[deal] for deal in calibration}, results


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


def earlier_tiering(label: str) -> dict | None:
    """The tiers of the rule set's calibration before this one (None: it had none), as a
    ``tiering``: its own, or its rungs, skills and thresholds."""
    earlier = LADDER_CALIBRATION.get(label)
    if earlier is None:
        return None
    return earlier.get("tiering") or {
        "by": "ladder",
        "rungs": len(earlier["skills"]),
        "skills": tuple(earlier["skills"]),
        "thresholds": tuple(earlier["thresholds"]),
    }


def moved_entries(shipped: list[tuple[dict, tuple]], model: dict) -> int:
    """How many shipped entries (with their ladder games) ``model`` puts in another tier."""
    return sum(
        ladder_rating(games, model, entry.get("score")).tier != entry["tier"] for entry, games in shipped
    )


def fitted_model(label: str, skills, difficulty, shipped) -> tuple[dict, int]:
    """The calibration (skills, thresholds at the thirds, and the earlier ``tiering`` where
    the thresholds would move a shipped entry) and how many entries they would move."""
    model = {
        "skills": tuple(round(float(skill), 3) for skill in skills),
        "thresholds": tuple(thirds(difficulty)),
    }
    moved = moved_entries(shipped, model)
    tiering = earlier_tiering(label) if moved else None
    return (model | {"tiering": tiering} if tiering else model), moved


def calibrate(args, results: dict[int, tuple], shipped: list[tuple[dict, tuple]]) -> dict:
    """The joint fit, the thresholds, and per tier the share and each rung's win rate."""
    deals, label, rungs = (
        sorted(results),
        Rules(args.variant, args.foundation_return).label(),
        LADDER[: args.rungs],
    )
    wins = np.array([[w for w, _g in results[deal]] for deal in deals], dtype=float)
    games = np.array([[g for _w, g in results[deal]] for deal in deals], dtype=float)
    fit = fit_rasch(wins, games)
    model, moved = fitted_model(label, fit.skill, fit.difficulty, shipped)
    tiers = [ladder_rating(results[deal], model).tier for deal in deals]
    by_tier = {}
    for tier in TIER_NAMES:
        rows = [at for at, name in enumerate(tiers) if name == tier]
        by_tier[tier] = {
            "deals": len(rows),
            "share": len(rows) / len(deals),
            "difficulty": {"min": float(fit.difficulty[rows].min()), "max": float(fit.difficulty[rows].max())}
            if rows
            else None,
            "distinct_scores": len(np.unique(np.round(fit.difficulty[rows], 3))),
            "rungs": {
                rung.name: clustered_rate_entry([results[deals[at]][index] for at in rows])
                for index, rung in enumerate(rungs)
            },
        }
    return {
        "rule_set": label,
        "numbering": args.numbering,
        "deals": {"count": len(deals), "first": deals[0], "last": deals[-1]},
        "model": {"model": "rasch", "prior_sd": PRIOR_SD, "converged": fit.converged},
        "skills": {rung.name: skill for rung, skill in zip(rungs, model["skills"])},
        "thresholds": list(model["thresholds"]),
        "shipped_entries": {"checked": len(shipped), "moved_by_the_new_thresholds": moved},
        "tiering": model.get("tiering"),
        "overall": {
            rung.name: clustered_rate_entry([results[deal][index] for deal in deals])
            for index, rung in enumerate(rungs)
        },
        "tiers": by_tier,
        "mean_standard_error": float(fit.standard_error.mean()),
        "difficulty": [round(float(value), 3) for value in fit.difficulty],
        "tier": tiers,
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
        chosen = [v for v, name in zip(values, figures["tier"]) if name == tier]
        share = 100 * figures["tiers"][tier]["share"]
        axis.hist(chosen, bins=bins, color=TIER_COLOURS[tier], label=f"{tier} ({share:.1f}%)")
    kept = figures["tiering"]
    label = f"thresholds (unused: the {kept['rungs']}-rung ladder's tiers kept)" if kept else "thresholds"
    for index, threshold in enumerate(figures["thresholds"]):
        axis.axvline(threshold, color="black", linewidth=0.8, linestyle="--", label=None if index else label)
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


def shipped_games(catalogues: dict, results: dict) -> list[tuple[dict, tuple]]:
    """(entry, its ladder games) of every entry of the files scored by a difficulty model."""
    return [
        (entry, results[entry["deal"]])
        for catalogue in catalogues.values()
        if "difficulty_model" in catalogue
        for entry in catalogue["entries"]
    ]


def write_figures(figures: dict, name: str) -> None:
    plot(figures, RESULTS / f"ladder_{name}.png")
    write_json(
        RESULTS / f"ladder_{name}.json",
        {"benchmark": "bench_ladder", "command": command_line(), "date": now(), "machine": machine_info()}
        | figures,
    )
    model = {"skills": tuple(figures["skills"].values()), "thresholds": tuple(figures["thresholds"])}
    calibrations = LADDER_CALIBRATION | {
        figures["rule_set"]: model | ({"tiering": figures["tiering"]} if figures["tiering"] else {})
    }
    write_calibration(calibrations)
    print(f"{figures['rule_set']}: {calibrations[figures['rule_set']]} -> {calibration_module.__file__}")
    print(tier_table(figures))


def tier_table(figures: dict) -> str:
    """The calibration's tiers as the Markdown table of ``catalogue/README.md``."""
    rungs = list(figures["skills"])
    rows = [f"| tier | share | difficulty | {' | '.join(f'{rung} wins (games played)' for rung in rungs)} |"]
    rows.append("| --- " * (3 + len(rungs)) + "|")
    for tier, shown in [*figures["tiers"].items(), ("all", None)]:
        deals = shown["deals"] if shown else figures["deals"]["count"]
        share = f"{100 * deals / figures['deals']['count']:.1f}% ({deals})" if shown else f"100% ({deals})"
        span = shown and shown["difficulty"]
        scores = shown and shown["distinct_scores"]
        spread = (
            f"{span['min']:.2f} to {span['max']:.2f} ({scores} score{'s' * (scores != 1)})" if span else ""
        )
        rates = (shown or {"rungs": figures["overall"]})["rungs"]
        rows.append(
            f"| {tier} | {share} | {spread} | {' | '.join(rate_text(rates[rung]) for rung in rungs)} |"
        )
    return "\n".join(rows)


def rate_text(rate: dict) -> str:
    if not rate["deals"]:
        return "no games"
    interval = f"{100 * rate['low']:.1f}-{100 * rate['high']:.1f}, " if rate["low"] is not None else ""
    return f"{100 * rate['rate']:.1f}% ({interval}{rate['deals']} deals)"


def tiered_by_score(catalogue: dict) -> bool:
    """Is the file one of release 0.1.0's, tiered by the greedy failure rate (scored or not)?"""
    model = catalogue.get("difficulty_model")
    return model is None or model.get("tiering", {}).get("by") == "score"


def rescore(args, catalogues: dict, results: dict) -> None:
    """Rewrite the scores of the rule set's shipped files with its calibration now; a file
    of release 0.1.0 (no difficulty model) keeps its tiers by the greedy failure rate."""
    rules = Rules(args.variant, args.foundation_return)
    for name, catalogue in catalogues.items():
        model = model_header(rules.label())
        if tiered_by_score(catalogue):
            model |= {"tiering": {"by": "score", "thresholds": list(TIERS[args.variant])}}
        changed = rescore_file(args.catalogue / name, model, lambda entry: results[entry["deal"]])
        print(f"{name}: {changed} of {len(catalogue['entries'])} difficulties changed")


CANDIDATES = (  # (samples, max_nodes, games a deal) of the sampling player
    (2, 500, 4),
    (4, 1000, 1),
    (8, 1000, 1),
    (4, 4000, 1),
)


def candidate_rungs(args) -> None:
    """CPU seconds a game and games won of each candidate rung on the first ``--count``
    entries of the rule set's hard file; the games are kept in ``--ladder`` (resumable)."""
    rules = Rules(args.variant, args.foundation_return)
    hard = catalogue_files(args.catalogue, rules, args.numbering)
    deals = [entry["deal"] for entry in hard[next(n for n in hard if n.endswith("-hard.json"))]["entries"]]
    done = [json.loads(line) for line in args.ladder.open()] if args.ladder.exists() else []
    seen = {(row["rung"], row["deal"]) for row in done}
    with args.ladder.open("a") as file:
        for samples, nodes, games in CANDIDATES:
            rung = Rung(
                f"sampling-{samples}x{nodes}", "sampling", (("max_nodes", nodes), ("samples", samples)), games
            )
            for deal in deals[: args.count]:
                if (rung.name, deal) in seen:
                    continue
                board, started = deal_board(args.variant, deal, args.numbering), time.process_time()
                row = {"rung": rung.name, "deal": deal, "wins": rung.wins(board, rules, deal), "games": games}
                done.append(row | {"cpu": time.process_time() - started})
                file.write(json.dumps(done[-1]) + "\n")
                file.flush()
    summary = rung_summary(done, set(deals[: args.count]))
    print(json.dumps(summary, indent=1))
    name = rule_set_name(rules.variant, rules.foundation_return, args.numbering)
    write_json(RESULTS / f"ladder_rungs_{name}.json", {"command": command_line(), "date": now()} | summary)


def rung_summary(rows: list[dict], deals: set[int]) -> dict:
    """Per candidate: deals, games and games won, deals won at least once, CPU s a game (the
    process's first game, which compiles the kernels, left out)."""
    first = rows[0]
    summary = {}
    for name in dict.fromkeys(row["rung"] for row in rows):
        mine = [row for row in rows if row["rung"] == name and row["deal"] in deals and row is not first]
        games = sum(row["games"] for row in mine)
        summary[name] = {
            "deals": len(mine),
            "games": games,
            "games_won": sum(row["wins"] for row in mine),
            "deals_won": sum(row["wins"] > 0 for row in mine),
            "cpu_seconds_a_game": round(sum(row["cpu"] for row in mine) / games, 3),
        }
    return summary


def main() -> None:
    args = arguments()
    if args.step in ("seeds", "rungs"):
        return seeds(args) if args.step == "seeds" else candidate_rungs(args)
    rules = Rules(args.variant, args.foundation_return)
    catalogues = catalogue_files(args.catalogue, rules, args.numbering) if args.catalogue else {}
    results, everything = ladder_results(args, catalogues)
    if args.step == "rescore":
        return rescore(args, catalogues, everything)
    if args.step == "calibrate":
        figures = calibrate(args, results, shipped_games(catalogues, everything))
        write_figures(figures, rule_set_name(rules.variant, rules.foundation_return, args.numbering))


def write_calibration(calibrations: dict) -> None:
    """Rewrite the package data ``solver/player/ladder_calibration.json`` with ``calibrations``."""
    data = {label: calibrations[label] for label in sorted(calibrations)}
    replace_file(calibration_module.CALIBRATION_FILE, (json.dumps(data, indent=1) + "\n").encode("utf-8"))


if __name__ == "__main__":
    main()
