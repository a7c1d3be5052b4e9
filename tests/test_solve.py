"""solver/search/solve.py and engine/search.py: verdicts against the exhaustive search, pinned
deals, the search's stack and table, and --minimal lines."""

from collections import Counter

import numpy as np
import pytest
from engine_helpers import (
    MAX_STATES,
    NO_SHRINK,
    SETTINGS,
    UNPACED_TUNING,
    YUKON,
    checked_solve,
    engine_moves,
    is_hopeless,
    rules_sets,
    verdict_positions,
)
from exhaustive import SOLVED, UNSOLVABLE, TooBig, exhaustive_search, shortest_win_length
from hypothesis import event, given, settings
from hypothesis import strategies as st
from pinned import pinned_deals
from strategies import RULE_SETS, dead_positions, small_positions

from solver.engine import layout, moves, search
from solver.engine.dead_ends import arrays
from solver.engine.move_kinds import STOCK_DEAL
from solver.engine.table import make_table
from solver.game import reference
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.search.budget import Budget
from solver.search.config import DEAL_SCORES, PROBES
from solver.search.dead_ends import dead_end_tables
from solver.search.packing import copy_packed, pack
from solver.search.searching import Search
from solver.search.solve import probe_plan


@rules_sets
def test_verdicts_match_exhaustive_search(rules):
    seen = Counter()

    @settings(max_examples=70, phases=NO_SHRINK, **SETTINGS)
    @given(verdict_positions(rules))
    def check(board):
        try:
            expected, line, _states = exhaustive_search(board, rules, MAX_STATES[rules.variant])
        except TooBig:
            event("too big for the exhaustive search")
            return
        seen[expected] += 1
        for options in (moves.ALL_REDUCTIONS, 0):
            result = checked_solve(board, rules, options)
            assert result.status == expected, (
                f"{rules.label()} options={options}: solver {result.status}, exhaustive {expected}\n"
                + board.to_text()
            )
        # HOPELESS (see prune.py) never calls a position on a winning line lost.
        for move in line or ():
            assert not is_hopeless(board, rules), f"{rules.label()} winnable but hopeless:\n{board.to_text()}"
            board = reference.apply_move(board, move, rules)

    check()
    assert seen[SOLVED] > 0 and seen[UNSOLVABLE] > 0, seen


@pytest.mark.parametrize("pinned", pinned_deals(), ids=lambda pinned: pinned.name)
def test_pinned_deals_keep_their_verdicts(pinned):
    """Each deal in tests/data/pinned/ reaches its verdict within its node budget (the
    entry's ``why`` says what it pins)."""
    limits = Limits(max_nodes=pinned.max_nodes, time_limit=None)
    assert checked_solve(pinned.board(), pinned.rules(), limits=limits).status == pinned.verdict, pinned.why


def test_every_variant_has_solved_and_unsolvable_pinned_deals():
    verdicts = {(pinned.variant, pinned.verdict) for pinned in pinned_deals()}
    for variant in ("yukon", "russian"):
        assert {(variant, SOLVED), (variant, UNSOLVABLE)} <= verdicts


def test_a_solve_does_not_depend_on_the_solves_before_it():
    """Searches reuse their thread's stack arrays: what one leaves behind must not matter."""
    first = deal_board("yukon", 4, "kpat")

    def outcome(board):
        result = checked_solve(board, YUKON)
        return result.status, result.nodes, result.solution

    alone = outcome(first)
    for number in (20, 1, 47):
        outcome(deal_board("yukon", number, "kpat"))
    assert outcome(first) == alone


def test_the_table_grows_only_while_there_is_time_to_rehash():
    """Doubling a big table takes a while (0.17 s for 4 M slots), so near the time limit the
    table fills up instead, and the limit is kept. (Budgets are set here, nothing is timed.)"""
    packed = pack(deal_board("yukon", 1, "pysol"), YUKON)
    # A millisecond is less than doubling even the first table would take.
    for limits, grows in ((Limits(time_limit=None), True), (Limits(time_limit=1e-3), False)):
        searched = Search(copy_packed(packed), search.DFS, moves.ALL_REDUCTIONS, 0, 1 << 30)
        slots = searched.entries().shape[0]
        searched.grow(Budget(limits))
        assert searched.entries().shape[0] == (2 * slots if grows else slots)
        assert (searched.control[layout.CONTROL_GROW_AT] == np.iinfo(np.int64).max) != grows


# --- --minimal: IDA* lines against breadth-first search ---------------------------------------


@pytest.mark.parametrize("rules", [r for r in RULE_SETS if r.variant != "milligan"], ids=lambda r: r.label())
def test_minimal_lines_are_shortest(rules):
    """A line reported proven minimal is exactly as long as the shortest win found by a
    breadth-first reference search; any solved line is at least that long, and the lower
    bound reached is at most that long."""
    proven = Counter()

    @settings(max_examples=25, phases=NO_SHRINK, **SETTINGS)
    @given(small_positions(rules, 6, 9))
    def check(board):
        try:
            shortest = shortest_win_length(board, rules, max_states=5_000)
        except TooBig:
            return
        result = checked_solve(
            board, rules, limits=Limits(max_nodes=2_000_000, time_limit=None, minimal=True)
        )
        if shortest is None:
            assert result.status == UNSOLVABLE
            return
        assert result.status == SOLVED
        assert result.lower_bound <= shortest <= result.solution_length  # the bound --minimal reports
        if result.proven_minimal:
            proven[True] += 1
            assert result.solution_length == shortest == result.lower_bound

    check()
    assert proven[True] > 0


