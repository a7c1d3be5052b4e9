"""The thoughtful win-rate study: compact per-deal tables, figures, plots and the README block.

    python benchmarks/study.py --stores /work/study --readme README.md
    python benchmarks/study.py                      # from the committed compact tables alone

With ``--stores DIR``, every ``<name>.db`` in DIR named for a rule set (``yukon``,
``yukon-return``, ``russian``, ``russian-return``, ``milligan``, ``milligan-return``) is
read and written to ``--out`` as a compact per-deal table, ``<name>.verdicts.csv.gz``
(deal, status, solution length, nodes, milliseconds), beside ``<name>.source.json`` (the
store's rule set, solver versions, limits and the command that made it). The figures are
then always computed from the compact tables, so they are the same with or without the
stores. Written to ``--out``: ``study.json`` (every figure) and the plots (PNG, when
matplotlib is installed); printed: the report, a command and a solver version beside each
table; with ``--readme FILE``, the same report replaces the block between
``<!-- winnability:start -->`` and ``<!-- winnability:end -->`` in FILE.

Each rule set's figures cover the contiguous range of deals 1..N that its table holds in
full (a store still being written has gaps past N); the deals stored past N are counted.

Unknowns can be retried into a store of their own, ``<name>-retry.db`` in the same
``--stores`` folder; its verdicts replace the table's unknowns (a decided verdict stands, a
contradiction is refused), and the deals retried are written to ``<name>.retried.txt``:

    yukon solve $(python benchmarks/study.py --unknown yukon --upto 10000) --variant yukon \
        --time-limit 10 --out /work/study/yukon-retry.db
    python benchmarks/study.py --stores /work/study --readme README.md
"""

import argparse
import csv
import gzip
import io
import json
import math
import os
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import plots

from solver.errors import YukonError
from solver.result import SOLVED, TIER_NAMES, UNKNOWN, UNSOLVABLE
from solver.rules import Rules
from solver.runs.batch import as_deal_range
from solver.stats import Z_95, length_summary, percentile, rate_entry, win_rates
from solver.store import Store

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "study"
PLAYER_RESULTS = HERE / "results"
RULE_SETS = {
    Rules(variant, foundation_return).label().replace("+", "-"): Rules(variant, foundation_return)
    for variant in ("yukon", "russian", "milligan")
    for foundation_return in (False, True)
}
COLUMNS = ("deal", "status", "length", "nodes", "ms")
STATUS_ORDER = (SOLVED, UNSOLVABLE, UNKNOWN)
TARGET_HALF_WIDTH = 0.001
DASK_SCHEDULER = "tcp://scheduler:8786"
MARKERS = ("<!-- winnability:start -->", "<!-- winnability:end -->")
DEALS_LISTED = 20
RETRY_TIME_LIMIT = 60


@dataclass
class Table:
    """The compact verdicts of one rule set: rows (deal, status, length, nodes, ms) in deal
    order, and where they came from."""

    name: str
    source: dict
    rows: list[tuple]

    @property
    def rules(self) -> Rules:
        return Rules(**self.source["rules"])


# ---- compact tables -----------------------------------------------------------------------


def table_from_store(path: Path, name: str) -> Table:
    """The compact table of a results store, refused when the store is of another rule set."""
    with Store.open_existing(path) as store:
        if store.rules != RULE_SETS[name]:
            raise YukonError(f"results store {path} holds {store.rules.describe()}, not {name}")
        records = list(store.records())
        meta = store.meta
    rows = [
        (record.deal, record.status, record.solution_length, record.nodes, round(record.seconds * 1000, 3))
        for record in records
    ]
    source = {
        "store": path.name,
        "rules": RULE_SETS[name].as_dict(),
        "numbering": meta["numbering"],
        "created_at": meta.get("created_at"),
        "created_by": meta.get("created_by"),
        "solver_versions": sorted({record.solver_version for record in records}),
        "time_limits": sorted({record.time_limit for record in records}, key=none_last),
        "max_nodes": sorted({record.max_nodes for record in records}, key=none_last),
        "deal_span": [rows[0][0], rows[-1][0]] if rows else None,
    }
    source["commands"] = store_commands(source)
    return Table(name, source, rows)


def none_last(value):
    return (value is None, value)


