"""The summary of a results store (what ``yukon stats`` reports) and its text form."""

import json
import math
from collections import Counter

from solver.common.formats import STATS, json_deal, stamped
from solver.common.stats import clustered_rate_entry, length_summary, percentile, rate_entry, win_rates
from solver.game.rules import Rules
from solver.results.result import SOLVED, TIER_NAMES, UNKNOWN, UNSOLVABLE
from solver.store import Store


def summarize(store_path) -> dict:
    """Everything ``yukon stats`` reports, as a JSON object with its format keys (``yukon stats
    --json`` prints it)."""
    with Store.open_existing(store_path) as store:
        meta, rules = store.meta, store.rules
        figures = store.summary_figures()
        policies, tiers = store.policy_figures(), store.tier_figures()
        by_deal = store.policy_deal_games()
    counts, seconds, lengths = Counter(figures["counts"]), figures["seconds"], figures["solution_lengths"]
    first, last = figures["deal_span"]
    solved, unsolvable, unknown = counts[SOLVED], counts[UNSOLVABLE], counts[UNKNOWN]
    total = solved + unsolvable + unknown
    total_seconds = math.fsum(seconds)
    return stamped(
        {
            "store": str(store_path),
            "rules": rules.as_dict(),
            "numbering": meta["numbering"],
            "created_at": meta.get("created_at"),
            "created_by": meta.get("created_by"),
            "deals": {"total": total, "first": json_deal(first), "last": json_deal(last)},
            "counts": {SOLVED: solved, UNSOLVABLE: unsolvable, UNKNOWN: unknown},
            "unknown_causes": dict(sorted(figures["unknown_causes"].items())),
            "win_rate": win_rates(solved, unsolvable, unknown),
            "seconds_per_deal": {
                "total": total_seconds,
                "mean": total_seconds / total if total else None,
                "median": percentile(seconds, 0.5),
                "p90": percentile(seconds, 0.9),
                "p99": percentile(seconds, 0.99),
                "max": seconds[-1] if seconds else None,
            },
            "nodes": {
                "total": figures["nodes"],
                "per_second": figures["nodes"] / total_seconds if total_seconds > 0 else None,
            },
            "solution_length": length_summary(lengths),
            "time_limits": figures["time_limits"],
            "max_nodes": figures["max_nodes"],
            "solver_versions": figures["solver_versions"],
            "policies": [policy_summary(row, by_deal[row["policy"], row["settings"]]) for row in policies],
            "tiers": [tier_summary(series) for series in tiers],
        },
        STATS,
    )


def policy_summary(row: dict, by_deal: dict[str, list[tuple[int, int]]]) -> dict:
    """A policy's games as rates with 95% intervals: over every game and over the games of
    deals the store proves solvable, clustered by deal (``by_deal``: each deal's wins and
    games; the games of one deal are alike, so deals are the independent draws), and the
    share of those deals won at least once (Wilson, over deals)."""
    return {
        "policy": row["policy"],
        "settings": json.loads(row["settings"]),
        "games": row["games"],
        "deals": row["deals"],
        "win_rate": clustered_rate_entry(by_deal["all"]),
        "on_solvable": clustered_rate_entry(by_deal["solvable"]),
        "solvable_deals_won": rate_entry(row["solvable_deals_won"], row["solvable_deals"]),
        "wins_on_unsolvable": row["unsolvable_wins"],
    }


def tier_summary(series: dict) -> dict:
    """A rating series' tier split: counts, and shares of the deals given a tier."""
    counts = {tier: series["tiers"].get(tier, 0) for tier in TIER_NAMES}
    tiered = sum(counts.values())
    return {
        "runs": series["runs"],
        "seed": series["seed"],
        "counts": counts,
        "no_tier": series["tiers"].get(None, 0),
        "split": {tier: count / tiered if tiered else None for tier, count in counts.items()},
    }


def percent(value) -> str:
    """A fraction as a percentage with two decimals."""
    return "n/a" if value is None else f"{100 * value:.2f}%"


def rate_text(entry: dict) -> str:
    """A rate entry (``stats.rate_entry``) as text with its interval."""
    if entry["rate"] is None:
        return "n/a (no deals)"
    return (
        f"{percent(entry['rate'])} ({entry['wins']}/{entry.get('games', entry['deals'])}), "
        f"95% CI {percent(entry['low'])} to {percent(entry['high'])}"
    )


