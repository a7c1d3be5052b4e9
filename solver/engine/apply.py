"""Making and taking back moves on the packed state (see ``layout``), keeping the column keys.

``apply_move`` makes a move of ``moves``' encoding and returns it with ``TURNED`` set when the
move left a face-down card exposed and turned it; ``undo_move`` takes back a move so
returned (turning that card down again), so the search can walk a path and back.
"""

from solver.engine.jit import kernel
from solver.engine.layout import (
    CAPACITY,
    FACE_DOWN,
    FOUNDATIONS,
    LENGTHS,
    STACK_APPLIED,
    STACK_MOVES,
    STACK_NEXT,
    STACK_STARTS,
    STOCK,
    STOCK_NEXT,
    card_key,
)
from solver.engine.move_kinds import FROM_FOUNDATION, TABLEAU, TO_FOUNDATION
from solver.engine.moves import TURNED, move_card, move_kind, move_size, move_source, move_target


@kernel
def push_card(state, params, zobrist, column_keys, column, card):
    """Put ``card`` face up on top of ``column``, updating its keys."""
    length_at = params[LENGTHS] + column
    index = state[length_at]
    state[column * params[CAPACITY] + index] = card
    state[length_at] = index + 1
    for k in range(2):
        column_keys[k, column] ^= card_key(zobrist, k, index, card, 1)


@kernel
def pop_card(state, params, zobrist, column_keys, column):
    """Take the (face-up) top card off ``column``, updating its keys; return it."""
    length_at = params[LENGTHS] + column
    index = state[length_at] - 1
    card = state[column * params[CAPACITY] + index]
    state[length_at] = index
    for k in range(2):
        column_keys[k, column] ^= card_key(zobrist, k, index, card, 1)
    return card


@kernel
def flip_exposed(state, params, zobrist, column_keys, column, face_up):
    """Turn the exposed card of ``column`` face up (``face_up``) or back down."""
    index = state[params[LENGTHS] + column] - 1
    card = state[column * params[CAPACITY] + index]
    state[params[FACE_DOWN] + column] = index if face_up else index + 1
    for k in range(2):
        column_keys[k, column] ^= card_key(zobrist, k, index, card, 0) ^ card_key(zobrist, k, index, card, 1)


@kernel
def turn_if_needed(state, params, zobrist, column_keys, column):
    """Turn up the exposed card of ``column`` if it is face down; return TURNED if it was,
    else 0."""
    length = state[params[LENGTHS] + column]
    if length > 0 and state[params[FACE_DOWN] + column] == length:
        flip_exposed(state, params, zobrist, column_keys, column, True)
        return TURNED
    return 0


@kernel
def move_packet(state, params, zobrist, column_keys, source, target, size):
    """Move the top ``size`` cards of ``source`` onto ``target``, keeping their order (as
    ``pop_card`` and ``push_card`` card by card would, with the lengths written once)."""
    capacity = params[CAPACITY]
    source_length, target_length = state[params[LENGTHS] + source], state[params[LENGTHS] + target]
    left = source_length - size
    source_first, source_second = column_keys[0, source], column_keys[1, source]
    target_first, target_second = column_keys[0, target], column_keys[1, target]
    for i in range(size):
        card = state[source * capacity + left + i]
        state[target * capacity + target_length + i] = card
        source_first ^= card_key(zobrist, 0, left + i, card, 1)
        source_second ^= card_key(zobrist, 1, left + i, card, 1)
        target_first ^= card_key(zobrist, 0, target_length + i, card, 1)
        target_second ^= card_key(zobrist, 1, target_length + i, card, 1)
    column_keys[0, source], column_keys[1, source] = source_first, source_second
    column_keys[0, target], column_keys[1, target] = target_first, target_second
    state[params[LENGTHS] + source] = left
    state[params[LENGTHS] + target] = target_length + size


@kernel
def apply_move(state, params, zobrist, column_keys, move):
    """Make ``move``; return it with TURNED set if a face-down card turned up."""
    kind = move_kind(move)
    source = move_source(move)
    target = move_target(move)
    foundations = params[FOUNDATIONS]
    if kind == TABLEAU:
        move_packet(state, params, zobrist, column_keys, source, target, move_size(move))
        return move | turn_if_needed(state, params, zobrist, column_keys, source)
    if kind == TO_FOUNDATION:
        pop_card(state, params, zobrist, column_keys, source)
        state[foundations + target] += 1
        return move | turn_if_needed(state, params, zobrist, column_keys, source)
    if kind == FROM_FOUNDATION:
        state[foundations + source] -= 1
        push_card(state, params, zobrist, column_keys, target, move_card(move))
        return move
    next_card = state[params[STOCK_NEXT]]
    for column in range(move_size(move)):
        push_card(state, params, zobrist, column_keys, column, state[params[STOCK] + next_card + column])
    state[params[STOCK_NEXT]] = next_card + move_size(move)
    return move


@kernel
def undo_move(state, params, zobrist, column_keys, move):
    """Take back ``move`` as returned by ``apply_move``."""
    kind = move_kind(move)
    source = move_source(move)
    target = move_target(move)
    foundations = params[FOUNDATIONS]
    if move & TURNED:
        flip_exposed(state, params, zobrist, column_keys, source, False)
    if kind == TABLEAU:
        move_packet(state, params, zobrist, column_keys, target, source, move_size(move))
    elif kind == TO_FOUNDATION:
        state[foundations + target] -= 1
        push_card(state, params, zobrist, column_keys, source, move_card(move))
    elif kind == FROM_FOUNDATION:
        pop_card(state, params, zobrist, column_keys, target)
        state[foundations + source] += 1
    else:
        for column in range(move_size(move)):
            pop_card(state, params, zobrist, column_keys, column)
        state[params[STOCK_NEXT]] -= move_size(move)


@kernel
def walk_back(state, params, zobrist, column_keys, stack, depth, shallower):
    """Take the path back from ``depth`` to ``shallower`` (the moves stay on the stack)."""
    applied = stack[STACK_APPLIED]
    for below in range(depth - 1, shallower - 1, -1):
        undo_move(state, params, zobrist, column_keys, applied[below])


@kernel
def walk_forward(state, params, zobrist, column_keys, stack, shallower, depth):
    """Make the path again from ``shallower`` to ``depth`` (after ``walk_back``)."""
    applied, next_index = stack[STACK_APPLIED], stack[STACK_NEXT]
    for below in range(shallower, depth):
        made = stack[STACK_MOVES][stack[STACK_STARTS][below] + next_index[below] - 1]
        applied[below] = apply_move(state, params, zobrist, column_keys, made)
