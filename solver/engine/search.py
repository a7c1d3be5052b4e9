"""Depth-first search and IDA* over the packed state, run in chunks.

The search keeps all of its state in arrays (the position, an explicit stack of move
lists, the control block), so ``search_chunk`` can stop after a number of nodes and be
called again to go on: the Python driver checks the clock, Ctrl-C and the table size
between chunks.

DFS mode finds a first win. A position already in the table is skipped: it was (or is
being) searched from its first visit, so any win through it is found there; this is why
an exhausted DFS proves a position unsolvable. The search is marked *truncated* (and can
then never prove anything) when a path would outgrow the stack or a move list overflows.

IDA* mode searches only paths whose length plus ``remaining_cost`` (a lower bound on the
moves still needed) stays within ``control[CONTROL_LIMIT]``; the table records the shortest
depth at which a position was expanded, and a position reached again no shorter is skipped.

Dead ends: a position that a sound test proves lost gets no moves. The tests live in
``dead_ends``; the search calls its entry points (``dead_ends.entry``): ``root_dead`` on the root,
``position_dead`` on every position new to the table, ``costly_path_test`` between two steps (it
may take the path back to a costly position it proves dead). ``tables`` is the tests' named tuple
of arrays (``dead_ends.arrays``), built for the root by ``solver.search.dead_ends``.

The lean search kernels (``DEAD_END_CALLS`` off: ``solver.engine.groups``) call no dead-end test and
compile without them; a solve's first look runs them (``solver.search.solve.first_look``).

The stack and the control block are laid out in ``layout``.
"""

import numpy as np

from solver.engine.apply import apply_move, undo_move
from solver.engine.dead_ends.entry import costly_path_test, position_dead, root_dead
from solver.engine.jit import kernel
from solver.engine.layout import (
    CARD_COUNT,
    COLUMNS,
    CONTROL_BRANCH_LIMIT,
    CONTROL_DEAL_SCORE,
    CONTROL_DEPTH,
    CONTROL_GROW_AT,
    CONTROL_LIMIT,
    CONTROL_MODE,
    CONTROL_NEXT_LIMIT,
    CONTROL_NODES,
    CONTROL_OPTIONS,
    CONTROL_SIZE,
    CONTROL_STATUS,
    CONTROL_TRUNCATED,
    MOVE_LIST_SIZE,
    STACK_APPLIED,
    STACK_COUNTS,
    STACK_ENTERED,
    STACK_LANDING,
    STACK_MOVES,
    STACK_NEXT,
    STACK_SCORES,
    STACK_STARTS,
    TUNING_SLOTS,
    KernelTuning,
    cards_home,
    position_keys,
    stock_left,
)
from solver.engine.moves import KEEP_BUILDS, generate_moves
from solver.engine.table import ENTRY_COUNT, SEEN, TABLE_COUNTERS, TABLE_ENTRIES, record_visit

# False in the lean search kernels, which call no dead-end test (see the module docstring)
DEAD_END_CALLS = True
# statuses (control[CONTROL_STATUS])
RUNNING, SOLVED, EXHAUSTED, PAUSED, GROW = range(5)
# modes (control[CONTROL_MODE])
DFS, IDA = 0, 1


def make_control(
    mode: int,
    options: int,
    limit: int,
    grow_at: int,
    tuning: KernelTuning,
    branch_limit: int = 0,
    deal_score: int = 0,
) -> np.ndarray:
    """A control block (see ``layout``). ``tuning``: where the pairwise tests run in the search
    (``dead_ends.pacing.pairs_due``, ``dead_ends.entry.test_costly``) and how they and the case
    split on twins are paced (``dead_ends.pacing``; a trial at 0: its tests unpaced), written into
    the block's tuning slots.
    ``branch_limit`` > 0 searches only that many best-ordered moves per position: a search for
    a quick win that marks itself truncated (it can never prove unsolvable). ``deal_score``: the
    stock deal's place in the move order."""
    control = np.zeros(CONTROL_SIZE, dtype=np.int64)
    for slot, value in zip(TUNING_SLOTS, tuning, strict=True):
        control[slot] = value
    control[CONTROL_BRANCH_LIMIT] = branch_limit
    control[CONTROL_DEAL_SCORE] = deal_score
    control[CONTROL_MODE] = mode
    control[CONTROL_OPTIONS] = options
    control[CONTROL_LIMIT] = limit
    control[CONTROL_GROW_AT] = grow_at
    control[CONTROL_NEXT_LIMIT] = np.iinfo(np.int64).max
    control[CONTROL_TRUNCATED] = (options & KEEP_BUILDS) != 0  # a guess drops moves: no proofs
    return control


@kernel
def remaining_cost(state, params):
    """A lower bound on the moves to a win: every card not home needs its own foundation
    move, and every stock deal left is a move."""
    deals_left = (stock_left(state, params) + params[COLUMNS] - 1) // params[COLUMNS]
    return params[CARD_COUNT] - cards_home(state, params) + deals_left


