"""The test over triples of facts on the root (engine/dead_ends/h3.py): the kernel's family is the
plain-Python one, it flags every position the pairwise test flags and more, a flagged position is
lost by exhaustive search, no position on a winning line is flagged, search verdicts are the same
with and without it, and a root it flags is proved lost at once (only that root). Its tests of
positions of the path: test_triple_nogoods.py."""

from collections import Counter
from dataclasses import replace

import h2_reference
import numpy as np
import pytest
from engine_helpers import NO_SHRINK, SETTINGS, checked_solve, engine_moves, verdict_positions
from exhaustive import SOLVED, UNSOLVABLE
from hypothesis import given, settings
from test_h2 import (
    catalogue_lines,
    check_flagged_positions_are_lost,
    fact_names,
    kernel_dead,
    one_deck,
    playout_positions,
    same_verdicts,
    tables_for,
)

from solver.engine import layout, moves, search
from solver.engine.apply import apply_move
from solver.engine.dead_ends import arrays, h2, h3
from solver.game.notation import replay_tokens
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.search import dead_ends, searching
from solver.search.config import DEFAULT
from solver.search.dead_ends import dead_end_counters, dead_end_tables
from solver.search.packing import pack

CROSS_CHECKED_CARDS = 9  # the plain-Python family of a larger position takes minutes
WITHOUT_TESTS = moves.ALL_REDUCTIONS & ~(moves.EVERY_PAIR_TEST | moves.EVERY_TRIPLE_TEST)


def triples_dead(tables, board, rules) -> bool:
    packed = pack(board, rules)
    return bool(h3.h3_dead(packed.state, packed.params, tables))


def root_triples_dead() -> int:
    """Did the last solve's test over triples prove its root dead (0 or 1)?"""
    return dead_end_counters()["root_triples_dead"]


def kernel_family(tables, columns: int) -> set[frozenset]:
    """The kernel's family of the last call, as sets of named facts."""
    names = fact_names(tables, columns)
    triples = tables.triples.family
    count = int(tables.header[arrays.HEADER_FACTS])
    family = set()
    for p in range(count):
        for q in range(p, count):
            row = triples[p, q]
            for r in np.flatnonzero(np.unpackbits(row.view(np.uint8), bitorder="little")[:count]):
                family.add(frozenset((names[p], names[q], names[int(r)])))
    return family


@pytest.mark.parametrize("rules", [Rules("yukon"), Rules("russian")], ids=["yukon", "russian"])
def test_the_kernel_family_is_the_plain_python_one(rules):
    """On small positions (at most CROSS_CHECKED_CARDS cards in the columns): the kernel and
    ``h2_reference.triple_family`` agree on the verdict, and on a dead position (where the
    kernel's fixpoint runs to the end) on every set. Strict rules only: with foundation return
    the top card of every foundation can come back, so even a small position's family holds
    millions of sets, too many for plain Python (the encoding's return facts and actions are
    the pairwise test's, cross-checked in ``test_h2``)."""
    seen = Counter()

    @settings(max_examples=8, phases=NO_SHRINK, **SETTINGS)
    @given(verdict_positions(rules).filter(lambda board: sum(map(len, board.columns)) <= CROSS_CHECKED_CARDS))
    def check(board):
        tables = tables_for(board, rules)
        dead = triples_dead(tables, board, rules)
        expected = h2_reference.triple_family(board, board, rules)
        assert dead == h2_reference.lacks_home_pair(expected), board.to_text()
        if dead:
            assert kernel_family(tables, rules.column_count) == expected, board.to_text()
        seen[dead] += 1

    check()
    assert seen[True] > 0 and seen[False] > 0, seen


@one_deck
def test_triples_flag_what_pairs_flag_and_more(rules):
    """On positions of random playouts: every position the pairwise test flags is flagged, and
    in Yukon some it leaves alive are (in Russian, where a card has one parent, few such
    positions are left alive by pairs)."""
    seen = Counter()
    for root, board in playout_positions(rules, len(rules.label()) + 7, 40):
        tables = tables_for(root, rules)
        pairs, triples = kernel_dead(tables, board, rules), triples_dead(tables, board, rules)
        assert triples or not pairs, board.to_text()
        seen[pairs, triples] += 1
    assert seen[True, True] > 0 and seen[False, False] > 0, seen
    assert seen[False, True] > 0 or rules.variant == "russian", seen