# --- the stock deal's place in the move order (Milligan) --------------------------------------


@pytest.mark.parametrize("foundation_return", [False, True], ids=["strict", "return"])
def test_the_deal_order_never_changes_a_verdict(foundation_return):
    """The full search, with the stock deal at each place the probes use and at both ends
    of the order, reaches the exhaustive search's verdict on small positions with a stock."""
    rules = Rules("milligan", foundation_return)
    seen = Counter()

    sizes = {"empty_columns": False, "max_cards": 8} if foundation_return else {"max_cards": 11}
    dead = dead_positions(rules, stock=True, max_cards=12, bury_kings=foundation_return, lowest_rank=11)

    @settings(max_examples=40, phases=NO_SHRINK, **SETTINGS)
    @given(st.one_of(small_positions(rules, 5, stock=True, **sizes), dead))
    def check(board):
        try:
            expected = exhaustive_search(board, rules, MAX_STATES["milligan"])[0]
        except TooBig:
            seen["too big"] += 1
            return
        seen[expected] += 1
        for score in (*DEAL_SCORES, 0, 127):
            searched = Search(
                pack(board, rules), search.DFS, moves.ALL_REDUCTIONS, 0, 1 << 24, deal_score=score
            )
            status = searched.run(Budget(Limits(max_nodes=1_000_000, time_limit=None)))
            assert not searched.truncated
            assert {search.SOLVED: SOLVED, search.EXHAUSTED: UNSOLVABLE}[status] == expected, (
                f"deal score {score}: {status}, exhaustive {expected}\n" + board.to_text()
            )

    check()
    assert seen[SOLVED] > 0 and seen[UNSOLVABLE] > 0, seen


def test_the_deal_order_is_what_the_probes_vary():
    """With a stock the probes try every deal place in turn, sharing each probe's nodes;
    without one each probe runs once, as before there was a choice."""
    one_deck = pack(deal_board("yukon", 1, "pysol"), YUKON)
    plain = probe_plan(one_deck.params, moves.ALL_REDUCTIONS)
    assert [(limit, nodes) for limit, nodes, *_ in plain] == [(limit, nodes) for limit, nodes, _ in PROBES]
    stocked = pack(deal_board("milligan", 1, "pysol"), Rules("milligan"))
    planned = probe_plan(stocked.params, moves.ALL_REDUCTIONS)
    assert len(planned) == len(plain) * len(DEAL_SCORES)
    assert {score for *_, score in planned} == set(DEAL_SCORES)
    assert sum(nodes for _, nodes, *_ in planned) <= sum(nodes for _, nodes, *_ in plain)


def test_generated_deal_follows_its_score():
    """The deal move sits in the ordered list where its score puts it."""
    board = deal_board("milligan", 1, "pysol")
    packed = pack(board, Rules("milligan"))
    first = engine_moves(packed, moves.ALL_REDUCTIONS, deal_score=127)[0]
    last = engine_moves(packed, moves.ALL_REDUCTIONS, deal_score=0)[-1]
    assert moves.move_kind(first) == moves.move_kind(last) == STOCK_DEAL


# --- the search stack: deep paths share one move buffer ---------------------------------------


@pytest.mark.parametrize(
    ("max_depth", "buffered_moves", "truncated"),
    [(4096, 4096 * layout.MOVE_LIST_SIZE, True), (1 << 18, 2_000, True), (1 << 18, 1 << 21, False)],
    ids=["shallow", "small_buffer", "deep"],
)
def test_a_deep_search_is_cut_only_by_its_stack(max_depth, buffered_moves, truncated):
    """Russian deal 20312 with foundation return is lost, but its depth-first search goes past
    4,096 moves deep: a stack that shallow (or a move buffer that small) cuts the search,
    which then proves nothing; the solver's stack lets it finish."""
    rules = Rules("russian", foundation_return=True)
    packed = pack(deal_board("russian", 20312, "pysol"), rules)
    table = make_table(1 << 22)
    stack = layout.make_stack(max_depth, buffered_moves, arrays.WORDS)
    control = search.make_control(search.DFS, moves.ALL_REDUCTIONS, 0, np.iinfo(np.int64).max, UNPACED_TUNING)
    p = packed
    dead_ends = dead_end_tables()
    search.search_start(p.state, p.params, p.zobrist, p.column_keys, table, stack, control, dead_ends)
    status = search.search_chunk(
        p.state, p.params, p.zobrist, p.column_keys, table, stack, control, dead_ends, 2_000_000
    )
    assert status == search.EXHAUSTED
    assert bool(control[layout.CONTROL_TRUNCATED]) == truncated
