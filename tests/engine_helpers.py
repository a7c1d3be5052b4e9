"""Helpers and positions shared by the engine's test files (test_moves, test_keys,
test_prune, test_reductions, test_solve, ...).

Every test is deterministic: Hypothesis runs derandomized without a database, random
playouts use seeded ``random.Random``s, and solver runs are bounded by nodes, not time.
"""

import random
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from exhaustive import SOLVED
from hypothesis import HealthCheck, Phase
from hypothesis import strategies as st
from strategies import (
    RULE_IDS,
    RULE_SETS,
    built_positions,
    cards_off_foundations,
    dead_positions,
    dealt_board,
    playout,
    small_positions,
)

from solver.engine import layout, moves
from solver.engine.dead_ends import prune
from solver.game import reference
from solver.game.board import Board, check_board
from solver.game.cards import SUITS, parse_card
from solver.game.notation import replay_tokens
from solver.game.reference import Move, legal_moves
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.search.config import DEFAULT
from solver.search.packing import decode, pack, raw_foundations, unpack
from solver.search.solve import solve_position

SETTINGS = {
    "derandomize": True,
    "database": None,
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
}
# Shrinking re-runs the exhaustive search many times: skip it where that is expensive.
NO_SHRINK = (Phase.explicit, Phase.generate)

# Solver runs here are bounded by nodes only, so their outcome never depends on timing.
NODE_LIMITS = Limits(max_nodes=3_000_000, time_limit=None)
# The search without its first look (``solve.first_look``): the positions a result counts are the
# search's own, as tests of where a dead-end test stops it want.
NO_LOOK = replace(DEFAULT, first_look_nodes=0)
# The kernels' tuning with every in-search test where a test asks for it and nothing paced:
# the spacing 0 (the pairwise test on every position once let run), no test of costly positions.
UNPACED_TUNING = DEFAULT.kernel_tuning()._replace(
    pairs_spacing=0, costly_after=0, tests_on_trial=0, checks_per_table=0, splits_on_trial=0
)
MOVES = np.zeros(layout.MOVE_LIST_SIZE, dtype=np.int32)
SCORES = np.zeros(layout.MOVE_LIST_SIZE, dtype=np.int32)
LANDING = np.zeros(52, dtype=np.int64)

YUKON, RUSSIAN, MILLIGAN = Rules("yukon"), Rules("russian"), Rules("milligan")
REDUCTIONS = {
    "safe_foundation": moves.SAFE_FOUNDATION,
    "whole_column_to_empty": moves.WHOLE_COLUMN_TO_EMPTY,
    "first_empty_only": moves.FIRST_EMPTY_ONLY,
    "hopeless": moves.HOPELESS,
    "kings_keep_packets": moves.KINGS_KEEP_PACKETS,
    "twin_split": moves.TWIN_SPLIT,
}

rules_sets = pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)


PLAYOUT_EXAMPLES, PLAYOUT_LENGTH = 50, 200  # 10,000 positions per rule set
# The exhaustive search is plain Python: positions past this many states are skipped.
MAX_STATES = {"yukon": 1500, "russian": 1500, "milligan": 600}

# --- helpers ----------------------------------------------------------------------------


def engine_moves(packed, options: int = 0, deal_score: int = 0) -> list[int]:
    count = moves.generate_moves(packed.state, packed.params, options, deal_score, MOVES, SCORES, LANDING)
    assert count >= 0, "move list overflowed"
    return [int(move) for move in MOVES[:count]]


def engine_move_list(board: Board, rules: Rules, options: int = 0) -> list[Move]:
    return [decode(move) for move in engine_moves(pack(board, rules), options)]


def assert_generator_matches(board: Board, rules: Rules) -> None:
    engine = Counter(engine_move_list(board, rules))
    expected = Counter(legal_moves(board, rules))
    assert engine == expected, (
        f"{rules.label()} position:\n{board.to_text()}"
        f"engine only: {sorted((engine - expected).elements(), key=repr)}\n"
        f"reference only: {sorted((expected - engine).elements(), key=repr)}"
    )


def is_hopeless(board: Board, rules: Rules) -> bool:
    packed = pack(board, rules)
    return bool(prune.hopeless(packed.state, packed.params))


def keys(packed) -> tuple[int, int]:
    p = packed
    return tuple(int(key) for key in layout.position_keys(p.state, p.params, p.zobrist, p.column_keys))


