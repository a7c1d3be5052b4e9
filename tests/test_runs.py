"""Batch runs: agreement and replay, resuming, crashes and Ctrl-C, faults, bad arguments."""

import io
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest
from stores import NODES, RUSSIAN, YUKON, YUKON_DEALS, Faulty, comparable, stored_rows

from solver.errors import YukonError
from solver.game.board import parse_board
from solver.game.notation import replay_tokens
from solver.game.numbering import deal_board
from solver.game.ranges import parse_range
from solver.game.reference import is_won
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.runs.batch import run_batch
from solver.runs.deal_record import deal_record

# Polling deadline for the subprocess tests; only a fail-safe, never part of a verdict.
DEADLINE_SECONDS = 120


# ---- agreement and replay ------------------------------------------------------------------


def test_the_store_holds_one_row_per_deal(yukon_store):
    rows = comparable(yukon_store)
    assert [row[0] for row in rows] == list(YUKON_DEALS)
    assert {row[1] for row in rows} <= {"solved", "unsolvable", "unknown"}


def test_one_and_two_jobs_agree(yukon_store, tmp_path):
    path = tmp_path / "one.db"
    run_batch(YUKON_DEALS, YUKON, "pysol", path, NODES, jobs=1, progress=False)
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
    assert (first.skipped, first.to_do) == (0, 10)
    lines = stream.getvalue().splitlines()  # not a terminal: plain lines, no bar
    assert lines[0] == f"russian (pysol): 10 deals in range, 0 already in {path}, solving 10 with 1 worker"
    assert lines[-1].startswith("russian (pysol): 10/10 deals (100.0%)")
    assert "\r" not in stream.getvalue()
    before = comparable(path)
    again = run_batch(parse_range("1-20"), RUSSIAN, "pysol", path, NODES, jobs=2, progress=False)
    assert (again.in_range, again.skipped, again.to_do, again.done) == (20, 10, 10, 10)
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
    assert (again.skipped, again.to_do) == (3, 0)
    retry = run_batch(deals, YUKON, "pysol", path, NODES, jobs=1, retry_unknown=True, progress=False)
    assert (retry.skipped, retry.to_do, retry.done) == (0, 3, 3)
    rows = stored_rows(path)
    assert [(row["deal"], row["max_nodes"]) for row in rows] == [(3, 300_000), (11, 300_000), (13, 300_000)]
    decided = sum(row["status"] != "unknown" for row in rows)
    assert decided >= 2  # 11 and 13 take a few hundred nodes
    last = run_batch(deals, YUKON, "pysol", path, NODES, jobs=1, retry_unknown=True, progress=False)
    assert (last.skipped, last.to_do) == (decided, 3 - decided)


BLOCKING_SCRIPT = """
import os
import sys
import time

from solver.runs.batch import run_batch
from solver.runs.deal_record import deal_record
from solver.results.limits import Limits
from solver.game.rules import Rules

LAST_FINISHING_DEAL = 20


def blocking_solve(deal, rules, numbering, limits):
    # Deals after LAST_FINISHING_DEAL never finish while the run lives.
    if deal <= LAST_FINISHING_DEAL:
        return deal_record(deal, rules, numbering, limits)
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
    assert (report.skipped, report.to_do, report.done) == (20, 20, 20)
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


def test_failing_deals_are_stored_unknown_and_the_run_goes_on(tmp_path):
    path = tmp_path / "r.db"
    report = run_batch(
        range(1, 11),
        RUSSIAN,
        "pysol",
        path,
        NODES,
        jobs=2,
        solve_one=Faulty(deal_record, raises=3, dies=5),
        progress=False,
    )
    assert report.done == 10 and not report.interrupted
    rows = {row["deal"]: row for row in stored_rows(path)}
    assert sorted(rows) == list(range(1, 11))
    for deal, reason in (
        (3, "ValueError at stores.py:"),
        (5, "worker process died while solving (killed by SIGKILL)"),
    ):
        failed = rows.pop(deal)
        assert failed["status"] == "unknown" and reason in failed["reason"]
        assert failed["board"] == deal_board("russian", deal).to_text()
    assert all(row["status"] in ("solved", "unsolvable") and row["reason"] is None for row in rows.values())


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
