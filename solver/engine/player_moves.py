"""What a player who cannot peek sees of a position, and the moves it may make from that.

The player's view is a copy of the packed state (``layout``) with every face-down card and
every stock card replaced by HIDDEN (``mask_into``); lengths, face-down counts,
foundations and the stock's next index stay, so the view says how many cards are hidden
and where, but not which. (Bytes past a column's length are copied as they are: cards that
left that place face up, never a hidden one, and never read.) Legality depends on visible
cards only, so the moves of a view are the moves of every position it is a view of.

``generate`` lists every legal move but foundation return, encoded as ``moves.encode``
does, in a fixed order that the greedy player's tie-break follows (``greedy_play``): by
source column; within one, packets from the deepest face-up card up, each to the target
columns in order, then the column's exposed card to its foundation; a stock deal last.
No reduction drops a move: the player plays the game, it does not search it.
"""

from solver.engine.cards import builds_on, rank_of
from solver.engine.jit import kernel
from solver.engine.layout import (
    CAPACITY,
    COLUMNS,
    FACE_DOWN,
    LENGTHS,
    SAME_SUIT,
    STOCK,
    STOCK_SIZE,
    stock_left,
)
from solver.engine.move_kinds import STOCK_DEAL, TABLEAU, TO_FOUNDATION
from solver.engine.moves import encode, foundation_slot_for

HIDDEN = -1  # a card the view does not show


@kernel
def mask_into(state, params, view):
    """``view`` := ``state`` with every face-down card and every stock card replaced by HIDDEN."""
    for at in range(state.shape[0]):
        view[at] = state[at]  # an element loop: five times faster than a slice assignment here
    capacity = params[CAPACITY]
    for column in range(params[COLUMNS]):
        for index in range(state[params[FACE_DOWN] + column]):
            view[column * capacity + index] = HIDDEN
    for index in range(params[STOCK_SIZE]):
        view[params[STOCK] + index] = HIDDEN


@kernel
def generate(view, params, out):
    """Every legal move of ``view`` but foundation return into ``out``, in the order of the
    module docstring; returns how many (at most ``out``'s length)."""
    count = 0
    columns = params[COLUMNS]
    capacity = params[CAPACITY]
    for source in range(columns):
        length = view[params[LENGTHS] + source]
        for index in range(view[params[FACE_DOWN] + source], length):
            leader = view[source * capacity + index]
            for target in range(columns):
                if target != source and lands_on(view, params, leader, target) and count < out.shape[0]:
                    out[count] = encode(TABLEAU, source, target, length - index, leader)
                    count += 1
        if length > 0 and count < out.shape[0]:
            exposed = view[source * capacity + length - 1]
            slot = foundation_slot_for(view, params, exposed)
            if slot >= 0:
                out[count] = encode(TO_FOUNDATION, source, slot, 1, exposed)
                count += 1
    left = stock_left(view, params)
    if left > 0 and count < out.shape[0]:
        out[count] = encode(STOCK_DEAL, 0, 0, min(left, columns), 0)
        count += 1
    return count


@kernel
def lands_on(view, params, leader, target):
    """May a packet led by ``leader`` move onto column ``target`` (a King into an empty one)?"""
    length = view[params[LENGTHS] + target]
    if length == 0:
        return rank_of(leader) == 13
    return builds_on(leader, view[target * params[CAPACITY] + length - 1], params[SAME_SUIT])