def seconds_text(value) -> str:
    """Seconds to three significant digits."""
    return "n/a" if value is None else f"{value:.3g} s"


def limit_text(values, unit: str) -> str:
    """The distinct limits of a store (None: no limit)."""
    return ", ".join("none" if value is None else f"{value:g}{unit}" for value in values) or "n/a"


def format_summary(summary: dict) -> str:
    """The summary as text for a reader."""
    rule_set = Rules(**summary["rules"]).describe()
    counts, deals, rate = summary["counts"], summary["deals"], summary["win_rate"]
    causes = ", ".join(f"{cause} {count}" for cause, count in summary["unknown_causes"].items())
    span = f" (deals {deals['first']}..{deals['last']})" if deals["total"] else ""
    times, lengths, nodes = summary["seconds_per_deal"], summary["solution_length"], summary["nodes"]
    lines = [
        f"Store:        {summary['store']}",
        f"Rule set:     {rule_set}, {summary['numbering']} numbering",
        f"Deals:        {deals['total']}{span}: {counts[SOLVED]} solved, {counts[UNSOLVABLE]} unsolvable, "
        f"{counts[UNKNOWN]} unknown" + (f" ({causes})" if causes else ""),
        f"Win rate:     {rate_text(rate['decided'])} over decided deals",
        f"  unknown lost: {rate_text(rate['unknown_as_lost'])}",
        f"  unknown won:  {rate_text(rate['unknown_as_won'])}",
        f"  bounds:       {percent(rate['bounds']['low'])} to {percent(rate['bounds']['high'])} "
        "(95% Wilson, every unknown lost / won)",
        f"Time per deal: median {seconds_text(times['median'])}, p90 {seconds_text(times['p90'])}, "
        f"p99 {seconds_text(times['p99'])}, max {seconds_text(times['max'])} "
        f"(total {seconds_text(times['total'])})",
        "Nodes:        "
        + (
            f"{nodes['total']:,} total, {nodes['per_second']:,.0f} per second"
            if nodes["per_second"]
            else f"{nodes['total']:,} total"
        ),
    ]
    if lengths["count"]:
        lines.append(
            f"Solution length: min {lengths['min']}, median {lengths['median']:g}, "
            f"mean {lengths['mean']:.1f}, max {lengths['max']} moves"
        )
        biggest = max(bucket["count"] for bucket in lengths["histogram"])
        for bucket in lengths["histogram"]:
            bar = "#" * math.ceil(40 * bucket["count"] / biggest) if bucket["count"] else ""
            lines.append(f"  {bucket['from']:>4}-{bucket['to']:<4} {bucket['count']:>8}  {bar}")
    lines.append(
        f"Limits:       time {limit_text(summary['time_limits'], ' s')}; "
        f"nodes {limit_text(summary['max_nodes'], '')}; "
        f"solver {', '.join(summary['solver_versions']) or 'n/a'}"
    )
    return "\n".join(lines + player_lines(summary))


def player_lines(summary: dict) -> list[str]:
    """The policies' rates and the tier split, when the store holds plays or ratings."""
    lines = []
    for policy in summary["policies"]:
        settings = ", ".join(f"{name} {value}" for name, value in policy["settings"].items())
        lines += [
            f"Policy {policy['policy']} ({settings}): {policy['games']} games on {policy['deals']} deals",
            f"  won:               {rate_text(policy['win_rate'])} of games",
            f"  solvable deals:    {rate_text(policy['on_solvable'])} of their games",
            f"                     {rate_text(policy['solvable_deals_won'])} of them won at least once",
        ]
        if policy["wins_on_unsolvable"]:
            lines.append(
                f"  CONTRADICTION: {policy['wins_on_unsolvable']} games won on deals stored unsolvable"
            )
    for series in summary["tiers"]:
        split = ", ".join(
            f"{tier} {count} ({percent(series['split'][tier])})" for tier, count in series["counts"].items()
        )
        lines.append(
            f"Tiers ({series['runs']} greedy runs, seed {series['seed']}): {split}; "
            f"no tier (not proved solvable) {series['no_tier']}"
        )
    return lines
