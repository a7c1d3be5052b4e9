"""Issue 53's cases on the command line (resources, signals and statuses, closed pipes, boards,
output read back), each as the hostile pass ran it, in a temporary folder."""

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from test_cli import assert_bad_input, run, yukon_command

from solver.cli.terminal import paint
from solver.engine import table
from solver.errors import YukonError
from solver.game.board import Board, read_board
from solver.game.cards import KING, make_card
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.search import solve

YUKON_HARD = 28927  # unknown after minutes, its table growing all the while


@pytest.fixture
def no_memory_to_grow(monkeypatch):
    """The process can get no memory for a table larger than a search's first (as under
    ``ulimit -v``, where numpy raised MemoryError through the command)."""
    real_make_table = table.make_table

    def make_table(capacity):
        if capacity > solve.FIRST_TABLE_SLOTS:
            raise MemoryError(f"Unable to allocate {capacity * table.ENTRY_BYTES} bytes")
        return real_make_table(capacity)

    monkeypatch.setattr(table, "make_table", make_table)


@pytest.mark.parametrize("as_json", [False, True])
def test_a_table_that_cannot_grow_is_an_unknown_verdict_naming_memory(no_memory_to_grow, as_json):
    result = run("solve", str(YUKON_HARD), "--memory", "1T", "--time-limit", "inf", *(["--json"] * as_json))
    assert result.exit_code == 3
    if as_json:
        record = json.loads(result.stdout)
        assert (record["status"], record["budget"]) == ("unknown", "memory")
    else:
        assert "verdict: unknown (memory ran out)" in result.stdout
        assert "more memory for the process" in result.stdout


def test_a_range_and_check_solve_tell_memory_too(no_memory_to_grow):
    streamed = run("solve", f"{YUKON_HARD}-{YUKON_HARD + 1}", "--time-limit", "inf")
    records = [json.loads(line) for line in streamed.stdout.splitlines()]
    assert streamed.exit_code == 0 and [record["deal"] for record in records] == [YUKON_HARD, YUKON_HARD + 1]
    assert all(record["budget"] == "memory" for record in records if record["status"] == "unknown")
    checked = run("check", str(YUKON_HARD), "--solve")
    assert checked.exit_code == 3 and "Traceback" not in checked.output


def test_memory_exhausted_outside_a_search_is_one_error_line(monkeypatch):
    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(solve, "solve_position", exhausted)
    result = run("solve", "12")
    assert result.exit_code == 2 and result.stderr.startswith("error: the process ran out of memory")
    assert len(result.stderr.splitlines()) == 1


def test_replay_without_a_line_is_bad_input():
    assert_bad_input(run("replay", "12"))


def test_replay_refuses_an_endless_line_on_stdin():
    result = run("replay", "12", "-", input="\0" * ((16 << 20) + 1))
    assert_bad_input(result)
    assert "more than 16 MiB" in result.stderr


def test_verify_stops_on_random_bytes(tmp_path):
    noise = tmp_path / "noise.bin"
    noise.write_bytes(random.Random(53).randbytes(2 << 20))
    result = run("verify", str(noise))
    assert_bad_input(result)
    assert "more than 1,000 unreadable lines" in result.stderr and "not a results file" in result.stderr


def test_verify_stops_on_endless_blank_lines():
    result = run("verify", "-", input="\n" * 100_000)
    assert_bad_input(result)
    assert "more than 1,000 blank lines in a row" in result.stderr


def test_verify_json_prints_its_report_with_an_unreadable_line(tmp_path):
    good = run("solve", "1-2", "--variant", "russian").stdout
    results = tmp_path / "results.jsonl"
    results.write_text(good + "not json\n")
    result = run("verify", str(results), "--json")
    report = json.loads(result.stdout)
    assert result.exit_code == 2 and result.stderr.startswith("error: 1 unreadable line ")
    assert (report["good"] + report["unverifiable"], report["unreadable"]) == (2, 1)
    assert report["first_unreadable"].endswith("line 3: not JSON (Expecting value)")


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "12", "--memory", "١G"],
        ["solve", "12", "--time-limit", "١٠"],
        ["solve", "12", "--max-nodes", "١٠٠"],
        ["hint", "12", "--samples", "١٠"],
        ["solve", "1-3", "--out", "r.db", "--jobs", "٢"],
    ],
)
def test_numbers_take_the_digits_0_to_9_only(args):
    result = run(*args)
    assert_bad_input(result)
    assert "0-9" in result.stderr


