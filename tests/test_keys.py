"""engine/layout.py: the position keys (column order ignored once no stock is left)."""

import random

from engine_helpers import (
    MILLIGAN,
    SETTINGS,
    STOCK_ORDER_POSITION,
    filled_board,
    keys,
    permuted,
    rules_sets,
    walk,
)
from exhaustive import visit_key
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import dealt_positions, small_positions

from solver.game.board import parse_board
from solver.search.packing import pack


@rules_sets
@settings(max_examples=80, **SETTINGS)
@given(data=st.data())
def test_key_ignores_column_order(rules, data):
    board = data.draw(st.one_of(small_positions(rules, stock=False), dealt_positions(rules, max_moves=250)))
    if board.stock:  # column order matters while a stock is left; see the test below
        return
    order = data.draw(st.permutations(range(rules.column_count)))
    assert keys(pack(permuted(board, order), rules)) == keys(pack(board, rules))


@rules_sets
def test_keys_tell_positions_apart(rules):
    """Over a sample of positions, one key pair (and each key alone) belongs to one position."""
    owners: dict = {}
    firsts: dict = {}
    rng = random.Random(11)
    for game in range(25):
        for board in walk(rules, rng.randint(1, 10**6), game, 120):
            first, second = keys(pack(board, rules))
            assert owners.setdefault((first, second), visit_key(board)) == visit_key(board), board.to_text()
            assert firsts.setdefault(first, visit_key(board)) == visit_key(board), board.to_text()
    assert len(owners) > 1000


def test_key_keeps_column_order_while_stock_remains():
    """With a stock left, a deal puts its n-th card onto column n, so positions that differ in
    column order are different positions (see test_stock_column_order_decides_the_verdict in
    test_reductions.py)."""
    board = parse_board(STOCK_ORDER_POSITION, MILLIGAN)
    moved = permuted(board, (0, 1, 2, 7, 4, 5, 6, 3))
    assert keys(pack(moved, MILLIGAN)) != keys(pack(board, MILLIGAN))


def test_two_deck_foundations_are_a_multiset():
    """Milligan's two foundations of a suit are one multiset: heights given in either order
    are the same position, with the same keys (cards are identified by suit and rank, so
    the two copies of a card are one card by construction)."""
    tops = ["7H", "KS 9S"]
    one = filled_board(MILLIGAN, {"S": (5, 3), "H": (6, 2), "D": (13, 0), "C": (1, 12)}, tops)
    two = filled_board(MILLIGAN, {"S": (3, 5), "H": (2, 6), "D": (0, 13), "C": (12, 1)}, tops)
    assert keys(pack(one, MILLIGAN)) == keys(pack(two, MILLIGAN))
    lower = filled_board(MILLIGAN, {"S": (5, 2), "H": (6, 2), "D": (13, 0), "C": (1, 12)}, tops)
    assert keys(pack(one, MILLIGAN)) != keys(pack(lower, MILLIGAN))
