"""Issue 16, hostile input: each item as the hostile user met it, first reproduced here.

Every refusal is one ``error:`` line and exit 2 (``assert_bad_input``), never a traceback.
"""

import errno
import io
import json
import os
import sqlite3
import stat
import subprocess
import sys
import threading
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from stores import NODES, RUSSIAN, YUKON, copy_store, fake_record, snapshot, stored_rows
from test_cli import assert_bad_input, run

from solver.catalogue.files import checksum, read_catalogue, save_catalogue, shipped_directory
from solver.cli import main
from solver.cli import results as results_commands
from solver.errors import MESSAGE_CHARS, YukonError
from solver.game.board import MAX_BOARD_BYTES
from solver.game.numbering import deal_board
from solver.results.limits import Limits, parse_memory
from solver.results.record import Record, now_text
from solver.results.verify import MAX_LINE_CHARS, verify_records
from solver.runs.batch import run_batch
from solver.runs.claims import WAIT, ClaimedDeals
from solver.runs.loop import stopped_line
from solver.runs.report import RunReport
from solver.store import BUSY, CLAIMED, DONE, Retry, Store

YUKON_CLI = Path(sys.executable).with_name("yukon")


def record_of(deal, status, nodes, max_nodes, time_limit) -> Record:
    """A made-up record given node and time budgets."""
    return replace(fake_record(deal, status, nodes=nodes), max_nodes=max_nodes, time_limit=time_limit)


# ---- 1. a proof is never overwritten; concurrent runs share the work ------------------------


def test_a_decided_verdict_is_never_replaced_by_unknown(tmp_path):
    with Store.open_for_run(tmp_path / "r.db", YUKON, "pysol") as store:
        store.write(fake_record(78, "unsolvable"))
        assert store.write(fake_record(78, "unknown", budget="nodes")) is None
        assert store.stored(78).status == "unsolvable"


def test_solved_against_unsolvable_is_a_contradiction_and_the_stored_row_stays(tmp_path):
    with Store.open_for_run(tmp_path / "r.db", YUKON, "pysol") as store:
        store.write(fake_record(5, "solved", solution="1>F:AS"))
        problem = store.write(fake_record(5, "unsolvable"))
        assert "deal 5: stored solved" in problem and "now unsolvable" in problem
        assert store.stored(5).status == "solved"


def test_an_unknown_keeps_the_largest_budget_tried(tmp_path):
    with Store.open_for_run(tmp_path / "r.db", YUKON, "pysol") as store:
        store.write(record_of(9, "unknown", max_nodes=1_000_000, nodes=1_000_000, time_limit=None))
        store.write(record_of(9, "unknown", max_nodes=1_000, nodes=1_000, time_limit=None))
        kept = store.stored(9)
        assert (kept.max_nodes, kept.nodes) == (1_000_000, 1_000_000)
        store.write(record_of(9, "unknown", max_nodes=None, nodes=5, time_limit=10.0))
        kept = store.stored(9)
        assert (kept.max_nodes, kept.time_limit, kept.nodes) == (None, None, 5)


def test_runs_sharing_a_store_skip_each_others_claims_until_they_lapse(tmp_path):
    with Store.open_for_run(tmp_path / "r.db", YUKON, "pysol") as first:
        assert first.claim(5, "run-a", ("solved", "unsolvable")) == CLAIMED
        second = ClaimedDeals(first, iter([4, 5, 6]), ("solved", "unsolvable"), retry_seconds=0.0)
        assert [next(second), next(second), next(second)] == [4, 6, WAIT]
        first.write(fake_record(5, "unsolvable"))  # run A finishes deal 5: B drops it
        assert list(second) == []
        assert first.claim(5, "run-c", ("solved", "unsolvable")) == DONE
        assert first.claim(7, "run-a", ()) == CLAIMED
        assert first.claim(7, "run-c", ()) == BUSY
        first.renew_claims("run-a", seconds=-1.0)  # run A killed, its claims lapsed
        assert first.claim(7, "run-c", ()) == CLAIMED