@one_deck
def test_a_flagged_position_is_lost(rules):
    """Small positions (some lost by construction): whatever the test flags, exhaustive
    search proves lost; and the test flags some."""
    check_flagged_positions_are_lost(rules, triples_dead, 150)


def test_no_position_on_a_winning_line_is_flagged():
    """Every position on every 3,000th one-deck catalogue line of each rule set (a call on a
    live position costs tens of milliseconds; every 100th line: ``benchmarks/bench_h3.py
    lines``, in docs/hard-tail.md, "Triples at the root")."""
    checked = Counter()
    for rules, root, tokens in catalogue_lines(3000):
        tables = tables_for(root, rules)
        positions = [root] + [after for _token, _move, after in replay_tokens(root, tokens, rules)]
        for board in positions:
            assert not triples_dead(tables, board, rules), f"{rules.label()} line position\n{board.to_text()}"
            checked[rules.label()] += 1
    assert len(checked) == 4 and sum(checked.values()) > 300, checked


@one_deck
def test_search_verdicts_are_the_same_with_and_without_triples(rules):
    """The solve with the test over triples on the root of every position (no positions searched
    first) against the search with no pairwise test and no test of triples, on small positions of
    every one-deck rule set."""
    at_once = replace(DEFAULT, root_pairs_after=0, root_triples_after=0)
    seen = same_verdicts(rules, WITHOUT_TESTS, WITHOUT_TESTS | moves.TRIPLES, 40, root_triples_dead, at_once)
    assert seen[SOLVED, 0] > 0 and seen[UNSOLVABLE, 1] > 0, seen


def test_a_root_flagged_dead_is_proved_lost_at_once():
    """PySolFC 192 (lost, 75 k positions with every other test): with the root tested over triples
    after 2,000 positions it is proved lost within the next few; PySolFC 173 (won) is still won
    after the test ran on its root; without the test 192 needs far more positions."""
    config = replace(DEFAULT, root_triples_after=2_000, first_look_nodes=0)
    rules, limits = Rules("yukon"), Limits(max_nodes=3_000_000, time_limit=None)
    lost = checked_solve(deal_board("yukon", 192, "pysol"), rules, moves.ALL_REDUCTIONS, limits, config)
    assert lost.status == UNSOLVABLE and lost.nodes < 2_100, lost.nodes
    assert dead_end_counters()["root_triples_dead"] == 1
    won = checked_solve(deal_board("yukon", 173, "pysol"), rules, moves.ALL_REDUCTIONS, limits, config)
    assert won.status == SOLVED and dead_end_counters()["root_triples"] == 1
    no_triples = moves.ALL_REDUCTIONS & ~moves.EVERY_TRIPLE_TEST
    without = checked_solve(deal_board("yukon", 192, "pysol"), rules, no_triples, limits, config)
    assert without.status == UNSOLVABLE and without.nodes > 10 * lost.nodes


def test_only_the_root_flagged_dead_gets_no_moves():
    """The recorded verdict belongs to the root's keys: a search of the root gets no moves, a
    search of a position one move on, with the same tables, still gets some."""
    rules = Rules("yukon")
    packed = pack(deal_board("yukon", 192, "pysol"), rules)
    tables = dead_end_tables()
    h2.build_tables(packed.state, packed.params, tables)  # as the solve's pairwise stage does first
    assert dead_ends.root_triples_dead(packed, tables, moves.ALL_REDUCTIONS)
    root = searching.Search(packed, search.DFS, moves.ALL_REDUCTIONS, 0, 1 << 24, dead_ends=tables)
    assert root.stack[layout.STACK_COUNTS][0] == 0
    child = pack(deal_board("yukon", 192, "pysol"), rules)
    first_move = engine_moves(child)[0]
    apply_move(child.state, child.params, child.zobrist, child.column_keys, first_move)
    searched = searching.Search(child, search.DFS, moves.ALL_REDUCTIONS, 0, 1 << 24, dead_ends=tables)
    assert searched.stack[layout.STACK_COUNTS][0] > 0
