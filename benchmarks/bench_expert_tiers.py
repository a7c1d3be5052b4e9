"""The ladder's top rung, the ``expert`` policy, on a sample of every tier of the generation 2
catalogue files, beside the other rungs' win rates there (the entries' own ladder games).

    nice -n 19 python benchmarks/bench_expert_tiers.py play --catalogue catalogue
    python benchmarks/bench_expert_tiers.py summary --catalogue catalogue

``play`` takes ``--sample`` entries of each ``*-g2.json`` file in ``--catalogue``: the middle
entry of each of ``--sample`` equal runs of the file in its order (ascending difficulty, so
the sample spreads over the tier's range). It plays one expert game a deal (seed ``--seed``,
the file's numbering; ``solver.player.play.play_deal``, which replays a won line on the
reference engine), one JSON line a game appended to ``--rows`` as it ends (run it again to
play only the games missing). The games go round the files, sample position by sample
position in the order 11 * j mod ``--sample`` (j = 0, 1, ...), so a run stopped early leaves
every tier a sample spread over its range.

``summary`` writes per tier the expert's win rate over the games played (one game a deal,
95% Wilson interval), the games it gave up at the opening (no move: every sampled world
proved lost), its rate on the sampled deals the ladder's gate let each sampling rung play
(beside that rung's there) and on those no rung from greedy up ever won, and each other
rung's rate over the whole tier (clustered by deal; a gated rung only over the deals it
played, as ``bench_generation.py`` reports them) to
``benchmarks/results/expert_tiers_g2.json``, a plot per rule set to ``expert_tiers_g2.png``,
and prints the Markdown table of ``docs/players.md``.
"""

import argparse
import json
import sys
import time
from pathlib import Path

from bench_generation import tier_figures
from common import appended_rows, command_line, machine_info, now, played_rows, warm_up, write_json

from solver.catalogue.files import read_catalogue, rule_set_name
from solver.common.stats import clustered_rate_entry, percentile, rate_entry
from solver.game.rules import Rules
from solver.player.ladder import GATE
from solver.player.play import play_deal
from solver.results.result import TIER_NAMES
from study.plots import SERIES_COLOURS, load_pyplot, save

RESULTS = Path(__file__).parent / "results"
STRIDE = 11  # the order of the sample positions: 11 * j mod the sample size (coprime to 30 and 20)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("step", choices=("play", "summary"))
    parser.add_argument("--catalogue", type=Path, default=Path("catalogue"), help="The folder of the files.")
    parser.add_argument("--sample", type=int, default=30, help="Entries a tier.")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rows", type=Path, default=RESULTS / "expert_tiers_g2.jsonl")
    return parser.parse_args()


def tier_files(directory: Path) -> dict[str, dict]:
    """Every generation 2 file of ``directory``, by file name."""
    files = {path.name: read_catalogue(path) for path in sorted(directory.glob("*-g2.json"))}
    if not files:
        sys.exit(f"{directory}: no generation 2 catalogue files (*-g2.json)")
    return files


