"""The player's commands through the CLI: hint answers and refusals, play, rate and stats."""

import io
import json
import re
import sqlite3

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.cli.player import HintProgress
from solver.game import reference
from solver.game.notation import parse_token
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.player.hint import hint

YUKON = Rules("yukon")
WON_BOARD = "\n".join(["-"] * 7 + ["Foundations: S-K H-K D-K C-K"])


def run(*args, stdin=None):
    return CliRunner().invoke(main, [str(arg) for arg in args], input=stdin, prog_name="yukon")


def stuck_board_text() -> str:
    """Russian deal 2 after always playing the first legal move until none is left."""
    board, rules = deal_board("russian", 2), Rules("russian")
    while moves := reference.legal_moves(board, rules):
        board = reference.apply_move(board, moves[0], rules)
    return board.to_text()


# ---- hint ------------------------------------------------------------------------------------


def test_hint_prints_a_legal_move_with_its_confidence_and_reason():
    result = run("hint", 12, "--samples", 4, "--max-nodes", 3000, "--seed", 1)
    assert result.exit_code == 0, result.output
    token, rest = result.stdout.strip().split(" ", 1)
    reference.check_move(deal_board("yukon", 12), parse_token(token, deal_board("yukon", 12)), YUKON)
    assert re.search(r"\(\d of 4 samples won \(95% interval \d+%-\d+%\)", rest), rest


def test_hint_after_moves_and_from_a_board_as_json():
    first = json.loads(run("hint", 12, "--policy", "greedy", "--json").stdout)
    assert first["confidence"] is None and first["reason"] and first["policy"] == "greedy"
    after = run("hint", 12, "--policy", "greedy", "--after", first["move"], "--json")
    board = reference.replay(
        deal_board("yukon", 12), [parse_token(first["move"], deal_board("yukon", 12))], YUKON
    )
    from_board = run(
        "hint",
        "--board",
        "-",
        "--history",
        first["move"],
        "--policy",
        "greedy",
        "--json",
        stdin=board.to_text(),
    )
    assert after.exit_code == from_board.exit_code == 0
    assert json.loads(after.stdout) == json.loads(from_board.stdout)


@pytest.mark.parametrize(
    "args, stdin, message",
    [
        ([12, "--history", "1>F:AS"], None, "error: --history goes with --board"),
        ([12, "--after", "1>F:AS 9>2:KH"], None, "error: --after: move 1 1>F:AS"),
        ([12, "--policy", "oracle"], None, "error: unknown policy 'oracle'"),
        ([12, "--samples", 0], None, "error: expert setting samples must be a positive integer, not 0"),
        (
            [12, "--samples", 10**8],
            None,
            "error: expert setting samples must be at most 1,000, not 100,000,000",
        ),
        (
            [12, "--policy", "sampling", "--samples", 1001],
            None,
            "error: sampling setting samples must be at most 1,000, not 1,001",
        ),
        ([12, "--seed", -1], None, "error: --seed must be a whole number"),
        ([], None, "error: give a deal number or --board FILE"),
    ],
)
def test_hint_refuses_bad_input_in_one_line(args, stdin, message):
    result = run("hint", *args, stdin=stdin)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


@pytest.mark.parametrize("form", ["text", "json"])
def test_hint_takes_a_board_with_unknown_cards(form):
    board = deal_board("yukon", 12)
    unknown = board.to_json() | {
        "columns": [
            {"face_down": ["?"] * len(column["face_down"]), "face_up": column["face_up"]}
            for column in board.to_json()["columns"]
        ]
    }
    text = (
        json.dumps(unknown)
        if form == "json"
        else "".join(
            " ".join(["<?>"] * len(column["face_down"]) + column["face_up"]) + "\n"
            for column in unknown["columns"]
        )
    )
    args = ("hint", "--board", "-", "--policy", "sampling", "--samples", 3, "--max-nodes", 2000, "--json")
    with_unknown = run(*args, stdin=text)
    assert with_unknown.exit_code == 0, with_unknown.output
    assert json.loads(with_unknown.stdout) == json.loads(run(*args, stdin=board.to_text()).stdout)
    assert json.loads(with_unknown.stdout)["sampled"]["samples"] == 3


