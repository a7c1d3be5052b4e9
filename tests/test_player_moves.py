"""engine/player_moves.py: the greedy player's moves, generated from its view (the masked
state), are the reference engine's legal moves but foundation return, in the reference
engine's order (the order the greedy player's tie-break follows)."""

import random

import numpy as np
from engine_helpers import SETTINGS, rules_sets, walk
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import built_positions, deal_numbers, playout, seeds, small_positions

from solver.engine import layout, player_moves
from solver.game.board import Board
from solver.game.reference import FROM_FOUNDATION, Move, legal_moves
from solver.game.rules import Rules
from solver.search.packing import decode, pack


def player_move_list(board: Board, rules: Rules) -> list[Move]:
    """The moves ``player_moves.generate`` finds in the view of ``board``."""
    packed = pack(board, rules)
    view = np.empty_like(packed.state)
    player_moves.mask_into(packed.state, packed.params, view)
    out = np.empty(layout.MOVE_LIST_SIZE, dtype=np.int64)
    count = player_moves.generate(view, packed.params, out)
    return [decode(int(move)) for move in out[:count]]


def assert_player_moves_match(board: Board, rules: Rules) -> None:
    expected = [move for move in legal_moves(board, rules) if move.kind != FROM_FOUNDATION]
    assert player_move_list(board, rules) == expected, f"{rules.label()} position:\n{board.to_text()}"


@rules_sets
@settings(max_examples=20, **SETTINGS)
@given(number=deal_numbers, seed=seeds)
def test_player_moves_match_reference_on_playouts(rules, number, seed):
    for board in walk(rules, number, seed, 100):
        assert_player_moves_match(board, rules)


@rules_sets
@settings(max_examples=50, **SETTINGS)
@given(data=st.data())
def test_player_moves_match_reference_on_small_positions(rules, data):
    """Empty columns, nearly full foundations, equal twin foundations, short stocks, cards
    with a choice of parents."""
    start = data.draw(st.one_of(small_positions(rules, 1, 20), built_positions(rules)))
    for board in playout(start, rules, random.Random(data.draw(seeds)), 20):
        assert_player_moves_match(board, rules)