def test_a_run_over_a_store_another_run_filled_solves_nothing_twice(tmp_path):
    path = tmp_path / "r.db"
    run_batch(range(1, 6), RUSSIAN, "pysol", path, NODES, jobs=1, progress=False)
    before = stored_rows(path)
    report = run_batch(range(1, 6), RUSSIAN, "pysol", path, NODES, jobs=1, retry_unknown=True, progress=False)
    assert report.to_do == 0 and stored_rows(path) == before


# ---- 2. node budgets beyond SQLite's integers -------------------------------------------------


def test_huge_max_nodes_is_refused_before_anything_is_solved(tmp_path):
    path = tmp_path / "r.db"
    assert_bad_input(run("solve", "1-3", "--out", str(path), "--max-nodes", str(2**63)))
    with pytest.raises(YukonError, match="max_nodes"):
        run_batch(range(1, 3), RUSSIAN, "pysol", path, Limits(max_nodes=2**63), jobs=1, progress=False)
    assert not path.exists()


# ---- 3. --jobs is capped by the deals and the cores ---------------------------------------------


def test_jobs_are_capped_by_the_deals_to_solve(tmp_path):
    import io

    stream = io.StringIO()
    report = run_batch(range(1, 4), RUSSIAN, "pysol", tmp_path / "r.db", NODES, jobs=500, stream=stream)
    assert report.done == 3
    workers = int(stream.getvalue().split(" with ")[1].split()[0])
    assert 1 <= workers <= 3


# ---- 4. bytes that are not UTF-8 ------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b"\x00\x01\xff\xfe binary",
        deal_board("yukon", 12).to_text().encode("utf-16"),
        b"# caf\xe9\n" + deal_board("yukon", 12).to_text().encode(),
    ],
    ids=["binary", "utf-16", "latin-1 comment"],
)
def test_board_file_that_is_not_utf8(tmp_path, data):
    path = tmp_path / "board.txt"
    path.write_bytes(data)
    result = run("solve", "--board", str(path))
    assert_bad_input(result)
    assert "UTF" in result.stderr
    assert_bad_input(run("solve", "--board", "-", input=data))


def test_a_byte_order_mark_is_dropped(tmp_path):
    path = tmp_path / "board.txt"
    path.write_bytes(b"\xef\xbb\xbf" + deal_board("yukon", 12).to_text().encode())
    result = run("replay", "--board", str(path), "1>F:AS")
    assert result.exit_code == 2 and "unknown card" not in result.stderr  # AS is not exposed: illegal


def test_verify_and_replay_of_bytes_that_are_not_utf8(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"\x80\x81\n")
    assert_bad_input(run("verify", str(path)))
    assert_bad_input(run("replay", "12", "-", input=b"\xff\xfe\x00"))


# ---- 5. deep JSON ---------------------------------------------------------------------------------


def test_deeply_nested_json_board_and_verify_line(tmp_path):
    deep = "[" * 100_000
    assert_bad_input(run("solve", "--board", "-", input="{" + '"columns":' + deep))
    path = tmp_path / "deep.jsonl"
    path.write_text(deep + "\n")
    assert_bad_input(run("verify", str(path)))


# ---- 6. numbers int() refuses -------------------------------------------------------------------


@pytest.mark.parametrize("text", ["²", "١٢", "5" * 5000, " 1 ", "1\u00a0"])
def test_odd_digits_as_deal_range_and_column(tmp_path, text):
    if text.strip().isascii() and text.strip().isdigit() and len(text) < 10:
        assert run("deal", text).exit_code == 0
        return
    assert_bad_input(run("deal", text))
    assert_bad_input(run("solve", text, "--out", str(tmp_path / "r.db")))
    assert_bad_input(run("replay", "12", f"{text}>F:AS"))
    assert len(run("deal", text).stderr) < MESSAGE_CHARS + 100
    assert not (tmp_path / "r.db").exists()


# ---- 7. output to a full disk ---------------------------------------------------------------------


def test_deal_to_a_full_device(tmp_path):
    """A full device made in a temporary folder (never the system's /dev/full)."""
    with open(device_node(tmp_path, 7), "w") as full:
        result = subprocess.run([YUKON_CLI, "deal", "12"], stdout=full, stderr=subprocess.PIPE, text=True)
    assert result.returncode == 2
    assert result.stderr.splitlines() == ["error: cannot write the output: No space left on device"]


