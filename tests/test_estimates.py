"""``estimate_position``, the players' unchecked search, answers as ``solve_position`` does: the
same status, and for a win the very line the verdict reports, which wins on the reference
engine."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pinned import pinned_deals
from strategies import RULE_IDS, RULE_SETS, small_positions

from solver.game import reference
from solver.game.board import Board
from solver.game.notation import replay_tokens, solution_text
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.result import SOLVED, UNKNOWN, UNSOLVABLE
from solver.search.solve import estimate_position, solve_position

QUICK_PINNED = [pinned for pinned in pinned_deals() if pinned.max_nodes <= 300_000]


def assert_estimate_is_the_verdict(board: Board, rules: Rules, max_nodes: int) -> str:
    """The estimate's status is the verdict's; a win's line is the reported one, and wins."""
    verdict = solve_position(board, rules, Limits(max_nodes=max_nodes, time_limit=None))
    estimate = estimate_position(board, rules, max_nodes)
    assert estimate.status == verdict.status
    if estimate.status == SOLVED:
        assert solution_text(board, list(estimate.line), rules) == verdict.solution
        reported = tuple(
            move for _token, move, _after in replay_tokens(board, verdict.solution.split(), rules)
        )
        assert estimate.line == reported
        assert reference.is_won(reference.replay(board, list(estimate.line), rules))
    else:
        assert estimate.line is None
    return estimate.status


@pytest.mark.parametrize("pinned", QUICK_PINNED, ids=lambda pinned: pinned.name)
def test_a_pinned_deal_is_estimated_as_it_is_decided(pinned):
    status = assert_estimate_is_the_verdict(pinned.board(), pinned.rules(), pinned.max_nodes)
    assert status == pinned.verdict


def test_the_pinned_deals_hold_a_win_and_a_loss():
    assert {pinned.verdict for pinned in QUICK_PINNED} == {SOLVED, UNSOLVABLE}


def test_a_budget_too_small_to_decide_is_unknown():
    rules = Rules("yukon")
    assert assert_estimate_is_the_verdict(deal_board("yukon", 3), rules, 1) == UNKNOWN


def test_a_win_without_its_line_has_none():
    pinned = next(pinned for pinned in QUICK_PINNED if pinned.verdict == SOLVED)
    estimate = estimate_position(pinned.board(), pinned.rules(), pinned.max_nodes, with_line=False)
    assert (estimate.status, estimate.line) == (SOLVED, None)


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_small_positions_are_estimated_as_they_are_decided(rules, data):
    board = data.draw(small_positions(rules))
    assert_estimate_is_the_verdict(board, rules, 20_000)
