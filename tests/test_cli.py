"""The ``yukon`` command line: output forms, exit statuses, one-line errors, help."""

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver import __version__
from solver.cli import COMMAND_MODULES, main
from solver.cli.solving import describe
from solver.game.board import board_from_json, parse_board
from solver.game.notation import final_position
from solver.game.numbering import deal_board
from solver.game.reference import is_won
from solver.game.rules import Rules
from solver.results.record import FIELD_NAMES, OPTIONAL_NAMES
from solver.results.result import UNKNOWN, Result

RUSSIAN = Rules("russian")


def run(*args: str, input: str | None = None):
    result = CliRunner().invoke(main, list(args), input=input, prog_name="yukon")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


def assert_bad_input(result) -> None:
    """Exit 2 with one ``error:`` line on stderr (usage errors too); nothing on stdout."""
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")


@pytest.fixture(scope="module")
def solved_record() -> dict:
    result = run("solve", "16", "--variant", "russian", "--json")
    assert result.exit_code == 0
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def unsolvable_record() -> dict:
    result = run("solve", "7", "--variant", "russian", "--json")
    assert result.exit_code == 1
    return json.loads(result.stdout)


# --- deal ----------------------------------------------------------------------------------


def test_deal_prints_the_text_form():
    result = run("deal", "12")
    assert result.exit_code == 0
    assert result.stdout == deal_board("yukon", 12).to_text()
    assert parse_board(result.stdout, Rules("yukon")) == deal_board("yukon", 12)


def test_deal_json_round_trips():
    result = run("deal", "12", "--format", "json")
    assert result.exit_code == 0
    assert board_from_json(json.loads(result.stdout), Rules("yukon")) == deal_board("yukon", 12)
    milligan = run("deal", "3", "--variant", "milligan", "--format", "json")
    assert board_from_json(json.loads(milligan.stdout), Rules("milligan")) == deal_board("milligan", 3)
    assert len(json.loads(milligan.stdout)["stock"]) == 68


def test_deal_kpat_numbering():
    result = run("deal", "1", "--numbering", "kpat")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "JD"
    assert result.stdout != run("deal", "1").stdout


@pytest.mark.parametrize(
    "args",
    [
        ("deal", "0"),
        ("deal", "abc"),
        ("deal", "1.5"),
        ("deal", "100000000000000000001"),
        ("deal", "12", "--variant", "foo"),
        ("deal", "12", "--numbering", "foo"),
        ("deal", "12", "--format", "xml"),
        ("deal", "1", "--variant", "milligan", "--numbering", "kpat"),
        ("deal",),
        ("nosuchcommand",),
    ],
)
def test_deal_bad_input(args):
    assert_bad_input(run(*args))


def test_deal_error_messages():
    assert run("deal", "0").stderr.startswith("error: deal number 0 is out of range")
    assert (
        run("deal", "abc").stderr
        == "error: deal number 'abc' is not a whole number (like 12, #12, 12,345 or ms12345)\n"
    )


def yukon_command() -> list[str]:
    script = Path(sys.executable).with_name("yukon")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from solver.cli import main; main()"]