# --- signals ---------------------------------------------------------------------------------

# Presses Ctrl-C twice at once (as a hurried user does, 50 ms apart or less) as soon as the
# search watches the command's Ctrl-C: no timing, the thread waits for the search to start.
TWO_CTRL_C = f"""
import os, signal, sys, threading, time
from solver.cli import main

def press_twice():
    while not getattr(getattr(signal.getsignal(signal.SIGINT), "__self__", None), "watchers", 0):
        time.sleep(0.01)
    os.kill(os.getpid(), signal.SIGINT)
    os.kill(os.getpid(), signal.SIGINT)

threading.Thread(target=press_twice, daemon=True).start()
sys.argv = ["yukon", "solve", "{YUKON_HARD}", "--time-limit", "inf"]
main()
"""


def test_two_quick_ctrl_c_end_a_solve_with_130():
    done = subprocess.run([sys.executable, "-c", TWO_CTRL_C], capture_output=True, text=True, timeout=300)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr


def test_a_closed_terminal_stops_a_run_with_its_stop_line(tmp_path):
    store = tmp_path / "runs.db"
    command = [*yukon_command(), "solve", "1-3000", "--out", str(store), "--jobs", "1", "--time-limit", "5"]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    while stored_rows(store) < 2:  # a deal or two done: the run is under way
        assert process.poll() is None
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGHUP)
    _out, err = process.communicate(timeout=300)
    assert process.returncode == 129, err
    assert "stopped: " in err.decode() and "run the same command again to resume" in err.decode()
    assert stored_rows(store) >= 2


def stored_rows(store) -> int:
    try:
        with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as connection:
            return connection.execute("select count(*) from results").fetchone()[0]
    except sqlite3.Error:
        return 0


# --- a closed pipe -----------------------------------------------------------------------------


