"""The greedy player: the scores that rank its moves, its choice, and whole games, over the
packed state (``layout``) and the moves of ``player_moves``.

No peeking: ``choose`` reads only a view (``player_moves.mask_into``: face-down and stock
cards HIDDEN); ``play`` masks the true state before every decision and applies the chosen
move to the true state (``apply.apply_move``), which turns the card a person would then
see. A test permutes hidden cards and checks that decisions stay the same.

The greedy scores (the highest wins; ties broken by the seeded generator; below 0 never):

=========================================================  =============================
a safe foundation move (every card that could build on       5000
the card is already on a foundation)
a move that turns a face-down card (the packet on it, or     3000 + 10 x face-down cards
its last face-up card to the foundation)                     in that column: deepest first
another foundation move                                      1000
a tableau move that exposes a card a foundation takes        900
emptying a column (a non-King from the bottom of a column)   800 when a King lies face up
                                                             on another card, else 40
a King-led packet into an empty column (off a face-up card)  600
a packet onto a new parent, exposing a face-up card          100 + 10 x face-down cards of
                                                             the column - cards between,
                                                             at least 60
a stock deal (Milligan)                                      50
moving a packet off a card it builds on                      10
a whole column led by a King, undoing the previous move,     never
foundation return
=========================================================  =============================

With ``random_share`` > 0 (per mille; 0 for the greedy player itself) a decision is, that
share of the time, a move drawn uniformly among those scoring 0 or more instead: the weaker
players of the difficulty ladder (``solver.player.ladder``). With 0 no extra number is drawn,
so the greedy player's games are those it always played.

A game ends when it is won, when no move scores 0 or more, after ``max_moves`` moves, or
after STALL_LIMIT moves in a row that neither turn a card, fill a foundation nor deal.
"""

import numpy as np

from solver.engine.apply import apply_move
from solver.engine.cards import builds_on, rank_of
from solver.engine.jit import allocating_kernel, kernel
from solver.engine.layout import (
    CAPACITY,
    CARD_COUNT,
    COLUMNS,
    FACE_DOWN,
    LENGTHS,
    MOVE_LIST_SIZE,
    SAME_SUIT,
    STOCK_NEXT,
    cards_home,
    mix,
)
from solver.engine.move_kinds import STOCK_DEAL, TABLEAU, TO_FOUNDATION
from solver.engine.moves import (
    foundation_slot_for,
    landers_all_home,
    move_card,
    move_kind,
    move_size,
    move_source,
    move_target,
)
from solver.engine.player_moves import generate, mask_into

NO_MOVE = -1
NEVER = -1
SAFE_FOUNDATION_SCORE, TURN_SCORE, FOUNDATION_SCORE = 5000, 3000, 1000
EXPOSE_FOUNDATION_SCORE, EMPTY_COLUMN_SCORE, KING_TO_EMPTY_SCORE = 900, 800, 600
BUILD_SCORE, BUILD_FLOOR, DEAL_SCORE, EMPTY_EARLY_SCORE, LATERAL_SCORE = 100, 60, 50, 40, 10
STALL_LIMIT = 50
GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)


@kernel
def next_random(rng):
    """splitmix64 over the one-word state ``rng``."""
    rng[0] += GOLDEN_GAMMA
    return mix(rng[0])


@kernel
def king_waiting(view, params, skip):
    """Does a face-up King lie on another card in some column other than ``skip``?"""
    capacity = params[CAPACITY]
    for column in range(params[COLUMNS]):
        if column == skip:
            continue
        for index in range(max(view[params[FACE_DOWN] + column], 1), view[params[LENGTHS] + column]):
            if rank_of(view[column * capacity + index]) == 13:
                return True
    return False


@kernel
def undoes(move, previous):
    """Does ``move`` take the packet ``previous`` moved straight back?"""
    return (
        previous != NO_MOVE
        and move_kind(previous) == TABLEAU
        and move_card(previous) == move_card(move)
        and move_source(previous) == move_target(move)
        and move_target(previous) == move_source(move)
    )


