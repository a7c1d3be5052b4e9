"""The dead-end tests a solve runs from Python: this thread's tables of the pairwise test and the
test over triples (``engine.dead_ends``), what the tests did in the last solve, the
tests of the root (``solver.search.solve.run_testing_root`` calls them once a deal proved not
easy), and the tests of positions of a search's path over triples between two of its chunks
(``test_path_over_triples``, rationed by ``config.PathRation``)."""

import threading

import numpy as np

from solver.engine import layout, moves, search
from solver.engine.dead_ends import arrays, entry, h2, h3
from solver.engine.dead_ends.arrays import DeadEndTables
from solver.search.budget import Budget
from solver.search.packing import Packed

_thread_tables = threading.local()


def dead_end_tables() -> DeadEndTables:
    """The dead-end tests' tables (see ``engine.dead_ends.arrays``) for a new solve: this thread's
    arrays, made once, their header cleared (the tests not yet let run: the search runs without
    them), and built for the solve's root by ``root_pairs_dead`` when it lets them run (a deal won before
    never compiles their kernels; the remembered dead tables of ``engine.dead_ends.nogoods`` are
    forgotten with the deal they belong to)."""
    tables = getattr(_thread_tables, "dead_ends", None)
    if tables is None:
        tables = _thread_tables.dead_ends = arrays.make_tables()
    tables.header[:] = 0
    return tables


def dead_end_counters() -> dict[str, int]:
    """What the pairwise tests did in this thread's last solve: full tests, of them dead,
    checks of the remembered dead tables, of them dead, the widenings of dead tables tried and
    kept (``engine.dead_ends.nogoods.widen``), whether the test over triples ran on the root and
    proved it dead (``engine.dead_ends.h3``), its tests of positions of the path, of them dead, and the
    checks of the remembered dead families, of them dead (``engine.dead_ends.triple_nogoods``)."""
    tables = getattr(_thread_tables, "dead_ends", None)
    header = tables.header if tables is not None else np.zeros(arrays.HEADER_SIZE, dtype=np.int64)
    return {name: int(header[slot]) for name, slot in arrays.COUNTERS.items()}


def root_pairs_dead(packed: Packed, dead_ends: DeadEndTables, options: int) -> bool:
    """Let the pairwise tests run from now on, and does the test (when on) prove the root lost?
    Called once the solve has searched ``SearchConfig.root_pairs_after`` positions without a verdict, so
    easy deals never pay for a test; every search started after it tests its root (the
    proof of a dead root is such a search, exhausted at once), and with ``moves.H2_SEARCH``
    the positions after it (``engine.dead_ends.pacing.pairs_due``). The tables are built here, for
    ``packed``, the root."""
    h2.build_tables(packed.state, packed.params, dead_ends)
    dead_ends.header[arrays.HEADER_PAIRS_ON] = 1
    return bool(options & moves.H2) and bool(h2.h2_dead(packed.state, packed.params, dead_ends))


def root_triples_dead(packed: Packed, dead_ends: DeadEndTables, options: int) -> bool:
    """Does the test over triples (``engine.dead_ends.h3``, when on) prove the root lost? Run once a solve
    (it records that it ran, and a dead root's keys for the proof's search)."""
    dead_ends.header[arrays.HEADER_ROOT_TRIPLES] = 1
    p = packed
    return bool(options & moves.TRIPLES) and bool(
        h3.test_root(p.state, p.params, p.zobrist, p.column_keys, dead_ends)
    )


def light_search_will_do(dead_ends) -> bool:
    """Does the light search (``engine.groups``: ``DEAD_END_TESTS`` off) search as the full one
    would from now on? Yes while the solve has not let the pairwise tests run, not tested the
    root over triples and remembers no dead table or family: every test it leaves out would then
    answer "alive" without looking (and none of them can turn on within a chunk)."""
    header = dead_ends.header
    tests_started = header[arrays.HEADER_PAIRS_ON] or header[arrays.HEADER_ROOT_TRIPLES]
    return not (tests_started or header[arrays.HEADER_RING_FILL] or header[arrays.HEADER_FAMILY_FILL])


# A search's path tested over triples. ``searched`` is a ``solver.search.searching.Search``: its packed
# position, control block, stack, tables and config, and ``path_tested``, the positions of its path
# tested so far (each by its depth and the positions searched when it was entered).


def test_path_over_triples(searched, budget: Budget) -> None:
    """With PATH_TRIPLES, once the root was tested over triples and found alive: the shallowest
    position of ``searched``'s path not yet tested whose subtree holds the config's
    ``path_triples_after`` positions gets the test (``engine.dead_ends.entry.path_triples_dead``, which
    leaves it and remembers its family when it is dead), rationed per solve."""
    control, header = searched.control, searched.dead_ends.header
    if not path_tests_allowed(searched, budget):
        return
    nodes, depth = int(control[layout.CONTROL_NODES]), int(control[layout.CONTROL_DEPTH])
    entered = searched.stack[layout.STACK_ENTERED]
    for at in range(1, depth + 1):
        if nodes - entered[at] < searched.config.path_triples_after:
            return
        if (at, int(entered[at])) not in searched.path_tested:
            searched.path_tested.add((at, int(entered[at])))
            header[arrays.HEADER_PATH_TESTS] += 1
            header[arrays.HEADER_PATH_DEAD] += path_position_dead(searched, at)
            return


def path_position_dead(searched, at: int) -> bool:
    """Test the position at depth ``at`` of ``searched``'s path over triples; a dead one is left."""
    p = searched.packed
    return bool(
        entry.path_triples_dead(
            p.state,
            p.params,
            p.zobrist,
            p.column_keys,
            searched.stack,
            searched.control,
            searched.dead_ends,
            at,
        )
    )


def path_tests_allowed(searched, budget: Budget) -> bool:
    """May a position of ``searched``'s path be tested over triples now (the option on, a
    depth-first search of a deal with tables, the root tested, the ration not used up, and budget
    left: a call lasts about 0.06-0.3 s)? Foundation return included since the kernels count no
    references: before, a call there cost about twice a strict one beside a slower search, and the
    tests held a won deal (PySolFC 9753) past its 60 s; now it is won in 32 s with them
    (docs/hard-tail.md, "Kernels without reference counting")."""
    control, header = searched.control, searched.dead_ends.header
    if not control[layout.CONTROL_OPTIONS] & moves.PATH_TRIPLES or control[layout.CONTROL_MODE] != search.DFS:
        return False
    if not header[arrays.HEADER_ROOT_TRIPLES] or header[arrays.HEADER_FACTS] == 0:
        return False
    if budget.time_left() <= 0 or budget.nodes_left() <= 0 or budget.interrupted:
        return False
    tests, dead = int(header[arrays.HEADER_PATH_TESTS]), int(header[arrays.HEADER_PATH_DEAD])
    return searched.config.path_ration().due(tests, dead, budget.plan_nodes)
