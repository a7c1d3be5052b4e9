"""What the search kernel calls: the dead-end tests of its root (``root_dead``), of each position it
reaches (``position_dead``), and of costly positions of its path between two steps
(``costly_path_test``); and, from the solve between two chunks, of a position of the path over
triples (``path_triples_dead``). Which tests run, in which order, is decided here; where they
are rationed, in ``pacing``.

A position that a sound test proves lost gets no moves. HOPELESS (``prune``) is tested at the
root and after every move that may have made a position hopeless (with TWIN_SPLIT, its case split
on twins with it: ``pins_dead``); the remembered dead tables (``nogoods``, when on; widened before
they are stored with WIDE_NOGOODS) at every new position while their checks pay
(``pacing.checks_pay``); the full pairwise test (``h2``) on the root and, with H2_SEARCH, where
``pacing.pairs_due`` says (the children of positions whose subtrees proved costly) and on costly
positions of the path themselves (``costly_path_test``), once the solve has let the pairwise tests
run (``solver.search.dead_ends.root_pairs_dead``); with TRIPLES, a root the test over triples proved dead
(``h3``, run once a deal by ``solver.search.dead_ends.root_triples_dead``) gets no moves; with
PATH_TRIPLES, a position of the path it proves dead between two chunks is left
(``path_triples_dead``), and a position whose sets of facts all lie in the family of one of those
(``triple_nogoods``, checked after the remembered dead tables) gets no moves. On a new position
the remembered tables and families are asked first, HOPELESS next, the full pairwise test last
(``new_position_dead``): the remembered tables answer most often and cheapest. The facts the
pairwise tests read are kept along the path (``path_facts``). Where a test runs decides only
what it costs: each one is sound on any position, so no verdict depends on it.

The light entry points (``..._light``: ``DEAD_END_TESTS`` off) run HOPELESS alone, and the light
``costly_path_test`` no test at all: the light search kernels (``solver.engine.groups``) call them
while every other test would answer "alive" without looking
(``solver.search.dead_ends.light_search_will_do``), and compile without the kernels of those tests.
"""

