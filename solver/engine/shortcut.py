"""Shortening a found line by shortcuts: wherever one legal move leads from a position of
the line straight to a later position of it, that move replaces the moves in between.

Positions are matched by their ordered keys (both 64-bit halves; column order included,
so the rest of the line keeps its column numbers). The result is replayed on the reference
engine like any line, so a false match could only ever raise, never be reported.
"""

import numpy as np

from solver.engine.apply import apply_move, undo_move
from solver.engine.jit import allocating_kernel, kernel
from solver.engine.layout import MOVE_LIST_SIZE, ordered_keys
from solver.engine.moves import TURNED, generate_moves


@allocating_kernel
def line_keys(state, params, zobrist, column_keys, line, keys):
    """Fill ``keys[i]`` with the ordered keys of the position after ``i`` moves of the line,
    then return the state to where it started."""
    count = line.shape[0]
    applied = np.empty(count, dtype=np.int32)
    keys[0, 0], keys[0, 1] = ordered_keys(state, params, zobrist, column_keys)
    for i in range(count):
        applied[i] = apply_move(state, params, zobrist, column_keys, line[i] & ~TURNED)
        keys[i + 1, 0], keys[i + 1, 1] = ordered_keys(state, params, zobrist, column_keys)
    for i in range(count - 1, -1, -1):
        undo_move(state, params, zobrist, column_keys, applied[i])


@kernel
def find_position(keys, order, first, second):
    """The latest index of a position with these keys, or -1 (``order`` sorts keys[:, 0])."""
    low, high = 0, order.shape[0]
    while low < high:
        middle = (low + high) // 2
        if keys[order[middle], 0] < first:
            low = middle + 1
        else:
            high = middle
    latest = -1
    while low < order.shape[0] and keys[order[low], 0] == first:
        if keys[order[low], 1] == second:
            latest = max(latest, order[low])
        low += 1
    return latest


@allocating_kernel
def shortcut_line(state, params, zobrist, column_keys, line, keys, order, shortened):
    """Write the shortened line into ``shortened``; return its length. ``state`` must be
    the position the line starts from; it ends at the line's last position. ``keys`` are
    the line's position keys (``line_keys``) and ``order`` sorts ``keys[:, 0]``: sorting is
    left to the caller (numpy), which spares compiling a sort kernel; any order that sorts
    the first keys gives the same line, since ``find_position`` looks at every equal key."""
    count = line.shape[0]
    moves = np.empty(MOVE_LIST_SIZE, dtype=np.int32)
    scores = np.empty(MOVE_LIST_SIZE, dtype=np.int32)
    landing = np.empty(52, dtype=np.int64)
    index = 0
    kept = 0
    while index < count:
        best_move = line[index] & ~TURNED
        best_index = index + 1
        for i in range(max(generate_moves(state, params, 0, 0, moves, scores, landing), 0)):
            made = apply_move(state, params, zobrist, column_keys, moves[i])
            first, second = ordered_keys(state, params, zobrist, column_keys)
            reached = find_position(keys, order, first, second)
            undo_move(state, params, zobrist, column_keys, made)
            if reached > best_index:
                best_move = moves[i]
                best_index = reached
        apply_move(state, params, zobrist, column_keys, best_move)
        shortened[kept] = best_move
        kept += 1
        index = best_index
    return kept
