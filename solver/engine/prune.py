"""HOPELESS: recognising positions that can never be won, so the search stops there.

Call a card *pinned* when every card beneath it is face down: the face-down cards and the
lowest face-up card of each column. A pinned card's column position cannot change until it
moves itself (a face-down card leads no packet, and rides only on a packet led from beneath
it, which would be face down too). Every card must move at least once more before the game
is won. A pinned card X can make its first move only

  (a) onto a parent (one rank higher, a card X builds on) exposed on another column: that
      parent is not pinned, or is pinned and every pinned card above it has moved; with
      foundation return off a parent already on a foundation never comes back;
  (b) to a foundation, after one copy of every lower card of its suit got there: each such
      card is on a foundation already, is not pinned, or is pinned and it and every pinned
      card above it have moved;
  (c) into an empty column, if X is a King.

Mark pinned cards *movable* by these conditions, treating every card that is not pinned as
free to go anywhere (an over-estimate), starting from none and repeating until nothing
changes. In any win the pinned cards make their first moves in some order, and each one's
condition then holds using only cards marked before it, so every pinned card gets marked.
A pinned card left unmarked therefore proves the position lost.

What is beneath a pinned card never changes until it moves, and a card that stops being
pinned only frees things up, so (with foundation return off) a position becomes hopeless
only through a move to a foundation, which takes a possible parent away; with it on, only
the start can be hopeless. The search checks the root and the positions after foundation
moves.
"""

import numpy as np

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
from solver.engine.moves import builds_on, rank_of, red, suit_of

NOWHERE = -1


@kernel
def copies_home(state, params, card):
    count = 0
    for slot in range(suit_of(card), params[FOUNDATION_COUNT], 4):
        if state[params[FOUNDATIONS] + slot] >= rank_of(card):
            count += 1
    return count


@kernel
def freed_from(state, params, movable, column, index):
    """Have all pinned cards of ``column`` at ``index`` and above been marked movable?"""
    capacity = params[CAPACITY]
    for i in range(index, state[params[FACE_DOWN] + column] + 1):
        if not movable[column * capacity + i]:
            return False
    return True


@kernel
def reachable(state, params, pinned_at, movable, card, as_parent):
    """Can some copy of ``card`` get exposed (as a landing parent: its pinned cards above
    have moved) or reach a foundation (it and its pinned cards above have moved)?"""
    capacity = params[CAPACITY]
    home = copies_home(state, params, card)
    if home > 0 and (not as_parent or params[FOUNDATION_RETURN]):
        return True
    pinned_copies = 0
    for copy in range(pinned_at.shape[1]):
        place = pinned_at[card, copy]
        if place == NOWHERE:
            continue
        pinned_copies += 1
        if freed_from(state, params, movable, place // capacity, place % capacity + (1 if as_parent else 0)):
            return True
    return params[CARD_COUNT] // 52 - home - pinned_copies > 0


@kernel
def can_move(state, params, pinned_at, movable, card):
    rank = rank_of(card)
    if rank == 13:
        return True
    for suit in range(4):
        if params[SAME_SUIT]:
            if suit != suit_of(card):
                continue
        elif (suit == 1 or suit == 2) == red(card):
            continue
        if reachable(state, params, pinned_at, movable, suit * 13 + rank, True):
            return True
    for lower_rank in range(1, rank):
        if not reachable(state, params, pinned_at, movable, suit_of(card) * 13 + lower_rank - 1, False):
            return False
    return True


@kernel
def strands_a_pinned_card(state, params, card):
    """After ``card`` went to a foundation: is a card that builds on it pinned? Only then
    can the move have made the position hopeless (it took away a possible parent), so only
    then is ``hopeless`` worth running. (Skipping the check never changes a verdict.)"""
    capacity = params[CAPACITY]
    for column in range(params[COLUMNS]):
        if state[params[LENGTHS] + column] == 0:
            continue
        for index in range(state[params[FACE_DOWN] + column] + 1):
            pinned = state[column * capacity + index]
            if rank_of(pinned) + 1 == rank_of(card) and builds_on(pinned, card, params[SAME_SUIT]):
                return True
    return False


@kernel
def hopeless(state, params):
    """Is some pinned card certain never to move again?"""
    capacity = params[CAPACITY]
    columns = params[COLUMNS]
    pinned_at = np.full((52, params[CARD_COUNT] // 52), NOWHERE, dtype=np.int64)
    movable = np.zeros(columns * capacity, dtype=np.bool_)
    for column in range(columns):
        if state[params[LENGTHS] + column] == 0:
            continue
        for index in range(state[params[FACE_DOWN] + column] + 1):
            card = state[column * capacity + index]
            copy = 0
            while pinned_at[card, copy] != NOWHERE:
                copy += 1
            pinned_at[card, copy] = column * capacity + index
    changed = True
    while changed:
        changed = False
        for column in range(columns):
            if state[params[LENGTHS] + column] == 0:
                continue
            for index in range(state[params[FACE_DOWN] + column] + 1):
                place = column * capacity + index
                if not movable[place] and can_move(state, params, pinned_at, movable, state[place]):
                    movable[place] = True
                    changed = True
    for column in range(columns):
        if state[params[LENGTHS] + column] == 0:
            continue
        for index in range(state[params[FACE_DOWN] + column] + 1):
            if not movable[column * capacity + index]:
                return True
    return False