from solver.engine.apply import walk_back, walk_forward
from solver.engine.dead_ends.arrays import HEADER_FACTS, HEADER_FAMILY_FILL, HEADER_RING_FILL
from solver.engine.dead_ends.h2 import facts_dead
from solver.engine.dead_ends.h3 import h3_dead, root_proved_dead
from solver.engine.dead_ends.nogoods import held_by_ring, remember_dead
from solver.engine.dead_ends.pacing import (
    checks_pay,
    costly_after,
    costly_test_allowed,
    pairs_due,
    pairs_on,
    split_now,
)
from solver.engine.dead_ends.path_facts import UNREAD, read_facts
from solver.engine.dead_ends.prune import (
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
from solver.engine.dead_ends.triple_nogoods import held_by_family, remember_family
from solver.engine.jit import kernel, variant
from solver.engine.layout import (
    CONTROL_COSTLY_AFTER,
    CONTROL_COSTLY_DEAD,
    CONTROL_COSTLY_FROM,
    CONTROL_COSTLY_TESTS,
    CONTROL_COSTLY_WAIT,
    CONTROL_DEPTH,
    CONTROL_OPTIONS,
    CONTROL_SPLIT_CALLS,
    CONTROL_SPLIT_DEAD,
    STACK_APPLIED,
    STACK_COUNTS,
    STACK_ENTERED,
    STACK_FACTS_READ,
    STACK_NEXT,
    STACK_TESTED,
)
from solver.engine.moves import H2, HOPELESS, NOGOODS, PATH_TRIPLES, TRIPLES, TWIN_SPLIT, WIDE_NOGOODS

# False in the light entry points, compiled without the dead-end tests beyond HOPELESS
DEAD_END_TESTS = True


@kernel
def root_dead(state, params, stack, control, tables, first, second):
    """Is the root of a search (keys ``first``, ``second``; at depth 0 of ``stack``) dead: the root
    the test over triples proved dead, HOPELESS (with its case split on twins), or the pairwise
    tests (the full one when the solve has let it run: ``pacing.pairs_on``)? Starts the path's
    bookkeeping: the root's full test is the solve's (``solver.search.dead_ends.root_pairs_dead``), so
    it counts as tested, and the costly tests start below it."""
    stack[STACK_TESTED][0] = 1
    stack[STACK_FACTS_READ][0] = UNREAD
    control[CONTROL_COSTLY_FROM] = 1
    dead = False
    if DEAD_END_TESTS:
        dead = (control[CONTROL_OPTIONS] & TRIPLES) != 0 and root_proved_dead(tables, first, second)
    dead = dead or (
        (control[CONTROL_OPTIONS] & HOPELESS) != 0
        and (hopeless(state, params, NOWHERE, NOWHERE) or twins_hopeless(state, params))
    )
    if DEAD_END_TESTS:
        due = pairs_on(control, tables, H2)
        dead = dead or pairs_dead(state, params, stack, 0, control, tables, due)
    return dead


@kernel
def position_dead(state, params, stack, depth, control, tables, searched_below_parent):
    """Is the position the search just reached at ``depth`` (new to its table) dead? Its parent has
    had ``searched_below_parent`` positions searched below it, which decides whether the full
    pairwise test is due (``pacing.pairs_due``); the tests in ``new_position_dead``'s order."""
    due = False
    if DEAD_END_TESTS:
        due = pairs_due(control, tables, searched_below_parent)
    stack[STACK_TESTED][depth] = due
    control[CONTROL_COSTLY_FROM] = min(control[CONTROL_COSTLY_FROM], depth)
    stack[STACK_FACTS_READ][depth] = UNREAD
    return new_position_dead(state, params, stack, depth, control, tables, due)


@kernel
def costly_path_test(state, params, zobrist, column_keys, stack, control, tables, depth, nodes):
    """Between two steps of the search, at ``depth`` after ``nodes`` positions: notes that the path
    may have become shorter (the shallowest depth that may be untested is at most ``depth`` + 1),
    then, when the shallowest untested position's subtree has grown costly
    (``pacing.costly_after``) and the ration's wait is over, runs ``test_costly``. Returns the
    depth to go on from."""
    control[CONTROL_COSTLY_FROM] = min(control[CONTROL_COSTLY_FROM], depth + 1)
    if DEAD_END_TESTS:
        shallowest = control[CONTROL_COSTLY_FROM]
        waited = nodes >= control[CONTROL_COSTLY_WAIT]
        costly = nodes - stack[STACK_ENTERED][shallowest] >= costly_after(control, tables)
        if shallowest <= depth and waited and costly:
            return test_costly(state, params, zobrist, column_keys, stack, control, tables, depth, nodes)
    return depth


@kernel
def pairs_dead(state, params, stack, depth, control, tables, due):
    """The pairwise dead-end tests the options ask for: the remembered dead tables and families
    (``remembered_dead``) on every position (the tables while their checks pay: ``ring_asked``),
    the full test where ``due`` (``full_test_dead``)."""
    return facts_read(state, params, stack, depth, control, tables, due) and (
        remembered_dead(control, tables) or (due and full_test_dead(control, tables))
    )


@kernel
def facts_read(state, params, stack, depth, control, tables, due):
    """Read the facts of the position at ``depth`` of the path into the tables (once for all the
    pairwise tests; ``path_facts``) when a test will look at them: the remembered dead tables
    (``nogoods``) or families (``triple_nogoods``) when the options ask for them and some are
    remembered, or the full test when ``due``. Returns whether they were read (never without
    tables, or for a position they cannot encode)."""
    wanted = ring_asked(control, tables) or families_asked(control, tables) or due
    if not wanted or tables.header[HEADER_FACTS] == 0:
        return False
    return read_facts(state, params, stack, depth, tables)


@kernel
def ring_asked(control, tables):
    """Do the options ask for the remembered dead tables (``nogoods``), is one remembered, and
    have the checks paid (``pacing.checks_pay``)?"""
    asked = (control[CONTROL_OPTIONS] & NOGOODS) != 0 and tables.header[HEADER_RING_FILL] > 0
    return asked and checks_pay(control, tables)


@kernel
def families_asked(control, tables):
    """Do the options ask for the remembered dead families (``triple_nogoods``), and is one
    remembered?"""
    return (control[CONTROL_OPTIONS] & PATH_TRIPLES) != 0 and tables.header[HEADER_FAMILY_FILL] > 0


@kernel
def remembered_dead(control, tables):
    """Do the facts read (``facts_read``) lie in a remembered dead table or family?"""
    if ring_asked(control, tables) and held_by_ring(tables):
        return True
    return families_asked(control, tables) and held_by_family(tables)


@kernel
def full_test_dead(control, tables):
    """The full pairwise test of the facts read; a position it proves dead is remembered."""
    if not facts_dead(tables):
        return False
    if control[CONTROL_OPTIONS] & NOGOODS:
        remember_dead(tables, (control[CONTROL_OPTIONS] & WIDE_NOGOODS) != 0)
    return True


@kernel
def new_position_dead(state, params, stack, depth, control, tables, due):
    """The dead-end tests of the position just reached at ``depth``, cheapest and most often right
    first: the remembered dead tables and families, HOPELESS (``pins_dead``), then the full
    pairwise test where ``due``. Each is sound alone, so given the same rings the verdict is
    the one of HOPELESS first; but a position both HOPELESS and held by a remembered table now
    moves that table to the front of its ring, which can change which table a full ring lets go
    of later, so the search may differ in principle (on the 23 deals of the hard list it is the
    same, position for position)."""
    read = False
    if DEAD_END_TESTS:
        read = facts_read(state, params, stack, depth, control, tables, due)
        if read and remembered_dead(control, tables):
            return True
    if pins_dead(state, params, control, stack[STACK_APPLIED][depth - 1]):
        return True
    if DEAD_END_TESTS:
        return read and due and full_test_dead(control, tables)
    return False


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
def test_costly(state, params, zobrist, column_keys, stack, control, tables, depth, nodes):
    """With H2_SEARCH, the full pairwise test of a position on the path that proved costly: the
    shallowest one not yet tested, once ``control[CONTROL_COSTLY_AFTER]`` positions were searched
    below it (a subtree that large is likely to be larger still; its positions are searched
    in the order they were entered, shallowest first, and each is tested once). The path is
    taken back to that position for the test and made again after it; a dead position is left
    at once, its move list exhausted. Tests are rationed and paced
    (``pacing.costly_test_allowed``). Returns the depth to go on from.
    (``costly_path_test`` calls it only when the shallowest candidate's subtree is that large.)"""
    after = control[CONTROL_COSTLY_AFTER]
    tested, entered = stack[STACK_TESTED], stack[STACK_ENTERED]
    shallowest = control[CONTROL_COSTLY_FROM]
    while shallowest <= depth and tested[shallowest]:
        shallowest += 1
    control[CONTROL_COSTLY_FROM] = shallowest
    if shallowest > depth or nodes - entered[shallowest] < after:
        return depth
    if not costly_test_allowed(control, tables, nodes, after):
        return depth
    tested[shallowest] = 1
    control[CONTROL_COSTLY_TESTS] += 1
    walk_back(state, params, zobrist, column_keys, stack, depth, shallowest)
    if pairs_dead(state, params, stack, shallowest, control, tables, True):
        control[CONTROL_COSTLY_DEAD] += 1
        stack[STACK_NEXT][shallowest] = stack[STACK_COUNTS][shallowest]
        return shallowest
    walk_forward(state, params, zobrist, column_keys, stack, shallowest, depth)
    return depth


@kernel
def path_triples_dead(state, params, zobrist, column_keys, stack, control, tables, shallower):
    """The test over triples (``h3``) of the position at depth ``shallower`` of the path: the
    path is taken back to it for the test; a dead one is left at once (its move list exhausted,
    the search goes on from it), otherwise the path is made again. Returns whether it was
    dead."""
    depth = control[CONTROL_DEPTH]
    walk_back(state, params, zobrist, column_keys, stack, depth, shallower)
    if h3_dead(state, params, tables):
        remember_family(tables)
        stack[STACK_NEXT][shallower] = stack[STACK_COUNTS][shallower]
        control[CONTROL_DEPTH] = shallower
        return True
    walk_forward(state, params, zobrist, column_keys, stack, shallower, depth)
    return False


# The light entry points (see the module docstring).
new_position_dead_light = variant(new_position_dead, "new_position_dead_light", DEAD_END_TESTS=False)
position_dead_light = variant(
    position_dead, "position_dead_light", DEAD_END_TESTS=False, new_position_dead=new_position_dead_light
)
root_dead_light = variant(root_dead, "root_dead_light", DEAD_END_TESTS=False)
costly_path_test_light = variant(costly_path_test, "costly_path_test_light", DEAD_END_TESTS=False)