def store_commands(source: dict) -> list[str]:
    """The ``yukon solve`` commands that make a store like this one: the first at the lowest
    time limit, then one ``--retry-unknown`` run per higher limit."""
    if source["deal_span"] is None:
        return []
    rules = Rules(**source["rules"])
    deals = source.get("deals_argument") or f"{source['deal_span'][0]}-{source['deal_span'][1]}"
    base = f"yukon solve {deals} --variant {rules.variant}"
    if rules.foundation_return:
        base += " --foundation-return"
    if source["numbering"] != "pysol":
        base += f" --numbering {source['numbering']}"
    nodes = [value for value in source["max_nodes"] if value is not None]
    if nodes:
        base += f" --max-nodes {nodes[0]}"
    commands = []
    for limit in source["time_limits"]:
        command = base + (f" --time-limit {limit:g}" if limit is not None else "")
        command += " --retry-unknown" if commands else ""
        commands.append(f"{command} --out {source['store']}")
    return commands


def write_table(table: Table, directory: Path) -> None:
    """Write ``<name>.verdicts.csv.gz`` (byte-for-byte the same for the same rows) and
    ``<name>.source.json``."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(COLUMNS)
    for deal, status, length, nodes, ms in table.rows:
        writer.writerow((deal, status, length, nodes, f"{ms:.3f}".rstrip("0").rstrip(".")))
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{table.name}.verdicts.csv.gz").write_bytes(
        gzip.compress(text.getvalue().encode(), compresslevel=9, mtime=0)
    )
    (directory / f"{table.name}.source.json").write_text(json.dumps(table.source, indent=2) + "\n")
    if "retry" in table.source:
        (directory / f"{table.name}.retried.txt").write_text(table.source["retry"]["deals"] + "\n")


def read_table(directory: Path, name: str) -> Table:
    """The compact table ``name`` in ``directory``, as ``write_table`` wrote it."""
    verdicts = directory / f"{name}.verdicts.csv.gz"
    try:
        source = json.loads((directory / f"{name}.source.json").read_text())
        lines = gzip.decompress(verdicts.read_bytes()).decode().splitlines()
    except (OSError, ValueError) as error:
        raise YukonError(f"cannot read compact table {verdicts}: {error}") from None
    reader = csv.reader(lines)
    if tuple(next(reader, ())) != COLUMNS:
        raise YukonError(f"compact table {verdicts} does not start with the header {','.join(COLUMNS)}")
    try:
        rows = [
            (int(deal), status, int(length), int(nodes), float(ms))
            for deal, status, length, nodes, ms in reader
        ]
    except ValueError as error:
        raise YukonError(f"compact table {verdicts} has a bad row: {error}") from None
    return Table(name, source, rows)


def load_tables(stores: Path | None, directory: Path) -> list[Table]:
    """Every rule set's table: from its store in ``stores`` when there is one, else from the
    compact table in ``directory``; with the verdicts of ``<name>-retry.db`` in ``stores``
    merged in (``with_retries``); a table read from a store or merged is written back."""
    if stores is not None and not stores.is_dir():
        raise YukonError(f"--stores {stores} is not a directory")
    tables = []
    for name in RULE_SETS:
        store = stores / f"{name}.db" if stores is not None else None
        retry = stores / f"{name}-retry.db" if stores is not None else None
        table = None
        if store is not None and store.is_file():
            table = table_from_store(store, name)
        elif (directory / f"{name}.verdicts.csv.gz").is_file():
            table = read_table(directory, name)
        if table is not None and retry is not None and retry.is_file():
            table = with_retries(table, table_from_store(retry, name))
        if table is not None:
            write_table(table, directory)
            tables.append(read_table(directory, name))
    if not tables:
        where = f"{stores} (stores) or {directory}" if stores else str(directory)
        raise YukonError(f"no study tables found in {where}")
    return tables


# ---- figures ------------------------------------------------------------------------------


def with_retries(table: Table, retry: Table) -> Table:
    """``table`` with the deals it has as unknown replaced by their rows in ``retry``, a
    store of deals solved again after the main run (its unknowns, with a longer limit:
    ``--unknown NAME`` prints them). A decided verdict stands; a retry that contradicts one
    is refused. The retried deals are recorded in the source, so the command that made the
    retry store can be printed."""
    again = {row[0]: row for row in retry.rows}
    rows = []
    for row in table.rows:
        new = again.get(row[0])
        if new is not None and UNKNOWN not in (row[1], new[1]) and new[1] != row[1]:
            store = retry.source["store"]
            raise YukonError(f"deal {row[0]}: {row[1]} in {table.name}, {new[1]} in {store}")
        rows.append(new if new is not None and row[1] == UNKNOWN else row)
    deals = str(as_deal_range(again))
    listed = f"$(cat {RESULTS.relative_to(HERE.parent)}/{table.name}.retried.txt)"
    retried = retry.source | {"deals": deals, "deals_argument": listed}
    retried["commands"] = store_commands(retried)
    return Table(table.name, table.source | {"retry": retried}, rows)


def contiguous_prefix(rows: list[tuple]) -> list[tuple]:
    """The rows of deals 1..N for the largest N with every one of those deals present."""
    count = 0
    while count < len(rows) and rows[count][0] == count + 1:
        count += 1
    return rows[:count]


def rule_set_figures(table: Table) -> dict:
    """Counts, win rates with their intervals, time, nodes and solution lengths over deals 1..N."""
    rows = contiguous_prefix(table.rows)
    counts = Counter(status for _, status, *_ in rows)
    seconds = sorted(ms / 1000 for *_, ms in rows)
    lengths = sorted(length for _, status, length, *_ in rows if status == SOLVED)
    return {
        "name": table.name,
        "rule_set": table.rules.describe(),
        "source": table.source,
        "deals": {"first": 1 if rows else None, "last": len(rows), "count": len(rows)},
        "stored_past_range": len(table.rows) - len(rows),
        "counts": {status: counts[status] for status in STATUS_ORDER},
        "win_rate": win_rate_figures(counts[SOLVED], counts[UNSOLVABLE], counts[UNKNOWN]),
        "seconds_per_deal": {
            "total": math.fsum(seconds),
            "mean": math.fsum(seconds) / len(seconds) if seconds else None,
            **{name: percentile(seconds, q) for name, q in (("median", 0.5), ("p90", 0.9), ("p99", 0.99))},
            "max": seconds[-1] if seconds else None,
        },
        "nodes": sum(nodes for _, _, _, nodes, _ in rows),
        "solution_length": length_summary(lengths),
    }


def win_rate_figures(solved: int, unsolvable: int, unknown: int) -> dict:
    """The win rate over decided deals and over all deals with every unknown counted lost,
    then won (95% Wilson); the interval's half-width at this size and how much the unknowns
    widen it."""
    rates = win_rates(solved, unsolvable, unknown)
    lost, won = rates["unknown_as_lost"], rates["unknown_as_won"]
    total = solved + unsolvable + unknown
    half_width = (lost["high"] - lost["low"]) / 2 if total else None
    bounds_half_width = (won["high"] - lost["low"]) / 2 if total else None
    return rates | {
        "half_width": half_width,
        "bounds_half_width": bounds_half_width,
        "unknown_widening": bounds_half_width - half_width if total else None,
    }


def deals_for_half_width(rate: float, half_width: float) -> int:
    """Deals for a 95% interval of ``half_width`` at ``rate`` (normal approximation; the
    Wilson interval is within a deal or two of it at these sizes)."""
    return math.ceil(Z_95**2 * rate * (1 - rate) / half_width**2)


def extension_plan(figures: dict, jobs: int = 2) -> dict | None:
    """How many deals reach ±0.1% and the commands that get there: resume the same store, or
    the same run on a Dask cluster. None without decided deals."""
    rate = figures["win_rate"]["decided"]["rate"]
    if rate is None:
        return None
    needed = max(figures["deals"]["count"], round_up(deals_for_half_width(rate, TARGET_HALF_WIDTH)))
    source, rules = figures["source"], Rules(**figures["source"]["rules"])
    options = f"--variant {rules.variant}" + (" --foundation-return" if rules.foundation_return else "")
    limit = next((value for value in source["time_limits"] if value is not None), None)
    options += f" --time-limit {limit:g}" if limit is not None else ""
    more = needed - figures["deals"]["count"]
    mean = figures["seconds_per_deal"]["mean"] or 0.0
    return {
        "target_half_width": TARGET_HALF_WIDTH,
        "deals_needed": needed,
        "more_deals": more,
        "cpu_hours": more * mean / 3600,
        "hours_with_jobs": {"jobs": jobs, "hours": more * mean / 3600 / jobs},
        "resume": f"yukon solve 1-{needed} {options} --jobs {jobs} --out {source['store']}",
        "dask": f"yukon solve 1-{needed} {options} --out {source['store']} "
        f"--dask {DASK_SCHEDULER} --chunk-size 20",
        "retry_unknown": retry_plan(figures, jobs),
    }


def retry_plan(figures: dict, jobs: int) -> dict | None:
    """The unknowns widen the bounds whatever the number of deals: the command that retries
    them with a longer limit, and its hours if every retry ran the whole limit. None without
    unknowns."""
    unknown = figures["counts"][UNKNOWN]
    if not unknown:
        return None
    rules, source = Rules(**figures["source"]["rules"]), figures["source"]
    options = f"--variant {rules.variant}" + (" --foundation-return" if rules.foundation_return else "")
    return {
        "deals": unknown,
        "time_limit": RETRY_TIME_LIMIT,
        "hours_at_most": unknown * RETRY_TIME_LIMIT / 3600 / jobs,
        "command": f"yukon solve 1-{figures['deals']['last']} {options} --time-limit {RETRY_TIME_LIMIT} "
        f"--retry-unknown --jobs {jobs} --out {source['store']}",
    }


def round_up(deals: int, step: int = 1000) -> int:
    return -(-deals // step) * step


def return_figures(strict: Table, with_return: Table) -> dict:
    """The same deals under both rule sets: how often foundation return turns an unsolvable
    deal solvable, and the consistency check (a strict win must be a win with return)."""
    strict_rows, return_rows = contiguous_prefix(strict.rows), contiguous_prefix(with_return.rows)
    common = min(len(strict_rows), len(return_rows))
    pairs = [(a[0], a[1], b[1]) for a, b in zip(strict_rows[:common], return_rows[:common], strict=True)]
    crossing = Counter((was, now) for _, was, now in pairs)
    strict_unsolvable = sum(count for (was, _), count in crossing.items() if was == UNSOLVABLE)
    turned = crossing[(UNSOLVABLE, SOLVED)]
    contradictions = [deal for deal, was, now in pairs if was == SOLVED and now == UNSOLVABLE]
    strict_win_unknown = [deal for deal, was, now in pairs if was == SOLVED and now == UNKNOWN]
    return {
        "variant": strict.rules.variant,
        "deals": {"first": 1 if common else None, "last": common, "count": common},
        "crossing": {was: {now: crossing[(was, now)] for now in STATUS_ORDER} for was in STATUS_ORDER},
        "unsolvable_turned_solvable": {
            "deals": turned,
            "of_strict_unsolvable": rate_entry(turned, strict_unsolvable),
            "of_all_deals": rate_entry(turned, common),
        },
        "consistency": {
            "strict_solved_return_unsolvable": contradictions,
            "consistent": not contradictions,
            "strict_solved_return_unknown": len(strict_win_unknown),
            "strict_solved_return_unknown_first": strict_win_unknown[:DEALS_LISTED],
        },
    }


def player_figures(directory: Path) -> dict:
    """The non-peeking player's figures from whatever ``player_*.json`` summaries exist:
    per variant, the difficulty tiers' split and the greedy and sampling win rates."""
    found = {}
    for path in sorted(directory.glob("player_*.json")):
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict):
            continue
        for variant, runs in data.get("variants", {}).items():  # bench_player.py stores: games
            policies = {item["policy"]: item for item in runs.get("policies", [])}
            for policy, item in policies.items():
                found.setdefault(variant, {})[policy] = item["win_rate"] | {"file": path.name}
            if "sampling" in policies:
                solvable = policies["sampling"]["on_solvable"]
                found[variant]["sampling_on_solvable"] = solvable | {"file": path.name}
        if "variant" not in data:
            continue
        entry = found.setdefault(data["variant"], {})
        if "split" in data:
            entry["tiers"] = {
                "split": data["split"],
                "solvable_deals": data.get("solvable"),
                "file": path.name,
            }
            if "greedy_win_rate_on_solvable" in data:
                entry["greedy_on_solvable"] = {"rate": data["greedy_win_rate_on_solvable"], "file": path.name}
        if "sampling_win_rate" in data and "deals" in data:  # a compare run: the stores' runs are larger
            deals, samples = data["deals"], data.get("settings", {}).get("samples", 1)
            entry.setdefault("sampling", played_rate(data["sampling_win_rate"], deals, path.name))
            if "greedy_win_rate" in data:
                entry.setdefault("greedy", played_rate(data["greedy_win_rate"], deals * samples, path.name))
    return found


