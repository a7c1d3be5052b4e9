"""The greedy player as numba kernels: move generation, the scores that rank moves, and
whole games played on a masked copy of the state.

Arrays (one position): ``cols`` int8 (columns x capacity, bottom card first), ``lens`` and
``down`` int64 (cards and face-down cards per column), ``found`` int64 (foundation heights,
slot ``s`` builds suit ``s % 4``), ``stock`` int8 (dealing order) and ``misc`` int64
(``[next stock index, same-suit building]``).

No peeking: ``choose`` receives the masked columns (every face-down card replaced by
``HIDDEN``) and the number of stock cards left, never the stock; ``play`` masks the true
columns before every decision and applies the chosen move to the true state, which turns
the card a person would then see. A test permutes hidden cards and checks that decisions
stay the same.

A move is ``kind | source << 2 | target << 6 | size << 10 | card << 17`` (kinds TABLEAU,
TO_FOUNDATION, STOCK_DEAL; ``card`` leads the packet, or goes to the foundation).

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

A game ends when it is won, when no move scores 0 or more, after ``max_moves`` moves, or
after STALL_LIMIT moves in a row that neither turn a card, fill a foundation nor deal.
"""

import numba
import numpy as np

from solver.engine.cards import builds_on, rank_of, red
from solver.engine.jit import KERNEL_FLAGS

HIDDEN = -1
TABLEAU, TO_FOUNDATION, STOCK_DEAL = 0, 1, 3
NO_MOVE = -1
MAX_MOVES = 1024
NEVER = -1
SAFE_FOUNDATION_SCORE, TURN_SCORE, FOUNDATION_SCORE = 5000, 3000, 1000
EXPOSE_FOUNDATION_SCORE, EMPTY_COLUMN_SCORE, KING_TO_EMPTY_SCORE = 900, 800, 600
BUILD_SCORE, BUILD_FLOOR, DEAL_SCORE, EMPTY_EARLY_SCORE, LATERAL_SCORE = 100, 60, 50, 40, 10
STALL_LIMIT = 50

# The engine's flags and cache folder (which falls back to a writable place, or to no cache,
# with a note). Besides each other they call only the engine's card kernels: the cache folder
# is named after the engine's source digest, and numba's own check of this file's time stamp
# keeps the rest fresh.
kernel = numba.njit(**KERNEL_FLAGS)


@kernel
def encode(kind, source, target, size, card):
    return kind | (source << 2) | (target << 6) | (size << 10) | (card << 17)


@kernel
def move_kind(move):
    return move & 3


@kernel
def move_source(move):
    return (move >> 2) & 15


@kernel
def move_target(move):
    return (move >> 6) & 15


@kernel
def move_size(move):
    return (move >> 10) & 127


@kernel
def move_card(move):
    return (move >> 17) & 127


