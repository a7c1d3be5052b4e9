"""The study's figures, computed from the compact tables: per rule set the counts, win
rates, effort and solution lengths, the plan to reach ±0.1%, what foundation return changes,
and the non-peeking player's figures."""

import json
import math
from collections import Counter
from pathlib import Path

from solver.commands import solve_command
from solver.common.stats import Z_95, length_summary, percentile, rate_entry, win_rates
from solver.game.rules import Rules
from solver.results.result import SOLVED, UNKNOWN, UNSOLVABLE
from study.shapes import ExtensionPlan, RetryPlan, ReturnFigures, RuleSetFigures, StudyFigures
from study.tables import Table, contiguous_prefix

STATUS_ORDER = (SOLVED, UNSOLVABLE, UNKNOWN)
TARGET_HALF_WIDTH = 0.001
DASK_SCHEDULER = "tcp://scheduler:8786"
DEALS_LISTED = 20
RETRY_TIME_LIMIT = 60


def rule_set_figures(table: Table) -> RuleSetFigures:
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


def extension_plan(figures: RuleSetFigures, jobs: int = 2) -> ExtensionPlan | None:
    """How many deals reach ±0.1% and the commands that get there: resume the same store, or
    the same run on a Dask cluster. None without decided deals."""
    rate = figures["win_rate"]["decided"]["rate"]
    if rate is None:
        return None
    needed = max(figures["deals"]["count"], round_up(deals_for_half_width(rate, TARGET_HALF_WIDTH)))
    source, rules = figures["source"], Rules(**figures["source"]["rules"])
    limit = next((value for value in source["time_limits"] if value is not None), None)
    more = needed - figures["deals"]["count"]
    mean = figures["seconds_per_deal"]["mean"] or 0.0
    return {
        "target_half_width": TARGET_HALF_WIDTH,
        "deals_needed": needed,
        "more_deals": more,
        "cpu_hours": more * mean / 3600,
        "hours_with_jobs": {"jobs": jobs, "hours": more * mean / 3600 / jobs},
        "resume": solve_command(f"1-{needed}", rules, time_limit=limit, jobs=jobs, out=source["store"]),
        "dask": solve_command(
            f"1-{needed}", rules, time_limit=limit, out=source["store"], dask=DASK_SCHEDULER, chunk_size=20
        ),
        "retry_unknown": retry_plan(figures, jobs),
    }


def retry_plan(figures: RuleSetFigures, jobs: int) -> RetryPlan | None:
    """The unknowns widen the bounds whatever the number of deals: the command that retries
    them with a longer limit, and its hours if every retry ran the whole limit. None without
    unknowns."""
    unknown = figures["counts"][UNKNOWN]
    if not unknown:
        return None
    rules, source = Rules(**figures["source"]["rules"]), figures["source"]
    return {
        "deals": unknown,
        "time_limit": RETRY_TIME_LIMIT,
        "hours_at_most": unknown * RETRY_TIME_LIMIT / 3600 / jobs,
        "command": solve_command(
            f"1-{figures['deals']['last']}",
            rules,
            time_limit=RETRY_TIME_LIMIT,
            retry_unknown=True,
            jobs=jobs,
            out=source["store"],
        ),
    }


def round_up(deals: int, step: int = 1000) -> int:
    return -(-deals // step) * step


def return_figures(strict: Table, with_return: Table) -> ReturnFigures:
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


def study_figures(tables: list[Table], player_directory: Path) -> StudyFigures:
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
