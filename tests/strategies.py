"""Random legal positions of every rule set, for the engine tests.

Two sources of positions:

* ``dealt_positions``: a numbered deal (PySolFC numbering, either of its generators) played
  on by a random number of random legal moves of the reference engine, biased towards
  foundation moves so that foundations fill and columns empty. ``playout`` walks such a
  game position by position.
* ``small_positions``: mid-game positions built directly: 8-20 cards left on the table
  (or in the milligan stock), the rest on foundations with consistent heights, columns of
  random lengths (some empty), some cards face down. Small enough for ``exhaustive``.
* ``built_positions``: small positions whose columns are mostly built in sequence (a card
  lies on a card it builds on), so that cards often have a choice of parents.
* ``dead_positions``: small positions that are lost by construction (a card pinned above
  everything it needs), so that samples hold unsolvable positions of every rule set.
"""

import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from solver.game.board import Board, check_board
from solver.game.cards import KING, card_rank, card_suit, make_card
from solver.game.numbering import deal_board
from solver.game.reference import STOCK_DEAL, TO_FOUNDATION, apply_move, builds_on, legal_moves
from solver.game.rules import VARIANTS, Rules

RULE_SETS = tuple(
    Rules(variant, foundation_return) for variant in VARIANTS for foundation_return in (False, True)
)
RULE_IDS = tuple(rules.label() for rules in RULE_SETS)

# PySolFC deal numbers: the Microsoft generator below 32000, Mersenne Twister above.
deal_numbers = st.one_of(st.integers(1, 31999), st.integers(32000, 10**20))
seeds = st.integers(0, 2**32 - 1)


# --- playouts -----------------------------------------------------------------------------


def random_move(board: Board, rules: Rules, rng: random.Random, foundation_bias: float = 0.4):
    """A random legal move (None if there is none): a foundation move with probability
    ``foundation_bias`` when one exists, a stock deal rarely, else any move."""
    moves = legal_moves(board, rules)
    if not moves:
        return None
    home = [move for move in moves if move.kind == TO_FOUNDATION]
    if home and rng.random() < foundation_bias:
        return rng.choice(home)
    others = [move for move in moves if move.kind != STOCK_DEAL]
    if not others or rng.random() < 0.08:
        return rng.choice(moves)
    return rng.choice(others)


def playout(board: Board, rules: Rules, rng: random.Random, steps: int, foundation_bias: float = 0.4):
    """Yield up to ``steps + 1`` boards: ``board`` then the position after each random move;
    stops early when no move is left."""
    yield board
    for _ in range(steps):
        move = random_move(board, rules, rng, foundation_bias)
        if move is None:
            return
        board = apply_move(board, move, rules)
        yield board


# Settings of the property tests that walk drawn playouts: deterministic, no time limit.
PLAYOUT_SETTINGS = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=30,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def drawn_playout(board: Board, rules: Rules, data, steps: int = 40):
    """The positions of a playout whose moves hypothesis draws from ``data`` (choosing
    among foundation moves only when it draws so), the starting position included."""
    yield board
    for _ in range(steps):
        moves = legal_moves(board, rules)
        if not moves:
            return
        home = [move for move in moves if move.kind == TO_FOUNDATION]
        if home and data.draw(st.booleans(), label="home first"):
            moves = home
        board = apply_move(board, moves[data.draw(st.integers(0, len(moves) - 1), label="move")], rules)
        yield board


def dealt_board(rules: Rules, number: int) -> Board:
    return deal_board(rules.variant, number, "pysol")


@st.composite
def dealt_positions(draw, rules: Rules, max_moves: int = 150):
    """A numbered deal after a random number of random legal moves."""
    board = dealt_board(rules, draw(deal_numbers))
    rng = random.Random(draw(seeds))
    steps = draw(st.integers(0, max_moves))
    bias = draw(st.sampled_from((0.2, 0.5, 0.9)))
    *_, board = playout(board, rules, rng, steps, bias)
    check_board(board, rules)
    return board


# --- small positions ------------------------------------------------------------------------


@st.composite
def foundation_heights(draw, rules: Rules, left: int):
    """Foundation heights with exactly ``left`` cards still off the foundations."""
    heights = [KING] * rules.foundation_count
    # Take cards off random non-empty slots; sometimes crowd them into few suits.
    crowd = draw(st.booleans())
    favoured = draw(st.lists(st.integers(0, rules.foundation_count - 1), min_size=1, max_size=3))
    for _ in range(left):
        candidates = [slot for slot in range(rules.foundation_count) if heights[slot] > 0]
        if crowd:
            preferred = [slot for slot in favoured if heights[slot] > 0]
            candidates = preferred or candidates
        heights[draw(st.sampled_from(candidates))] -= 1
    return tuple(heights)


def cards_off_foundations(heights) -> list[int]:
    return [
        make_card(rank, slot % 4)
        for slot, height in enumerate(heights)
        for rank in range(height + 1, KING + 1)
    ]


