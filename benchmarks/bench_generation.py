"""Build a rule set's catalogue files of generation 2 from its generation 1 files
(``solver.catalogue.generation``), and measure them: per tier the score distribution and
how each rung does there.

    python benchmarks/bench_generation.py --variant russian --catalogue catalogue \
        --floor runs/russian.floor.jsonl --out catalogue

The floor rungs' games (``solver.player.ladder.FLOOR``) of every entry are kept in
``--floor`` (JSON lines, one deal a line; run it again to resume); the other rungs' games are
the entries' own. Writes the three ``<rule set>-<tier>-g2.json`` files into ``--out`` (with
their manifest lines), the figures into ``benchmarks/results/generation2_<rule set>.json`` and
a plot of the scores per tier into ``--plots``/``ladder_<rule set>-g2.png``.
"""

import argparse
import json
import sys
from datetime import date
from pathlib import Path

from common import command_line, machine_info, now, write_json
from ladder_deals import catalogue_files

from solver.catalogue.epochs import SCHEDULE
from solver.catalogue.files import rule_set_name, save_catalogue
from solver.catalogue.generation import GENERATION, Scored, generation_files
from solver.common.stats import clustered_rate_entry
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.player.ladder import FLOOR, LADDER
from study.plots import TIER_COLOURS, load_pyplot, save

RESULTS = Path(__file__).parent / "results"


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", required=True)
    parser.add_argument("--foundation-return", action="store_true")
    parser.add_argument("--numbering", default="pysol")
    parser.add_argument("--catalogue", type=Path, required=True, help="The folder of the generation 1 files.")
    parser.add_argument("--floor", type=Path, required=True, help="The floor rungs' games (JSON lines).")
    parser.add_argument("--out", type=Path, required=True, help="The folder the new files go into.")
    parser.add_argument("--plots", type=Path, default=RESULTS)
    return parser.parse_args()


def floor_games(path: Path, rules: Rules, numbering: str, deals: list[int]) -> dict[int, tuple]:
    """The floor rungs' ``(wins, games)`` of each deal: read from ``path``, or played and appended."""
    names = [rung.name for rung in FLOOR]
    known = {}
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue  # a line cut short by a kill
            if row.get("rungs") == names and row.get("rule_set") == rules.label():
                known[row["deal"]] = tuple(tuple(pair) for pair in row["results"])
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as file:
        for done, deal in enumerate(deals, start=1):
            if deal not in known:
                board = deal_board(rules.variant, deal, numbering)
                known[deal] = tuple((rung.wins(board, rules, deal), rung.games) for rung in FLOOR)
                row = {"rule_set": rules.label(), "numbering": numbering, "deal": deal, "rungs": names}
                file.write(json.dumps(row | {"results": known[deal]}) + "\n")
                file.flush()
            if done % 500 == 0:
                print(f"{now()} {done}/{len(deals)} deals", file=sys.stderr, flush=True)
    return known


def tier_figures(catalogue: dict) -> dict:
    """A new file's tier: entries, distinct scores, the largest share of one score, the
    score range, and each rung's win rate over the deals it played (clustered by deal)."""
    entries = catalogue["entries"]
    scores = [entry["difficulty"] for entry in entries]
    rungs = catalogue["difficulty_model"]["rungs"]
    per_rung = {}
    for at, rung in enumerate(rungs):
        played = [entry["ladder"][at] for entry in entries if entry["ladder"][at][1]]
        per_rung[rung["name"]] = clustered_rate_entry(played) if played else None
    return {
        "entries": len(entries),
        "distinct_scores": len(set(scores)),
        "largest_share": round(max(scores.count(score) for score in set(scores)) / len(scores), 4),
        "difficulty": [min(scores), max(scores)],
        "rungs": per_rung,
    }


