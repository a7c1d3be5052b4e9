"""The win-rate study's plots (PNG), drawn with matplotlib when it is installed
(``pip install -e '.[plot]'``): the study calls ``draw_all``; ``load_pyplot``, ``save`` and the
colours are the benchmarks' plots' too.
"""

import io
import sys
from pathlib import Path

from solver.common.atomic import replace_file
from solver.results.result import SOLVED, TIER_NAMES

DPI = 120
TIER_COLOURS = dict(zip(TIER_NAMES, ("#4daf4a", "#ff7f00", "#e41a1c"), strict=True))
SERIES_COLOURS = ("#1f77b4", "#17becf", "#d62728", "#ff9896", "#2ca02c", "#98df8a")
FASTEST_SECONDS = 1e-5


def draw_all(figures: dict, rows: dict[str, list[tuple]], directory: Path) -> list[Path]:
    """Draw every plot the figures allow into ``directory``; return the files written.
    ``rows`` holds each rule set's compact rows over the deals its figures cover."""
    pyplot = load_pyplot()
    if pyplot is None:
        return []
    rule_sets = [item for item in figures["rule_sets"] if item["deals"]["count"]]
    colours = {item["name"]: SERIES_COLOURS[index] for index, item in enumerate(rule_sets)}
    drawings = {
        "win_rates": lambda: win_rates(pyplot, rule_sets),
        "solve_times": lambda: solve_times(pyplot, rule_sets, rows, colours),
        "solution_lengths": lambda: solution_lengths(pyplot, rule_sets, rows, colours),
        "tiers": lambda: tiers(pyplot, figures["players"]),
        "thoughtful_vs_player": lambda: thoughtful_vs_player(pyplot, figures["players"], rule_sets),
    }
    written = []
    for name, draw in drawings.items():
        figure = draw()
        if figure is None:
            continue
        written.append(save(pyplot, figure, directory / f"{name}.png"))
    return written


def load_pyplot():
    """matplotlib's pyplot on the Agg backend, or None (with a note on stderr) when matplotlib
    is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot
    except ImportError:
        print("note: matplotlib is not installed (pip install -e '.[plot]'): no plots", file=sys.stderr)
        return None
    return pyplot


def save(pyplot, figure, path: Path) -> Path:
    """Write ``figure`` as a PNG, whole or not at all (no software stamp, so the same figure
    gives the same bytes), and close it."""
    image = io.BytesIO()
    figure.savefig(image, format="png", dpi=DPI, bbox_inches="tight", metadata={"Software": None})
    pyplot.close(figure)
    replace_file(path, image.getvalue())
    return path


def win_rates(pyplot, rule_sets: list[dict]):
    """One panel per rule set, zoomed on its rate: the Wilson intervals of the rate over
    decided deals and with the unknowns counted lost and won, and the bounds shaded."""
    if not rule_sets:
        return None
    figure, axes = pyplot.subplots(len(rule_sets), 1, figsize=(8, 1.6 * len(rule_sets) + 0.6), squeeze=False)
    labels = {"decided": "decided deals", "unknown_as_lost": "unknown lost", "unknown_as_won": "unknown won"}
    for axis, item in zip(axes[:, 0], rule_sets, strict=True):
        rate = item["win_rate"]
        axis.axvspan(
            100 * rate["bounds"]["low"], 100 * rate["bounds"]["high"], color="#dddddd", label="bounds"
        )
        for position, key in enumerate(labels):
            entry = rate[key]
            if entry["rate"] is None:
                continue
            centre = 100 * entry["rate"]
            # clamped: at a rate of 100% rounding can put the bound a hair below the centre
            error = [[max(0.0, centre - 100 * entry["low"])], [max(0.0, 100 * entry["high"] - centre)]]
            axis.errorbar(centre, position, xerr=error, fmt="o", color="#1f77b4", capsize=4)
            axis.annotate(
                f"{centre:.2f}%",
                (100 * entry["high"], position),
                xytext=(6, 0),
                textcoords="offset points",
                va="center",
                fontsize=8,
            )
        axis.set_yticks(range(len(labels)), list(labels.values()), fontsize=8)
        axis.set_ylim(-0.6, len(labels) - 0.4)
        axis.invert_yaxis()
        low, high = 100 * rate["bounds"]["low"], 100 * rate["bounds"]["high"]
        margin = max(0.25 * (high - low), 0.05)
        axis.set_xlim(low - margin, high + 2.5 * margin)
        axis.set_title(f"{item['rule_set']}: {item['deals']['count']:,} deals", fontsize=9, loc="left")
        axis.xaxis.set_major_formatter(lambda value, _: f"{value:.2f}%")
        axis.tick_params(axis="x", labelsize=8)
    figure.suptitle(
        "Thoughtful win rate, 95% Wilson intervals (grey: every unknown lost .. won)", fontsize=10
    )
    figure.tight_layout()
    return figure


def solve_times(pyplot, rule_sets: list[dict], rows: dict, colours: dict):
    """Step histograms of each deal's solving time on a log scale, the time limit dashed."""
    import numpy

    if not rule_sets:
        return None
    seconds = {item["name"]: numpy.array([row[4] / 1000 for row in rows[item["name"]]]) for item in rule_sets}
    longest = max(max(values.max() for values in seconds.values() if values.size), 2 * FASTEST_SECONDS)
    bins = numpy.logspace(numpy.log10(FASTEST_SECONDS), numpy.log10(longest * 1.05), 60)
    figure, axis = pyplot.subplots(figsize=(8, 4.5))
    for item in rule_sets:
        values = numpy.clip(seconds[item["name"]], FASTEST_SECONDS, None)
        axis.hist(
            values,
            bins=bins,
            histtype="step",
            linewidth=1.6,
            color=colours[item["name"]],
            label=item["rule_set"],
        )
    limits = {limit for item in rule_sets for limit in item["source"]["time_limits"] if limit is not None}
    for limit in sorted(limits):
        axis.axvline(limit, color="#555555", linestyle="--", linewidth=1)
        axis.annotate(
            f"time limit {limit:g} s",
            (limit, 0.97),
            xycoords=("data", "axes fraction"),
            xytext=(-4, 0),
            textcoords="offset points",
            ha="right",
            va="top",
            fontsize=8,
        )
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_xlabel(
        f"seconds per deal (log scale; below {FASTEST_SECONDS:g} s counted at {FASTEST_SECONDS:g} s)"
    )
    axis.set_ylabel("deals (log scale)")
    axis.set_title("Solving time per deal")
    axis.legend(fontsize=8)
    figure.tight_layout()
    return figure