@kernel
def score(view, params, move, previous):
    """The greedy score of a legal move (see the module docstring)."""
    kind = move_kind(move)
    if kind == STOCK_DEAL:
        return DEAL_SCORE
    source = move_source(move)
    length = view[params[LENGTHS] + source]
    face_down = view[params[FACE_DOWN] + source]
    if kind == TO_FOUNDATION:
        if landers_all_home(view, params, move_card(move)):
            return SAFE_FOUNDATION_SCORE
        if length - 1 == face_down and face_down > 0:
            return TURN_SCORE + 10 * face_down
        return FOUNDATION_SCORE
    if undoes(move, previous):
        return NEVER
    index = length - move_size(move)
    leader = move_card(move)
    if index == face_down:
        if face_down > 0:
            return TURN_SCORE + 10 * face_down
        if rank_of(leader) == 13:
            return NEVER
        return EMPTY_COLUMN_SCORE if king_waiting(view, params, source) else EMPTY_EARLY_SCORE
    beneath = view[source * params[CAPACITY] + index - 1]
    if foundation_slot_for(view, params, beneath) >= 0:
        return EXPOSE_FOUNDATION_SCORE
    if rank_of(leader) == 13:
        return KING_TO_EMPTY_SCORE
    if builds_on(leader, beneath, params[SAME_SUIT]):
        return LATERAL_SCORE
    return max(BUILD_FLOOR, BUILD_SCORE + 10 * face_down - (index - face_down))


@kernel
def score_all(view, params, previous, moves, scores):
    """Every move of ``view`` and its score into ``moves`` and ``scores``; returns how many."""
    count = generate(view, params, moves)
    for at in range(count):
        scores[at] = score(view, params, moves[at], previous)
    return count


@kernel
def random_worth(count, rng, moves, scores):
    """A move drawn uniformly among the first ``count`` whose score is 0 or more, or NO_MOVE."""
    worth = 0
    for at in range(count):
        worth += 1 if scores[at] > NEVER else 0
    if worth == 0:
        return NO_MOVE
    left = next_random(rng) % np.uint64(worth)
    for at in range(count):
        if scores[at] > NEVER:
            if left == np.uint64(0):
                return moves[at]
            left -= np.uint64(1)
    return NO_MOVE


@kernel
def choose(view, params, previous, rng, moves, scores, random_share):
    """The greedy move of a view, or NO_MOVE; ties go to a move drawn uniformly by the
    generator (which is drawn from only when there is a tie). With ``random_share`` > 0, one
    number is drawn first: below the share (per mille), a random move worth playing instead."""
    count = score_all(view, params, previous, moves, scores)
    if random_share > 0 and next_random(rng) % np.uint64(1000) < np.uint64(random_share):
        return random_worth(count, rng, moves, scores)
    best, chosen, ties = NEVER, NO_MOVE, 0
    for at in range(count):
        if scores[at] > best:
            best, chosen, ties = scores[at], moves[at], 1
        elif scores[at] == best and best > NEVER:
            ties += 1
            if next_random(rng) % np.uint64(ties) == np.uint64(0):
                chosen = moves[at]
    return chosen


@kernel
def progress(state, params):
    """Cards on the foundations, less cards face down, plus cards dealt: grows with every
    move that fills a foundation, turns a card or deals."""
    face_down = 0
    for column in range(params[COLUMNS]):
        face_down += state[params[FACE_DOWN] + column]
    return cards_home(state, params) - face_down + state[params[STOCK_NEXT]]


@kernel
def is_won(state, params):
    """Are all cards on the foundations?"""
    return cards_home(state, params) == params[CARD_COUNT]


@allocating_kernel
def play(state, params, zobrist, column_keys, seed, max_moves, line, random_share):
    """Play greedily (``random_share``: see the module docstring) from a true position
    (changed in place) until won, stuck or ``max_moves`` moves; the moves go into ``line``.
    Returns (won, moves played)."""
    rng = np.full(1, seed, dtype=np.uint64)
    view = np.empty_like(state)
    moves = np.empty(MOVE_LIST_SIZE, dtype=np.int64)
    scores = np.empty(MOVE_LIST_SIZE, dtype=np.int64)
    previous, played, stalled = NO_MOVE, 0, 0
    while played < max_moves and stalled < STALL_LIMIT and not is_won(state, params):
        mask_into(state, params, view)
        move = choose(view, params, previous, rng, moves, scores, random_share)
        if move == NO_MOVE:
            break
        before = progress(state, params)
        apply_move(state, params, zobrist, column_keys, move)
        stalled = 0 if progress(state, params) > before else stalled + 1
        line[played] = move
        played += 1
        previous = move
    return is_won(state, params), played


@allocating_kernel
def play_runs(state, params, zobrist, column_keys, seeds, max_moves, random_share):
    """One greedy game per seed from the same true position (left unchanged); returns
    1 for each game won, else 0."""
    wins = np.zeros(seeds.shape[0], dtype=np.int8)
    line = np.empty(max_moves, dtype=np.int64)
    for run in range(seeds.shape[0]):
        won, _ = play(
            state.copy(), params, zobrist, column_keys.copy(), seeds[run], max_moves, line, random_share
        )
        wins[run] = 1 if won else 0
    return wins
