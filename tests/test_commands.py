"""The one builder of ``yukon solve`` command lines (solver/commands.py)."""

import shlex

import click

from solver.cli import main
from solver.commands import solve_arguments, solve_command, typed_command
from solver.game.rules import Rules


def test_settings_at_their_defaults_are_left_out():
    assert solve_arguments(12) == ["yukon", "solve", "12"]
    assert solve_command("1-10", Rules("russian")) == "yukon solve 1-10 --variant russian"


def test_every_setting_has_its_place():
    command = solve_command(
        "1-100",
        Rules("yukon", foundation_return=True),
        numbering="kpat",
        as_json=True,
        memory="16M",
        max_nodes=3_000_000,
        time_limit=2.5,
        retry_unknown=True,
        jobs=2,
        out="yukon-return.db",
        dask="tcp://scheduler:8786",
        chunk_size=20,
    )
    assert command == (
        "yukon solve 1-100 --json --variant yukon --foundation-return --numbering kpat --memory 16M "
        "--max-nodes 3000000 --time-limit 2.5 --retry-unknown --jobs 2 --out yukon-return.db "
        "--dask tcp://scheduler:8786 --chunk-size 20"
    )


def test_time_limits_are_written_as_the_cli_reads_them():
    assert solve_arguments(1, time_limit=60.0)[-2:] == ["--time-limit", "60"]
    assert solve_arguments(1, time_limit=float("inf"))[-2:] == ["--time-limit", "inf"]


def test_a_deals_expression_is_left_for_the_shell():
    assert solve_command("$(cat deals.txt)", out="r.db") == "yukon solve $(cat deals.txt) --out r.db"


def test_built_arguments_are_what_the_cli_reads():
    rules = Rules("yukon", foundation_return=True)
    arguments = solve_arguments(
        12, rules, numbering="kpat", max_nodes=1000, time_limit=60.0, out="r.db", jobs=2
    )
    solve = main.get_command(click.Context(main), "solve")
    settings = solve.make_context("solve", arguments[2:]).params
    assert (settings["deal"], settings["variant"], settings["foundation_return"]) == ("12", "yukon", True)
    assert (settings["numbering"], settings["max_nodes"], settings["time_limit"]) == ("kpat", 1000, 60.0)
    assert (settings["out"], settings["jobs"], settings["retry_unknown"]) == ("r.db", 2, False)


def test_the_typed_command_is_quoted_for_a_shell():
    typed = ["solve", "1-5", "--out", "my runs/r.db"]
    line = typed_command(typed)
    assert line == "yukon solve 1-5 --out 'my runs/r.db'"
    assert shlex.split(line) == ["yukon", *typed]