def played_rate(rate: float, games: int, file: str) -> dict:
    """A player's win rate over ``games`` games with its 95% Wilson interval."""
    return {**rate_entry(round(rate * games), games), "file": file}


def study_figures(tables: list[Table], player_directory: Path) -> dict:
    """Every figure of the study."""
    by_name = {table.name: table for table in tables}
    pairs = [(name, name + "-return") for name in by_name if name + "-return" in by_name]
    rule_sets = [rule_set_figures(table) for table in tables]
    return {
        "rule_sets": rule_sets,
        "extension": {figures["name"]: extension_plan(figures) for figures in rule_sets},
        "foundation_return": [return_figures(by_name[a], by_name[b]) for a, b in pairs],
        "players": player_figures(player_directory),
    }


# ---- report -------------------------------------------------------------------------------


def pct(value, digits: int = 2) -> str:
    return "n/a" if value is None else f"{100 * value:.{digits}f}%"


def interval(entry: dict) -> str:
    return f"{pct(entry['low'])} – {pct(entry['high'])}" if entry["rate"] is not None else "n/a"


def report(figures: dict, images: list[str]) -> str:
    """The study as Markdown (the README block and what the script prints); ``images`` are
    the plots' paths relative to the README."""
    parts = [
        "Generated by `python benchmarks/study.py` from the compact per-deal tables in "
        "`benchmarks/results/study/`; do not edit by hand.",
        win_rate_section(figures["rule_sets"]),
        extension_section(figures["rule_sets"], figures["extension"]),
        return_section(figures["foundation_return"]),
        effort_section(figures["rule_sets"]),
        player_section(figures["players"], figures["rule_sets"]),
        plot_section(images),
    ]
    return "\n\n".join(part for part in parts if part) + "\n"


