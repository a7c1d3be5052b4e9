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

Dead ends: a position that a sound test proves lost gets no moves. HOPELESS (``prune``) is
tested at the root and after every move that may have made a position hopeless (with
TWIN_SPLIT, its case split on twins with it: ``pins_dead``); the
remembered dead tables (``nogoods``, when on; widened before they are stored with WIDE_NOGOODS)
at every new position while their checks pay (``pacing``); the full pairwise test
(``h2``) on the root and, with H2_SEARCH, where ``pairs_due`` says (the children of positions
whose subtrees proved costly) and on costly positions of the path themselves (``test_costly``),
once the solve has let the pairwise tests run
(``solver.search.dead_ends.root_dead``); with TRIPLES, a root the test over triples proved dead
(``h3``, run once a deal by ``solver.search.dead_ends.root_triples_dead``) gets no moves; with
PATH_TRIPLES, a position of the path it proves dead between two chunks is left
(``path_triples_dead``), and a position whose sets of facts all lie in the family of one of
those (``triple_nogoods``, checked after the remembered dead tables) gets no moves. On a new
position the remembered tables and families are asked first, HOPELESS next, the full pairwise
test last (``new_position_dead``): the remembered tables answer most often and cheapest.
``dead_ends`` is the tuple of the pairwise test's tables (``h2.make_tables``), built for the root
by ``h2.build_tables``. Where a test runs decides only what it costs: each one is sound on any
position.

Paced tests (``pacing``): the full tests of the search, the checks of the remembered dead
tables and the case split on twins stand down while they have not paid for themselves
(``tests_pay``, ``checks_pay``, ``split_now``).

