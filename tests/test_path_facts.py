"""The facts of the positions on the search path (engine/dead_ends/path_facts.py), kept move by move: on
random play of every one-deck rule set, the facts after each move, from the facts before it and
the move, are the facts read from the whole position; ``read_facts`` reads a position whole when
its parent was not read, and keeps what it read; along the path of a paused search, every
position's kept facts are its own."""

import random
from collections import Counter

import numpy as np
import pytest
from engine_helpers import engine_moves
from strategies import dealt_board
from test_h2 import one_deck, tables_for

from solver.engine import apply, layout, move_kinds, moves, search
from solver.engine.apply import apply_move, undo_move
from solver.engine.dead_ends import arrays, h2, path_facts
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.search import searching
from solver.search.budget import Budget
from solver.search.packing import pack

WALKS, STEPS = 12, 120


def whole_facts(packed, tables) -> tuple[bool, np.ndarray]:
    encoded = bool(h2.position_facts(packed.state, packed.params, tables))
    return encoded, tables.position.copy()


@one_deck
def test_facts_after_a_move_are_the_facts_of_the_position(rules):
    """Random walks (a foundation move where one is legal, half the time): after every move the
    kept facts equal the whole position's, and every kind of move was met, with and without a
    card turned."""
    rng, seen = random.Random(len(rules.label())), Counter()
    for walk in range(WALKS):
        root = dealt_board(rules, rng.randint(1, 31999))
        tables, packed = tables_for(root, rules), pack(root, rules)
        before = whole_facts(packed, tables)[1]
        after = np.zeros_like(before)
        for _ in range(STEPS):
            listed = engine_moves(packed)
            if not listed:
                break
            homeward = [move for move in listed if moves.move_kind(move) == move_kinds.TO_FOUNDATION]
            move = rng.choice(homeward if homeward and rng.random() < 0.5 else listed)
            made = apply_move(packed.state, packed.params, packed.zobrist, packed.column_keys, move)
            kept = bool(path_facts.facts_after_move(packed.state, packed.params, tables, before, after, made))
            encoded, whole = whole_facts(packed, tables)
            assert kept == encoded and np.array_equal(after, whole), f"walk {walk}, move {made}"
            seen[int(moves.move_kind(made)), bool(made & moves.TURNED)] += 1
            before = after.copy()
    assert {kind for kind, _ in seen} >= {move_kinds.TABLEAU, move_kinds.TO_FOUNDATION}, seen
    assert seen[move_kinds.TABLEAU, True] > 0 and seen[move_kinds.TO_FOUNDATION, True] > 0, seen
    assert seen[move_kinds.FROM_FOUNDATION, False] > 0 or not rules.foundation_return, seen


def test_read_facts_reads_whole_where_the_parent_was_not_read():
    """On a path of two moves: the root is read whole; the child from the root's facts; a
    grandchild whose parent is marked unread is read whole; a second read of a position gives
    what the first kept. Each time the tables' position mask is the whole position's."""
    rules = Rules("yukon")
    root = dealt_board(rules, 5)
    tables, packed = tables_for(root, rules), pack(root, rules)
    stack = layout.make_stack(4, 512, arrays.WORDS)
    status = stack[layout.STACK_FACTS_READ]
    status[:] = path_facts.UNREAD
    for depth in range(3):
        if depth:
            move = engine_moves(packed)[0]
            stack[layout.STACK_APPLIED][depth - 1] = apply_move(
                packed.state, packed.params, packed.zobrist, packed.column_keys, move
            )
        if depth == 2:
            status[1] = path_facts.UNREAD  # as if no test had asked about the parent
        whole = whole_facts(packed, tables)[1]
        tables.position[:] = 0
        assert path_facts.read_facts(packed.state, packed.params, stack, depth, tables)
        assert status[depth] == path_facts.READ
        assert np.array_equal(tables.position, whole), depth
        stack[layout.STACK_FACTS][depth, 0] ^= np.uint64(1 << 60)  # a second read keeps what it read
        assert path_facts.read_facts(packed.state, packed.params, stack, depth, tables)
        assert not np.array_equal(tables.position, whole)
        stack[layout.STACK_FACTS][depth, 0] ^= np.uint64(1 << 60)


@pytest.mark.parametrize(
    "deal, rules",
    [(1000051, Rules("yukon")), (3000105, Rules("yukon", foundation_return=True))],
    ids=["yukon", "yukon+return"],
)
def test_the_facts_kept_along_a_searched_path_are_its_positions(deal, rules):
    """A full search of a KPat deal (the pairwise tests on, so the remembered tables ask for facts
    on most positions), paused every 20,000 positions: walking the path back from where it
    paused, the kept facts of every position read are the whole position's; many were kept move by
    move (their parent read too)."""
    packed = pack(deal_board("yukon", deal, "kpat"), rules)
    searched = searching.Search(packed, search.DFS, moves.ALL_REDUCTIONS, 0, 1 << 28)
    h2.build_tables(packed.state, packed.params, searched.dead_ends)  # the tests let run, as at 2,000
    searched.dead_ends.header[arrays.HEADER_PAIRS_ON] = 1
    budget, checked = Budget(Limits(max_nodes=None, time_limit=None)), Counter()
    stack, p = searched.stack, packed
    for cap in range(20_000, 400_001, 20_000):
        assert searched.run(budget, cap) == search.PAUSED
        depth = int(searched.control[layout.CONTROL_DEPTH])
        status = stack[layout.STACK_FACTS_READ]
        for at in range(depth, -1, -1):
            if status[at] == path_facts.READ:
                whole = whole_facts(packed, searched.dead_ends)[1]
                assert np.array_equal(stack[layout.STACK_FACTS][at, : whole.size], whole), (cap, at)
                checked[at > 0 and status[at - 1] == path_facts.READ] += 1
            if at:
                undo_move(p.state, p.params, p.zobrist, p.column_keys, stack[layout.STACK_APPLIED][at - 1])
        apply.walk_forward(p.state, p.params, p.zobrist, p.column_keys, stack, 0, depth)
    assert checked[True] > 100 and checked[False] > 0, checked
