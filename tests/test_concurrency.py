"""Several runs solving overlapping ranges into one store while it is read, some killed at
seeded random moments: afterwards every deal is stored once, no decided verdict seen by a
reader was downgraded, and the exported store verifies."""

import io
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from stores import YUKON, fake_record
from test_cli import run

from solver.errors import YukonError
from solver.store import Store, export_jsonl

YUKON_CLI = Path(sys.executable).with_name("yukon")
DEALS = range(1, 19)
# Overlapping ranges, small node budgets (some too small to decide every deal), and whether
# each run is killed: when the store holds a seeded random number of results, so a failure
# can be replayed and every kill lands in the middle of the work.
WRITERS = [("1-12", 3000, True), ("6-18", 20000, False), ("1-18", 3000, True), ("10-18", 20000, True)]
SEED = 16
# Only a fail-safe for a hung process, never part of a verdict.
DEADLINE_SECONDS = 300


def start_writer(path, deals, max_nodes):
    return subprocess.Popen(
        [YUKON_CLI, "solve", deals, "--out", str(path), "--max-nodes", str(max_nodes), "--jobs", "1"]
        + ["--retry-unknown"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def read_snapshot(path) -> dict[int, str] | None:
    """Status by deal as one export sees it; None while the store is not made yet."""
    out = io.StringIO()
    try:
        export_jsonl(path, out)
    except YukonError as error:
        assert "no results store" in str(error) or "not a yukon-solver results store" in str(error)
        return None
    return {record["deal"]: record["status"] for record in map(json.loads, out.getvalue().splitlines())}


@pytest.mark.slow
def test_concurrent_runs_killed_at_random_lose_and_downgrade_nothing(tmp_path):
    path = tmp_path / "r.db"
    chooser = random.Random(SEED)
    kill_at = {index: chooser.randint(1, 12) for index, (_, _, killed) in enumerate(WRITERS) if killed}
    started = time.monotonic()
    writers = [start_writer(path, deals, nodes) for deals, nodes, _ in WRITERS]
    seen_decided: dict[int, str] = {}
    while any(writer.poll() is None for writer in writers):
        assert time.monotonic() - started < DEADLINE_SECONDS
        snapshot = read_snapshot(path) or {}
        for index, results in list(kill_at.items()):
            if len(snapshot) >= results:
                writers[index].send_signal(signal.SIGKILL)
                del kill_at[index]
        for deal, status in snapshot.items():
            if status != "unknown":
                assert seen_decided.setdefault(deal, status) == status
        time.sleep(0.05)
    for writer in writers:
        _, stderr = writer.communicate()
        assert "Traceback" not in stderr and writer.returncode in (0, -signal.SIGKILL), stderr

    finish = start_writer(path, "1-18", 20000)
    _, stderr = finish.communicate(timeout=DEADLINE_SECONDS)
    assert finish.returncode == 0, stderr
    final = read_snapshot(path)
    assert sorted(final) == list(DEALS)
    assert all(final[deal] == status for deal, status in seen_decided.items())
    connection = sqlite3.connect(path)
    assert connection.execute("SELECT COUNT(*), COUNT(DISTINCT deal) FROM results").fetchone() == (18, 18)
    assert connection.execute("SELECT COUNT(*) FROM claims").fetchone() == (0,)
    connection.close()
    exported = tmp_path / "r.jsonl"
    assert run("export", str(path), "-o", str(exported)).exit_code == 0
    assert run("verify", str(exported)).exit_code == 0


RETRY_RUN = """
import sys
from stores import YUKON, LoggedUnknown
from solver.results.limits import Limits
from solver.runs.batch import run_batch
report = run_batch(range(1, 25), YUKON, "pysol", sys.argv[1], Limits(max_nodes=1000, time_limit=None), jobs=1,
                   retry_unknown=True, progress=False, solve_one=LoggedUnknown(sys.argv[2], 2))
sys.exit(report.exit_status)
"""


def test_two_runs_retrying_unknowns_retry_each_deal_once(tmp_path):
    path = tmp_path / "r.db"
    with Store.open_for_run(path, YUKON, "pysol") as store:
        store.write_many(fake_record(deal, "unknown", budget="nodes") for deal in range(1, 25))
    log = tmp_path / "log"
    log.mkdir()
    environment = os.environ | {"PYTHONPATH": str(Path(__file__).parent)}
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", RETRY_RUN, str(path), str(log)],
            env=environment,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for retrying in runs:
        _, stderr = retrying.communicate(timeout=DEADLINE_SECONDS)
        assert retrying.returncode == 0, stderr
    solved = sorted(int(name.name.split("-")[1]) for name in log.glob("deal-*"))
    assert solved == list(range(1, 25))
    assert len(list(log.glob("run-*"))) == 2