def test_export_to_a_full_disk(yukon_store, tmp_path, monkeypatch):
    def full_disk(store, stream):
        stream.write("{}\n")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("solver.store.export.write_records", full_disk)
    result = run("export", str(yukon_store), "-o", str(tmp_path / "out.jsonl"))
    assert_bad_input(result)
    assert "No space left on device" in result.stderr
    assert list(tmp_path.iterdir()) == []


# ---- 8. read-only stores --------------------------------------------------------------------------


def test_read_only_store_is_read_and_refused_for_runs(yukon_store, tmp_path, monkeypatch):
    path = copy_store(yukon_store, tmp_path)
    before = snapshot(tmp_path)
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda place, mode: mode != os.W_OK and real_access(place, mode))
    assert run("stats", str(path)).exit_code == 0
    exported = run("export", str(path))
    assert exported.exit_code == 0 and len(exported.stdout.splitlines()) == 7
    result = run("solve", "1-3", "--out", str(path), "--max-nodes", "1000")
    assert_bad_input(result)
    assert "read-only" in result.stderr
    assert snapshot(tmp_path) == before


# ---- 9. Dask spreads few deals and hands back each deal as it is done --------------------------


def worker_pid_record(deal, rules, numbering, limits):
    """A made-up unknown record naming the process that made it (for the Dask test)."""
    import time

    from solver.runs.deal_record import failure_record

    time.sleep(1.0)  # long enough that the other worker takes the next deal
    return failure_record(deal, rules, numbering, limits, f"pid {os.getpid()}", board_text="")


def test_dask_spreads_few_deals_over_every_worker(tmp_path):
    pytest.importorskip("distributed")
    path = tmp_path / "r.db"
    report = run_batch(
        range(1, 5),
        RUSSIAN,
        "pysol",
        path,
        NODES,
        jobs=2,
        dask="local",
        progress=False,
        solve_one=worker_pid_record,
    )
    assert report.done == 4
    assert len({row["reason"] for row in stored_rows(path)}) == 2


def test_a_failed_dask_connection_leaves_no_store(tmp_path, monkeypatch):
    pytest.importorskip("distributed")

    def refused(distributed, address, jobs, scratch=None):
        raise YukonError(f"cannot connect to the Dask scheduler at {address}: refused")

    monkeypatch.setattr("solver.runs.cluster.dask_client", refused)
    with pytest.raises(YukonError, match="cannot connect"):
        run_batch(range(1, 3), RUSSIAN, "pysol", tmp_path / "r.db", NODES, dask="tcp://nowhere:1")
    assert list(tmp_path.iterdir()) == []


# ---- 11. --time-limit inf -----------------------------------------------------------------------


def strict_json(text):
    def refuse(name):
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_infinite_time_limit_is_stored_as_no_limit(tmp_path):
    path = tmp_path / "r.db"
    result = run(
        "solve", "1-2", "--variant", "russian", "--out", str(path), "--time-limit", "inf", "--jobs", "1"
    )
    assert result.exit_code == 0
    assert strict_json(run("stats", str(path), "--json").stdout)["time_limits"] == [None]
    assert all(
        strict_json(line)["time_limit"] is None for line in run("export", str(path)).stdout.splitlines()
    )


# ---- 12. hand-edited stores --------------------------------------------------------------------


@pytest.mark.parametrize(
    "edit",
    [
        "UPDATE results SET deal = 'twelve' WHERE deal = 2",
        "UPDATE results SET solution = x'00ff' WHERE deal = 2",
        "UPDATE results SET seconds = 9e999 WHERE deal = 2",  # issue 27, item 8
        "UPDATE results SET time_limit = -9e999 WHERE deal = 3",
    ],
    ids=["text deal", "blob solution", "infinite seconds", "minus infinite time limit"],
)
def test_hand_edited_store_is_refused_untouched(yukon_store, tmp_path, edit):
    path = copy_store(yukon_store, tmp_path)
    connection = sqlite3.connect(path)
    connection.execute(edit)
    connection.commit()
    connection.close()
    before = snapshot(tmp_path)
    for args in (("stats", "--json", str(path)), ("export", str(path)), ("solve", "1-3", "--out", str(path))):
        result = run(*args)
        assert_bad_input(result)
        assert "is damaged" in result.stderr
    assert snapshot(tmp_path) == before


