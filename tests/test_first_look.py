"""solver/search/solve.py's first look (the probes searched by the lean kernels, which test no
position for a dead end): a win there is the win the probes find, move for move; a look that
wins nothing leaves the solve as it would have been, its positions counted."""

import pytest
from engine_helpers import NO_LOOK, checked_solve
from hypothesis import given, settings
from strategies import small_positions

from solver.engine import moves, search
from solver.game import reference
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.result import SOLVED, UNKNOWN, UNSOLVABLE, Spent
from solver.search import solve
from solver.search.budget import Budget
from solver.search.config import DEFAULT
from solver.search.dead_ends import dead_end_tables
from solver.search.packing import decode, pack
from solver.search.solve import first_look, solve_position

LIMITS = Limits(time_limit=None, max_nodes=400_000)
RULE_SETS = [Rules("yukon"), Rules("yukon", True), Rules("russian"), Rules("milligan")]
# Deals 1-10 of each rule set; for Russian, whose deals 1-10 are lost, its first solvable ones too.
DEALS = {"yukon": range(1, 11), "milligan": range(1, 6), "russian": [*range(1, 6), 16, 33, 35, 44]}


def looked(board, rules):
    """The first look at ``board``: its status and its path as the engine's moves."""
    look, status, _peak = first_look(
        pack(board, rules), dead_end_tables(), moves.ALL_REDUCTIONS, DEFAULT, Budget(LIMITS)
    )
    return status, [decode(int(move)) for move in look.path()]


def with_and_without_look(rules, deal):
    """Deal ``deal`` solved with the look and without it (``first_look_nodes`` 0), under a node
    limit; and whether the look alone won it."""
    board = deal_board(rules.variant, deal)
    with_look = checked_solve(board, rules, limits=LIMITS)
    without = checked_solve(board, rules, limits=LIMITS, config=NO_LOOK)
    return with_look, without, looked(board, rules)[0] == search.SOLVED


def test_the_look_alone_wins_an_easy_deal_along_a_winning_path():
    board, rules = deal_board("yukon", 12), Rules("yukon")
    status, path = looked(board, rules)
    assert status == search.SOLVED
    position = board
    for move in path:
        position = reference.apply_move(position, move, rules)
    assert reference.is_won(position)


@pytest.mark.parametrize("rules", RULE_SETS, ids=Rules.label)
def test_a_win_of_the_look_is_the_win_of_the_probes_and_a_miss_costs_only_its_positions(rules):
    """The same verdict and line with the look and without; where it won nothing, its positions
    are counted on top of the plan's; where it won, it searched at least the positions the
    probes did."""
    won_by_look = []
    for deal in DEALS[rules.variant]:
        with_look, without, won = with_and_without_look(rules, deal)
        assert (with_look.status, with_look.solution) == (without.status, without.solution), deal
        extra = with_look.nodes - without.nodes
        assert extra >= 0 if won else 0 < extra <= DEFAULT.first_look_nodes, deal
        won_by_look.append(won)
    assert any(won_by_look)
    assert rules.variant == "milligan" or not all(won_by_look)  # it wins every easy Milligan deal


@settings(max_examples=60, deadline=None)
@given(small_positions(Rules("yukon")))
def test_the_look_changes_no_verdict_or_line_on_small_positions(board):
    rules = Rules("yukon")
    with_look = checked_solve(board, rules, limits=LIMITS)
    without = checked_solve(board, rules, limits=LIMITS, config=NO_LOOK)
    assert (with_look.status, with_look.solution) == (without.status, without.solution)
    if with_look.status == SOLVED:
        assert with_look.solution


def test_a_look_that_won_nothing_leaves_the_plan_its_positions_and_its_node_limit():
    budget = Budget(Limits(max_nodes=700))
    budget.nodes, budget.spent = 700, Spent.NODES
    budget.look_over()
    budget.nodes += 50
    assert (budget.nodes, budget.plan_nodes, budget.nodes_left(), budget.spent) == (750, 50, 650, None)


def test_a_node_limit_below_the_look_leaves_the_verdicts_alone():
    """Russian deal 1 is proved lost at its root by the plan, and the look takes the one node."""
    board, rules = deal_board("russian", 1), Rules("russian")
    assert checked_solve(board, rules, limits=Limits(max_nodes=1)).status == UNSOLVABLE


class SetOnItsSecondLook:
    """A cancel handle set from the second time the solve asks on: after the look's first probe."""

    def __init__(self):
        self.asked = 0

    def is_set(self) -> bool:
        self.asked += 1
        return self.asked >= 2


def test_a_solve_stopped_during_the_look_is_unknown_and_goes_no_further(monkeypatch):
    """PySolFC 3 is not won by the look: stopped after its first probe, the solve says so and
    makes no other kernel group ready (the search after the look is never started)."""
    groups_asked = []
    monkeypatch.setattr(solve, "kernels_ready", lambda group, *rest: groups_asked.append(group.name))
    stopped = SetOnItsSecondLook()
    result = solve_position(deal_board("yukon", 3), Rules("yukon"), LIMITS, cancel=stopped)
    assert (result.status, result.budget, groups_asked) == (UNKNOWN, Spent.INTERRUPTED, [])
    assert 0 < result.nodes <= DEFAULT.first_look_nodes


def test_the_node_limit_option_names_the_looks_positions():
    """``--max-nodes``'s help gives the look's size (the command line cannot read the config
    without loading numba)."""
    from solver.cli.options import LIMIT_OPTIONS

    @LIMIT_OPTIONS["max_nodes"]
    def command(max_nodes):
        return max_nodes

    assert f"at most {DEFAULT.first_look_nodes:,} not counted" in command.__click_params__[0].help
