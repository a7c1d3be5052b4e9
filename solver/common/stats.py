"""Statistics over verdicts and measurements: Wilson intervals, rates, percentiles, histograms."""

import math
from collections import Counter

Z_95 = 1.959963984540054


def wilson_interval(wins: int, trials: int, z: float = Z_95) -> tuple[float, float] | None:
    """The Wilson score interval for ``wins`` out of ``trials`` (None without trials)."""
    if trials <= 0:
        return None
    p = wins / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def rate_entry(wins: int, trials: int) -> dict:
    """A win rate with its 95% Wilson interval, as a JSON-serialisable dict."""
    interval = wilson_interval(wins, trials)
    return {
        "wins": wins,
        "deals": trials,
        "rate": wins / trials if trials else None,
        "low": interval[0] if interval else None,
        "high": interval[1] if interval else None,
    }


def clustered_rate_entry(per_deal: list[tuple[int, int]], z: float = Z_95) -> dict:
    """A win rate over games grouped by deal, ``per_deal`` holding ``(wins, games)`` of each
    deal, with a 95% interval that treats deals, not games, as the independent draws (the
    games of one deal are alike): the ratio estimator's cluster-robust variance
    k / (k - 1) * sum((w_i - rate * n_i)^2) / N^2 over k deals and N games, normal
    approximation, clipped to [0, 1]."""
    played = [(wins, games) for wins, games in per_deal if games]
    total, won, deals = sum(g for _w, g in played), sum(w for w, _g in played), len(played)
    entry = {"wins": won, "games": total, "deals": deals, "method": "clustered by deal"}
    if deals < 2:
        return entry | {"rate": won / total if total else None, "low": None, "high": None}
    rate = won / total
    spread = sum((wins - rate * games) ** 2 for wins, games in played)
    half = z * math.sqrt(deals / (deals - 1) * spread) / total
    return entry | {"rate": rate, "low": max(0.0, rate - half), "high": min(1.0, rate + half)}


def win_rates(solved: int, unsolvable: int, unknown: int) -> dict:
    """The win rate over decided deals, and over all deals with every unknown counted lost,
    then won, each with its 95% Wilson interval; the bounds are the two extremes."""
    total = solved + unsolvable + unknown
    lost, won = rate_entry(solved, total), rate_entry(solved + unknown, total)
    return {
        "confidence": 0.95,
        "method": "Wilson score interval",
        "decided": rate_entry(solved, solved + unsolvable),
        "unknown_as_lost": lost,
        "unknown_as_won": won,
        "bounds": {"low": lost["low"], "high": won["high"]},
    }


def percentile(ordered: list, fraction: float):
    """Linear interpolation between closest ranks (numpy's default) of a sorted list."""
    if not ordered:
        return None
    position = (len(ordered) - 1) * fraction
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def histogram(ordered: list[int], buckets: int = 20) -> list[dict]:
    """Equal-width buckets (a multiple of 10 moves wide) covering a sorted list."""
    if not ordered:
        return []
    low, high = ordered[0], ordered[-1]
    width = 10 * max(1, math.ceil((high - low + 1) / (10 * buckets)))
    start = low - low % width
    counts = Counter((value - start) // width for value in ordered)
    return [
        {"from": start + i * width, "to": start + (i + 1) * width - 1, "count": counts.get(i, 0)}
        for i in range((high - start) // width + 1)
    ]


def length_summary(ordered: list[int]) -> dict:
    """Count, min, median, mean, max and histogram of sorted values (solution lengths)."""
    return {
        "count": len(ordered),
        "min": ordered[0] if ordered else None,
        "median": percentile(ordered, 0.5),
        "mean": sum(ordered) / len(ordered) if ordered else None,
        "max": ordered[-1] if ordered else None,
        "histogram": histogram(ordered),
    }