@pytest.mark.parametrize("args", [["deal", "abc"], ["deal", "0"], ["deal", "1", "--variant", "foo"]])
def test_real_process_bad_input_exits_2_without_traceback(args):
    done = subprocess.run(yukon_command() + args, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(("error:", "Usage:"))


def test_real_process_deal():
    done = subprocess.run(yukon_command() + ["deal", "12"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout == deal_board("yukon", 12).to_text()


# --- replay --------------------------------------------------------------------------------


def test_replay_a_winning_line(solved_record):
    result = run("replay", "16", solved_record["solution"], "--variant", "russian")
    assert result.exit_code == 0
    assert result.stdout == f"{solved_record['solution_length']} moves, all legal; won\n"


def test_replay_accepts_the_line_as_several_words(solved_record):
    tokens = solved_record["solution"].split()
    result = run("replay", "--variant", "russian", "16", *tokens)
    assert result.exit_code == 0


def test_replay_an_unfinished_line(solved_record):
    tokens = solved_record["solution"].split()
    result = run("replay", "16", " ".join(tokens[:10]), "--variant", "russian")
    assert result.exit_code == 1
    assert result.stdout == "10 moves, all legal; not won\n"
    assert (
        run("replay", "16", "", "--variant", "russian").exit_code == 1
    )  # an empty line: no line is bad input


def test_replay_an_illegal_move_names_number_token_and_rule(solved_record):
    tokens = solved_record["solution"].split()
    line = " ".join(tokens[:2] + ["1>2:QS"] + tokens[3:])
    result = run("replay", "16", line, "--variant", "russian")
    assert_bad_input(result)
    assert result.stderr.startswith("error: illegal move 3 1>2:QS: QS does not build on")
    assert "same suit" in result.stderr


def test_replay_under_the_wrong_rules_is_illegal(solved_record):
    result = run("replay", "16", solved_record["solution"])  # yukon rules
    assert_bad_input(result)
    assert "illegal move 2 2>6:JH: JH does not build on" in result.stderr


def test_replay_foundation_rule_is_named():
    result = run("replay", "12", "1>F:5S")
    assert_bad_input(result)
    assert "move 1 1>F:5S: no foundation takes 5S yet" in result.stderr


@pytest.mark.parametrize("line", ["3>7:TS foo", "9>1:AH", "2>1:ZZ", "S"])
def test_replay_bad_tokens_exit_2(line):
    assert_bad_input(run("replay", "12", line))


def test_replay_show_prints_every_board(solved_record):
    tokens = solved_record["solution"].split()[:3]
    result = run("replay", "16", " ".join(tokens), "--variant", "russian", "--show")
    assert result.exit_code == 1
    out = result.stdout
    assert out.count("Foundations:") == 3
    for number, token in enumerate(tokens, start=1):
        assert f"{number}. {token}\n" in out
    assert "1. 4>F:AC\n" in out
    assert "Foundations: S-0 H-0 D-0 C-A" in out
    assert out.endswith("3 moves, all legal; not won\n")


def test_replay_board_file(tmp_path, solved_record):
    text_file = tmp_path / "board.txt"
    text_file.write_text(solved_record["board"])
    result = run("replay", "--board", str(text_file), "--variant", "russian", solved_record["solution"])
    assert result.exit_code == 0
    json_file = tmp_path / "board.json"
    json_file.write_text(json.dumps(deal_board("russian", 16).to_json()))
    result = run("replay", "--board", str(json_file), "--variant", "russian", solved_record["solution"])
    assert result.exit_code == 0


def test_replay_line_from_stdin(solved_record):
    result = run("replay", "16", "-", "--variant", "russian", input=solved_record["solution"] + "\n")
    assert result.exit_code == 0


def test_replay_bad_board_file(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(deal_board("yukon", 12).to_text().replace("5S", "ZZ", 1))
    result = run("replay", "--board", str(bad), "1>2:AH")
    assert_bad_input(result)
    assert "unknown card 'ZZ' on line 1" in result.stderr
    assert_bad_input(run("replay", "--board", str(tmp_path / "absent.txt"), "1>2:AH"))


# --- verify --------------------------------------------------------------------------------


def write_records(path: Path, records: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))
    return path


def test_verify_counts_and_exit_codes(tmp_path, solved_record, unsolvable_record):
    tokens = solved_record["solution"].split()
    unfinished = solved_record | {"solution": " ".join(tokens[:-1])}
    illegal = solved_record | {"solution": " ".join(["1>2:QS", *tokens])}
    wrong_deal = solved_record | {"deal": 17}
    unknown = solved_record | {"status": "unknown", "solution": ""}
    mixed = write_records(
        tmp_path / "mixed.jsonl",
        [solved_record, unfinished, unsolvable_record, illegal, "", wrong_deal, unknown],
    )
    result = run("verify", str(mixed))
    assert result.exit_code == 1
    assert result.stdout == "good 1, illegal 3, unverifiable 2\n"
    problems = result.stderr.splitlines()
    assert len(problems) == 3
    assert problems[0].endswith("mixed.jsonl line 2 (deal 16): the line is legal but does not win")
    assert "line 4 (deal 16): move 1 1>2:QS: QS does not build on" in problems[1]
    assert "line 6 (deal 17): board is not pysol deal 17" in problems[2]

    as_json = run("verify", str(mixed), "--json")
    assert as_json.exit_code == 1
    report = json.loads(as_json.stdout)
    assert (report["good"], report["illegal"], report["unverifiable"]) == (1, 3, 2)
    assert len(report["problems"]) == 3

    clean = write_records(tmp_path / "clean.jsonl", [solved_record, unsolvable_record, unknown])
    result = run("verify", str(clean))
    assert result.exit_code == 0
    assert result.stdout == "good 1, illegal 0, unverifiable 2\n"
    assert result.stderr == ""

    empty = write_records(tmp_path / "empty.jsonl", [])
    assert run("verify", str(empty)).stdout == "good 0, illegal 0, unverifiable 0\n"


def test_verify_record_without_deal_number(tmp_path, solved_record):
    record = solved_record | {"deal": None}
    path = write_records(tmp_path / "board.jsonl", [record])
    assert run("verify", str(path)).exit_code == 0


@pytest.mark.parametrize(
    ("bad_line", "message"),
    [
        ("{not json", "line 2: not JSON"),
        ("[1, 2]", "line 2: not a JSON object"),
        ('{"variant": "yukon"}', "line 2: missing field foundation_return"),
    ],
)
def test_verify_corrupt_line_exits_2_naming_the_line(tmp_path, solved_record, bad_line, message):
    path = write_records(tmp_path / "corrupt.jsonl", [solved_record, bad_line, solved_record])
    result = run("verify", str(path))
    assert_bad_input(result)
    assert "corrupt.jsonl " + message in result.stderr


@pytest.mark.parametrize("board", [None, {"columns": []}, 12])
def test_verify_record_with_a_board_that_is_not_text(tmp_path, solved_record, board):
    path = write_records(tmp_path / "odd.jsonl", [solved_record | {"board": board}])
    result = CliRunner().invoke(main, ["verify", str(path)], prog_name="yukon")
    assert result.exit_code in (1, 2)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "odd.jsonl line 1" in result.stderr


def test_verify_missing_file():
    assert_bad_input(run("verify", "/nonexistent/results.jsonl"))


# --- solve ---------------------------------------------------------------------------------


def test_solve_json_is_a_verifiable_record(solved_record):
    record = solved_record
    assert record["status"] == "solved"
    assert (record["variant"], record["foundation_return"], record["numbering"], record["deal"]) == (
        "russian",
        False,
        "pysol",
        16,
    )
    assert parse_board(record["board"], RUSSIAN) == deal_board("russian", 16)
    assert record["solution_length"] == len(record["solution"].split())
    assert is_won(final_position(deal_board("russian", 16), record["solution"].split(), RUSSIAN))
    for field in ("nodes", "seconds", "peak_table_entries", "proven_minimal", "budget"):
        assert field in record
    assert list(record) == ["format", "format_version"] + [
        name for name in FIELD_NAMES if name not in OPTIONAL_NAMES
    ]  # no loss_reason
    assert (record["time_limit"], record["max_nodes"], record["solver_version"]) == (60.0, None, __version__)


def test_solve_text_output_and_exit_0():
    result = run("solve", "16", "--variant", "russian")
    assert result.exit_code == 0
    assert result.stdout.startswith(deal_board("russian", 16).to_text())
    assert "verdict: solved" in result.stdout
    line = next(row for row in result.stdout.splitlines() if row.startswith("line: "))
    assert is_won(final_position(deal_board("russian", 16), line[6:].split(), RUSSIAN))


def test_solve_unsolvable_exit_1(unsolvable_record):
    assert unsolvable_record["status"] == "unsolvable"
    assert unsolvable_record["solution"] == ""
    result = run("solve", "7", "--variant", "russian")
    assert result.exit_code == 1
    assert "verdict: unsolvable" in result.stdout


def test_solve_budget_exhausted_exit_3():
    result = run("solve", "12", "--max-nodes", "1", "--json")
    assert result.exit_code == 3
    record = json.loads(result.stdout)
    assert (record["status"], record["budget"], record["solution"]) == ("unknown", "nodes", "")
    text = run("solve", "12", "--max-nodes", "1")
    assert text.exit_code == 3
    assert "verdict: unknown (nodes ran out)" in text.stdout
    assert "to search on: a larger --max-nodes" in text.stdout


@pytest.mark.parametrize(
    ("budget", "hint"),
    [
        ("time", "--time-limit"),
        ("nodes", "--max-nodes"),
        ("memory", "--memory"),
        ("depth", None),
        ("interrupted", None),
    ],
)
def test_an_unknown_verdict_says_what_to_give_it_next(budget, hint):
    text = describe(Result(UNKNOWN, "", 10, 1.0, 5, budget=budget))
    hints = [line for line in text.splitlines() if line.startswith("to search on:")]
    if hint is None:
        assert hints == [], text
    else:
        assert len(hints) == 1 and hint in hints[0], text


def test_solve_board_file(tmp_path, solved_record):
    path = tmp_path / "board.txt"
    path.write_text(solved_record["board"])
    result = run("solve", "--board", str(path), "--variant", "russian", "--json")
    assert result.exit_code == 0
    record = json.loads(result.stdout)
    assert record["deal"] is None
    assert is_won(final_position(deal_board("russian", 16), record["solution"].split(), RUSSIAN))
    from_stdin = run("solve", "--board", "-", "--variant", "russian", input=solved_record["board"])
    assert from_stdin.exit_code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("solve",), "error: give a deal number or --board FILE"),
        (("solve", "16", "--board", "-"), "error: give a deal number or --board FILE, not both"),
        (
            ("solve", "16", "--time-limit", "0"),
            "error: --time-limit 0.0 must be a positive number of seconds",
        ),
        (("solve", "16", "--memory", "lots"), "error: memory size 'lots' is not like 512M or 2G"),
        (("solve", "16", "--memory", "-1G"), "error: memory size '-1G' must be between 1M and 1T"),
        (("solve", "abc"), "error: deal number 'abc' is not a whole number"),
        (("solve", "16", "--max-nodes", "x"), "error: Invalid value for '--max-nodes'"),
    ],
)
def test_solve_bad_input(args, message):
    result = run(*args, "--variant", "russian", input="")
    assert_bad_input(result)
    assert result.stderr.startswith(message)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("memory", ["inf", "nan", "1e400", "1", "0.5"])
