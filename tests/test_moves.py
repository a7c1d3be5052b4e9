"""engine/moves.py and engine/apply.py: move generation, apply and undo against the reference engine."""

import random
from collections import Counter

import numpy as np
from engine_helpers import (
    PLAYOUT_EXAMPLES,
    PLAYOUT_LENGTH,
    SETTINGS,
    assert_generator_matches,
    engine_move_list,
    engine_moves,
    filled_board,
    live_state,
    rules_sets,
    walk,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import deal_numbers, dealt_positions, playout, random_move, seeds, small_positions

from solver.engine import apply, layout, moves
from solver.game import reference
from solver.game.board import canonical_foundations
from solver.game.cards import parse_card
from solver.game.reference import TO_FOUNDATION, Move, legal_moves
from solver.game.rules import Rules
from solver.search.packing import decode, pack, raw_foundations, unpack


@rules_sets
@settings(max_examples=PLAYOUT_EXAMPLES, **SETTINGS)
@given(number=deal_numbers, seed=seeds)
def test_generator_matches_reference_on_playouts(rules, number, seed):
    checked = 0
    for board in walk(rules, number, seed, PLAYOUT_LENGTH):
        assert_generator_matches(board, rules)
        checked += 1
    assert checked == PLAYOUT_LENGTH


@rules_sets
@settings(max_examples=100, **SETTINGS)
@given(data=st.data())
def test_generator_matches_reference_on_small_positions(rules, data):
    """Empty columns, nearly full foundations, equal twin foundations, short stocks."""
    start = data.draw(small_positions(rules, 1, 20))
    rng = random.Random(data.draw(seeds))
    for board in playout(start, rules, rng, 20):
        assert_generator_matches(board, rules)


def test_generator_foundation_slot_conventions():
    """Two decks: a card goes home to the lowest slot of height r-1; a card comes back from
    the slot reference.returnable_slots names (the later of two equal slots)."""
    rules = Rules("milligan", foundation_return=True)
    heights = {"S": (4, 4), "H": (3, 3), "D": (13, 13), "C": (13, 13)}
    board = filled_board(rules, heights, ["5H", "4H", "KS 9S"])
    assert_generator_matches(board, rules)
    found = engine_move_list(board, rules)
    assert Move(TO_FOUNDATION, 1, 1, parse_card("4H")) in found
    assert Move(reference.FROM_FOUNDATION, 4, 0, parse_card("4S")) in found
    assert Move(reference.FROM_FOUNDATION, 0, 0, parse_card("4S")) not in found
    unequal = filled_board(rules, {"S": (4, 4), "H": (5, 3), "D": (13, 13), "C": (13, 13)}, ["5H", "4H"])
    assert_generator_matches(unequal, rules)
    assert Move(TO_FOUNDATION, 1, 5, parse_card("4H")) in engine_move_list(unequal, rules)


# --- apply and undo ------------------------------------------------------------------------


@rules_sets
@settings(max_examples=40, **SETTINGS)
@given(data=st.data())
def test_apply_and_undo_agree_with_reference(rules, data):
    board = data.draw(st.one_of(dealt_positions(rules, max_moves=40), small_positions(rules, 1, 20)))
    rng = random.Random(data.draw(seeds))
    packed = pack(board, rules)
    start_state, start_keys = live_state(packed), packed.column_keys.copy()
    applied = []
    for _ in range(100):
        move = random_move(board, rules, rng, rng.choice((0.2, 0.6)))
        if move is None:
            break
        generated = engine_moves(packed)  # on a state the engine itself has been moving
        assert Counter(decode(m) for m in generated) == Counter(legal_moves(board, rules)), board.to_text()
        candidates = [m for m in generated if decode(m) == move]
        assert len(candidates) == 1, (move, board.to_text())
        engine_move = candidates[0]
        before_state, before_keys = live_state(packed), packed.column_keys.copy()
        p = packed
        done = apply.apply_move(p.state, p.params, p.zobrist, p.column_keys, engine_move)
        after = reference.apply_move(board, move, rules)
        assert unpack(packed) == after, (move, board.to_text())
        heights = raw_foundations(packed)
        assert heights == canonical_foundations(heights), "twin foundations out of falling order"
        turned = after.face_down_counts != board.face_down_counts
        assert bool(done & moves.TURNED) == turned
        assert (done & ~moves.TURNED) == engine_move
        # The incremental column keys are those computed afresh from the state. (Not
        # from pack(after): a shorter stock means other params, so another Zobrist table.)
        fresh = np.zeros_like(packed.column_keys)
        layout.init_column_keys(p.state, p.params, p.zobrist, fresh)
        assert np.array_equal(packed.column_keys, fresh)
        # Undo restores the position and its keys exactly; then make the move again.
        apply.undo_move(p.state, p.params, p.zobrist, p.column_keys, done)
        assert live_state(packed) == before_state
        assert np.array_equal(packed.column_keys, before_keys)
        assert unpack(packed) == board
        assert apply.apply_move(p.state, p.params, p.zobrist, p.column_keys, engine_move) == done
        applied.append(done)
        board = after
    for done in reversed(applied):
        apply.undo_move(packed.state, packed.params, packed.zobrist, packed.column_keys, done)
    assert live_state(packed) == start_state
    assert np.array_equal(packed.column_keys, start_keys)