The stack and the control block are laid out in ``layout``.
"""

import numpy as np

from solver.engine.apply import apply_move, undo_move, walk_back, walk_forward
from solver.engine.h2 import (
    H2_HEADER,
    HEADER_FACTS,
    HEADER_FAMILY_FILL,
    HEADER_PAIRS_ON,
    HEADER_RING_FILL,
    facts_dead,
)
from solver.engine.h3 import h3_dead, root_proved_dead
from solver.engine.jit import kernel
from solver.engine.layout import (
    CARD_COUNT,
    COLUMNS,
    CONTROL_BRANCH_LIMIT,
    CONTROL_CHECKS_PER_TABLE,
    CONTROL_COSTLY_AFTER,
    CONTROL_COSTLY_DEAD,
    CONTROL_COSTLY_FROM,
    CONTROL_COSTLY_TESTS,
    CONTROL_COSTLY_WAIT,
    CONTROL_DEAL_SCORE,
    CONTROL_DEPTH,
    CONTROL_GROW_AT,
    CONTROL_LIMIT,
    CONTROL_MODE,
    CONTROL_NEXT_LIMIT,
    CONTROL_NODES,
    CONTROL_OPTIONS,
    CONTROL_PAIRS_SPACING,
    CONTROL_SIZE,
    CONTROL_SPLIT_CALLS,
    CONTROL_SPLIT_DEAD,
    CONTROL_SPLITS_ON_TRIAL,
    CONTROL_STATUS,
    CONTROL_TESTS_ON_TRIAL,
    CONTROL_TRUNCATED,
    MOVE_LIST_SIZE,
    STACK_APPLIED,
    STACK_COUNTS,
    STACK_ENTERED,
    STACK_FACTS_READ,
    STACK_LANDING,
    STACK_MOVES,
    STACK_NEXT,
    STACK_SCORES,
    STACK_STARTS,
    STACK_TESTED,
    cards_home,
    position_keys,
    stock_left,
)
from solver.engine.moves import (
    H2,
    H2_SEARCH,
    HOPELESS,
    KEEP_BUILDS,
    NOGOODS,
    PATH_TRIPLES,
    TRIPLES,
    TWIN_SPLIT,
    WIDE_NOGOODS,
    generate_moves,
)
from solver.engine.nogoods import held_by_ring, remember_dead
from solver.engine.pacing import checks_pay, split_now, tests_pay
from solver.engine.path_facts import UNREAD, read_facts
from solver.engine.prune import (
    ALIVE,
    LOST_BY_SPLIT,
    NOWHERE,
    hopeless,
    may_turn_hopeless,
    twins_apply,
    twins_hopeless,
    twins_verdict,
    watched_place,
)
from solver.engine.table import ENTRY_COUNT, SEEN, TABLE_COUNTERS, TABLE_ENTRIES, record_visit
from solver.engine.triple_nogoods import held_by_family, remember_family

# statuses (control[CONTROL_STATUS])
RUNNING, SOLVED, EXHAUSTED, PAUSED, GROW = range(5)
# modes (control[CONTROL_MODE])
DFS, IDA = 0, 1
# costly positions' pairwise tests: the tests a test that finds a dead position earns
COSTLY_CREDIT = 20
# False in the light search kernels, compiled without the dead-end tests beyond HOPELESS (``groups``)
DEAD_END_TESTS = True


def make_control(
    mode: int,
    options: int,
    limit: int,
    grow_at: int,
    branch_limit: int = 0,
    deal_score: int = 0,
    pairs_spacing: int = 0,
    costly_after: int = 0,
    tests_on_trial: int = 0,
    checks_per_table: int = 0,
    splits_on_trial: int = 0,
) -> np.ndarray:
    """A control block (see ``layout``). ``branch_limit`` > 0 searches only that many
    best-ordered moves per position: a search for a quick win that marks itself truncated
    (it can never prove unsolvable). ``deal_score``: the stock deal's place in the move order;
    ``pairs_spacing``, ``costly_after``: where the pairwise tests run in the search
    (``pairs_due``, ``test_costly``); ``tests_on_trial``, ``checks_per_table``: how they are
    paced, ``splits_on_trial``: how the case split on twins is (``pacing``; each at 0: its
    tests unpaced)."""
    control = np.zeros(CONTROL_SIZE, dtype=np.int64)
    control[CONTROL_BRANCH_LIMIT] = branch_limit
    control[CONTROL_DEAL_SCORE] = deal_score
    control[CONTROL_PAIRS_SPACING] = pairs_spacing
    control[CONTROL_COSTLY_AFTER] = costly_after
    control[CONTROL_TESTS_ON_TRIAL] = tests_on_trial
    control[CONTROL_CHECKS_PER_TABLE] = checks_per_table
    control[CONTROL_SPLITS_ON_TRIAL] = splits_on_trial
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
def pairs_dead(state, params, stack, depth, control, dead_ends, due):
    """The pairwise dead-end tests the options ask for: the remembered dead tables and families
    (``remembered_dead``) on every position (the tables while their checks pay: ``ring_asked``),
    the full test where ``due`` (``full_test_dead``)."""
    return facts_read(state, params, stack, depth, control, dead_ends, due) and (
        remembered_dead(control, dead_ends) or (due and full_test_dead(control, dead_ends))
    )


@kernel
def facts_read(state, params, stack, depth, control, dead_ends, due):
    """Read the facts of the position at ``depth`` of the path into the tables (once for all the
    pairwise tests; ``path_facts``) when a test will look at them: the remembered dead tables
    (``nogoods``) or families (``triple_nogoods``) when the options ask for them and some are
    remembered, or the full test when ``due``. Returns whether they were read (never without
    tables, or for a position they cannot encode)."""
    wanted = ring_asked(control, dead_ends) or families_asked(control, dead_ends) or due
    if not wanted or dead_ends[H2_HEADER][HEADER_FACTS] == 0:
        return False
    return read_facts(state, params, stack, depth, dead_ends)


@kernel
def ring_asked(control, dead_ends):
    """Do the options ask for the remembered dead tables (``nogoods``), is one remembered, and
    have the checks paid (``checks_pay``)?"""
    asked = (control[CONTROL_OPTIONS] & NOGOODS) != 0 and dead_ends[H2_HEADER][HEADER_RING_FILL] > 0
    return asked and checks_pay(control, dead_ends)


@kernel
def families_asked(control, dead_ends):
    """Do the options ask for the remembered dead families (``triple_nogoods``), and is one
    remembered?"""
    return (control[CONTROL_OPTIONS] & PATH_TRIPLES) != 0 and dead_ends[H2_HEADER][HEADER_FAMILY_FILL] > 0


@kernel
def remembered_dead(control, dead_ends):
    """Do the facts read (``facts_read``) lie in a remembered dead table or family?"""
    if ring_asked(control, dead_ends) and held_by_ring(dead_ends):
        return True
    return families_asked(control, dead_ends) and held_by_family(dead_ends)


@kernel
def full_test_dead(control, dead_ends):
    """The full pairwise test of the facts read; a position it proves dead is remembered."""
    if not facts_dead(dead_ends):
        return False
    if control[CONTROL_OPTIONS] & NOGOODS:
        remember_dead(dead_ends, (control[CONTROL_OPTIONS] & WIDE_NOGOODS) != 0)
    return True


@kernel
def new_position_dead(state, params, stack, depth, control, dead_ends, due):
    """The dead-end tests of the position just reached at ``depth``, cheapest and most often right
    first: the remembered dead tables and families, HOPELESS (``pins_dead``), then the full
    pairwise test where ``due``. Each is sound alone, so given the same rings the verdict is
    the one of HOPELESS first; but a position both HOPELESS and held by a remembered table now
    moves that table to the front of its ring, which can change which table a full ring lets go
    of later, so the search may differ in principle (on the 23 deals of the hard list it is the
    same, position for position)."""
    read = False
    if DEAD_END_TESTS:
        read = facts_read(state, params, stack, depth, control, dead_ends, due)
        if read and remembered_dead(control, dead_ends):
            return True
    if pins_dead(state, params, control, stack[STACK_APPLIED][depth - 1]):
        return True
    if DEAD_END_TESTS:
        return read and due and full_test_dead(control, dead_ends)
    return False


@kernel
def pairs_on(control, dead_ends, option):
    """Is the pairwise test's ``option`` on, and has the solve let the tests run (it does so once
    the deal proved not easy: easy deals never pay for a test)?"""
    return (control[CONTROL_OPTIONS] & option) != 0 and dead_ends[H2_HEADER][HEADER_PAIRS_ON] != 0


@kernel
def pairs_due(control, dead_ends, searched_below_parent):
    """Does the full pairwise test run on a new position? With H2_SEARCH, once its parent has
    had ``control[CONTROL_PAIRS_SPACING]`` positions searched below it: a parent whose first
    children cost that much is likely to have costly later ones, and a test
    (about 0.5 ms) is then cheap beside what a dead child spares; positions with small
    subtrees (most of them) are never tested. Paced, only while the tests pay (``tests_pay``)."""
    if searched_below_parent < control[CONTROL_PAIRS_SPACING]:
        return False
    return pairs_on(control, dead_ends, H2_SEARCH) and tests_pay(control, dead_ends)


@kernel
def test_costly(state, params, zobrist, column_keys, stack, control, dead_ends, depth, nodes):
    """With H2_SEARCH, the full pairwise test of a position on the path that proved costly: the
    shallowest one not yet tested, once ``control[CONTROL_COSTLY_AFTER]`` positions were searched
    below it (a subtree that large is likely to be larger still; its positions are searched
    in the order they were entered, shallowest first, and each is tested once). The path is
    taken back to that position for the test and made again after it; a dead position is left
    at once, its move list exhausted. Tests are rationed: at most one per COSTLY_AFTER positions
    of the search, plus COSTLY_CREDIT for each test that found a dead position, so a deal where
    they seldom prune pays little; and paced (``tests_pay``). Returns the depth to go on from.
    (The search calls it only when the shallowest candidate's subtree is that large: see
    ``costly_after``.)"""
    after = control[CONTROL_COSTLY_AFTER]
    tested, entered = stack[STACK_TESTED], stack[STACK_ENTERED]
    shallowest = control[CONTROL_COSTLY_FROM]
    while shallowest <= depth and tested[shallowest]:
        shallowest += 1
    control[CONTROL_COSTLY_FROM] = shallowest
    if shallowest > depth or nodes - entered[shallowest] < after:
        return depth
    allowed = control[CONTROL_COSTLY_DEAD] * COSTLY_CREDIT + nodes // after
    if control[CONTROL_COSTLY_TESTS] >= allowed:  # rationed: wait for the next allowance
        control[CONTROL_COSTLY_WAIT] = nodes + (control[CONTROL_COSTLY_TESTS] - allowed + 1) * after
        return depth
    if not tests_pay(control, dead_ends):  # paced out: ask again after ``after`` positions
        control[CONTROL_COSTLY_WAIT] = nodes + after
        return depth
    tested[shallowest] = 1
    control[CONTROL_COSTLY_TESTS] += 1
    walk_back(state, params, zobrist, column_keys, stack, depth, shallowest)
    if pairs_dead(state, params, stack, shallowest, control, dead_ends, True):
        control[CONTROL_COSTLY_DEAD] += 1
        stack[STACK_NEXT][shallowest] = stack[STACK_COUNTS][shallowest]
        return shallowest
    walk_forward(state, params, zobrist, column_keys, stack, shallowest, depth)
    return depth


@kernel
def path_triples_dead(state, params, zobrist, column_keys, stack, control, dead_ends, shallower):
    """The test over triples (``h3``) of the position at depth ``shallower`` of the path: the
    path is taken back to it for the test; a dead one is left at once (its move list exhausted,
    the search goes on from it), otherwise the path is made again. Returns whether it was
    dead."""
    depth = control[CONTROL_DEPTH]
    walk_back(state, params, zobrist, column_keys, stack, depth, shallower)
    if h3_dead(state, params, dead_ends):
        remember_family(dead_ends)
        stack[STACK_NEXT][shallower] = stack[STACK_COUNTS][shallower]
        control[CONTROL_DEPTH] = shallower
        return True
    walk_forward(state, params, zobrist, column_keys, stack, shallower, depth)
    return False


@kernel
def costly_after(control, dead_ends):
    """The subtree size at which ``test_costly`` runs, or never (the test off, not yet let run, or
    with no tables: Milligan)."""
    if control[CONTROL_COSTLY_AFTER] <= 0 or not pairs_on(control, dead_ends, H2_SEARCH):
        return np.iinfo(np.int64).max
    if dead_ends[H2_HEADER][HEADER_FACTS] == 0:
        return np.iinfo(np.int64).max
    return control[CONTROL_COSTLY_AFTER]


@kernel
def pins_dead(state, params, control, move):
    """HOPELESS after ``move`` (just made, from a position it did not flag), where the move may
    have made the position hopeless; with TWIN_SPLIT, the test with its case split on twins
    (which flags every position HOPELESS flags, and more; see ``prune``) where the pacing takes
    it (``pacing.split_now``), else HOPELESS alone."""
    options = control[CONTROL_OPTIONS]
    if not (options & (HOPELESS | TWIN_SPLIT)) or not may_turn_hopeless(state, params, move):
        return False
    if options & TWIN_SPLIT and twins_apply(params) and split_now(control):
        verdict = twins_verdict(state, params)
        control[CONTROL_SPLIT_CALLS] += 1
        control[CONTROL_SPLIT_DEAD] += verdict == LOST_BY_SPLIT
        return verdict != ALIVE
    return hopeless(state, params, watched_place(state, params, move), NOWHERE)


@kernel
def search_start(state, params, zobrist, column_keys, table, stack, control, dead_ends):
    """Record the root and generate its moves (none when a dead-end test proves it lost)."""
    entries, counters = table[TABLE_ENTRIES], table[TABLE_COUNTERS]
    moves, counts, next_index = stack[STACK_MOVES], stack[STACK_COUNTS], stack[STACK_NEXT]
    scores, starts = stack[STACK_SCORES], stack[STACK_STARTS]
    control[CONTROL_DEPTH] = 0
    starts[0] = 0
    stack[STACK_ENTERED][0] = control[CONTROL_NODES]
    stack[STACK_TESTED][0] = (
        1  # the root's pairwise test is the solve's (``solver.search.dead_ends.root_dead``)
    )
    stack[STACK_FACTS_READ][0] = UNREAD
    control[CONTROL_COSTLY_FROM] = 1
    if cards_home(state, params) == params[CARD_COUNT]:
        control[CONTROL_STATUS] = SOLVED
        return
    first, second = position_keys(state, params, zobrist, column_keys)
    record_visit(entries, counters, first, second, 0)
    dead = False
    if DEAD_END_TESTS:
        dead = (control[CONTROL_OPTIONS] & TRIPLES) != 0 and root_proved_dead(dead_ends, first, second)
    dead = dead or (
        (control[CONTROL_OPTIONS] & HOPELESS) != 0
        and (hopeless(state, params, NOWHERE, NOWHERE) or twins_hopeless(state, params))
    )
    if DEAD_END_TESTS:
        due = pairs_on(control, dead_ends, H2)
        dead = dead or pairs_dead(state, params, stack, 0, control, dead_ends, due)
    if dead:
        counts[0] = 0
    else:
        counts[0] = expand(state, params, control, moves, 0, scores, stack[STACK_LANDING])
    next_index[0] = 0
    control[CONTROL_STATUS] = RUNNING


@kernel
def search_chunk(state, params, zobrist, column_keys, table, stack, control, dead_ends, node_limit):
    """Search on until a win, exhaustion, ``node_limit`` nodes in all, or a table that
    wants to grow; the status says which."""
    entries, counters = table[TABLE_ENTRIES], table[TABLE_COUNTERS]
    moves, counts, next_index = stack[STACK_MOVES], stack[STACK_COUNTS], stack[STACK_NEXT]
    applied, scores, starts = stack[STACK_APPLIED], stack[STACK_SCORES], stack[STACK_STARTS]
    entered, tested, landing = stack[STACK_ENTERED], stack[STACK_TESTED], stack[STACK_LANDING]
    max_depth = counts.shape[0] - 1
    ida = control[CONTROL_MODE] == IDA
    card_count = params[CARD_COUNT]
    depth = control[CONTROL_DEPTH]
    nodes = control[CONTROL_NODES]
    status = PAUSED
    costly = np.iinfo(np.int64).max
    if DEAD_END_TESTS:
        costly = costly_after(control, dead_ends)
    while nodes < node_limit:
        shallowest = control[CONTROL_COSTLY_FROM]
        costly_now = nodes >= control[CONTROL_COSTLY_WAIT] and nodes - entered[shallowest] >= costly
        if DEAD_END_TESTS and shallowest <= depth and costly_now:
            depth = test_costly(state, params, zobrist, column_keys, stack, control, dead_ends, depth, nodes)
        index = next_index[depth]
        if index >= counts[depth]:
            if depth == 0:
                status = EXHAUSTED
                break
            depth -= 1
            control[CONTROL_COSTLY_FROM] = min(control[CONTROL_COSTLY_FROM], depth + 1)
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
        due = False
        if DEAD_END_TESTS:
            due = pairs_due(control, dead_ends, nodes - entered[depth])
        tested[child] = due
        control[CONTROL_COSTLY_FROM] = min(control[CONTROL_COSTLY_FROM], child)
        stack[STACK_FACTS_READ][child] = UNREAD
        if new_position_dead(state, params, stack, child, control, dead_ends, due):
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