def test_solve_absurd_memory_size_is_bad_input(memory):
    result = CliRunner().invoke(main, ["solve", "7", "--variant", "russian", "--memory", memory])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    # Either refused as bad input (2) or run with a usable table (deal 7 is unsolvable: 1).
    assert result.exit_code in (1, 2)


# --- budgets: one check for every command --------------------------------------------------


def time_limited_commands(folder: Path) -> dict:
    """Each command taking --time-limit, with the arguments it needs besides; its store and
    catalogue folder lie in ``folder`` (a refused command must make neither)."""
    store, catalogues = str(folder / "r.db"), str(folder / "catalogues")
    return {
        ("solve",): ["12"],
        ("rate",): ["1-3", "--out", store],
        ("check",): ["12", "--solve"],
        ("catalogue", "build"): ["--deals", "1-3", "--from", store, "--out", catalogues],
    }


def commands_offering(option: str, group=main, path=()) -> set:
    """The command paths (``("catalogue", "build")``) of every command with ``option``."""
    found = set()
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            found |= commands_offering(option, command, (*path, name))
        elif any(option in parameter.opts for parameter in command.params):
            found.add((*path, name))
    return found


def test_every_time_limited_command_is_checked_here(tmp_path):
    assert commands_offering("--time-limit") == set(time_limited_commands(tmp_path))