# ---- 13. verify reads every line and fails wrong records --------------------------------------


def test_verify_reports_illegal_records_around_an_unreadable_line(tmp_path):
    board = deal_board("russian", 1).to_text()
    good = {"variant": "russian", "foundation_return": False, "numbering": "pysol", "deal": 1, "board": board}
    lines = [
        json.dumps(good | {"status": "solved", "solution": "1>F:AS"}),
        "{not json",
        json.dumps(good | {"status": "SOLVED", "solution": ""}),
        json.dumps(good | {"status": ["solved"], "solution": ""}),
    ]
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n")
    report = verify_records(path.open("rb"), "r.jsonl")
    assert (report["illegal"], report["unreadable"]) == (3, 1)
    result = run("verify", str(path))
    assert result.exit_code == 2 and "line 1" in result.stderr and "line 3" in result.stderr
    assert result.stderr.splitlines()[-1].startswith("error: 1 unreadable line")


def test_verify_fails_an_unsolvable_record_whose_line_wins(tmp_path, yukon_store):
    solved = next(row for row in stored_rows(yukon_store) if row["status"] == "solved")
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(solved | {"status": "unsolvable"}) + "\n")
    result = run("verify", str(path))
    assert result.exit_code == 1 and "claims unsolvable, but its line wins" in result.stderr


# ---- 14. the smaller ones ---------------------------------------------------------------------


def test_usage_errors_are_one_line():
    assert_bad_input(run("solve", "12", "--bogus"))
    assert_bad_input(run("nosuchcommand"))


def test_export_files_follow_the_umask(yukon_store, tmp_path):
    previous = os.umask(0o022)
    try:
        assert run("export", str(yukon_store), "-o", str(tmp_path / "out.jsonl")).exit_code == 0
    finally:
        os.umask(previous)
    assert (tmp_path / "out.jsonl").stat().st_mode & 0o777 == 0o644


def test_memory_of_one_terabyte_is_accepted():
    assert parse_memory("1T") == 1 << 40


def test_a_huge_bad_token_is_cut_in_the_message():
    result = run("replay", "12", "x" * 1_000_000)
    assert_bad_input(result)
    assert len(result.stderr) < MESSAGE_CHARS + 100


