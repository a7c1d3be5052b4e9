"""``--minimal`` reports its progress: the lower bound it reached, told as it rises and kept
in the result (that it never passes the shortest win a breadth-first reference search finds
is checked in ``test_solve.test_minimal_lines_are_shortest``), and the gap between the line
and the bound, printed and in the JSON."""

import json

from click.testing import CliRunner

from solver.cli import main
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.result import SOLVED
from solver.search.solve import solve_position

YUKON = Rules("yukon")


def test_a_minimal_search_cut_short_reports_its_bound_and_gap():
    """PySolFC Yukon deal 12 is not proved minimal within 200,000 positions."""
    told = []
    limits = Limits(max_nodes=200_000, time_limit=None, minimal=True)
    result = solve_position(deal_board("yukon", 12), YUKON, limits, on_bound=lambda *pair: told.append(pair))
    assert result.status == SOLVED and not result.proven_minimal
    bounds = [bound for bound, _length in told]
    assert bounds == sorted(set(bounds)) and result.lower_bound == bounds[-1] < result.solution_length
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
