"""Scaling: time and nodes per deal against difficulty, memory against ``--memory``,
throughput against ``--jobs``; figures in ``benchmarks/results/scaling.json``, plots beside it.

    python benchmarks/bench_scaling.py difficulty     # from the committed tables: no solving
    python benchmarks/bench_scaling.py memory         # 8 hard deals at 6 --memory sizes
    python benchmarks/bench_scaling.py jobs           # from batch_throughput.json: no solving
    python benchmarks/bench_scaling.py all --readme docs/performance.md

``difficulty`` groups the deals the greedy player was calibrated on
(``player_calibration_<variant>.jsonl``) by difficulty tier (``solver.player.difficulty``),
and the deals the solver did not solve by verdict, and gives each group's p50/p90/p99/max of
the solving time and nodes recorded in the study's compact tables
(``study/results/<variant>.verdicts.csv.gz``). ``memory`` solves each deal in a fresh
``yukon solve DEAL --json`` process per ``--memory`` size, under a node budget and no time
limit (the same search work whatever the load), and records the verdicts, seconds, peak table
entries and each process's max RSS. ``jobs`` takes ``bench_batch.py``'s deals per second.
Each part replaces its own entry of the JSON and redraws its plot (PNG, with matplotlib);
``--readme FILE`` rewrites the block between ``<!-- scaling:start -->`` and
``<!-- scaling:end -->`` of FILE from the whole JSON.
"""

import argparse
import functools
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from common import command_line, machine_info, now, parse_deals, percentiles, status_counts, write_json
from shapes import SCALING, DifficultyFigures, JobsFigures, MemoryFigures, MemorySetting, ScalingFigures

from solver.commands import solve_arguments
from solver.engine.table import ENTRY_BYTES
from solver.errors import YukonError
from solver.player.difficulty import TIERS, tier_of
from solver.results.limits import parse_memory
from solver.results.result import SOLVED, TIER_NAMES, UNKNOWN, UNSOLVABLE
from study import plots, tables
from study.reports import join_sections, plot_section, readme_images, rewrite_readme, seconds, table_start

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
OUT = RESULTS / "scaling.json"
MARKERS = ("<!-- scaling:start -->", "<!-- scaling:end -->")
PARTS = ("difficulty", "memory", "jobs")
VARIANTS = ("yukon", "russian")  # the variants with a player calibration
UNRATED = "solved, not rated"
GROUPS = (*TIER_NAMES, UNRATED, UNSOLVABLE, UNKNOWN)
GROUP_COLOURS = {**plots.TIER_COLOURS, UNRATED: "#999999", UNSOLVABLE: "#377eb8", UNKNOWN: "#984ea3"}
QUANTILES = {"median": (0.5, "o"), "p90": (0.9, "s"), "p99": (0.99, "D")}
MEMORY_SIZES = "1M,4M,16M,64M,256M,1G"
MAX_NODES = 3_000_000
HARD_DEALS, HARD_MS = 8, (500, 3000)
WARM_UP_NODES = 1000
FEWEST_NODES = 1
MIB = 1 << 20


# ---- difficulty ---------------------------------------------------------------------------


def read_ratings(directory: Path, variant: str) -> tuple[dict[int, int | None], int]:
    """The greedy player's failures per calibrated deal (None where calibration did not
    solve the deal) and the runs each deal was played."""
    summary = json.loads((directory / f"player_calibration_{variant}.json").read_text())
    with (directory / f"player_calibration_{variant}.jsonl").open() as lines:
        failures = {row["deal"]: row.get("failures") for row in map(json.loads, lines)}
    return failures, summary["runs"]


def group_of(status: str, failures: int | None, runs: int, variant: str) -> str:
    """A solved deal's difficulty tier (UNRATED without a rating); otherwise its verdict."""
    if status != SOLVED:
        return status
    return UNRATED if failures is None else tier_of(failures / runs, variant)