@pytest.mark.parametrize("policy", ["greedy", "sampling", "expert"])
@pytest.mark.parametrize(
    "board, variant, status, exit_code",
    [(WON_BOARD, "yukon", "won", 5), (stuck_board_text(), "russian", "lost", 1)],
)
def test_hint_reports_a_won_and_a_lost_position_with_their_statuses(
    policy, board, variant, status, exit_code
):
    as_json = run("hint", "--board", "-", "--variant", variant, "--policy", policy, "--json", stdin=board)
    assert as_json.exit_code == exit_code and as_json.stderr == ""
    assert json.loads(as_json.stdout) | {"reason": ""} == {
        "format": "yukon-hint",
        "format_version": 1,
        "status": status,
        "move": None,
        "confidence": None,
        "sampled": None,
        "reason": "",
        "policy": policy,
        "seed": 0,
    }
    as_text = run("hint", "--board", "-", "--variant", variant, "--policy", policy, stdin=board)
    assert as_text.exit_code == exit_code and status in as_text.stdout


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_long_hint_shows_its_progress_on_a_terminal_only():
    shown, hidden = Terminal(), io.StringIO()
    for stream in (shown, hidden):
        hint(deal_board("yukon", 12), YUKON, "sampling", progress=HintProgress(stream, after=0), samples=3)
    lines = [f"\rhint: {done} of 3 sampled deals solved" for done in (1, 2, 3)]
    assert shown.getvalue() == "".join(lines) + "\n"
    assert hidden.getvalue() == ""


def test_hint_after_names_the_illegal_move_and_its_index():
    first = json.loads(run("hint", 12, "--policy", "greedy", "--json").stdout)["move"]
    result = run("hint", 12, "--after", f"{first} 7>1:AS")
    assert result.exit_code == 2 and result.stderr.startswith("error: --after: move 2 7>1:AS")


# ---- play, rate, stats -----------------------------------------------------------------------


def table_rows(path, table) -> list[tuple]:
    connection = sqlite3.connect(path)
    try:
        return connection.execute(f"SELECT * FROM {table}").fetchall()
    finally:
        connection.close()


def test_play_rate_and_stats(tmp_path):
    path = tmp_path / "y.db"
    played = run("play", "1-4", "--policy", "greedy", "--runs", 3, "--out", path, "--jobs", 1)
    assert played.exit_code == 0, played.output
    assert "Policy greedy (max_moves 1000): 12 games on 4 deals" in played.stdout
    assert len(table_rows(path, "plays")) == 12
    again = run("play", "1-4", "--policy", "greedy", "--runs", 3, "--out", path, "--jobs", 1)
    assert "4 already played" in again.stderr and len(table_rows(path, "plays")) == 12

    rated = run("rate", "1-4", "--runs", 4, "--max-nodes", 300_000, "--out", path, "--jobs", 1)
    assert rated.exit_code == 0, rated.output
    assert "Tiers (4 greedy runs, seed 0):" in rated.stdout
    summary = json.loads(run("stats", path, "--json").stdout)
    (greedy,) = summary["policies"]
    assert (greedy["policy"], greedy["games"], greedy["deals"]) == ("greedy", 12, 4)
    assert (greedy["win_rate"]["games"], greedy["win_rate"]["deals"]) == (12, 4)
    assert greedy["win_rate"]["method"] == "clustered by deal" and greedy["wins_on_unsolvable"] == 0
    assert greedy["on_solvable"]["games"] == 3 * summary["counts"]["solved"]
    (tiers,) = summary["tiers"]
    assert sum(tiers["counts"].values()) == summary["counts"]["solved"]
    assert sum(tiers["counts"].values()) + tiers["no_tier"] == 4


def test_play_counts_its_games_in_the_singular_too(tmp_path):
    one = run("play", "1", "--policy", "greedy", "--out", tmp_path / "one.db", "--jobs", 1)
    assert one.exit_code == 0 and "playing 1 (1 greedy game each)" in one.stderr
    two = run("play", "1", "--policy", "greedy", "--runs", 2, "--out", tmp_path / "two.db", "--jobs", 1)
    assert two.exit_code == 0 and "playing 1 (2 greedy games each)" in two.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["play", "1-3", "--policy", "greedy", "--runs", 0],
            "error: --runs must be a positive integer, not 0",
        ),
        (["play", "1-3", "--policy", "oracle"], "error: unknown policy 'oracle'"),
        (["play", "1-3", "--policy", "greedy", "--samples", 4], "error: bad settings for policy greedy"),
        (["play", "0-3", "--policy", "greedy"], "error: "),
        (["rate", "1-3", "--runs", 0], "error: --runs must be a positive integer, not 0"),
        (["rate", "1-3", "--time-limit", 0], "error: --time-limit 0.0 must be a positive number"),
        (
            ["play", "1-3", "--policy", "greedy", "--jobs", 0],
            "error: --jobs must be a positive integer, not 0",
        ),
        (["rate", "1-3", "--jobs", 0], "error: --jobs must be a positive integer, not 0"),
    ],
)
def test_play_and_rate_refuse_bad_input_and_write_nothing(tmp_path, args, message):
    path = tmp_path / "r.db"
    result = run(*args, "--out", path)
    assert result.exit_code == 2 and result.stderr.startswith(message) and result.stderr.count("\n") == 1
    assert not path.exists()
