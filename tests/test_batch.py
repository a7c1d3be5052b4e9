"""Batch runs: the store, resuming, crashes, parallel and Dask agreement, the summary."""

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest

from solver.batch import (
    format_summary,
    percentile,
    run_batch,
    solve_deal,
    summarize,
    wilson_interval,
)
from solver.board import parse_board
from solver.errors import YukonError
from solver.notation import replay_tokens
from solver.numbering import deal_board
from solver.ranges import parse_range
from solver.reference import is_won
from solver.result import Limits
from solver.rules import Rules
from solver.store import Store, export_jsonl

YUKON = Rules("yukon")
RUSSIAN = Rules("russian")
# A node budget, not a clock, so every run gives the same verdicts. (Which verdicts depends
# on the engine of the day: deal 10 has been unsolvable and deal 3 unknown in 300,000 nodes.)
NODES = Limits(max_nodes=300_000, time_limit=None)
YUKON_DEALS = parse_range("2-3,6,8,10-11,13")
# Polling deadline for the subprocess tests; only a fail-safe, never part of a verdict.
DEADLINE_SECONDS = 120


def comparable(path):
    with Store.open_existing(path) as store:
        return [
            (row["deal"], row["status"], row["solution"], row["nodes"], row["budget"], row["board"])
            for row in store.rows()
        ]


def stored_rows(path):
    with Store.open_existing(path) as store:
        return list(store.rows())