def grouped_rows(rows: list[tuple], failures: dict, runs: int, variant: str) -> dict[str, list[tuple]]:
    """The compact rows of the rated deals by group, in GROUPS order, empty groups left out."""
    groups = {name: [] for name in GROUPS}
    for row in rows:
        if row[0] in failures:
            groups[group_of(row[1], failures[row[0]], runs, variant)].append(row)
    return {name: members for name, members in groups.items() if members}


def seconds_of(rows: list[tuple]) -> list[float]:
    return [row[4] / 1000 for row in rows]


def nodes_of(rows: list[tuple]) -> list[int]:
    return [row[3] for row in rows]


def variant_figures(table: tables.Table, groups: dict[str, list[tuple]], runs: int) -> dict:
    """One variant's groups with the p50/p90/p99/max of their time and nodes per deal."""
    deals = sorted(row[0] for members in groups.values() for row in members)
    return {
        "table": f"study/results/{table.name}.verdicts.csv.gz",
        "ratings": f"player_calibration_{table.rules.variant}.jsonl",
        "source": {key: table.source[key] for key in ("commands", "time_limits", "solver_versions")},
        "runs": runs,
        "thresholds": list(TIERS[table.rules.variant]),
        "deals": {"first": deals[0], "last": deals[-1], "count": len(deals)},
        "groups": {
            name: {
                "deals": len(members),
                "seconds": percentiles(seconds_of(members)),
                "nodes": percentiles(nodes_of(members)),
            }
            for name, members in groups.items()
        },
    }


def difficulty(args) -> tuple[DifficultyFigures, dict]:
    """The difficulty figures of every variant with a table and a calibration, and each
    variant's grouped rows (for the plot)."""
    figures, rows = {}, {}
    for variant in VARIANTS:
        try:
            table = tables.read_table(args.tables, variant)
            failures, runs = read_ratings(args.players, variant)
        except (YukonError, OSError) as error:
            print(f"note: no difficulty figures for {variant}: {error}", file=sys.stderr)
            continue
        rows[variant] = grouped_rows(table.rows, failures, runs, variant)
        figures[variant] = variant_figures(table, rows[variant], runs)
    if not figures:
        raise YukonError(f"no compact table with a player calibration in {args.tables} and {args.players}")
    return {"command": command_line(), "date": now(), "variants": figures}, rows


def draw_difficulty(pyplot, figures: dict, rows: dict):
    """Per variant, the empirical distribution (ECDF) of each group's seconds and nodes per
    deal on log scales, with its p50/p90/p99 marked."""
    variants = list(figures["variants"])
    figure, axes = pyplot.subplots(len(variants), 2, figsize=(11, 4 * len(variants)), squeeze=False)
    for (time_axis, nodes_axis), variant in zip(axes, variants, strict=True):
        groups, stats = rows[variant], figures["variants"][variant]["groups"]
        ecdf_panel(time_axis, groups, stats, "seconds", plots.FASTEST_SECONDS)
        ecdf_panel(nodes_axis, groups, stats, "nodes", FEWEST_NODES)
        time_axis.set_title(f"{variant}: seconds per deal", fontsize=10, loc="left")
        nodes_axis.set_title(f"{variant}: nodes per deal", fontsize=10, loc="left")
        nodes_axis.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1))
    figure.suptitle("Solving effort by difficulty tier (solved) and verdict (not solved)", fontsize=11)
    figure.tight_layout()
    return figure


def ecdf_panel(axis, groups: dict, stats: dict, measure: str, floor: float) -> None:
    """One ECDF per group of ``measure`` (clipped below at ``floor`` for the log scale)."""
    values_of = seconds_of if measure == "seconds" else nodes_of
    for name, members in groups.items():
        values = sorted(max(value, floor) for value in values_of(members))
        shares = [(index + 1) / len(values) for index in range(len(values))]
        colour = GROUP_COLOURS[name]
        axis.step(
            values, shares, where="post", color=colour, linewidth=1.4, label=f"{name} ({len(values):,})"
        )
        for key, (share, marker) in QUANTILES.items():
            axis.plot(max(stats[name][measure][key], floor), share, marker, color=colour, markersize=5)
    for key, (share, marker) in QUANTILES.items():
        axis.axhline(share, color="#bbbbbb", linestyle=":", linewidth=0.8)
        axis.plot([], [], marker, color="#555555", linestyle="none", label=key.replace("median", "p50"))
    axis.set_xscale("log")
    axis.set_xlabel(f"{measure} per deal (log scale; below {floor:g} counted at {floor:g})", fontsize=8)
    axis.set_ylabel("share of the group's deals", fontsize=8)
    axis.set_ylim(0, 1.02)