@st.composite
def deal_out(
    draw, rules: Rules, cards, stock: bool | None, max_face_down: int, fixed_column=None, empty_columns=True
):
    """Lay ``cards`` out as columns (some cards face down; some columns empty unless
    ``empty_columns`` is false and there are cards enough) and, for milligan, a stock.
    ``fixed_column`` (cards, face-down count) is put into one of the columns as is."""
    cards = list(draw(st.permutations(cards)))
    stock_size = 0
    if rules.variant == "milligan" and stock is not False and len(cards) > 1:
        low = 1 if stock else 0
        stock_size = draw(st.integers(low, min(len(cards) - 1, 2 * rules.column_count)))
    free = rules.column_count - (fixed_column is not None)
    if not empty_columns:
        stock_size = min(stock_size, max(len(cards) - free, 0))
    stock_cards, table = tuple(cards[:stock_size]), cards[stock_size:]
    # Column lengths: cut the table cards at random points; some columns end up empty.
    if empty_columns or len(table) < free:
        cuts = draw(st.lists(st.integers(0, len(table)), min_size=free - 1, max_size=free - 1))
    else:
        cuts = draw(
            st.lists(st.integers(1, len(table) - 1), min_size=free - 1, max_size=free - 1, unique=True)
        )
    bounds = [0, *sorted(cuts), len(table)]
    columns = [tuple(table[bounds[i] : bounds[i + 1]]) for i in range(free)]
    face_down_counts = [
        draw(st.integers(0, min(len(column) - 1, max_face_down))) if column else 0 for column in columns
    ]
    if fixed_column is not None:
        at = draw(st.integers(0, free))
        columns.insert(at, tuple(fixed_column[0]))
        face_down_counts.insert(at, fixed_column[1])
    order = draw(st.permutations(range(rules.column_count)))
    return (
        tuple(columns[i] for i in order),
        tuple(face_down_counts[i] for i in order),
        stock_cards,
    )


@st.composite
def small_positions(
    draw,
    rules: Rules,
    min_cards: int = 8,
    max_cards: int = 20,
    stock: bool | None = None,
    max_face_down: int = 3,
    empty_columns: bool = True,
):
    """A valid mid-game position with ``min_cards..max_cards`` cards off the foundations.

    ``stock`` (milligan only): True forces a non-empty stock, False an empty one, None
    either. ``empty_columns=False``: every column holds a card (if there are enough)."""
    left = draw(st.integers(min_cards, max_cards))
    heights = draw(foundation_heights(rules, left))
    columns, face_down_counts, stock_cards = draw(
        deal_out(rules, cards_off_foundations(heights), stock, max_face_down, empty_columns=empty_columns)
    )
    board = Board(columns, face_down_counts, heights, stock_cards)
    check_board(board, rules)
    return board


@st.composite
def built_positions(draw, rules: Rules, min_cards: int = 10, max_cards: int = 20, max_face_down: int = 5):
    """A position with ``min_cards..max_cards`` cards off the foundations, dealt card by
    card onto the columns, most often onto a column whose last card it builds on."""
    heights = draw(foundation_heights(rules, draw(st.integers(min_cards, max_cards))))
    columns = [[] for _ in range(rules.column_count)]
    for card in draw(st.permutations(cards_off_foundations(heights))):
        parents = [column for column in columns if column and builds_on(card, column[-1], rules)]
        if parents and draw(st.integers(0, 9)) < 7:
            draw(st.sampled_from(parents)).append(card)
        else:
            draw(st.sampled_from(columns)).append(card)
    face_down_counts = tuple(
        draw(st.integers(0, min(len(column) - 1, max_face_down))) if column else 0 for column in columns
    )
    board = Board(tuple(tuple(column) for column in columns), face_down_counts, heights, ())
    check_board(board, rules)
    return board


@st.composite
def dead_positions(
    draw,
    rules: Rules,
    max_cards: int = 20,
    stock: bool | None = None,
    max_face_down: int = 2,
    empty_columns: bool = True,
    bury_kings: bool = False,
    lowest_rank: int = 9,
):
    """A small position that is unsolvable by construction: some card D (rank 9..Q, or from
    ``lowest_rank``; the lower, the more cards stay off the foundations) is the
    lowest face-up card of its column, and every copy of D's foundation predecessor and of
    every card D could build on lies face down beneath it (none of them on a foundation).
    D can neither go home, nor lead a packet anywhere, nor be carried off by a card below
    it, so the cards beneath it never come out.

    ``bury_kings``: every King lies beneath D as well (so no suit is ever complete). With
    foundation return this keeps the position small: a complete suit's King could come back
    into any empty column and bring its suit with it."""
    rank = draw(st.integers(lowest_rank, 12))
    suit = draw(st.integers(0, 3))
    dead = make_card(rank, suit)
    targets = [
        make_card(rank + 1, other) for other in range(4) if builds_on(dead, make_card(rank + 1, other), rules)
    ]
    heights = [KING] * rules.foundation_count
    for slot in range(rules.foundation_count):
        if slot % 4 == suit:
            heights[slot] = min(heights[slot], rank - 2)
        if any(card_suit(target) == slot % 4 for target in targets):
            heights[slot] = min(heights[slot], rank)
        if bury_kings:
            heights[slot] = min(heights[slot], KING - 1)
    # A few more cards off random foundations.
    extra = draw(st.lists(st.integers(0, rules.foundation_count - 1), max_size=4))
    for slot in extra:
        if len(cards_off_foundations(heights)) < max_cards:
            heights[slot] = max(heights[slot] - 1, 0)
    cards = cards_off_foundations(heights)
    buried = [
        card
        for card in cards
        if card in targets or card == dead - 1 or (bury_kings and card_rank(card) == KING)
    ]
    rest = [card for card in cards if card not in buried]
    rest.remove(dead)
    rest = list(draw(st.permutations(rest)))
    on_top = draw(st.integers(0, min(2, len(rest))))
    column = (*draw(st.permutations(buried)), dead, *rest[:on_top])
    columns, face_down_counts, stock_cards = draw(
        deal_out(rules, rest[on_top:], stock, max_face_down, (column, len(buried)), empty_columns)
    )
    board = Board(columns, face_down_counts, tuple(heights), stock_cards)
    check_board(board, rules)
    return board


def positions(rules: Rules):
    """Either kind of position."""
    return st.one_of(dealt_positions(rules), small_positions(rules))