def snapshot(directory):
    return {
        path.name: (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(directory.iterdir())
        if path.is_file()
    }


@pytest.fixture(scope="module")
def yukon_store(tmp_path_factory):
    path = tmp_path_factory.mktemp("yukon") / "yukon.db"
    report = run_batch(YUKON_DEALS, YUKON, "pysol", path, NODES, jobs=2, progress=False)
    assert report.done == 7 and not report.interrupted
    return path


@pytest.fixture(scope="module")
def russian_store(tmp_path_factory):
    path = tmp_path_factory.mktemp("russian") / "russian.db"
    report = run_batch(parse_range("1-40"), RUSSIAN, "pysol", path, NODES, jobs=2, progress=False)
    assert report.done == 40 and not report.interrupted
    return path


def copy_store(source, directory):
    target = directory / "r.db"
    target.write_bytes(source.read_bytes())
    return target


# ---- agreement and replay ------------------------------------------------------------------


def test_the_store_holds_one_row_per_deal(yukon_store):
    rows = comparable(yukon_store)
    assert [row[0] for row in rows] == list(YUKON_DEALS)
    assert {row[1] for row in rows} <= {"solved", "unsolvable", "unknown"}


def test_one_and_two_jobs_agree(yukon_store, tmp_path):
    path = tmp_path / "one.db"
    run_batch(YUKON_DEALS, YUKON, "pysol", path, NODES, jobs=1, progress=False)
    assert comparable(path) == comparable(yukon_store)


def test_dask_local_cluster_agrees(yukon_store, tmp_path):
    pytest.importorskip("distributed")
    path = tmp_path / "dask.db"
    report = run_batch(
        YUKON_DEALS, YUKON, "pysol", path, NODES, jobs=2, dask="local", chunk_size=5, progress=False
    )
    assert report.done == 7
    assert comparable(path) == comparable(yukon_store)


def test_every_stored_solution_replays(yukon_store, russian_store):
    checked = 0
    for path, rules in ((yukon_store, YUKON), (russian_store, RUSSIAN)):
        for row in stored_rows(path):
            board = deal_board(rules.variant, row["deal"], "pysol")
            assert parse_board(row["board"], rules) == board
            if row["status"] != "solved":
                assert row["solution"] == "" and row["solution_length"] == 0
                continue
            final = board
            for _token, _move, after in replay_tokens(board, row["solution"].split(), rules):
                final = after
            assert is_won(final), f"{rules.variant} deal {row['deal']}"
            assert row["solution_length"] == len(row["solution"].split())
            checked += 1
    assert checked > 0


def test_rows_record_how_they_were_made(yukon_store):
    for row in stored_rows(yukon_store):
        assert (row["variant"], row["foundation_return"], row["numbering"]) == ("yukon", False, "pysol")
        assert row["max_nodes"] == 300_000 and row["time_limit"] is None
        assert row["solver_version"] and row["finished_at"] and row["reason"] is None
        assert (row["budget"] is not None) == (row["status"] == "unknown")


# ---- resuming -------------------------------------------------------------------------------


def test_rerun_skips_decided_deals(tmp_path):
    path = tmp_path / "r.db"
    stream = io.StringIO()
    first = run_batch(parse_range("1-10"), RUSSIAN, "pysol", path, NODES, jobs=1, stream=stream)
    assert (first.skipped, first.to_solve) == (0, 10)
    lines = stream.getvalue().splitlines()  # not a terminal: plain lines, no bar
    assert lines[0] == f"russian (pysol): 10 deals in range, 0 already in {path}, solving 10 with 1 worker"
    assert lines[-1].startswith("russian (pysol): 10/10 deals (100.0%)")
    assert "\r" not in stream.getvalue()
    before = comparable(path)
    again = run_batch(parse_range("1-20"), RUSSIAN, "pysol", path, NODES, jobs=2, progress=False)
    assert (again.in_range, again.skipped, again.to_solve, again.done) == (20, 10, 10, 10)
    after = comparable(path)
    assert [row[0] for row in after] == list(range(1, 21))
    assert after[:10] == before


def test_unknown_deals_are_retried_only_when_asked(tmp_path):
    path = tmp_path / "y.db"
    deals = parse_range("3,11,13")
    one_node = Limits(max_nodes=1, time_limit=None)  # no deal is decided in one node
    run_batch(deals, YUKON, "pysol", path, one_node, jobs=1, progress=False)
    assert [(row[1], row[4]) for row in comparable(path)] == [("unknown", "nodes")] * 3
    again = run_batch(deals, YUKON, "pysol", path, NODES, jobs=1, progress=False)
    assert (again.skipped, again.to_solve) == (3, 0)
    retry = run_batch(deals, YUKON, "pysol", path, NODES, jobs=1, retry_unknown=True, progress=False)
    assert (retry.skipped, retry.to_solve, retry.done) == (0, 3, 3)
    rows = stored_rows(path)
    assert [(row["deal"], row["max_nodes"]) for row in rows] == [(3, 300_000), (11, 300_000), (13, 300_000)]
    decided = sum(row["status"] != "unknown" for row in rows)
    assert decided >= 2  # 11 and 13 take a few hundred nodes
    last = run_batch(deals, YUKON, "pysol", path, NODES, jobs=1, retry_unknown=True, progress=False)
    assert (last.skipped, last.to_solve) == (decided, 3 - decided)


BLOCKING_SCRIPT = """
import os
import sys
import time

from solver.batch import run_batch, solve_deal
from solver.result import Limits
from solver.rules import Rules

LAST_FINISHING_DEAL = 20


def blocking_solve(deal, rules, numbering, limits):
    # Deals after LAST_FINISHING_DEAL never finish while the run lives.
    if deal <= LAST_FINISHING_DEAL:
        return solve_deal(deal, rules, numbering, limits)
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(0.05)
    os._exit(0)


if __name__ == "__main__":
    report = run_batch(
        range(1, 41), Rules("russian"), "pysol", sys.argv[1], Limits(), jobs=2,
        solve_one=blocking_solve, resume_command="the same command",
    )
    sys.exit(report.exit_status)
"""


def start_blocking_run(tmp_path):
    """A run of russian 1-40 whose deals 21-40 never finish: once the store holds 20 rows
    the run is certainly mid-way, whatever the machine's speed."""
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent(BLOCKING_SCRIPT))
    path = tmp_path / "runs" / "r.db"
    process = subprocess.Popen(
        [sys.executable, str(script), str(path)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    end = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < end:
        if process.poll() is not None:
            pytest.fail(f"run ended early: {process.communicate()}")
        if row_count(path) >= 20:
            return process, path
        time.sleep(0.05)
    process.kill()
    pytest.fail("the run never stored 20 results")


def row_count(path) -> int:
    if not path.exists():
        return 0
    connection = sqlite3.connect(path, timeout=10)
    try:
        return connection.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    except sqlite3.OperationalError:  # tables not made yet
        return 0
    finally:
        connection.close()


def test_resume_after_sigkill(tmp_path):
    process, path = start_blocking_run(tmp_path)
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=DEADLINE_SECONDS)
    assert process.returncode == -signal.SIGKILL
    connection = sqlite3.connect(path)
    assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    duplicates = connection.execute(
        "SELECT deal FROM results GROUP BY variant, foundation_return, numbering, deal HAVING COUNT(*) > 1"
    ).fetchall()
    connection.close()
    assert duplicates == []
    rows = stored_rows(path)
    assert [row["deal"] for row in rows] == list(range(1, 21))
    assert all(row["status"] in ("solved", "unsolvable") and row["board"] for row in rows)

    report = run_batch(range(1, 41), RUSSIAN, "pysol", path, Limits(), jobs=2, progress=False)
    assert (report.skipped, report.to_solve, report.done) == (20, 20, 20)
    final = stored_rows(path)
    assert [row["deal"] for row in final] == list(range(1, 41))
    assert final[:20] == rows
    assert all(row["status"] in ("solved", "unsolvable") for row in final)


def test_ctrl_c_stops_and_says_how_to_resume(tmp_path):
    process, path = start_blocking_run(tmp_path)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal does: to the whole process group
    _, stderr = process.communicate(timeout=DEADLINE_SECONDS)
    assert process.returncode == 130
    assert "run the same command again to resume: the same command" in stderr
    assert "Traceback" not in stderr
    assert [row["deal"] for row in stored_rows(path)] == list(range(1, 21))


# ---- faults ----------------------------------------------------------------------------------


def faulty_solve(deal, rules, numbering, limits):
    """Deal 3 raises; on deal 5 the worker process dies."""
    if deal == 3:
        raise ValueError("deliberate fault on deal 3")
    if deal == 5:
        os.kill(os.getpid(), signal.SIGKILL)
    return solve_deal(deal, rules, numbering, limits)


def test_failing_deals_are_stored_unknown_and_the_run_goes_on(tmp_path):
    path = tmp_path / "r.db"
    report = run_batch(
        range(1, 11), RUSSIAN, "pysol", path, NODES, jobs=2, solve_one=faulty_solve, progress=False
    )
    assert report.done == 10 and not report.interrupted
    rows = {row["deal"]: row for row in stored_rows(path)}
    assert sorted(rows) == list(range(1, 11))
    for deal, reason in (
        (3, "ValueError at test_batch.py:"),
        (5, "worker process died while solving (killed by SIGKILL)"),
    ):
        failed = rows.pop(deal)
        assert failed["status"] == "unknown" and reason in failed["reason"]
        assert failed["board"] == deal_board("russian", deal).to_text()
    assert all(row["status"] in ("solved", "unsolvable") and row["reason"] is None for row in rows.values())


def test_store_of_other_rules_is_refused_untouched(russian_store, tmp_path):
    path = copy_store(russian_store, tmp_path)
    before = snapshot(tmp_path)
    for rules, numbering in ((YUKON, "pysol"), (Rules("russian", True), "pysol"), (RUSSIAN, "kpat")):
        with pytest.raises(YukonError) as error:
            run_batch(range(1, 6), rules, numbering, path, NODES, jobs=1, progress=False)
        assert "was made for russian, pysol numbering" in str(error.value)
        assert "\n" not in str(error.value)
        assert snapshot(tmp_path) == before


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: b"this is not a database at all\n" * 100,
        lambda data: data[: len(data) // 2],
        lambda data: data[:4096] + b"\0" * (len(data) - 4096),
    ],
    ids=["garbage", "truncated", "zeroed"],
)
def test_corrupt_store_is_refused_untouched(russian_store, tmp_path, damage):
    path = tmp_path / "r.db"
    path.write_bytes(damage(russian_store.read_bytes()))
    before = snapshot(tmp_path)
    for attempt in (
        lambda: run_batch(range(1, 6), RUSSIAN, "pysol", path, NODES, jobs=1, progress=False),
        lambda: summarize(path),
        lambda: export_jsonl(path, tmp_path / "out.jsonl"),
    ):
        with pytest.raises(YukonError) as error:
            attempt()
        assert str(path) in str(error.value) and "\n" not in str(error.value)
        assert snapshot(tmp_path) == before