@pytest.mark.parametrize("seconds", ["0", "-1", "nan", "-inf"])
def test_every_command_refuses_a_time_limit_that_is_not_positive(tmp_path, seconds):
    for command, arguments in time_limited_commands(tmp_path).items():
        result = run(*command, *arguments, "--time-limit", seconds)
        assert_bad_input(result)
        expected = f"error: --time-limit {float(seconds)} must be a positive number of seconds"
        assert result.stderr.startswith(expected), (command, result.stderr)
        assert list(tmp_path.iterdir()) == [], command


@pytest.mark.parametrize("nodes", [0, 2**63])
def test_every_solver_node_limit_is_checked_the_same_way(tmp_path, nodes):
    store = str(tmp_path / "r.db")
    for arguments in (["solve", "12"], ["solve", "1-3", "--out", store], ["rate", "1-3", "--out", store]):
        result = run(*arguments, "--max-nodes", str(nodes))
        assert_bad_input(result)
        assert result.stderr.startswith(f"error: --max-nodes {nodes} must lie in 1..{2**63 - 1}"), arguments
        assert list(tmp_path.iterdir()) == [], arguments


@pytest.mark.parametrize("option", ["--samples", "--max-nodes"])
def test_sampling_settings_beyond_64_bits_are_bad_input(tmp_path, option):
    store = str(tmp_path / "r.db")
    for arguments in (["hint", "12"], ["play", "1-3", "--policy", "sampling", "--out", store]):
        result = run(*arguments, option, str(2**63))
        assert_bad_input(result)
        assert result.stderr.startswith(f"error: Invalid value for '{option}'"), arguments
        assert list(tmp_path.iterdir()) == [], arguments


# --- help and version ------------------------------------------------------------------------


def test_every_command_has_help():
    assert set(main.commands) >= {"deal", "replay", "verify", "solve"}
    for name, command in main.commands.items():
        assert command.help and command.help.strip(), name
        for flag in ("-h", "--help"):
            result = run(name, flag)
            assert result.exit_code == 0
            assert result.stdout.startswith(f"Usage: yukon {name}")
            assert command.help.split("\n")[0].strip()[:30] in " ".join(result.stdout.split())


def test_every_command_module_is_registered():
    listed = {
        command.name
        for name in COMMAND_MODULES
        for command in importlib.import_module(f"solver.cli.{name}").COMMANDS
    }
    assert (
        listed
        == set(main.commands)
        == {
            "deal",
            "replay",
            "solve",
            "stats",
            "export",
            "verify",
            "hint",
            "play",
            "rate",
            "catalogue",
            "daily",
            "check",
        }
    )


def test_top_level_help_lists_commands():
    result = run("-h")
    assert result.exit_code == 0
    for name in main.commands:
        assert name in result.stdout


def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout == f"yukon, version {__version__}\n"
