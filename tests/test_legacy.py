"""Files written by release 0.1.0 still work: its store opens, is summarised, exported and
resumed, and its exports verify. Fixtures: 30 yukon pysol deals (27 solved, 1 unsolvable,
2 unknown) solved at 20,000 nodes a deal. The store is WAL-mode SQLite, which even a reader
may touch, so every test works on a copy."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import solver
from solver.cli import main
from solver.common.formats import RECORD, stamped
from solver.results.record import Record
from solver.runs.summary import summarize
from solver.store import Store, export_jsonl

LEGACY = Path(__file__).parent / "data" / "legacy"
STORE, EXPORT = LEGACY / "store-v1.db", LEGACY / "export-v1.jsonl"


@pytest.fixture
def legacy_store(tmp_path):
    target = tmp_path / "store-v1.db"
    shutil.copyfile(STORE, target)
    return target


def run(*args):
    return CliRunner().invoke(main, list(args), prog_name="yukon")


def test_the_store_opens_and_reads_as_records(legacy_store):
    with Store.open_existing(legacy_store) as store:
        records = list(store.records())
    assert [record.deal for record in records] == list(range(1, 31))
    assert [record.status for record in records].count("solved") == 27
    assert {record.deal: record.status for record in records if record.status != "solved"} == {
        9: "unknown",
        10: "unknown",
        28: "unsolvable",
    }
    assert {(record.variant, record.numbering, record.solver_version) for record in records} == {
        ("yukon", "pysol", "0.1.0")
    }


def test_stats_reads_it(legacy_store):
    summary = summarize(legacy_store)
    assert summary["counts"] == {"solved": 27, "unsolvable": 1, "unknown": 2}
    assert summary["unknown_causes"] == {"nodes": 2}
    assert summary["deals"] == {"total": 30, "first": 1, "last": 30}
    assert summary["max_nodes"] == [20_000] and summary["solver_versions"] == ["0.1.0"]
    result = run("stats", str(legacy_store))
    assert result.exit_code == 0
    assert "30 (deals 1..30): 27 solved, 1 unsolvable, 2 unknown (nodes 2)" in result.stdout


def test_export_is_what_0_1_0_exported_with_the_format_keys_first(legacy_store, tmp_path):
    out = tmp_path / "export.jsonl"
    assert export_jsonl(legacy_store, out) == 30
    fresh = [json.loads(line) for line in out.read_text().splitlines()]
    old = [json.loads(line) for line in EXPORT.read_text().splitlines()]
    assert [stamped(record, RECORD) for record in old] == fresh
    assert all(list(record)[:2] == ["format", "format_version"] for record in fresh)


def test_its_export_parses_as_records():
    lines = EXPORT.read_text().splitlines()
    for line in lines:
        data = json.loads(line)
        assert "format" not in data
        assert Record.from_json(data).to_json() == stamped(data, RECORD)


@pytest.mark.parametrize("source", ["fresh export", "0.1.0 export"])
def test_verify_passes(legacy_store, tmp_path, source):
    path = EXPORT
    if source == "fresh export":
        path = tmp_path / "fresh.jsonl"
        export_jsonl(legacy_store, path)
    result = run("verify", str(path))
    assert result.exit_code == 0
    assert result.stdout == "good 27, illegal 0, unverifiable 3\n"


def test_solve_resumes_into_it(legacy_store):
    with Store.open_existing(legacy_store) as store:
        before = list(store.records())
    args = ["solve", "1-32", "--max-nodes", "20000", "--time-limit", "100000", "--jobs", "1"]
    result = run(*args, "--out", str(legacy_store))
    assert result.exit_code == 0, result.output
    assert f"30 already in {legacy_store}, solving 2 with 1 worker" in result.stderr
    with Store.open_existing(legacy_store) as store:
        after = list(store.records())
    assert after[:30] == before
    assert [record.deal for record in after[30:]] == [31, 32]
    assert {record.solver_version for record in after[30:]} == {solver.__version__}
    retried = run(*args, "--retry-unknown", "--out", str(legacy_store))
    assert retried.exit_code == 0
    assert "solving 2 with 1 worker" in retried.stderr
    with Store.open_existing(legacy_store) as store:
        assert len(list(store.records())) == 32