def test_other_sqlite_database_is_refused(tmp_path):
    path = tmp_path / "other.db"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE t (x)")
    connection.commit()
    connection.close()
    with pytest.raises(YukonError, match="not a yukon-solver results store"):
        run_batch(range(1, 3), RUSSIAN, "pysol", path, NODES, jobs=1, progress=False)


def test_unwritable_store_place(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("in the way")
    with pytest.raises(YukonError, match="cannot create the directory"):
        run_batch(range(1, 3), RUSSIAN, "pysol", blocker / "runs" / "r.db", NODES, jobs=1, progress=False)
    with pytest.raises(YukonError, match="is a directory"):
        run_batch(range(1, 3), RUSSIAN, "pysol", tmp_path, NODES, jobs=1, progress=False)


def test_missing_store_for_reading(tmp_path):
    with pytest.raises(YukonError, match="no results store"):
        summarize(tmp_path / "absent.db")
    assert not (tmp_path / "absent.db").exists()


def test_bad_arguments(tmp_path, monkeypatch):
    path = tmp_path / "r.db"
    with pytest.raises(YukonError, match="kpat numbering has no milligan"):
        run_batch(range(1, 3), Rules("milligan"), "kpat", path, NODES, jobs=1, progress=False)
    with pytest.raises(YukonError, match="--jobs must be at least 1"):
        run_batch(range(1, 3), RUSSIAN, "pysol", path, NODES, jobs=0, progress=False)
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(YukonError, match=r"pip install 'yukon-solver\[dask\]'"):
        run_batch(range(1, 3), RUSSIAN, "pysol", path, NODES, jobs=1, dask="local", progress=False)
    assert not path.exists()


# ---- the store and export ------------------------------------------------------------------


def fake_row(deal, status, seconds=0.1, nodes=1100, solution="", budget=None, rules=YUKON):
    return {
        "variant": rules.variant,
        "foundation_return": rules.foundation_return,
        "numbering": "pysol",
        "deal": deal,
        "status": status,
        "solution": solution,
        "solution_length": len(solution.split()),
        "proven_minimal": False,
        "nodes": nodes,
        "seconds": seconds,
        "budget": budget,
        "time_limit": 10.0,
        "max_nodes": None,
        "solver_version": "0.1.0",
        "board": "",
    }


def test_deal_numbers_beyond_sqlite_integers_keep_their_order(tmp_path):
    path = tmp_path / "big.db"
    deals = [10**20, 2**63, 2**63 - 1, 5, 10**19 + 7]
    with Store.open_for_run(path, YUKON, "pysol") as store:
        for deal in deals:
            store.write(fake_row(deal, "unsolvable"))
        store.write(fake_row(5, "solved", solution="1>F:AS"))
        assert store.statuses_in(2**63 - 1, 10**20) == {
            2**63 - 1: "unsolvable",
            2**63: "unsolvable",
            10**19 + 7: "unsolvable",
            10**20: "unsolvable",
        }
        assert list(store.pending(parse_range(f"4-6,{2**63 - 2}-{2**63 + 1}"), ("unsolvable",))) == [
            4,
            5,
            6,
            2**63 - 2,
            2**63 + 1,
        ]
    rows = stored_rows(path)
    assert [row["deal"] for row in rows] == sorted(deals)
    assert rows[0]["status"] == "solved"
    assert summarize(path)["deals"] == {"total": 5, "first": 5, "last": 10**20}


def test_export_jsonl(yukon_store, tmp_path, capsys):
    out = tmp_path / "out" / "results.jsonl"
    out.parent.mkdir()
    assert export_jsonl(yukon_store, out) == 7
    lines = out.read_text().splitlines()
    objects = [json.loads(line) for line in lines]
    assert [item["deal"] for item in objects] == list(YUKON_DEALS)
    assert list(objects[0])[:7] == [
        "variant",
        "foundation_return",
        "numbering",
        "deal",
        "board",
        "status",
        "solution",
    ]
    for item, row in zip(objects, stored_rows(yukon_store)):
        assert item == row
        assert item["board"] == deal_board("yukon", item["deal"]).to_text()
    assert [path.name for path in out.parent.iterdir()] == ["results.jsonl"]
    assert export_jsonl(yukon_store, "-") == 7
    assert capsys.readouterr().out.splitlines() == lines


# ---- the summary -----------------------------------------------------------------------------


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


def test_summary_arithmetic(tmp_path):
    path = tmp_path / "s.db"
    lengths = [100, 102, 95, 110, 120, 101, 99]
    seconds = [0.5, 0.1, 0.2, 0.3, 0.4, 1.0, 0.6, 0.7, 0.8, 0.9]
    rows = [
        fake_row(deal, "solved", seconds[deal - 1], solution=" ".join(["S"] * length))
        for deal, length in enumerate(lengths, start=1)
    ]
    rows += [fake_row(8, "unsolvable", seconds[7]), fake_row(9, "unsolvable", seconds[8])]
    rows.append(fake_row(10, "unknown", seconds[9], budget="time"))
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