def sample_positions(entries: int, sample: int) -> list[int]:
    """The middle entry of each of ``sample`` equal runs of a file's ``entries``, in play order."""
    order = [(STRIDE * step) % sample for step in range(sample)]
    return [min(entries - 1, (2 * index + 1) * entries // (2 * sample)) for index in order]


def play(args, files: dict[str, dict]) -> None:
    done = {(row["file"], row["deal"]) for row in played_rows(args.rows)}
    positions = {
        name: sample_positions(len(catalogue["entries"]), args.sample) for name, catalogue in files.items()
    }
    print(f"{now()} warm-up: {warm_up('yukon', 'pysol')['seconds']:.1f} s", file=sys.stderr, flush=True)
    with appended_rows(args.rows) as rows:
        for step in range(args.sample):
            for name, catalogue in files.items():
                entry = catalogue["entries"][positions[name][step]]
                if (name, entry["deal"]) not in done:
                    rows.write(json.dumps(game_row(name, catalogue, entry, args.seed)) + "\n")
                    rows.flush()
            print(f"{now()} {step + 1}/{args.sample} positions", file=sys.stderr, flush=True)


def game_row(name: str, catalogue: dict, entry: dict, seed: int) -> dict:
    """One expert game on ``entry``: won, moves, CPU seconds, and the entry's score."""
    rules, started = Rules(catalogue["variant"], catalogue["foundation_return"]), time.process_time()
    record = play_deal(entry["deal"], rules, "expert", seed, catalogue["numbering"])
    return {
        "file": name,
        "deal": entry["deal"],
        "won": record.won,
        "cpu_seconds": round(time.process_time() - started, 3),
        "difficulty": entry["difficulty"],
        "moves": record.moves,
        "seed": seed,
    }


def tier_summary(catalogue: dict, games: list[dict]) -> dict:
    """A tier's expert games (rate with its Wilson interval; the rate on the sampled deals each
    gated rung played, beside that rung's there, and on those no rung from greedy up won) and
    each rung's rate over the whole tier."""
    rungs = tier_figures(catalogue)["rungs"]
    ladder = {entry["deal"]: entry["ladder"] for entry in catalogue["entries"]}
    on_gated = {}
    for at, (name, rate) in enumerate(rungs.items()):
        if rate is None or rate["deals"] < len(catalogue["entries"]):
            played = [game for game in games if ladder[game["deal"]][at][1]]
            on_gated[name] = {
                "expert": rate_entry(sum(game["won"] for game in played), len(played)),
                name: clustered_rate_entry([ladder[game["deal"]][at] for game in played]),
            }
    unwon = [game for game in games if not ladder_won(catalogue, ladder[game["deal"]])]
    cpu = sorted(game["cpu_seconds"] for game in games)
    return {
        "entries": len(catalogue["entries"]),
        "sample": len(games),
        "sample_difficulty": [min(g["difficulty"] for g in games), max(g["difficulty"] for g in games)],
        "expert": rate_entry(sum(game["won"] for game in games), len(games)),
        "expert_gave_up_at_the_opening": sum(not game["moves"] for game in games),
        "expert_on_the_deals_a_gated_rung_played": on_gated,
        "expert_on_the_deals_no_rung_from_greedy_up_won": rate_entry(
            sum(game["won"] for game in unwon), len(unwon)
        ),
        "cpu_seconds": {"median": percentile(cpu, 0.5), "max": cpu[-1], "total": round(sum(cpu), 1)},
        "rungs": rungs,
    }


def ladder_won(catalogue: dict, results: list) -> bool:
    """Did a rung from greedy up (not a floor rung) win a game of the deal with ``results``?"""
    floor = [rung.get("floor", False) for rung in catalogue["difficulty_model"]["rungs"]]
    return any(wins for (wins, _games), low in zip(results, floor, strict=True) if not low)


def summary(args, files: dict[str, dict]) -> None:
    games: dict[str, list[dict]] = {}
    for row in played_rows(args.rows):
        games.setdefault(row["file"], []).append(row)
    tiers = {}
    for name, catalogue in sorted(files.items(), key=lambda item: tier_key(item[1])):
        if games.get(name):
            tiers[name.removesuffix(".json")] = rule_set(catalogue) | tier_summary(catalogue, games[name])
    figures = {
        "benchmark": "bench_expert_tiers",
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "rows": args.rows.name,
        "rows_played_by": f"python benchmarks/bench_expert_tiers.py play --catalogue {args.catalogue} "
        f"--sample {args.sample} (resumable, under nice -n 19)",
        "sample": f"the middle entry of each of {args.sample} equal runs of a file (ascending difficulty)",
        "policy": "expert, one game a deal, seed "
        + ", ".join(sorted({str(r["seed"]) for g in games.values() for r in g})),
        "gate": GATE,
        "tiers": tiers,
    }
    write_json(RESULTS / "expert_tiers_g2.json", figures)
    plot(tiers, RESULTS / "expert_tiers_g2.png")
    print(markdown_table(tiers))


def rule_set(catalogue: dict) -> dict:
    name = rule_set_name(catalogue["variant"], catalogue["foundation_return"], catalogue["numbering"])
    return {"rule_set": name, "tier": catalogue["tier"]}


def tier_key(catalogue: dict) -> tuple:
    return rule_set(catalogue)["rule_set"], TIER_NAMES.index(catalogue["tier"])


def percent(rate: dict | None, interval: bool = False) -> str:
    if rate is None or rate["rate"] is None:
        return "-"
    shown = f"{100 * rate['rate']:.1f}%"
    return f"{shown} ({100 * rate['low']:.0f}-{100 * rate['high']:.0f})" if interval else shown


def markdown_table(tiers: dict) -> str:
    """Per tier: the expert's games won and rate (95% interval), and on the sampled deals the
    top gated rung played beside that rung, then every other rung's rate over the tier."""
    names = list(dict.fromkeys(name for tier in tiers.values() for name in tier["rungs"]))
    rows = [
        f"| rule set | tier | expert won | expert rate (95%) | expert / top sampling rung, same deals | "
        f"{' | '.join(names)} |",
        "| --- " * (5 + len(names)) + "|",
    ]
    for tier in tiers.values():
        expert = tier["expert"]
        rungs = " | ".join(rung_cell(tier["rungs"].get(name), tier["entries"]) for name in names)
        rows.append(
            f"| {tier['rule_set']} | {tier['tier']} | {expert['wins']}/{expert['deals']} | "
            f"{percent(expert, interval=True)} | {paired_cell(tier)} | {rungs} |"
        )
    return "\n".join(rows)


def paired_cell(tier: dict) -> str:
    """The expert's and the top gated rung's games won on the sampled deals that rung played."""
    gated = tier["expert_on_the_deals_a_gated_rung_played"]
    if not gated:
        return "-"
    name, pair = list(gated.items())[-1]
    if not pair["expert"]["deals"]:
        return f"none played by {name}"
    return f"{pair['expert']['wins']} / {pair[name]['wins']} of {pair['expert']['deals']} ({name})"


def rung_cell(rate: dict | None, entries: int) -> str:
    """A rung's rate over a tier; a gated rung's with the deals it played (of the tier's)."""
    if rate is None or rate["deals"] == entries:
        return percent(rate)
    return f"{percent(rate)} of {rate['deals']}"


def plot(tiers: dict, path: Path) -> None:
    """One panel a rule set: each rung's win rate per tier, the expert's with its interval."""
    pyplot = load_pyplot()
    if pyplot is None:
        return
    rule_sets = list(dict.fromkeys(tier["rule_set"] for tier in tiers.values()))
    figure, axes = pyplot.subplots(2, 4, figsize=(15, 7.5), sharey=True)
    for axis, name in zip(axes.flat, rule_sets):
        mine = [tier for tier in tiers.values() if tier["rule_set"] == name]
        draw_rule_set(axis, mine)
        axis.set_title(name)
    for axis in axes[:, 0]:
        axis.set_ylabel("games won (share)")
    legend = {}  # label: handle, over every panel (Milligan has fewer rungs)
    for axis in axes.flat:
        legend |= {label: handle for handle, label in zip(*axis.get_legend_handles_labels())}
    legend |= {label: legend.pop(label) for label in list(legend) if label.startswith("expert")}
    axes.flat[-1].axis("off")
    axes.flat[-1].legend(legend.values(), legend.keys(), loc="center", fontsize=9)
    samples = "/".join(str(size) for size in sorted({tier["sample"] for tier in tiers.values()}))
    figure.suptitle(
        f"Generation 2 tiers: the expert on {samples} deals of each tier (one game a deal, 95% Wilson"
        " interval) beside the ladder's rungs"
    )
    figure.tight_layout()
    save(pyplot, figure, path)


def draw_rule_set(axis, tiers: list[dict]) -> None:
    places = [TIER_NAMES.index(tier["tier"]) for tier in tiers]
    for colour, name in zip(SERIES_COLOURS, tiers[0]["rungs"]):
        rates = [tier["rungs"][name] or {"deals": 0, "rate": None} for tier in tiers]
        gated = any(rate["deals"] < tier["entries"] for rate, tier in zip(rates, tiers))
        axis.plot(
            places,
            [float("nan") if rate["rate"] is None else rate["rate"] for rate in rates],
            marker="o",
            color=colour,
            linestyle="--" if gated else "-",
            markerfacecolor="white" if gated else colour,
            label=f"{name} (the deals the gate let it play)" if gated else f"{name} (whole tier)",
        )
    expert = [tier["expert"] for tier in tiers]
    axis.errorbar(
        places,
        [rate["rate"] for rate in expert],
        yerr=[
            [max(0, r["rate"] - r["low"]) for r in expert],
            [max(0, r["high"] - r["rate"]) for r in expert],
        ],
        color="black",
        linewidth=2,
        capsize=4,
        marker="s",
        label="expert (a sample of each tier)",
    )
    axis.set_xticks(range(len(TIER_NAMES)), TIER_NAMES)
    axis.set_xlabel("tier")
    axis.set_ylim(-0.02, 1.02)
    axis.grid(alpha=0.3)


def main() -> None:
    args = arguments()
    files = tier_files(args.catalogue)
    if args.step == "play":
        return play(args, files)
    return summary(args, files)


if __name__ == "__main__":
    main()
