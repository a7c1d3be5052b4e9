"""Wilson intervals, percentiles, histograms."""

import pytest

from solver.common.stats import histogram, percentile, rate_entry, wilson_interval


@pytest.mark.parametrize(
    ("wins", "trials", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (Wilson score).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        # By hand, z = 1.96: (x + z^2/2 -+ z sqrt(x(n-x)/n + z^2/4)) / (n + z^2).
        (7, 9, 0.45259, 0.93677),
        (7, 10, 0.39678, 0.89221),
        (8, 10, 0.49016, 0.94332),
        (10, 10, 0.72247, 1.0),
    ],
)
def test_wilson_interval(wins, trials, low, high):
    got_low, got_high = wilson_interval(wins, trials)
    assert got_low == pytest.approx(low, abs=5e-5)
    assert got_high == pytest.approx(high, abs=5e-5)


def test_wilson_interval_without_trials():
    assert wilson_interval(0, 0) is None


def test_percentile_interpolates_between_ranks():
    values = [0.1 * i for i in range(1, 11)]
    assert percentile(values, 0.5) == pytest.approx(0.55)
    assert percentile(values, 0.9) == pytest.approx(0.91)
    assert percentile(values, 0.99) == pytest.approx(0.991)
    assert percentile([4.0], 0.99) == 4.0
    assert percentile([], 0.5) is None


def test_rate_entry_carries_the_interval():
    entry = rate_entry(7, 9)
    assert (entry["wins"], entry["deals"]) == (7, 9)
    assert entry["rate"] == pytest.approx(7 / 9)
    assert (entry["low"], entry["high"]) == pytest.approx(wilson_interval(7, 9))
    assert rate_entry(0, 0) == {"wins": 0, "deals": 0, "rate": None, "low": None, "high": None}


def test_histogram_buckets_are_ten_moves_wide_and_cover_the_values():
    buckets = histogram([95, 99, 100, 101, 102, 110, 120])
    assert [(b["from"], b["to"], b["count"]) for b in buckets] == [
        (90, 99, 2),
        (100, 109, 3),
        (110, 119, 1),
        (120, 129, 1),
    ]
    assert histogram([]) == []


def test_histogram_widens_buckets_to_keep_their_number_bounded():
    buckets = histogram(list(range(0, 1000, 7)), buckets=20)
    assert len(buckets) <= 20
    assert buckets[0]["to"] - buckets[0]["from"] + 1 == 50
    assert sum(b["count"] for b in buckets) == len(range(0, 1000, 7))
