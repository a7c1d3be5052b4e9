"""Exit statuses a script can branch on: ``yukon check`` (in a catalogue, in none, and with
--solve the verdict), and ``yukon solve RANGE`` without --out streaming one record a line."""

import json
import re
from pathlib import Path

import pytest
from test_cli import run

from solver.catalogue.files import read_catalogue, save_catalogue, shipped_directory
from solver.cli.statuses import EVERY_COMMAND, EXIT_STATUSES
from solver.results.verify import verify_records

RUSSIAN_LOST = 1  # proved unsolvable before any move
YUKON_HARD = 91  # unknown after 150 s (README, "The hard tail"): 0.05 s never decides it
# What differs between two solves of one deal: when and how fast.
CLOCK_FIELDS = ("seconds", "finished_at")


@pytest.fixture(scope="module")
def two_entries(tmp_path_factory):
    """A catalogue folder holding the first two russian easy entries of the shipped one,
    and the deal of the third, solvable but in none of the folder's catalogues."""
    folder = tmp_path_factory.mktemp("catalogues")
    catalogue = read_catalogue(shipped_directory() / "russian-easy.json")
    entries = catalogue["entries"]
    save_catalogue(folder, catalogue | {"entries": entries[:2]})
    return folder, entries[0]["deal"], entries[2]["deal"]


def check(folder, deal, *options):
    return run("check", str(deal), "--variant", "russian", "--dir", str(folder), *options)


def test_check_exits_0_for_a_deal_in_a_catalogue(two_entries):
    folder, listed, _ = two_entries
    result = check(folder, listed)
    assert result.exit_code == 0 and "solvable, in the catalogues russian easy" in result.stdout


def test_check_exits_5_for_a_deal_in_none(two_entries):
    folder, _, unlisted = two_entries
    result = check(folder, unlisted)
    assert result.exit_code == 5 and "in no catalogue; solvability not checked" in result.stdout


@pytest.mark.parametrize(
    ("variant", "deal", "options", "status", "verdict"),
    [
        ("russian", None, (), 6, "solved"),
        ("russian", RUSSIAN_LOST, (), 1, "unsolvable"),
        ("yukon", YUKON_HARD, ("--time-limit", "0.05"), 3, "unknown"),
    ],
    ids=["solved", "unsolvable", "unknown"],
)
def test_check_solve_exits_with_the_verdict(two_entries, variant, deal, options, status, verdict):
    folder, _, unlisted = two_entries
    arguments = ["check", str(deal or unlisted), "--variant", variant, "--solve", *options]
    result = run(*arguments, *(["--dir", str(folder)] if variant == "russian" else []))
    assert result.exit_code == status, result.output
    assert result.stdout.endswith(f"in no catalogue; solver says {verdict}\n")


def test_solve_of_a_range_without_out_streams_the_records_export_writes(tmp_path):
    streamed = run("solve", "1-3,16", "--variant", "russian")
    assert streamed.exit_code == 0, streamed.stderr
    records = [json.loads(line) for line in streamed.stdout.splitlines()]
    assert [record["deal"] for record in records] == [1, 2, 3, 16]
    store = tmp_path / "russian.db"
    assert run("solve", "1-3,16", "--variant", "russian", "--out", str(store)).exit_code == 0
    exported = [json.loads(line) for line in run("export", str(store)).stdout.splitlines()]

    def without_clock(record: dict) -> dict:
        return {name: value for name, value in record.items() if name not in CLOCK_FIELDS}

    assert [without_clock(record) for record in records] == [without_clock(record) for record in exported]
    report = verify_records(streamed.stdout.splitlines(), "the stream")
    assert (report["good"], report["illegal"], report["unverifiable"]) == (1, 0, 3)


def test_a_streamed_range_is_checked_like_any_range():
    result = run("solve", "3-1", "--variant", "russian")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "error: deal range part '3-1': 3 is above 1 (write it as 1-3)\n"
    assert (
        run("solve", "1-3", "--jobs", "2").stderr
        == "error: --jobs, --retry-unknown and --dask need --out DB\n"
    )


def test_every_commands_help_and_the_docs_give_its_exit_statuses():
    output = (Path(__file__).parent.parent / "docs" / "output.md").read_text(encoding="utf-8")
    section = output.split("## Exit statuses\n", 1)[1].split("\n#", 1)[0]
    rows = dict(re.findall(r"^\| `yukon ([a-z ]+)` \| (.+) \|$", section, re.MULTILINE))
    assert rows == EXIT_STATUSES
    for name, statuses in EXIT_STATUSES.items():
        shown = " ".join(run(*name.split(), "--help").stdout.split())
        assert f"Exit status: {statuses}; {EVERY_COMMAND}." in shown, name