# ---- memory -------------------------------------------------------------------------------


def hard_deals(
    rows: list[tuple], count: int = HARD_DEALS, low_ms: float = HARD_MS[0], high_ms: float = HARD_MS[1]
):
    """``count // 2`` solved and as many unsolvable deals that took ``low_ms``..``high_ms``,
    each those with the most nodes, in deal order."""
    picked = []
    for status in (SOLVED, UNSOLVABLE):
        candidates = [row for row in rows if row[1] == status and low_ms <= row[4] <= high_ms]
        picked += [row[0] for row in sorted(candidates, key=lambda row: (-row[3], row[0]))[: count // 2]]
    return sorted(picked)


def solve_command(deal: int | str, memory: str, max_nodes: int) -> list[str]:
    """The words of one measured ``yukon solve``: a node budget and no time limit."""
    return solve_arguments(deal, as_json=True, memory=memory, max_nodes=max_nodes, time_limit=float("inf"))


def run_yukon(command: list[str]) -> tuple[dict, int, float]:
    """Run the ``yukon`` command ``command`` in a fresh process: its JSON record, the process's
    max RSS in bytes and its wall seconds (Python start-up and kernel cache load included)."""
    started = time.perf_counter()
    cli = [sys.executable, "-c", "from solver.cli import main; main()", *command[1:]]
    with subprocess.Popen(cli, stdout=subprocess.PIPE, text=True) as process:
        output = process.stdout.read()
        _, wait_status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(wait_status)
    if process.returncode not in (0, 1, 3):
        raise YukonError(f"`{' '.join(command)}` exited with status {process.returncode}")
    return json.loads(output), usage.ru_maxrss * 1024, time.perf_counter() - started


def measured_solve(deal: int, memory: str, max_nodes: int) -> dict:
    record, rss, wall = run_yukon(solve_command(deal, memory, max_nodes))
    return {
        "deal": deal,
        "status": record["status"],
        "budget": record["budget"],
        "nodes": record["nodes"],
        "seconds": record["seconds"],
        "peak_table_entries": record["peak_table_entries"],
        "max_rss_bytes": rss,
        "wall_seconds": wall,
    }


def memory_setting(deals: list[int], memory: str, max_nodes: int) -> MemorySetting:
    """Every deal at one ``--memory`` size, one process each, and the setting's totals."""
    rows = []
    for deal in deals:
        rows.append(measured_solve(deal, memory, max_nodes))
        print(
            f"--memory {memory} deal {deal}: {rows[-1]['status']}, {rows[-1]['seconds']:.2f} s",
            file=sys.stderr,
        )
    peak = max(row["peak_table_entries"] for row in rows)
    return {
        "memory": memory,
        "memory_bytes": parse_memory(memory),
        "counts": status_counts(row["status"] for row in rows),
        "solving_seconds": sum(row["seconds"] for row in rows),
        "wall_seconds": sum(row["wall_seconds"] for row in rows),
        "nodes": sum(row["nodes"] for row in rows),
        "peak_table_entries": peak,
        "table_payload_bytes": peak * ENTRY_BYTES,
        "max_rss_bytes": max(row["max_rss_bytes"] for row in rows),
        "deals": rows,
    }


def memory(args) -> MemoryFigures:
    """Solve the hard deals at every ``--memory`` size, one size after the other."""
    table = tables.read_table(args.tables, "yukon")
    deals = parse_deals(args.deals) if args.deals else hard_deals(table.rows)
    known = {row[0]: {"status": row[1], "nodes": row[3], "ms": row[4]} for row in table.rows}
    # Loads (or compiles) the kernels outside the figures; its RSS is the process's without a search.
    warm_up = solve_command(1, "16M", WARM_UP_NODES)
    _, baseline_rss, _ = run_yukon(warm_up)
    return {
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "max_nodes": args.max_nodes,
        "per_deal_command": " ".join(solve_command("DEAL", "SIZE", args.max_nodes)),
        "deals": deals,
        "selection": "given by --deals"
        if args.deals
        else f"the {HARD_DEALS // 2} solved and {HARD_DEALS // 2} unsolvable yukon deals with the most nodes "
        f"among those taking {HARD_MS[0]}-{HARD_MS[1]} ms in study/results/yukon.verdicts.csv.gz",
        "study_rows": {deal: known.get(deal) for deal in deals},
        "baseline": {"command": " ".join(warm_up), "max_rss_bytes": baseline_rss},
        "settings": [memory_setting(deals, size, args.max_nodes) for size in args.memory_sizes.split(",")],
    }


def draw_memory(pyplot, figures: dict):
    """Against --memory (log scale): the max RSS and the table payload, and the solving time."""
    settings = figures["settings"]
    sizes = [setting["memory_bytes"] / MIB for setting in settings]
    figure, (bytes_axis, time_axis) = pyplot.subplots(1, 2, figsize=(11, 4.2))
    bytes_axis.plot(sizes, [s["max_rss_bytes"] / MIB for s in settings], "o-", label="process max RSS")
    bytes_axis.plot(sizes, [s["table_payload_bytes"] / MIB for s in settings], "s-", label="table payload")
    bytes_axis.plot(sizes, sizes, ":", color="#777777", label="--memory (table cap)")
    baseline = figures["baseline"]["max_rss_bytes"] / MIB
    bytes_axis.axhline(
        baseline, linestyle="--", color="#999999", label=f"max RSS of a {WARM_UP_NODES:,}-node solve"
    )
    bytes_axis.set_yscale("log")
    bytes_axis.set_ylabel("MiB (log scale)")
    bytes_axis.set_title("Memory", fontsize=10, loc="left")
    time_axis.plot(sizes, [s["solving_seconds"] for s in settings], "o-", label="solving (sum)")
    time_axis.plot(sizes, [s["wall_seconds"] for s in settings], "s-", label="processes' wall (sum)")
    time_axis.set_ylim(bottom=0)
    time_axis.set_ylabel("seconds")
    time_axis.set_title(f"Time, {len(figures['deals'])} deals", fontsize=10, loc="left")
    for setting, size in zip(settings, sizes, strict=True):
        counts = setting["counts"]
        label = f"{counts[SOLVED]}/{counts[UNSOLVABLE]}/{counts[UNKNOWN]}"
        time_axis.annotate(
            label,
            (size, setting["solving_seconds"]),
            xytext=(0, 6),
            textcoords="offset points",
            ha="center",
            fontsize=7,
        )
    for axis in (bytes_axis, time_axis):
        axis.set_xscale("log")
        axis.set_xticks(sizes, [setting["memory"] for setting in settings])
        axis.set_xlabel("--memory")
        axis.legend(fontsize=8)
    figure.suptitle(
        f"Memory and time against --memory (node budget {figures['max_nodes']:,}; "
        "labels: solved/unsolvable/unknown)",
        fontsize=10,
    )
    figure.tight_layout()
    return figure


# ---- jobs ---------------------------------------------------------------------------------


def jobs(args) -> JobsFigures:
    """``bench_batch.py``'s throughput per worker count, as it recorded it."""
    try:
        batch = json.loads(args.batch.read_text())
    except (OSError, ValueError) as error:
        raise YukonError(f"cannot read {args.batch}: {error}") from None
    keys = ("jobs", "deals", "wall_seconds", "deals_per_second", "speed_up", "scaling_efficiency")
    return {
        "source": args.batch.name,
        **{key: batch[key] for key in ("command", "date", "machine", "settings")},
        "runs": [{key: run[key] for key in keys} for run in batch["runs"]],
    }


def draw_jobs(pyplot, figures: dict):
    """Deals per second against --jobs, beside perfect scaling from the first worker count."""
    runs = figures["runs"]
    workers = [run["jobs"] for run in runs]
    base = runs[0]["deals_per_second"] / runs[0]["jobs"]
    figure, axis = pyplot.subplots(figsize=(6, 4))
    axis.plot(workers, [base * count for count in workers], ":", color="#777777", label="perfect scaling")
    axis.plot(workers, [run["deals_per_second"] for run in runs], "o-", label="measured")
    for run in runs:
        axis.annotate(
            f"{run['deals_per_second']:.1f}/s ({run['scaling_efficiency']:.0%})",
            (run["jobs"], run["deals_per_second"]),
            xytext=(6, -12),
            textcoords="offset points",
            fontsize=8,
        )
    axis.set_xticks(workers)
    axis.set_xlabel("--jobs (worker processes)")
    axis.set_ylabel("deals per second")
    axis.set_ylim(bottom=0)
    settings = figures["settings"]
    axis.set_title(
        f"Batch throughput, {settings['variant']} deals {settings['deals']}, "
        f"{settings['max_nodes']:,} nodes a deal",
        fontsize=9,
    )
    axis.legend(fontsize=8)
    figure.tight_layout()
    return figure


# ---- report -------------------------------------------------------------------------------


def spread(entry: dict, form) -> str:
    return " / ".join(form(entry[key]) for key in ("median", "p90", "p99", "max"))


def mib(value: int) -> str:
    return f"{value / MIB:,.1f}"


def difficulty_section(figures: DifficultyFigures) -> str:
    lines = table_start(
        "Time and nodes per deal by difficulty",
        "Variant | Group | Deals | Seconds p50 / p90 / p99 / max | Nodes p50 / p90 / p99 / max",
        "llrll",
    )
    for variant, entry in figures["variants"].items():
        for name, group in entry["groups"].items():
            lines.append(
                f"| {variant} | {name} | {group['deals']:,} | {spread(group['seconds'], seconds)} | "
                f"{spread(group['nodes'], lambda value: f'{value:,.0f}')} |"
            )
    lines += ["", f"From `{figures['command']}` ({figures['date']}); the deals and their times:"]
    for variant, entry in figures["variants"].items():
        lines.append(
            f"- {variant}: deals {entry['deals']['first']}-{entry['deals']['last']} "
            f"(`benchmarks/results/{entry['ratings']}`, {entry['runs']} greedy runs a deal, tiers at "
            f"failure rates {' / '.join(f'{value:g}' for value in entry['thresholds'])}); seconds and "
            f"nodes from `{entry['table']}`, made by "
            + "; ".join(f"`{command}`" for command in entry["source"]["commands"])
        )
    return "\n".join(lines)


def memory_section(figures: MemoryFigures) -> str:
    lines = table_start(
        "Memory and time against `--memory`",
        "`--memory` | Solved / unsolvable / unknown | Solving s | Processes' wall s | Nodes | "
        "Peak table entries | Table payload MiB | Max RSS MiB",
        "llrrrrrr",
    )
    for setting in figures["settings"]:
        counts = setting["counts"]
        lines.append(
            f"| {setting['memory']} | {counts[SOLVED]} / {counts[UNSOLVABLE]} / {counts[UNKNOWN]} | "
            f"{setting['solving_seconds']:.2f} | {setting['wall_seconds']:.2f} | {setting['nodes']:,} | "
            f"{setting['peak_table_entries']:,} | {mib(setting['table_payload_bytes'])} | "
            f"{mib(setting['max_rss_bytes'])} |"
        )
    load = ", ".join(f"{value:.2f}" for value in figures["machine"]["load_average_at_start"])
    lines += [
        "",
        f"From `{figures['command']}` ({figures['date']}, solver {figures['machine']['solver_git']}, "
        f"load average {load} at the start); yukon deals {', '.join(map(str, figures['deals']))} "
        f"({figures['selection']}), each as `{figures['per_deal_command']}`. A process that searches "
        f"next to nothing (`{figures['baseline']['command']}`) peaks at "
        f"{mib(figures['baseline']['max_rss_bytes'])} MiB RSS.",
    ]
    return "\n".join(lines)


def jobs_section(figures: JobsFigures) -> str:
    lines = table_start(
        "Throughput against `--jobs`",
        "`--jobs` | Deals | Wall s | Deals/s | Speed-up | Efficiency",
        "rrrrrr",
    )
    for run in figures["runs"]:
        lines.append(
            f"| {run['jobs']} | {run['deals']:,} | {run['wall_seconds']:.1f} | "
            f"{run['deals_per_second']:.1f} | {run['speed_up']:.2f} | {run['scaling_efficiency']:.0%} |"
        )
    lines += [
        "",
        f"From `benchmarks/results/{figures['source']}`: `{figures['command']}` ({figures['date']}).",
    ]
    return "\n".join(lines)


def report(figures: ScalingFigures, images: list[str]) -> str:
    """The scaling figures as Markdown; ``images`` are the plots' paths relative to the README."""
    sections = {"difficulty": difficulty_section, "memory": memory_section, "jobs": jobs_section}
    parts = [
        "Generated by `python benchmarks/bench_scaling.py all --readme docs/performance.md` from "
        "`benchmarks/results/scaling.json`; do not edit by hand."
    ]
    parts += [section(figures[name]) for name, section in sections.items() if name in figures]
    parts.append(plot_section(images))
    return join_sections(parts)


# ---- command ------------------------------------------------------------------------------


def draw(name: str, drawing, directory: Path) -> Path | None:
    """Draw ``scaling_<name>.png`` with ``drawing(pyplot)``; None without matplotlib."""
    pyplot = plots.load_pyplot()
    if pyplot is None:
        return None
    return plots.save(pyplot, drawing(pyplot), directory / f"scaling_{name}.png")


def run_part(name: str, args, figures: ScalingFigures) -> None:
    """Measure (or read) one part into ``figures`` and draw its plot."""
    if name == "difficulty":
        figures[name], rows = difficulty(args)
        drawing = functools.partial(draw_difficulty, figures=figures[name], rows=rows)
    elif name == "memory":
        figures[name] = memory(args)
        drawing = functools.partial(draw_memory, figures=figures[name])
    else:
        figures[name] = jobs(args)
        drawing = functools.partial(draw_jobs, figures=figures[name])
    if not args.no_plots:
        draw(name, drawing, args.out.parent)


def parse_arguments(argv) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("part", choices=(*PARTS, "all"), help="what to measure (all: every part)")
    parser.add_argument("--out", type=Path, default=OUT, help="the JSON; plots go beside it")
    parser.add_argument("--tables", type=Path, default=tables.RESULTS, help="folder of the compact tables")
    parser.add_argument("--players", type=Path, default=RESULTS, help="folder of player_calibration_*")
    parser.add_argument("--deals", help="memory: yukon deals to solve [8 hard deals from the yukon table]")
    parser.add_argument("--memory-sizes", default=MEMORY_SIZES, help="memory: --memory sizes to compare")
    parser.add_argument("--max-nodes", type=int, default=MAX_NODES, help="memory: node budget per deal")
    parser.add_argument("--batch", type=Path, default=RESULTS / "batch_throughput.json", help="jobs: source")
    parser.add_argument("--readme", type=Path, help="Markdown file whose scaling block is rewritten")
    parser.add_argument("--no-plots", action="store_true", help="write no PNG")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_arguments(argv)
    try:
        figures = json.loads(args.out.read_text()) if args.out.is_file() else {"benchmark": "bench_scaling"}
        args.out.parent.mkdir(parents=True, exist_ok=True)
        for name in PARTS if args.part == "all" else (args.part,):
            run_part(name, args, figures)
        write_json(args.out, figures, SCALING)
        block = report(figures, scaling_images(args))
        if args.readme:
            rewrite_readme(args.readme, block, MARKERS)
    except YukonError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(block, end="")
    return 0


def scaling_images(args) -> list[str]:
    """The scaling plots beside the JSON, relative to the README's folder."""
    drawn = [args.out.parent / f"scaling_{name}.png" for name in PARTS]
    return readme_images([path for path in drawn if path.is_file()], args.readme)


if __name__ == "__main__":
    sys.exit(main())