def test_ctrl_c_anywhere_exits_130(monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("solver.cli.deals.deal_opening", interrupted)
    result = run("deal", "12")
    assert result.exit_code == 130 and "Aborted" not in result.output


def test_board_and_line_cannot_both_come_from_stdin():
    assert_bad_input(run("replay", "--board", "-", "-", input=deal_board("yukon", 12).to_text()))


def test_deal_number_with_spaces_is_accepted():
    assert run("deal", " 12 ").stdout == run("deal", "12").stdout


def test_json_foundation_height_true_is_refused():
    board = deal_board("yukon", 12).to_json() | {"foundations": {"S": [True], "H": [0], "D": [0], "C": [0]}}
    result = run("solve", "--board", "-", input=json.dumps(board))
    assert_bad_input(result)
    assert "foundation height True" in result.stderr


def test_verify_shows_progress(tmp_path, capsys, yukon_store):
    path = tmp_path / "r.jsonl"
    path.write_text(run("export", str(yukon_store)).stdout)
    with path.open("rb") as results, pytest.raises(SystemExit) as exited:
        results_commands.report_verified(results, as_json=False, progress_seconds=0.0)
    assert exited.value.code == 0 and f"verify: 7 lines of file {path} read" in capsys.readouterr().err


# ==== Issue 27, hostile input, third pass =========================================================

SHIPPED = shipped_directory()
ENTRY_DAY = "2026-12-01"


def small_catalogue(directory: Path, count: int = 2) -> Path:
    """``directory`` holding a russian easy catalogue of the shipped one's first ``count``
    entries, and its manifest."""
    catalogue = read_catalogue(SHIPPED / "russian-easy.json")
    save_catalogue(directory, catalogue | {"entries": catalogue["entries"][:count]})
    return directory


def catalogue_commands(directory: Path) -> dict[str, tuple[str, ...]]:
    """The commands that read a catalogue folder (deal 1 is in no catalogue: check reads all)."""
    folder = str(directory)
    return {
        "verify": ("catalogue", "verify", folder),
        "daily": ("daily", "--variant", "russian", "--dir", folder, "--date", ENTRY_DAY),
        "check": ("check", "1", "--variant", "russian", "--dir", folder),
    }


def rewrite_catalogue(directory: Path, change) -> None:
    """Replace the russian easy file by ``change(its JSON text)`` and refresh its checksum."""
    path = directory / "russian-easy.json"
    path.write_text(change(path.read_text()))
    manifest = json.loads((directory / "manifest.json").read_text())
    manifest["files"][0]["sha256"] = checksum(path)
    (directory / "manifest.json").write_text(json.dumps(manifest))


def manifest_record_is_a_number(directory):
    manifest = json.loads((directory / "manifest.json").read_text())
    (directory / "manifest.json").write_text(json.dumps(manifest | {"files": [1, *manifest["files"]]}))


def manifest_count_of_5000_digits(directory):
    text = (directory / "manifest.json").read_text()
    (directory / "manifest.json").write_text(text.replace('"count": 2', '"count": ' + "5" * 5000))


def manifest_nested_deep(directory):
    (directory / "manifest.json").write_text(
        '{"format": "yukon-catalogue-manifest", "files": ' + "[" * 100_000
    )


def manifest_is_a_fifo(directory):
    (directory / "manifest.json").unlink()
    os.mkfifo(directory / "manifest.json")


def entry_is_a_number(directory):
    rewrite_catalogue(directory, lambda text: text.replace('"entries": [', '"entries": [7, ', 1))


def entry_deal_of_5000_digits(directory):
    rewrite_catalogue(directory, lambda text: text.replace('"deal": 33', '"deal": ' + "3" * 5000, 1))


def entry_nested_deep(directory):
    rewrite_catalogue(directory, lambda text: text.replace('"entries": [', '"entries": [' + "[" * 100_000, 1))


def catalogue_is_a_fifo(directory):
    (directory / "russian-easy.json").unlink()
    os.mkfifo(directory / "russian-easy.json")


def catalogue_links_to_a_fifo(directory):
    (directory / "russian-easy.json").unlink()
    os.mkfifo(directory / "pipe")
    (directory / "russian-easy.json").symlink_to(directory / "pipe")


@pytest.mark.parametrize(
    "damage",
    [
        manifest_record_is_a_number,
        manifest_count_of_5000_digits,
        manifest_nested_deep,
        manifest_is_a_fifo,
        entry_is_a_number,
        entry_deal_of_5000_digits,
        entry_nested_deep,
        catalogue_is_a_fifo,
        catalogue_links_to_a_fifo,
    ],
)
def test_a_damaged_catalogue_folder_is_one_line_in_every_command(tmp_path, damage):
    damage(small_catalogue(tmp_path))
    commands = catalogue_commands(tmp_path)
    verified = run(*commands["verify"])
    assert verified.exit_code == 1
    assert verified.stderr.splitlines()[0].startswith(str(tmp_path))
    assert_bad_input(run(*commands["daily"]))
    assert_bad_input(run(*commands["check"]))


@pytest.mark.parametrize("name", ["ABSOLUTE", "../elsewhere/russian-easy.json", "russian-hard.json"])
def test_a_manifest_names_only_its_own_tiers_file_in_its_folder(tmp_path, name):
    elsewhere = small_catalogue(tmp_path / "elsewhere")
    folder = tmp_path / "folder"
    folder.mkdir()
    manifest = json.loads((elsewhere / "manifest.json").read_text())
    manifest["files"][0]["file"] = str(elsewhere / "russian-easy.json") if name == "ABSOLUTE" else name
    (folder / "manifest.json").write_text(json.dumps(manifest))
    (folder / "russian-hard.json").write_bytes((elsewhere / "russian-easy.json").read_bytes())
    result = run("catalogue", "verify", str(folder))
    assert result.exit_code == 1
    assert f"{folder / 'manifest.json'}: record 1 names file" in result.stderr
    assert "not 'russian-easy.json'" in result.stderr


def a_comment_with_escapes(board):
    return "# \x1b[2J\x1b[31mdeal of the day\x1b[0m\n" + board


@pytest.mark.parametrize(
    "respell",
    [
        a_comment_with_escapes,
        str.lower,
        lambda board: board.replace("T", "10"),
        lambda board: board.replace(" ", "\t"),
        lambda board: board.replace("\n", "\r\n"),
    ],
    ids=["escapes", "lowercase", "10", "tabs", "crlf"],
)
def test_catalogue_boards_are_the_canonical_text_of_their_deal(tmp_path, respell):
    directory = small_catalogue(tmp_path)
    catalogue = read_catalogue(directory / "russian-easy.json")
    for entry in catalogue["entries"]:
        entry["board"] = respell(entry["board"])
    save_catalogue(directory, catalogue)
    commands = catalogue_commands(directory)
    verified = run(*commands["verify"])
    assert verified.exit_code == 1
    assert verified.stderr.count("board is not pysol deal") == 2
    daily = run(*commands["daily"])
    assert_bad_input(daily)
    assert "refusing to serve it" in daily.stderr and "\x1b" not in daily.stderr


def test_a_small_catalogue_verifies_and_serves(tmp_path):
    commands = catalogue_commands(small_catalogue(tmp_path))
    assert run(*commands["verify"]).stdout == "1 files, 2 entries, 0 problems\n"
    assert run(*commands["daily"]).exit_code == 0


class EndlessZeros(io.RawIOBase):
    """An input that never ends, like a device of zeros; reading more than ``bound`` bytes
    of it is the bug (rather than running out of memory)."""

    def __init__(self, bound: int):
        self.bound, self.served = bound, 0

    def readable(self):
        return True

    def readinto(self, buffer):
        assert self.served <= self.bound, "read without bound"
        buffer[:] = bytes(len(buffer))
        self.served += len(buffer)
        return len(buffer)


def test_an_endless_board_file_is_refused_after_a_bounded_read():
    result = run("solve", "--board", "-", input=io.BufferedReader(EndlessZeros(4 * MAX_BOARD_BYTES)))
    assert_bad_input(result)
    assert "standard input holds more than 1 MiB: not a board" in result.stderr


def test_an_endless_results_file_is_refused_after_a_bounded_read():
    result = run("verify", "-", input=io.BufferedReader(EndlessZeros(4 * MAX_LINE_CHARS)))
    assert_bad_input(result)
    assert "standard input line 1 is longer than 16 MiB" in result.stderr


def test_a_results_line_under_the_cap_is_read_whole(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"padding": "x" * (MAX_LINE_CHARS - 100)}) + "\n" + "{}\n")
    result = run("verify", str(path))
    assert result.exit_code == 2 and "line 1: missing field" in result.stderr