@kernel
def foundation_slot(found, card):
    """The first slot of the card's suit one rank below it, or -1."""
    for slot in range(card // 13, found.shape[0], 4):
        if found[slot] + 1 == rank_of(card):
            return slot
    return -1


@kernel
def landers_home(found, card, same_suit):
    """Is every card that could build on ``card`` already on a foundation?"""
    needed = rank_of(card) - 1
    for slot in range(found.shape[0]):
        suit = slot % 4
        lands = suit == card // 13 if same_suit else (suit == 1 or suit == 2) != red(card)
        if lands and found[slot] < needed:
            return False
    return True


@kernel
def next_random(rng):
    """splitmix64 over the one-word state ``rng``."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    value = rng[0]
    value = (value ^ (value >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    value = (value ^ (value >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return value ^ (value >> np.uint64(31))


@kernel
def generate(cols, lens, down, found, stock_left, same_suit, out):
    """Every legal move but foundation return into ``out``; returns how many."""
    count = 0
    columns = lens.shape[0]
    for source in range(columns):
        length = lens[source]
        for index in range(down[source], length):
            leader = cols[source, index]
            for target in range(columns):
                if target == source:
                    continue
                if lens[target] == 0:
                    fits = rank_of(leader) == 13
                else:
                    fits = builds_on(leader, cols[target, lens[target] - 1], same_suit)
                if fits and count < out.shape[0]:
                    out[count] = encode(TABLEAU, source, target, length - index, leader)
                    count += 1
        if length > 0 and count < out.shape[0]:
            slot = foundation_slot(found, cols[source, length - 1])
            if slot >= 0:
                out[count] = encode(TO_FOUNDATION, source, slot, 1, cols[source, length - 1])
                count += 1
    if stock_left > 0 and count < out.shape[0]:
        out[count] = encode(STOCK_DEAL, 0, 0, min(stock_left, columns), 0)
        count += 1
    return count


@kernel
def king_waiting(cols, lens, down, skip):
    """Does a face-up King lie on another card in some column other than ``skip``?"""
    for column in range(lens.shape[0]):
        if column == skip:
            continue
        for index in range(max(down[column], 1), lens[column]):
            if rank_of(cols[column, index]) == 13:
                return True
    return False


@kernel
def undoes(move, previous):
    return (
        previous != NO_MOVE
        and move_kind(previous) == TABLEAU
        and move_card(previous) == move_card(move)
        and move_source(previous) == move_target(move)
        and move_target(previous) == move_source(move)
    )


@kernel
def score(cols, lens, down, found, same_suit, move, previous):
    """The greedy score of a legal move (see the module docstring)."""
    kind = move_kind(move)
    if kind == STOCK_DEAL:
        return DEAL_SCORE
    source = move_source(move)
    length = lens[source]
    if kind == TO_FOUNDATION:
        if landers_home(found, move_card(move), same_suit):
            return SAFE_FOUNDATION_SCORE
        if length - 1 == down[source] and down[source] > 0:
            return TURN_SCORE + 10 * down[source]
        return FOUNDATION_SCORE
    if undoes(move, previous):
        return NEVER
    index = length - move_size(move)
    leader = move_card(move)
    if index == down[source]:
        if down[source] > 0:
            return TURN_SCORE + 10 * down[source]
        if rank_of(leader) == 13:
            return NEVER
        return EMPTY_COLUMN_SCORE if king_waiting(cols, lens, down, source) else EMPTY_EARLY_SCORE
    beneath = cols[source, index - 1]
    if foundation_slot(found, beneath) >= 0:
        return EXPOSE_FOUNDATION_SCORE
    if rank_of(leader) == 13:
        return KING_TO_EMPTY_SCORE
    if builds_on(leader, beneath, same_suit):
        return LATERAL_SCORE
    return max(BUILD_FLOOR, BUILD_SCORE + 10 * down[source] - (index - down[source]))


@kernel
def score_all(cols, lens, down, found, stock_left, same_suit, previous, moves, scores):
    """Every move and its score into ``moves`` and ``scores``; returns how many."""
    count = generate(cols, lens, down, found, stock_left, same_suit, moves)
    for at in range(count):
        scores[at] = score(cols, lens, down, found, same_suit, moves[at], previous)
    return count


@kernel
def choose(cols, lens, down, found, stock_left, same_suit, previous, rng, moves, scores):
    """The greedy move of a (masked) position, or NO_MOVE; ties go to a move drawn
    uniformly by the generator (which is drawn from only when there is a tie)."""
    count = score_all(cols, lens, down, found, stock_left, same_suit, previous, moves, scores)
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
def apply(cols, lens, down, found, stock, misc, move):
    """Play a legal move on a true position, turning any face-down card left exposed."""
    kind = move_kind(move)
    source, target, size = move_source(move), move_target(move), move_size(move)
    if kind == TABLEAU:
        for k in range(size):
            cols[target, lens[target] + k] = cols[source, lens[source] - size + k]
        lens[target] += size
        lens[source] -= size
    elif kind == TO_FOUNDATION:
        found[foundation_slot(found, cols[source, lens[source] - 1])] += 1
        lens[source] -= 1
    else:
        for column in range(size):
            cols[column, lens[column]] = stock[misc[0]]
            misc[0] += 1
            lens[column] += 1
    for column in range(lens.shape[0]):
        down[column] = min(down[column], max(lens[column] - 1, 0))


@kernel
def mask_into(cols, lens, down, masked):
    """``masked`` := ``cols`` with every face-down card replaced by HIDDEN."""
    for column in range(lens.shape[0]):
        for index in range(lens[column]):
            masked[column, index] = HIDDEN if index < down[column] else cols[column, index]


@kernel
def is_won(found):
    for slot in range(found.shape[0]):
        if found[slot] != 13:
            return False
    return True


@kernel
def play(cols, lens, down, found, stock, misc, seed, max_moves, line):
    """Play greedily from a true position (changed in place) until won, stuck or
    ``max_moves`` moves; the moves go into ``line``. Returns (won, moves played)."""
    rng = np.full(1, seed, dtype=np.uint64)
    masked = np.empty_like(cols)
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    scores = np.empty(MAX_MOVES, dtype=np.int64)
    previous, played, stalled = NO_MOVE, 0, 0
    while played < max_moves and stalled < STALL_LIMIT and not is_won(found):
        mask_into(cols, lens, down, masked)
        stock_left = stock.shape[0] - misc[0]
        move = choose(masked, lens, down, found, stock_left, misc[1], previous, rng, moves, scores)
        if move == NO_MOVE:
            break
        progress = np.sum(found) - np.sum(down) + misc[0]
        apply(cols, lens, down, found, stock, misc, move)
        stalled = 0 if np.sum(found) - np.sum(down) + misc[0] > progress else stalled + 1
        line[played] = move
        played += 1
        previous = move
    return is_won(found), played


@kernel
def play_runs(cols, lens, down, found, stock, misc, seeds, max_moves):
    """One greedy game per seed from the same true position (left unchanged); returns
    1 for each game won, else 0."""
    wins = np.zeros(seeds.shape[0], dtype=np.int8)
    line = np.empty(max_moves, dtype=np.int64)
    for run in range(seeds.shape[0]):
        won, _ = play(
            cols.copy(),
            lens.copy(),
            down.copy(),
            found.copy(),
            stock,
            misc.copy(),
            seeds[run],
            max_moves,
            line,
        )
        wins[run] = 1 if won else 0
    return wins