def live_state(packed):
    """Everything in the state array that means something (the bytes past a column's
    length are leftovers and are never read)."""
    board = unpack(packed)
    stock_next = int(packed.state[packed.params[layout.STOCK_NEXT]])
    return board.columns, board.face_down_counts, raw_foundations(packed), board.stock, stock_next


def permuted(board: Board, order) -> Board:
    return Board(
        tuple(board.columns[i] for i in order),
        tuple(board.face_down_counts[i] for i in order),
        board.foundations,
        board.stock,
    )


def checked_solve(
    board: Board, rules: Rules, options: int = moves.ALL_REDUCTIONS, limits=NODE_LIMITS, config=DEFAULT
):
    """solve_position() with the search tuned by ``config``, and for a solved result our own
    replay of its tokens to a win."""
    result = solve_position(board, rules, limits, options, config=config)
    if result.status == SOLVED:
        steps = list(replay_tokens(board, result.solution.split(), rules))
        final = steps[-1][2] if steps else board
        assert reference.is_won(final), f"solution does not win:\n{board.to_text()}{result.solution}"
    return result


def filled_board(rules: Rules, heights: dict, tops: list[str]) -> Board:
    """Foundations at ``heights`` (suit letter -> heights of its slots); column i holds the
    face-up cards ``tops[i]`` (bottom first); every other card off the foundations lies face
    down beneath the last of them; the other columns are empty."""
    foundations = [0] * rules.foundation_count
    for suit, suit_heights in heights.items():
        for copy, height in enumerate(suit_heights):
            foundations[SUITS.index(suit) + 4 * copy] = height
    columns = [tuple(parse_card(word) for word in top.split()) for top in tops]
    left = Counter(cards_off_foundations(foundations))
    left.subtract(card for column in columns for card in column)
    assert all(count >= 0 for count in left.values()), "a card is listed twice"
    hidden = tuple(sorted(left.elements()))
    columns[-1] = hidden + columns[-1]
    face_down = [0] * len(columns)
    face_down[-1] = len(hidden)
    empty = rules.column_count - len(columns)
    board = Board(tuple(columns) + ((),) * empty, tuple(face_down) + (0,) * empty, tuple(foundations))
    check_board(board, rules)
    return board


def walk(rules: Rules, number: int, seed: int, positions: int):
    """``positions`` boards from random playouts of numbered deals (a new deal whenever a
    game gets stuck or won)."""
    rng = random.Random(seed)
    count = 0
    while True:
        bias = rng.choice((0.2, 0.5, 0.9))
        for board in playout(dealt_board(rules, number), rules, rng, positions, bias):
            yield board
            count += 1
            if count == positions:
                return
        number = rng.randint(1, 10**12)


def verdict_positions(rules: Rules):
    """Small positions (some built mostly in sequence), plus positions unsolvable by
    construction, sized for the exhaustive search: two decks with eight columns (and a
    stock) make far more positions per card.
    With foundation return a complete suit's King comes back into any empty column and
    brings its suit along, so there the positions are smaller, without empty columns, and
    the dead ones keep every King buried."""
    two_decks = rules.variant == "milligan"
    lowest_rank = 11 if two_decks else 9
    if rules.foundation_return:
        return st.one_of(
            small_positions(rules, 8, 10 if two_decks else 12, empty_columns=False),
            built_positions(rules, 8, 10 if two_decks else 11),
            dead_positions(rules, max_cards=12, bury_kings=True, lowest_rank=lowest_rank),
        )
    return st.one_of(
        small_positions(rules, 8, 12 if two_decks else 20),
        built_positions(rules, 8, 12 if two_decks else 20),
        dead_positions(rules, max_cards=12 if two_decks else 16, lowest_rank=lowest_rank),
    )


# Milligan with a stock: the win moves KS to column 4 before the first deal, so that 5S
# lands on it, and later moves [KS 5S] to column 1 so that 4S lands on 5S rather than QS.
# Positions that differ only in column order are different positions while a stock is
# left; a key (or an empty-column reduction) that treats them as one loses this win.
STOCK_ORDER_POSITION = """\
-
-
-
-
-
-
-
KS
Foundations: S-K H-K D-K C-K S-0 H-K D-K C-K
Stock: AS 2S 3S 5S 6S 7S 8S 9S 4S TS JS QS
"""