def test_verify_fails_an_unsolvable_record_whose_line_wins_before_a_junk_token(tmp_path, yukon_store):
    solved = next(row for row in stored_rows(yukon_store) if row["status"] == "solved")
    path = tmp_path / "r.jsonl"
    lines = [
        solved | {"status": "unsolvable", "solution": solved["solution"] + junk} for junk in (" x", " 1>2")
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = run("verify", str(path))
    assert result.exit_code == 1
    assert result.stderr.count("claims unsolvable, but its line wins") == 2


class FullDiskOutput(io.TextIOBase):
    """An output on a full disk."""

    def write(self, text):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_stdout_and_stderr_both_on_a_full_disk_exit_2(monkeypatch):
    monkeypatch.setattr(sys, "stdout", FullDiskOutput())
    monkeypatch.setattr(sys, "stderr", FullDiskOutput())
    with pytest.raises(SystemExit) as leaving:
        main(["deal", "12"])
    assert leaving.value.code == 2


def close_outputs():
    os.close(1)
    os.close(2)


@pytest.mark.parametrize("arguments", [["deal", "12"], ["deal", "twelve"]])
def test_stdout_and_stderr_both_closed_exit_2(arguments):
    assert subprocess.run([YUKON_CLI, *arguments], preexec_fn=close_outputs).returncode == 2


# ==== Issue 27, the third pass: the store, export and runs ========================================

# ---- 2. an export never replaces a store ----------------------------------------------------------


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
def test_export_onto_the_store_or_its_journal_is_refused(yukon_store, tmp_path, suffix):
    path = copy_store(yukon_store, tmp_path)
    before = snapshot(tmp_path)
    assert_bad_input(run("export", str(path), "-o", f"{path}{suffix}"))
    assert snapshot(tmp_path) == before


def test_export_onto_another_sqlite_file_or_through_a_link_to_the_store_is_refused(yukon_store, tmp_path):
    path = copy_store(yukon_store, tmp_path)
    other = tmp_path / "other.db"
    other.write_bytes(path.read_bytes())
    (tmp_path / "link.jsonl").symlink_to(path)
    before = snapshot(tmp_path)
    assert_bad_input(run("export", str(path), "-o", str(other)))
    assert_bad_input(run("export", str(path), "-o", str(tmp_path / "link.jsonl")))
    assert snapshot(tmp_path) == before


# ---- 1. export targets that are not regular files -------------------------------------------------


def export_lines(store, target) -> list[str]:
    result = run("export", str(store), "-o", str(target))
    assert result.exit_code == 0, result.stderr
    return result.stderr.splitlines()


def test_export_through_a_symlink_writes_the_file_it_names(yukon_store, tmp_path):
    real = tmp_path / "real.jsonl"
    real.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    export_lines(yukon_store, link)
    assert link.is_symlink() and len(real.read_text().splitlines()) == 7


def test_export_into_a_fifo_reaches_its_reader(yukon_store, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.extend(fifo.read_text().splitlines()), daemon=True)
    reader.start()
    export_lines(yukon_store, fifo)
    assert stat.S_ISFIFO(fifo.stat().st_mode)  # else the reader waits for ever: never joined
    reader.join()
    assert [json.loads(line) for line in received] == stored_rows(yukon_store)


def device_node(directory, minor: int) -> Path:
    """A character device of the memory driver (major 1: minor 3 discards, 7 is always full)
    made in ``directory``; skipped where this process may not make one."""
    node = directory / f"device{minor}"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    except PermissionError:
        pytest.skip("making a device node needs root (or CAP_MKNOD)")
    return node


def test_export_into_a_device_writes_into_it_and_leaves_it_a_device(yukon_store, tmp_path):
    null = device_node(tmp_path, 3)
    assert export_lines(yukon_store, null) == [f"7 records written to {null}"]
    assert stat.S_ISCHR(null.stat().st_mode)


def test_export_into_a_full_device_is_an_error(yukon_store, tmp_path):
    full = device_node(tmp_path, 7)
    result = run("export", str(yukon_store), "-o", str(full))
    assert_bad_input(result)
    assert "No space left on device" in result.stderr
    assert stat.S_ISCHR(full.stat().st_mode)


# ---- 8. numbers too large for the store ----------------------------------------------------------


@pytest.mark.parametrize("command", [["play", "1", "--policy", "greedy"], ["rate", "1"]])
@pytest.mark.parametrize("runs", [2**63, 1_000_001])
def test_runs_beyond_what_a_series_may_play_are_refused_before_the_store(tmp_path, command, runs):
    result = run(*command, "--runs", str(runs), "--out", str(tmp_path / "r.db"))
    assert_bad_input(result)
    assert "--runs must be at most 1,000,000" in result.stderr
    assert list(tmp_path.iterdir()) == []


# ---- 7. paths that are not UTF-8 --------------------------------------------------------------------


def test_store_commands_work_in_a_folder_and_on_names_that_are_not_utf8(tmp_path, monkeypatch):
    folder = tmp_path / os.fsdecode(b"\xfe")
    folder.mkdir()
    monkeypatch.chdir(folder)
    store = os.fsdecode(b"\xff.db")
    assert run("solve", "1-2", "--max-nodes", "1000", "--jobs", "1", "--out", store).exit_code == 0
    assert run("stats", store).exit_code == 0
    assert run("export", store, "-o", os.fsdecode(b"\xff.jsonl")).exit_code == 0
    assert len((folder / os.fsdecode(b"\xff.jsonl")).read_text().splitlines()) == 2


# ---- 3. a read-only store whose journal holds results ---------------------------------------------


def archived_after_a_kill(directory) -> Path:
    """A store of 7 results, 3 in the file and 4 only in its journal (as a killed run leaves
    it), copied into ``directory/archive``."""
    path = directory / "r.db"
    with Store.open_for_run(path, YUKON, "pysol") as store:
        store.write_many(fake_record(deal, "unsolvable") for deal in (1, 2, 3))
    archive = directory / "archive"
    archive.mkdir()
    with Store.open_for_run(path, YUKON, "pysol") as store:
        store.write_many(fake_record(deal, "unsolvable") for deal in (4, 5, 6, 7))
        for name in ("r.db", "r.db-wal"):
            (archive / name).write_bytes((directory / name).read_bytes())
    return archive / "r.db"


def test_a_read_only_store_whose_journal_holds_results_is_refused(tmp_path, monkeypatch):
    path = archived_after_a_kill(tmp_path)
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda place, mode: mode != os.W_OK and real_access(place, mode))
    for args in (("stats", str(path)), ("export", str(path))):
        result = run(*args)
        assert_bad_input(result)
        assert "journal" in result.stderr and "writable copy" in result.stderr
    monkeypatch.undo()
    assert len(stored_rows(path)) == 7  # writable, it is read with its journal