def run_into_a_closed_pipe(args, cwd):
    """The command with its standard output a pipe whose reader has left (``| true``)."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run(
            [*yukon_command(), *args], stdout=writer, stderr=subprocess.PIPE, cwd=cwd, timeout=300
        )
    finally:
        os.close(writer)


def test_a_closed_pipe_gives_its_own_status_never_a_verdicts(tmp_path):
    line = json.loads(run("solve", "12", "--json").stdout)["solution"]
    (tmp_path / "good.jsonl").write_text(run("solve", "1-2", "--variant", "russian").stdout)
    for args in (["solve", "12"], ["verify", "good.jsonl"], ["replay", "12", line, "--show"]):
        done = run_into_a_closed_pipe(args, tmp_path)
        assert done.returncode == 141, (args, done.stderr)
        assert b"Traceback" not in done.stderr


# --- boards ------------------------------------------------------------------------------------


def test_an_unknown_stock_is_refused_where_there_is_no_stock(tmp_path):
    board = tmp_path / "board.txt"
    board.write_text(deal_board("yukon", 12).to_text() + "Stock: ?\n")
    result = run("solve", "--board", str(board))
    assert_bad_input(result)
    assert "yukon has no stock" in result.stderr


@pytest.mark.parametrize(
    ("counts", "heights", "named"),
    [
        ((-1, 1, 2, 3, 4, 5, 6), (0, 0, 0, 0), "column 1 has -1 face-down cards"),
        ((0, 1, 2, 3, 4, 5, 60), (0, 0, 0, 0), "column 7 has 60 face-down cards"),
        ((0, 1, 2), (0, 0, 0, 0), "3 face-down counts for 7 columns"),
        ((0, 1, 2, 3, 4, 5, 6), (0, 0, 14, 0), "a foundation height is 14"),
    ],
)
def test_a_forged_board_is_refused_as_it_is_made(counts, heights, named):
    columns = deal_board("yukon", 12).columns
    with pytest.raises(YukonError, match=named):
        Board(columns, counts, heights)


# --- what is printed is read ---------------------------------------------------------------------


def test_a_line_and_a_board_copied_from_a_terminal_are_read(tmp_path):
    painted = run("solve", "12", "--color", "always").stdout
    line = next(text for text in painted.splitlines() if text.startswith("line: "))[len("line: ") :]
    assert "♣" in line and "\x1b[" in line
    replayed = run("replay", "12", line, "--color", "never")
    assert replayed.exit_code == 0 and replayed.stdout.endswith("all legal; won\n")
    board = tmp_path / "board.txt"
    board.write_text(paint(deal_board("yukon", 12).to_text()))
    assert "♠" in board.read_text()
    assert run("solve", "--board", str(board), "--json").exit_code == 0
    assert run("hint", "--board", str(board), "--policy", "greedy").exit_code == 0


def test_a_line_of_one_move_is_told_in_the_singular(tmp_path):
    assert run("replay", "12", "2>F:A♣").stdout == "1 move, all legal; not won\n"
    one_move_left = Board(((),) * 6 + ((make_card(KING, 0),),), (0,) * 7, (12, 13, 13, 13))
    board = tmp_path / "board.txt"
    board.write_text(one_move_left.to_text())
    told = run("solve", "--board", str(board)).stdout
    assert "solution: 1 move (" in told and "effort: 1 node, " in told and told.endswith(" 1 table entry\n")


def test_a_json_board_with_suit_symbols_escaped_is_read():
    board = deal_board("yukon", 12)
    escaped = json.dumps(board.to_json()).replace('S"', '\\u2660"').replace('H"', '\\u2665"')
    assert "\\u2660" in escaped
    assert read_board(escaped, Rules()) == board


def test_a_move_copied_from_a_terminal_is_read_after():
    plain = run("hint", "12", "--after", "2>F:AC", "--policy", "greedy")
    for copied in ("2>F:A♣", "2>F:A♣\ufe0f", "2>F:A\x1b[1m♣\x1b[0m"):
        assert run("hint", "12", "--after", copied, "--policy", "greedy").stdout == plain.stdout


# --- a new pass: line endings, paths, encodings ---------------------------------------------


def test_boards_lines_and_results_with_windows_line_ends_are_read(tmp_path):
    board = tmp_path / "board.txt"
    board.write_bytes(deal_board("yukon", 12).to_text().replace("\n", "\r\n").encode())
    assert run("solve", "--board", str(board), "--json").exit_code == 0
    line = json.loads(run("solve", "12", "--json").stdout)["solution"]
    replayed = run("replay", "12", "-", input="\ufeff" + line + "\r\n")
    assert replayed.exit_code == 0 and replayed.stdout.endswith("won\n")
    results = tmp_path / "results.jsonl"
    results.write_text(run("solve", "1-2", "--variant", "russian").stdout.replace("\n", "\r\n"))
    assert run("verify", str(results)).exit_code == 0


def test_a_board_with_no_break_spaces_and_a_painted_milligan_board_are_read(tmp_path):
    board = tmp_path / "board.txt"
    board.write_text(deal_board("yukon", 12).to_text().replace(" ", "\u00a0"))
    assert run("solve", "--board", str(board), "--json").exit_code == 0
    milligan = deal_board("milligan", 3)
    board.write_text(paint(milligan.to_text()))
    assert "Stock: " in board.read_text() and "♠" in board.read_text()
    dealt = run("replay", "--board", str(board), "--variant", "milligan", "S", "--show")
    assert (
        dealt.exit_code == 1
        and f"Stock: {' '.join(milligan.to_text().split('Stock: ')[1].split()[8:])}" in dealt.stdout
    )


def test_a_file_name_with_a_line_break_stays_on_the_error_line(tmp_path):
    result = run("solve", "--board", str(tmp_path / "no\nsuch.txt"))
    assert_bad_input(result)
    assert "no\\nsuch.txt" in result.stderr


def test_an_ascii_terminal_gets_letters_and_its_symbols_are_read(tmp_path):
    """PYTHONIOENCODING=ascii, LANG=C: painted output falls back to letters, and a move typed
    with a suit symbol (the C locale reads arguments as UTF-8) is read."""
    environment = os.environ | {"PYTHONIOENCODING": "ascii", "LANG": "C", "LC_ALL": "C"}
    painted = subprocess.run(
        [*yukon_command(), "deal", "12", "--color", "always"],
        capture_output=True,
        env=environment,
        timeout=120,
    )
    assert painted.returncode == 0 and b"\x1b[1m5S\x1b[0m" in painted.stdout and painted.stdout.isascii()
    hint = subprocess.run(
        [*yukon_command(), "hint", "12", "--after", "2>F:A♣", "--policy", "greedy"],
        capture_output=True,
        env=environment,
        timeout=120,
    )
    assert hint.returncode == 0, hint.stderr
