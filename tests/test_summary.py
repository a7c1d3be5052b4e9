"""The summary of a store (``yukon stats``): its arithmetic and its text."""

import json

import pytest
from stores import RUSSIAN, YUKON, fake_record

from solver.runs.summary import format_summary, summarize
from solver.store import Store


def test_summary_arithmetic(tmp_path):
    path = tmp_path / "s.db"
    lengths = [100, 102, 95, 110, 120, 101, 99]
    seconds = [0.5, 0.1, 0.2, 0.3, 0.4, 1.0, 0.6, 0.7, 0.8, 0.9]
    rows = [
        fake_record(deal, "solved", seconds[deal - 1], solution=" ".join(["S"] * length))
        for deal, length in enumerate(lengths, start=1)
    ]
    rows += [fake_record(8, "unsolvable", seconds[7]), fake_record(9, "unsolvable", seconds[8])]
    rows.append(fake_record(10, "unknown", seconds[9], budget="time"))
    with Store.open_for_run(path, YUKON, "pysol") as store:
        store.write_many(rows)
    summary = summarize(path)
    assert json.loads(json.dumps(summary)) == summary
    assert summary["rules"] == {"variant": "yukon", "foundation_return": False}
    assert summary["numbering"] == "pysol"
    assert summary["deals"] == {"total": 10, "first": 1, "last": 10}
    assert summary["counts"] == {"solved": 7, "unsolvable": 2, "unknown": 1}
    assert summary["unknown_causes"] == {"time": 1}
    rate = summary["win_rate"]
    assert rate["decided"]["rate"] == pytest.approx(7 / 9)
    assert (rate["decided"]["low"], rate["decided"]["high"]) == pytest.approx((0.4525889691, 0.9367748929))
    assert rate["unknown_as_lost"]["rate"] == pytest.approx(0.7)
    assert (rate["unknown_as_lost"]["low"], rate["unknown_as_lost"]["high"]) == pytest.approx(
        (0.3967781475, 0.8922087326)
    )
    assert rate["unknown_as_won"]["rate"] == pytest.approx(0.8)
    assert (rate["unknown_as_won"]["low"], rate["unknown_as_won"]["high"]) == pytest.approx(
        (0.4901624715, 0.9433178485)
    )
    assert (rate["bounds"]["low"], rate["bounds"]["high"]) == pytest.approx((0.3967781475, 0.9433178485))
    times = summary["seconds_per_deal"]
    assert times["total"] == pytest.approx(5.5)
    assert times["median"] == pytest.approx(0.55)
    assert times["p90"] == pytest.approx(0.91)
    assert times["p99"] == pytest.approx(0.991)
    assert times["max"] == pytest.approx(1.0)
    assert summary["nodes"] == {"total": 11_000, "per_second": pytest.approx(2000.0)}
    length = summary["solution_length"]
    assert (length["count"], length["min"], length["median"], length["max"]) == (7, 95, 101, 120)
    assert length["mean"] == pytest.approx(727 / 7)
    assert [(b["from"], b["to"], b["count"]) for b in length["histogram"]] == [
        (90, 99, 2),
        (100, 109, 3),
        (110, 119, 1),
        (120, 129, 1),
    ]
    assert summary["time_limits"] == [10.0] and summary["solver_versions"] == ["0.1.0"]
    text = format_summary(summary)
    assert "7 solved, 2 unsolvable, 1 unknown (time 1)" in text
    assert "77.78% (7/9), 95% CI 45.26% to 93.68%" in text
    assert "39.68% to 94.33%" in text


def test_summary_of_an_empty_store(tmp_path):
    path = tmp_path / "empty.db"
    Store.open_for_run(path, RUSSIAN, "kpat").close()
    summary = summarize(path)
    assert summary["counts"] == {"solved": 0, "unsolvable": 0, "unknown": 0}
    assert summary["win_rate"]["decided"]["rate"] is None
    assert summary["numbering"] == "kpat"
    assert "n/a" in format_summary(summary)
