"""HOPELESS: recognising positions that can never be won, so the search stops there.

Every card must move at least once more before the game is won (its last move takes it to
a foundation). Take a face-down card, or the lowest face-up card of a column: every card
beneath it is face down, so none of them can move (a face-down card leads no packet and
rides only on a packet led from beneath it) until this card has moved. This card can move
only (a) onto a parent, a card one rank higher that it builds on, exposed at the top of
another column; (b) to a foundation, once every lower card of its suit is there; or (c) if
a King, into an empty column. So it can never move, and the position is lost, when it is
not a King, every copy of every parent lies beneath it or (foundation return off) on a
foundation, from where it never comes back, and for some lower rank every copy of that
card of its suit lies beneath it.

What is beneath such a card never changes until it moves, and foundations only fill up, so
a position becomes hopeless only by a move to a foundation (or is so from the start): the
search checks the root and the positions after foundation moves.
"""

from solver.engine.jit import kernel
from solver.engine.layout import (
    CAPACITY,
    CARD_COUNT,
    COLUMNS,
    FACE_DOWN,
    FOUNDATION_COUNT,
    FOUNDATION_RETURN,
    FOUNDATIONS,
    LENGTHS,
    SAME_SUIT,
)
from solver.engine.moves import rank_of, red, suit_of


@kernel
def copies_beneath(state, params, column, index, card):
    count = 0
    base = column * params[CAPACITY]
    for i in range(index):
        if state[base + i] == card:
            count += 1
    return count


@kernel
def copies_home(state, params, card):
    count = 0
    for slot in range(suit_of(card), params[FOUNDATION_COUNT], 4):
        if state[params[FOUNDATIONS] + slot] >= rank_of(card):
            count += 1
    return count


@kernel
def can_never_move(state, params, column, index):
    """Is the card at ``index`` of ``column`` (with only face-down cards beneath) stuck?"""
    card = state[column * params[CAPACITY] + index]
    rank = rank_of(card)
    if rank == 13:
        return False
    decks = params[CARD_COUNT] // 52
    for suit in range(4):
        if params[SAME_SUIT]:
            if suit != suit_of(card):
                continue
        elif (suit == 1 or suit == 2) == red(card):
            continue
        parent = suit * 13 + rank
        unavailable = copies_beneath(state, params, column, index, parent)
        if not params[FOUNDATION_RETURN]:
            unavailable += copies_home(state, params, parent)
        if unavailable < decks:
            return False
    for lower_rank in range(1, rank):
        lower = suit_of(card) * 13 + lower_rank - 1
        if copies_beneath(state, params, column, index, lower) == decks:
            return True
    return False


@kernel
def hopeless(state, params):
    """Does some card sit where it can never move again?"""
    for column in range(params[COLUMNS]):
        face_down = state[params[FACE_DOWN] + column]
        if state[params[LENGTHS] + column] == 0:
            continue
        for index in range(1, face_down + 1):
            if can_never_move(state, params, column, index):
                return True
    return False