def provenance(rule_set: dict) -> str:
    source = rule_set["source"]
    commands = "; ".join(f"`{command}`" for command in source["commands"]) or "n/a"
    if "retry" in source:
        retried = source["retry"]
        commands += "; then its unknowns again: " + "; ".join(
            f"`{command}`" for command in retried["commands"]
        )
    versions = ", ".join(
        sorted({*source["solver_versions"], *source.get("retry", {}).get("solver_versions", [])})
    )
    past = f"; {rule_set['stored_past_range']} more deals stored past the range" * bool(
        rule_set["stored_past_range"]
    )
    numbering = source["numbering"]
    return f"- {rule_set['rule_set']}: {commands} (solver {versions or 'n/a'}, {numbering} numbering{past})"


def win_rate_section(rule_sets: list[dict]) -> str:
    lines = [
        "### Thoughtful win rate (PySolFC deals 1..N, 95% Wilson intervals)",
        "",
        "| Rule set | Deals | Solved | Unsolvable | Unknown | Win rate (decided) | Unknown lost | "
        "Unknown won | Bounds | ± at this size | Unknowns add |",
        "| --- | ---: | ---: | ---: | ---: | --- | --- | --- | --- | ---: | ---: |",
    ]
    for figures in rule_sets:
        rate, counts = figures["win_rate"], figures["counts"]
        lines.append(
            f"| {figures['rule_set']} | {figures['deals']['count']:,} | {counts[SOLVED]:,} | "
            f"{counts[UNSOLVABLE]:,} | {counts[UNKNOWN]:,} | {pct(rate['decided']['rate'])} "
            f"({interval(rate['decided'])}) | {pct(rate['unknown_as_lost']['rate'])} | "
            f"{pct(rate['unknown_as_won']['rate'])} | {pct(rate['bounds']['low'])} – "
            f"{pct(rate['bounds']['high'])} | {pct(rate['half_width'], 3)} | "
            f"{pct(rate['unknown_widening'], 3)} |"
        )
    lines += [
        "",
        "Made by (commands rebuilt from each store, which does not record `--jobs`; "
        "verdicts by the solver version shown):",
    ]
    lines += [provenance(figures) for figures in rule_sets]
    return "\n".join(lines)


