"""The dead-end tests of a position the search has just reached (``search.new_position_dead``):
the remembered dead tables first, then HOPELESS, then the full pairwise test where due. Each
test is sound alone, so the order may change only what a position costs: the verdict must be the
one of HOPELESS followed by the pairwise tests, as the search asked them before."""

import random
from collections import Counter

from engine_helpers import engine_moves
from strategies import dealt_board
from test_h2 import cousins, one_deck, remembered

from solver.engine import moves, search
from solver.engine.apply import apply_move, undo_move
from solver.packing import pack
from solver.rules import Rules

OPTIONS = moves.ALL_REDUCTIONS


def verdicts_after_each_move(board, rules: Rules, tables, due: bool, seen: Counter) -> None:
    """For every move of ``board``: the position after it is dead by ``new_position_dead``
    exactly when HOPELESS or the pairwise tests (``pairs_dead``) say so."""
    packed = pack(board, rules)
    control = search.make_control(search.DFS, OPTIONS, 0, 1 << 40)
    for move in engine_moves(packed, OPTIONS):
        made = apply_move(packed.state, packed.params, packed.zobrist, packed.column_keys, move)
        state, params = packed.state, packed.params
        before = bool(
            search.pins_dead(state, params, OPTIONS, made)
            or search.pairs_dead(state, params, control, tables, due)
        )
        now = bool(search.new_position_dead(state, params, control, tables, due, made))
        assert now == before, f"after {move} of\n{board.to_text()}"
        seen[before] += 1
        undo_move(packed.state, packed.params, packed.zobrist, packed.column_keys, made)


@one_deck
def test_the_cheapest_first_order_keeps_every_verdict(rules):
    """Around a dead end met on random playouts (a remembered dead table in the ring, widened),
    after every move of every position there: with the full test due and not, the tests in the
    search's order give the verdict of HOPELESS followed by the pairwise tests, and both verdicts
    occur."""
    rng = random.Random(7 + len(rules.label()))
    seen = Counter()
    for _ in range(60):
        root = dealt_board(rules, rng.randint(1, 31999))
        dead, around = cousins(root, rules, rng)
        if dead is None:
            continue
        tables = remembered(root, dead, rules, True)
        for index, board in enumerate([dead, *around[:12]]):
            verdicts_after_each_move(board, rules, tables, index % 3 == 0, seen)
        if seen[True] >= 20 and seen[False] >= 20:
            break
    assert seen[True] > 0 and seen[False] > 0, seen
