"""``--minimal`` reports its progress: the lower bound it reached (told as it rises, kept in
the result) is never above the shortest win a breadth-first reference search finds, and the
gap between the line and the bound is printed and in the JSON."""

import json

from click.testing import CliRunner
from engine_helpers import NO_SHRINK, SETTINGS
from exhaustive import TooBig, shortest_win_length
from hypothesis import given, settings
from strategies import small_positions

from solver.cli import main
from solver.numbering import deal_board
from solver.result import SOLVED, Limits
from solver.rules import Rules
from solver.solve import solve_position

YUKON = Rules("yukon")


def test_the_bound_never_passes_the_shortest_win():
    told_bounds = []

    @settings(max_examples=25, phases=NO_SHRINK, **SETTINGS)
    @given(small_positions(YUKON, 6, 9))
    def check(board):
        try:
            shortest = shortest_win_length(board, YUKON, max_states=5_000)
        except TooBig:
            return
        told = []
        limits = Limits(max_nodes=2_000_000, time_limit=None, minimal=True)
        result = solve_position(board, YUKON, limits, on_bound=lambda bound, length: told.append(bound))
        if result.status != SOLVED:
            return
        assert result.lower_bound <= shortest <= result.solution_length
        assert told == sorted(set(told)) and all(bound <= shortest for bound in told)
        if result.proven_minimal:
            assert result.lower_bound == result.solution_length == shortest
        told_bounds.extend(told)

    check()
    assert told_bounds


def test_a_minimal_search_cut_short_reports_its_bound_and_gap():
    """PySolFC Yukon deal 12 is not proved minimal within 200,000 positions."""
    told = []
    limits = Limits(max_nodes=200_000, time_limit=None, minimal=True)
    result = solve_position(deal_board("yukon", 12), YUKON, limits, on_bound=lambda *pair: told.append(pair))
    assert result.status == SOLVED and not result.proven_minimal
    assert told and result.lower_bound == told[-1][0] < result.solution_length
    assert all(length >= result.solution_length for _bound, length in told)


def test_the_command_prints_the_bound_and_the_gap():
    args = ["solve", "12", "--minimal", "--max-nodes", "200000"]
    shown = CliRunner().invoke(main, args, prog_name="yukon")
    record = json.loads(CliRunner().invoke(main, [*args, "--json"], prog_name="yukon").stdout)
    assert record["gap"] == record["solution_length"] - record["lower_bound"] > 0
    assert f"no line is shorter than {record['lower_bound']} moves, a gap of {record['gap']}" in shown.stdout
    assert f"minimal: no line is shorter than {record['lower_bound']} moves" in shown.stderr
    plain = json.loads(CliRunner().invoke(main, ["solve", "12", "--json"], prog_name="yukon").stdout)
    assert "lower_bound" not in plain and "gap" not in plain