@kernel
def expand(state, params, control, moves, start, scores, landing):
    """Generate a position's moves into ``moves`` from ``start`` on; return how many to
    search. A move list that overflowed (or would overflow the buffer), or one cut by the
    branch limit, marks the search truncated."""
    if start + MOVE_LIST_SIZE > moves.shape[0]:
        control[CONTROL_TRUNCATED] = 1
        return 0
    listed = moves[start : start + MOVE_LIST_SIZE]
    count = generate_moves(
        state, params, control[CONTROL_OPTIONS], control[CONTROL_DEAL_SCORE], listed, scores, landing
    )
    if count < 0:
        control[CONTROL_TRUNCATED] = 1
        return 0
    branch_limit = control[CONTROL_BRANCH_LIMIT]
    if branch_limit > 0 and count > branch_limit:
        control[CONTROL_TRUNCATED] = 1
        return branch_limit
    return count


@kernel
def search_start(state, params, zobrist, column_keys, table, stack, control, tables):
    """Record the root and generate its moves (none when a dead-end test proves it lost)."""
    entries, counters = table[TABLE_ENTRIES], table[TABLE_COUNTERS]
    moves, counts, next_index = stack[STACK_MOVES], stack[STACK_COUNTS], stack[STACK_NEXT]
    scores, starts = stack[STACK_SCORES], stack[STACK_STARTS]
    control[CONTROL_DEPTH] = 0
    starts[0] = 0
    stack[STACK_ENTERED][0] = control[CONTROL_NODES]
    if cards_home(state, params) == params[CARD_COUNT]:
        control[CONTROL_STATUS] = SOLVED
        return
    first, second = position_keys(state, params, zobrist, column_keys)
    record_visit(entries, counters, first, second, 0)
    dead = False
    if DEAD_END_CALLS:
        dead = root_dead(state, params, stack, control, tables, first, second)
    if dead:
        counts[0] = 0
    else:
        counts[0] = expand(state, params, control, moves, 0, scores, stack[STACK_LANDING])
    next_index[0] = 0
    control[CONTROL_STATUS] = RUNNING


@kernel
def search_chunk(state, params, zobrist, column_keys, table, stack, control, tables, node_limit):
    """Search on until a win, exhaustion, ``node_limit`` nodes in all, or a table that
    wants to grow; the status says which."""
    entries, counters = table[TABLE_ENTRIES], table[TABLE_COUNTERS]
    moves, counts, next_index = stack[STACK_MOVES], stack[STACK_COUNTS], stack[STACK_NEXT]
    applied, scores, starts = stack[STACK_APPLIED], stack[STACK_SCORES], stack[STACK_STARTS]
    entered, landing = stack[STACK_ENTERED], stack[STACK_LANDING]
    max_depth = counts.shape[0] - 1
    ida = control[CONTROL_MODE] == IDA
    card_count = params[CARD_COUNT]
    depth = control[CONTROL_DEPTH]
    nodes = control[CONTROL_NODES]
    status = PAUSED
    while nodes < node_limit:
        if DEAD_END_CALLS:
            depth = costly_path_test(
                state, params, zobrist, column_keys, stack, control, tables, depth, nodes
            )
        index = next_index[depth]
        if index >= counts[depth]:
            if depth == 0:
                status = EXHAUSTED
                break
            depth -= 1
            undo_move(state, params, zobrist, column_keys, applied[depth])
            continue
        next_index[depth] = index + 1
        applied[depth] = apply_move(state, params, zobrist, column_keys, moves[starts[depth] + index])
        nodes += 1
        child = depth + 1
        if cards_home(state, params) == card_count:
            depth = child
            status = SOLVED
            break
        if ida:
            bound = child + remaining_cost(state, params)
            if bound > control[CONTROL_LIMIT]:
                control[CONTROL_NEXT_LIMIT] = min(control[CONTROL_NEXT_LIMIT], bound)
                undo_move(state, params, zobrist, column_keys, applied[depth])
                continue
        if child >= max_depth:
            control[CONTROL_TRUNCATED] = 1
            undo_move(state, params, zobrist, column_keys, applied[depth])
            continue
        first, second = position_keys(state, params, zobrist, column_keys)
        if record_visit(entries, counters, first, second, child if ida else 0) == SEEN:
            undo_move(state, params, zobrist, column_keys, applied[depth])
            continue
        dead = False
        if DEAD_END_CALLS:
            dead = position_dead(state, params, stack, child, control, tables, nodes - entered[depth])
        if dead:
            counts[child] = 0
        else:
            starts[child] = starts[depth] + counts[depth]
            counts[child] = expand(state, params, control, moves, starts[child], scores, landing)
        next_index[child] = 0
        entered[child] = nodes
        depth = child
        if counters[ENTRY_COUNT] >= control[CONTROL_GROW_AT]:
            status = GROW
            break
    control[CONTROL_DEPTH] = depth
    control[CONTROL_NODES] = nodes
    control[CONTROL_STATUS] = status
    return status