# ---- 10. runs retrying unknowns share them -------------------------------------------------------


def test_a_retrying_run_leaves_an_unknown_another_run_retried_with_at_least_its_budget(tmp_path):
    retrying = ("solved", "unsolvable")
    with Store.open_for_run(tmp_path / "r.db", YUKON, "pysol") as store:
        store.write_many(
            record_of(deal, "unknown", 100, max_nodes=100, time_limit=None) for deal in (4, 5, 6)
        )
        retry = Retry(now_text(), 1000, None)
        assert store.claim(4, "run-b", retrying, retry) == CLAIMED  # tried before this run began
        for deal, max_nodes in ((5, 1000), (6, 999)):  # run A retries 5 and 6 meanwhile
            store.write(replace(record_of(deal, "unknown", 10, max_nodes, None), finished_at=now_text()))
        assert store.claim(5, "run-b", retrying, retry) == DONE
        assert store.claim(6, "run-b", retrying, retry) == CLAIMED  # with less than B's budget


# ---- 18. the line of a stopped run; stores that are not regular files --------------------------


def test_a_stopped_run_does_not_repeat_a_huge_command():
    report = RunReport("r.db", in_range=20_000, skipped=0, to_do=20_000)
    deals = ",".join(str(deal) for deal in range(1, 20_001, 2))
    huge = stopped_line(report, f"yukon solve {deals} --out r.db")
    assert huge.endswith("run the same command again to resume") and len(huge) < 200
    assert stopped_line(report, "yukon solve 1-20000 --out r.db").endswith(": yukon solve 1-20000 --out r.db")


def test_a_stopped_run_counts_one_result_and_one_deal_in_the_singular():
    one_each = RunReport("r.db", in_range=2, skipped=0, to_do=2, counts=Counter(solved=1))
    assert stopped_line(one_each, None).startswith("stopped: 1 new result saved in r.db, 1 deal left; ")
    three_each = RunReport("r.db", in_range=6, skipped=0, to_do=6, counts=Counter(solved=2, unknown=1))
    assert stopped_line(three_each, None).startswith("stopped: 3 new results saved in r.db, 3 deals left; ")


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_store_that_is_not_a_regular_file_is_refused_leaving_nothing_beside_it(tmp_path, kind):
    if kind == "fifo":
        target = tmp_path / "pipe"
        os.mkfifo(target)
    else:
        target = device_node(tmp_path, 3)
    result = run("solve", "1", "--max-nodes", "1000", "--out", str(target))
    assert_bad_input(result)
    assert "not a regular file" in result.stderr
    assert [path.name for path in tmp_path.iterdir()] == [target.name]