def rate_cell(rate: dict | None) -> str:
    if rate is None:
        return "no games"
    if rate["low"] is None:
        return f"{100 * rate['rate']:.1f}% ({rate['deals']} deal)"
    return (
        f"{100 * rate['rate']:.1f}% ({100 * rate['low']:.1f}-{100 * rate['high']:.1f}, {rate['deals']} deals)"
    )


def readme_table(figures: dict) -> str:
    """The rule set's tiers as catalogue/README.md shows them."""
    model, names = figures["model"], [rung["name"] for rung in figures["model"]["rungs"]]
    skills = ", ".join(f"{name} {skill}" for name, skill in zip(names, model["skills"]))
    head = (
        f"**{figures['rule_set']}** ({figures['deals']} generation 1 entries; skills {skills}; "
        f"thresholds {model['thresholds'][0]} / {model['thresholds'][1]})\n\n"
        f"| tier | entries | scores | largest share | difficulty | {' | '.join(names)} |\n"
        f"| --- | --- | --- | --- | --- |{' --- |' * len(names)}\n"
    )
    rows = [
        f"| {tier} | {f['entries']:,} | {f['distinct_scores']} | {100 * f['largest_share']:.1f}% | "
        f"{f['difficulty'][0]} to {f['difficulty'][1]} | "
        + " | ".join(rate_cell(f["rungs"][name]) for name in names)
        + " |"
        for tier, f in figures["tiers"].items()
    ]
    return head + "\n".join(rows) + "\n"


def plot(catalogues: list[dict], path: Path, title: str) -> None:
    pyplot = load_pyplot()
    figure, axes = pyplot.subplots(figsize=(8, 4))
    everything = [entry["difficulty"] for catalogue in catalogues for entry in catalogue["entries"]]
    bins = [min(everything) + (max(everything) - min(everything)) * step / 120 for step in range(121)]
    for catalogue in catalogues:
        scores = [entry["difficulty"] for entry in catalogue["entries"]]
        axes.hist(scores, bins=bins, color=TIER_COLOURS[catalogue["tier"]], label=catalogue["tier"])
    axes.set_xlabel("difficulty (logits)")
    axes.set_ylabel("entries")
    axes.set_title(title)
    axes.legend()
    save(pyplot, figure, path)


def main() -> None:
    args = arguments()
    rules = Rules(args.variant, args.foundation_return)
    name = rule_set_name(args.variant, args.foundation_return, args.numbering)
    entries = [
        entry
        for catalogue in catalogue_files(args.catalogue, rules, args.numbering).values()
        for entry in catalogue["entries"]
    ]
    rung_counts = {len(entry["ladder"]) for entry in entries}
    if len(rung_counts) != 1:
        sys.exit(f"{name}: entries scored by ladders of {sorted(rung_counts)} rungs; rescore them first")
    floors = floor_games(args.floor, rules, args.numbering, sorted(entry["deal"] for entry in entries))
    scored = [
        Scored(entry, floors[entry["deal"]] + tuple(map(tuple, entry["ladder"])), 0.0, 0.0)
        for entry in entries
    ]
    rungs = (*FLOOR, *LADDER[: rung_counts.pop()])
    since = next(epoch.start for epoch in SCHEDULE if epoch.generation == GENERATION)
    catalogues = generation_files(
        (args.variant, args.foundation_return, args.numbering), scored, rungs, since
    )
    for catalogue in catalogues:
        save_catalogue(args.out, catalogue)
    figures = {
        "command": command_line(),
        "machine": machine_info(),
        "rule_set": name,
        "deals": len(entries),
        "model": catalogues[0]["difficulty_model"],
        "tiers": {catalogue["tier"]: tier_figures(catalogue) for catalogue in catalogues},
    }
    write_json(RESULTS / f"generation{GENERATION}_{name}.json", figures)
    plot(
        catalogues,
        args.plots / f"ladder_{name}-g{GENERATION}.png",
        f"{name} generation {GENERATION} ({date.today()})",
    )
    print(readme_table(figures))


if __name__ == "__main__":
    main()