def extension_section(rule_sets: list[dict], plans: dict) -> str:
    lines = [
        "### Reaching ±0.1%",
        "",
        "Running the same command over a longer range resumes the store: the deals it holds are "
        "skipped. On a Dask cluster (see above) the same store is filled the same way. "
        "Hours are at this run's mean time per deal; ±0.1% is the 95% half-width over decided deals "
        "at the observed rate (normal approximation).",
        "",
        "| Rule set | Deals for ±0.1% | More deals | Hours on 2 cores | Resume | Dask cluster |",
        "| --- | ---: | ---: | ---: | --- | --- |",
    ]
    for figures in rule_sets:
        plan = plans[figures["name"]]
        if plan is None:
            continue
        lines.append(
            f"| {figures['rule_set']} | {plan['deals_needed']:,} | {plan['more_deals']:,} | "
            f"{plan['hours_with_jobs']['hours']:.2f} | `{plan['resume']}` | `{plan['dask']}` |"
        )
    retries = [(figures, plans[figures["name"]]) for figures in rule_sets if plans[figures["name"]]]
    retries = [(figures, plan["retry_unknown"]) for figures, plan in retries if plan["retry_unknown"]]
    if retries:
        lines += [
            "",
            "More deals narrow the sampling interval only: the unknowns widen the bounds at any size. "
            f"Retrying them with a {RETRY_TIME_LIMIT} s limit (hours if every retry ran the whole limit):",
            "",
        ]
        lines += [
            f"- {figures['rule_set']}: {retry['deals']:,} unknown, at most {retry['hours_at_most']:.2f} h: "
            f"`{retry['command']}`"
            for figures, retry in retries
        ]
    return "\n".join(lines)