def solution_lengths(pyplot, rule_sets: list[dict], rows: dict, colours: dict):
    """Step histograms of the solved deals' line lengths, as shares of each rule set's solved deals."""
    lengths = {item["name"]: [row[2] for row in rows[item["name"]] if row[1] == SOLVED] for item in rule_sets}
    every = [value for values in lengths.values() for value in values]
    if not every:
        return None
    bins = [value - 0.5 for value in range(min(every), max(every) + 2)]
    figure, axis = pyplot.subplots(figsize=(8, 4.5))
    for item in rule_sets:
        values = lengths[item["name"]]
        if values:
            weights = [100 / len(values)] * len(values)
            label = f"{item['rule_set']} ({len(values):,} solved)"
            axis.hist(
                values,
                bins=bins,
                weights=weights,
                histtype="step",
                linewidth=1.6,
                color=colours[item["name"]],
                label=label,
            )
    axis.set_xlabel("solution length (moves)")
    axis.set_ylabel("% of the rule set's solved deals")
    axis.set_title("Solution length of the thoughtful solver's lines")
    axis.legend(fontsize=8)
    figure.tight_layout()
    return figure


def tiers(pyplot, players: dict):
    """Stacked bars: the difficulty tiers' split of the solvable deals per variant."""
    splits = {
        variant: entry["tiers"]["split"] for variant, entry in sorted(players.items()) if "tiers" in entry
    }
    if not splits:
        return None
    figure, axis = pyplot.subplots(figsize=(8, 0.8 * len(splits) + 1.4))
    for position, split in enumerate(splits.values()):
        start = 0.0
        for tier in TIER_NAMES:
            share = 100 * split.get(tier, 0.0)
            axis.barh(
                position, share, left=start, color=TIER_COLOURS[tier], label=tier if position == 0 else None
            )
            if share >= 4:
                axis.text(
                    start + share / 2, position, f"{tier}\n{share:.1f}%", ha="center", va="center", fontsize=8
                )
            start += share
    axis.set_yticks(range(len(splits)), list(splits))
    axis.set_xlim(0, 100)
    axis.set_xlabel("% of solvable deals, tiered by how often the greedy player loses them")
    axis.set_title("Difficulty tiers of the solvable deals")
    axis.invert_yaxis()
    figure.tight_layout()
    return figure


def thoughtful_vs_player(pyplot, players: dict, rule_sets: list[dict]):
    """Grouped bars per variant: the thoughtful win rate (decided deals, strict rules) and the
    non-peeking players' win rates, each with its 95% Wilson interval."""
    strict = {
        item["source"]["rules"]["variant"]: item
        for item in rule_sets
        if not item["source"]["rules"]["foundation_return"]
    }
    series = ("thoughtful solver", "sampling player", "greedy player")
    groups = {}
    for variant, entry in sorted(players.items()):
        rates = {
            "thoughtful solver": strict[variant]["win_rate"]["decided"] if variant in strict else None,
            "sampling player": entry.get("sampling"),
            "greedy player": entry.get("greedy"),
        }
        if rates["sampling player"] or rates["greedy player"]:
            groups[variant] = rates
    if not groups:
        return None
    figure, axis = pyplot.subplots(figsize=(8, 4.5))
    width = 0.8 / len(series)
    for index, name in enumerate(series):
        for position, rates in enumerate(groups.values()):
            entry = rates[name]
            if not entry or entry.get("rate") is None:
                continue
            x = position + (index - (len(series) - 1) / 2) * width
            error = [[100 * (entry["rate"] - entry["low"])], [100 * (entry["high"] - entry["rate"])]]
            axis.bar(
                x,
                100 * entry["rate"],
                width,
                yerr=error,
                capsize=4,
                color=SERIES_COLOURS[2 * index],
                label=name if position == 0 else None,
            )
            axis.annotate(
                f"{100 * entry['rate']:.1f}%\nn={entry['deals']:,}",
                (x, 100 * entry["high"]),
                xytext=(0, 3),
                textcoords="offset points",
                ha="center",
                fontsize=7,
            )
    axis.set_xticks(range(len(groups)), list(groups))
    axis.set_ylim(0, 110)
    axis.set_ylabel("win rate, % (95% Wilson interval)")
    axis.set_title("Thoughtful solver against the non-peeking players (strict rules)")
    axis.legend(fontsize=8, loc="upper right")
    figure.tight_layout()
    return figure
