"""The dead-end tests of a position the search has just reached (``entry.new_position_dead``):
the remembered dead tables first, then HOPELESS, then the full pairwise test where due. Each
test is sound alone, so the order may change only what a position costs: the verdict must be
that of the three tests asked one by one, and each of them must decide some positions."""

import random
from collections import Counter

from engine_helpers import UNPACED_TUNING, engine_moves
from test_h2 import dead_ends_met, one_deck, remembered, tables_for

from solver.engine import layout, moves, search
from solver.engine.apply import apply_move, undo_move
from solver.engine.dead_ends import arrays, entry, h2, nogoods, path_facts
from solver.game.rules import Rules
from solver.search.packing import pack

OPTIONS = moves.ALL_REDUCTIONS


def deciding_test(packed, made, tables, due: bool) -> str:
    """Which test proves the position at ``packed`` (just reached by ``made``) dead, asked one
    by one from the kernels of each (the full test without remembering what it finds), or
    "alive"."""
    state, params = packed.state, packed.params
    read = bool(h2.position_facts(state, params, tables))
    if read and nogoods.held_by_ring(tables):
        return "remembered"
    control = search.make_control(search.DFS, OPTIONS, 0, 1 << 40, UNPACED_TUNING)
    if entry.pins_dead(state, params, control, made):
        return "hopeless"
    if read and due and h2.facts_dead(tables):
        return "full test"
    return "alive"


def verdicts_after_each_move(board, rules: Rules, tables, due: bool, seen: Counter) -> None:
    """For every move of ``board``: the position after it is dead by ``new_position_dead``
    exactly when one of the three tests says so."""
    packed = pack(board, rules)
    control = search.make_control(search.DFS, OPTIONS, 0, 1 << 40, UNPACED_TUNING)
    stack = layout.make_stack(2, layout.MOVE_LIST_SIZE, arrays.WORDS)
    for move in engine_moves(packed, OPTIONS):
        made = apply_move(packed.state, packed.params, packed.zobrist, packed.column_keys, move)
        decided_by = deciding_test(packed, made, tables, due)
        stack[layout.STACK_APPLIED][0] = made
        stack[layout.STACK_FACTS_READ][:] = path_facts.UNREAD
        dead = bool(entry.new_position_dead(packed.state, packed.params, stack, 1, control, tables, due))
        assert dead == (decided_by != "alive"), f"{decided_by} after {move} of\n{board.to_text()}"
        seen[decided_by] += 1
        undo_move(packed.state, packed.params, packed.zobrist, packed.column_keys, made)


@one_deck
def test_the_cheapest_first_order_keeps_every_verdict(rules):
    """Around dead ends met on random playouts, after every move of every position there: with
    a remembered (widened) dead table in the ring and the full test not due, then with an empty
    ring and the full test due, the tests in the search's order say dead exactly where one of
    them alone does; the remembered tables, HOPELESS and the full test each decide some
    positions, and some are alive."""
    seen = Counter()
    for root, dead, around in dead_ends_met(rules, random.Random(7 + len(rules.label())), 80):
        with_ring, empty_ring = remembered(root, dead, rules, True), tables_for(root, rules)
        for board in [dead, *around[:12]]:
            verdicts_after_each_move(board, rules, with_ring, False, seen)
            verdicts_after_each_move(board, rules, empty_ring, True, seen)
        if min(seen[test] for test in ("remembered", "hopeless", "full test", "alive")) >= 5:
            break
    assert all(seen[test] > 0 for test in ("remembered", "hopeless", "full test", "alive")), seen