def return_section(comparisons: list[dict]) -> str:
    if not comparisons:
        return ""
    lines = [
        "### What foundation return changes (same deals, both rule sets)",
        "",
        "| Variant | Deals | Unsolvable strict, solved with return | of strict unsolvable | of all deals | "
        "Strict solved, unsolvable with return | Strict solved, unknown with return |",
        "| --- | ---: | ---: | --- | --- | --- | ---: |",
    ]
    for item in comparisons:
        turned, check = item["unsolvable_turned_solvable"], item["consistency"]
        contradictions = check["strict_solved_return_unsolvable"]
        listed = "none (consistent)" if not contradictions else ", ".join(map(str, contradictions))
        lines.append(
            f"| {item['variant']} | {item['deals']['count']:,} | {turned['deals']:,} | "
            f"{pct(turned['of_strict_unsolvable']['rate'])} ({interval(turned['of_strict_unsolvable'])}) | "
            f"{pct(turned['of_all_deals']['rate'])} | {listed} | {check['strict_solved_return_unknown']:,} |"
        )
    return "\n".join(lines)


def effort_section(rule_sets: list[dict]) -> str:
    lines = [
        "### Effort and solution length",
        "",
        "| Rule set | Median s | p90 s | p99 s | Max s | CPU hours | Nodes | "
        "Length min / median / mean / max |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for figures in rule_sets:
        times, length = figures["seconds_per_deal"], figures["solution_length"]
        lengths = (
            f"{length['min']} / {length['median']:g} / {length['mean']:.1f} / {length['max']}"
            if length["count"]
            else "n/a"
        )
        lines.append(
            f"| {figures['rule_set']} | {seconds(times['median'])} | {seconds(times['p90'])} | "
            f"{seconds(times['p99'])} | {seconds(times['max'])} | {times['total'] / 3600:.2f} | "
            f"{figures['nodes']:,} | {lengths} |"
        )
    return "\n".join(lines)


def seconds(value) -> str:
    return "n/a" if value is None else f"{value:.3g}"


def player_section(players: dict, rule_sets: list[dict]) -> str:
    if not players:
        return ""
    strict = {
        figures["source"]["rules"]["variant"]: figures
        for figures in rule_sets
        if not figures["source"]["rules"]["foundation_return"]
    }
    lines = [
        "### The non-peeking player against the thoughtful solver (strict rules)",
        "",
        "| Variant | Thoughtful (decided) | Greedy player | Sampling player | Greedy on solvable deals | "
        "Sampling on solvable deals | Tiers easy / normal / hard (of solvable) |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    files = set()
    for variant, entry in sorted(players.items()):
        figures = strict.get(variant)
        thoughtful = figures["win_rate"]["decided"] if figures else None
        split = entry.get("tiers", {}).get("split", {})
        lines.append(
            f"| {variant} | {played(thoughtful)} | {played(entry.get('greedy'))} | "
            f"{played(entry.get('sampling'))} | {pct(entry.get('greedy_on_solvable', {}).get('rate'))} | "
            f"{played(entry.get('sampling_on_solvable'))} | "
            + (" / ".join(pct(split.get(tier), 1) for tier in TIER_NAMES) if split else "n/a")
            + " |"
        )
        files |= {item["file"] for item in entry.values() if isinstance(item, dict) and "file" in item}
    lines += [
        "",
        "Player figures from " + ", ".join(f"`benchmarks/results/{name}`" for name in sorted(files)),
    ]
    return "\n".join(lines)


def played(entry: dict | None) -> str:
    if not entry or entry.get("rate") is None:
        return "n/a"
    return f"{pct(entry['rate'], 1)} ({interval(entry)}, n={entry['deals']:,})"


def plot_section(images: list[str]) -> str:
    return "\n".join(f"![{Path(image).stem}]({image})" for image in images)


def rewrite_readme(path: Path, block: str, markers: tuple[str, str] = MARKERS) -> None:
    """Replace the text between the ``markers`` (the winnability block's by default) in ``path``
    with ``block``."""
    try:
        text = path.read_text()
    except OSError as error:
        raise YukonError(f"cannot read --readme {path}: {error.strerror}") from None
    start, end = markers
    if text.count(start) != 1 or text.count(end) != 1 or text.index(start) > text.index(end):
        raise YukonError(f"--readme {path} needs one line {start} followed by one line {end}")
    before, rest = text.split(start)
    _, after = rest.split(end)
    path.write_text(f"{before}{start}\n{block}{end}{after}")


# ---- command ------------------------------------------------------------------------------


def parse_arguments(argv) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stores", type=Path, help="folder of <rule set>.db results stores to read")
    parser.add_argument("--out", type=Path, default=RESULTS, help="folder of the compact tables and outputs")
    parser.add_argument("--players", type=Path, default=PLAYER_RESULTS, help="folder of player_*.json")
    parser.add_argument("--readme", type=Path, help="Markdown file whose winnability block is rewritten")
    parser.add_argument("--no-plots", action="store_true", help="write no PNG")
    parser.add_argument(
        "--unknown", metavar="NAME", help="print the deals rule set NAME has as unknown (to retry them), only"
    )
    parser.add_argument("--upto", type=int, help="with --unknown: only deals up to this one")
    return parser.parse_args(argv)


def unknown_deals(directory: Path, name: str, upto: int | None) -> str:
    """The deals the compact table ``name`` has as unknown, as a deal range."""
    if name not in RULE_SETS:
        raise YukonError(f"--unknown {name!r} is not a rule set ({', '.join(RULE_SETS)})")
    rows = read_table(directory, name).rows
    unknown = [deal for deal, status, *_ in rows if status == UNKNOWN and (upto is None or deal <= upto)]
    if not unknown:
        raise YukonError(f"{name} has no unknown deals" + (f" up to {upto}" if upto else ""))
    return str(as_deal_range(unknown))


def main(argv=None) -> int:
    args = parse_arguments(argv)
    try:
        if args.unknown:
            print(unknown_deals(args.out, args.unknown, args.upto))
            return 0
        tables = load_tables(args.stores, args.out)
        figures = study_figures(tables, args.players)
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "study.json").write_text(json.dumps(figures, indent=2) + "\n")
        drawn = [] if args.no_plots else plots.draw_all(figures, covered_rows(tables), args.out)
        readme_dir = (args.readme or Path("README.md")).resolve().parent
        block = report(figures, [Path(os.path.relpath(path, readme_dir)).as_posix() for path in drawn])
        if args.readme:
            rewrite_readme(args.readme, block)
    except YukonError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(block, end="")
    return 0


def covered_rows(tables: list[Table]) -> dict[str, list[tuple]]:
    """Each rule set's rows over the deals its figures cover."""
    return {table.name: contiguous_prefix(table.rows) for table in tables}


if __name__ == "__main__":
    sys.exit(main())
