"""The arrays the dead-end tests keep, in one place: their named tuples, their sizes, the slots of
their header (sizes, switches and counters), made once a thread by ``make_tables``.

The tables travel into the kernels as one ``DeadEndTables``, a named tuple of named tuples of
arrays, one for each part of the tests (its fields are read by name: ``tables.pairs.reach``):

    tables.header[HEADER_...]       sizes, switches and counters (the slots below); HEADER_FACTS 0:
                                    no tables for this deal, every test answers "alive"
    tables.position[w]              the facts of the position tested (``h2.position_facts``,
                                    ``path_facts.read_facts``)

    tables.encoding (``Encoding``: ``h2``'s facts and actions of the deal, built from its root):
    facts[card, d]                  fact number of on(card, d), d a card or BASE + column; NO_FACT if none
    facts[FACT_CLEAR, d]            clear(d);  facts[FACT_UP, c] up(c);  facts[FACT_HOME, c] home(c)
    facts[FACT_NOTHOME, c]          nothome(c) (NO_FACT without return). Fact c < 52 is home(c).
    actions[a, PRE + i]             precondition i of action a (i < actions[a, PRE_COUNT]);
    actions[a, ADD + i]             added fact i (i < actions[a, ADD_COUNT])
    masks[a, MASK_PRE|MASK_ADD|MASK_DELETE, w]   the same sets as bitsets
    height_masks[suit, h, w]        the foundation facts of a suit at height h: home of its h lowest
                                    cards, nothome of the others (with return)

    tables.pairs (``Pairs``: ``h2``'s fixpoint):
    reach[p, w]                     the pair table of the last call
    checked_at[a], grew_at[p]       when action a was last looked at, when row p last grew (ticks)
    compatible[w]                   scratch: the facts an applied action's added facts pair with

    tables.remembered_pairs (``RememberedPairs``: ``nogoods``' ring of dead pair tables):
    tables[slot], facts[slot]       the remembered dead tables and their reachable facts
    order[i]                        the ring's slots, the most recently useful first
    last[slot, w]                   the facts of the last position each table was found to hold
    before[p, w]                    scratch: the pair table before ``nogoods.widen`` tries a wider start
    wide_start[w]                   the facts the last table remembered was closed from
    wider[w]                        scratch: the start ``nogoods.widen`` tries

    tables.triples (``Triples``: ``h3``'s fixpoint):
    family[p, q, w]                 the family of the last call: bit r when {p, q, r} is in it (p <= q)
    scratch[0|1, w]                 scratch rows

    tables.remembered_triples (``RememberedTriples``: ``triple_nogoods``' ring of dead families):
    families[slot, (p * facts + q) * words + w]   the remembered dead families, as ``family`` over
                                    the deal's sizes (16 MiB reserved a slot, lazily paged; a stored
                                    family fills the rows p <= q, as ``family``)
    facts[slot, w], order[i]        their facts, and the slots most recently useful first
    last[slot, w]                   the facts of the last position the family was found to hold

Python reads the counters by the same names (``solver.search.dead_ends.dead_end_counters``).
"""

from typing import NamedTuple

import numpy as np

MAX_FACTS = 512
WORDS = MAX_FACTS // 64
MAX_ACTIONS = 1024
MAX_COLUMNS = 8
BASE = 52  # the base of column i is "card" BASE + i
NO_FACT = -1
EVERY_HOME = np.uint64((1 << 52) - 1)  # the home facts' bits: home(c) is fact c
RING_SIZE = 64  # remembered dead tables (``nogoods``: why 64)
FAMILY_RING_SIZE = 8  # remembered dead families of triples (``triple_nogoods``: why 8)

# rows of ``encoding.facts`` after the 52 ``on`` rows
FACT_CLEAR, FACT_UP, FACT_HOME, FACT_NOTHOME, FACT_ROWS = 52, 53, 54, 55, 56
# columns of ``encoding.actions``
PRE, ADD, PRE_COUNT, ADD_COUNT, ACTION_FIELDS = 0, 5, 9, 10, 11
MAX_PRE, MAX_ADD = 5, 4
# rows of ``encoding.masks``
MASK_PRE, MASK_ADD, MASK_DELETE = 0, 1, 2

# header slots: sizes (HEADER_FACTS 0: no tables, the test answers "alive"), then counters, then
# HEADER_PAIRS_ON: 1 once the solve lets the search run the test (``pacing.pairs_due``)
HEADER_FACTS, HEADER_WORDS, HEADER_ACTIONS, HEADER_CALLS, HEADER_DEAD = range(5)
HEADER_RING_FILL, HEADER_NOGOOD_CALLS, HEADER_NOGOOD_DEAD, HEADER_PAIRS_ON = range(5, 9)
# the last tick of the fixpoint (``h2.close``), and ``nogoods.widen``'s counters
HEADER_TICK, HEADER_WIDEN_TRIES, HEADER_WIDEN_KEPT = range(9, 12)
# ``h3`` on the root: 1 once tested; 1 when it proved the root dead, whose two position keys
# (as int64 bits) follow
HEADER_ROOT_TRIPLES, HEADER_ROOT_DEAD, HEADER_ROOT_FIRST, HEADER_ROOT_SECOND = range(12, 16)
# and on positions of the path (``solver.search.dead_ends.test_path_over_triples``): tests, dead;
# the remembered dead families (``triple_nogoods``): how many are stored, checks, of them dead
HEADER_PATH_TESTS, HEADER_PATH_DEAD = range(16, 18)
HEADER_FAMILY_FILL, HEADER_FAMILY_CHECKS, HEADER_FAMILY_DEAD, HEADER_SIZE = range(18, 22)
# the counters a solve reports (``solver.search.dead_ends.dead_end_counters``), by the names it uses
COUNTERS = {
    "tests": HEADER_CALLS,
    "dead": HEADER_DEAD,
    "nogood_checks": HEADER_NOGOOD_CALLS,
    "nogood_dead": HEADER_NOGOOD_DEAD,
    "widen_tries": HEADER_WIDEN_TRIES,
    "widen_kept": HEADER_WIDEN_KEPT,
    "root_triples": HEADER_ROOT_TRIPLES,
    "root_triples_dead": HEADER_ROOT_DEAD,
    "path_triples": HEADER_PATH_TESTS,
    "path_triples_dead": HEADER_PATH_DEAD,
    "family_checks": HEADER_FAMILY_CHECKS,
    "family_dead": HEADER_FAMILY_DEAD,
}


class Encoding(NamedTuple):
    """``h2``'s facts and actions of a deal (see the module docstring)."""

    facts: np.ndarray
    actions: np.ndarray
    masks: np.ndarray
    height_masks: np.ndarray


class Pairs(NamedTuple):
    """``h2``'s pair table and its fixpoint's bookkeeping."""

    reach: np.ndarray
    checked_at: np.ndarray
    grew_at: np.ndarray
    compatible: np.ndarray


class RememberedPairs(NamedTuple):
    """``nogoods``' ring of dead pair tables, and the scratch of their widening."""

    tables: np.ndarray
    facts: np.ndarray
    order: np.ndarray
    last: np.ndarray
    before: np.ndarray
    wide_start: np.ndarray
    wider: np.ndarray


class Triples(NamedTuple):
    """``h3``'s family of triples and its scratch rows."""

    family: np.ndarray
    scratch: np.ndarray


class RememberedTriples(NamedTuple):
    """``triple_nogoods``' ring of dead families."""

    families: np.ndarray
    facts: np.ndarray
    order: np.ndarray
    last: np.ndarray


class DeadEndTables(NamedTuple):
    """Every array of the dead-end tests (see the module docstring)."""

    header: np.ndarray
    position: np.ndarray
    encoding: Encoding
    pairs: Pairs
    remembered_pairs: RememberedPairs
    triples: Triples
    remembered_triples: RememberedTriples


def make_tables() -> DeadEndTables:
    """Empty tables, for ``h2.build_tables`` to fill."""
    return DeadEndTables(
        header=np.zeros(HEADER_SIZE, dtype=np.int64),
        position=np.zeros(WORDS, dtype=np.uint64),
        encoding=Encoding(
            facts=np.full((FACT_ROWS, BASE + MAX_COLUMNS), NO_FACT, dtype=np.int32),
            actions=np.zeros((MAX_ACTIONS, ACTION_FIELDS), dtype=np.int32),
            masks=np.zeros((MAX_ACTIONS, 3, WORDS), dtype=np.uint64),
            height_masks=np.zeros((4, 14, WORDS), dtype=np.uint64),
        ),
        pairs=Pairs(
            reach=np.zeros((MAX_FACTS, WORDS), dtype=np.uint64),
            checked_at=np.zeros(MAX_ACTIONS, dtype=np.int64),
            grew_at=np.zeros(MAX_FACTS, dtype=np.int64),
            compatible=np.zeros(WORDS, dtype=np.uint64),
        ),
        remembered_pairs=RememberedPairs(
            tables=np.zeros((RING_SIZE, MAX_FACTS, WORDS), dtype=np.uint64),
            facts=np.zeros((RING_SIZE, WORDS), dtype=np.uint64),
            order=np.arange(RING_SIZE, dtype=np.int64),
            last=np.zeros((RING_SIZE, WORDS), dtype=np.uint64),
            before=np.zeros((MAX_FACTS, WORDS), dtype=np.uint64),
            wide_start=np.zeros(WORDS, dtype=np.uint64),
            wider=np.zeros(WORDS, dtype=np.uint64),
        ),
        triples=Triples(
            family=np.zeros((MAX_FACTS, MAX_FACTS, WORDS), dtype=np.uint64),  # 16 MiB, lazily paged
            scratch=np.zeros((2, WORDS), dtype=np.uint64),
        ),
        remembered_triples=RememberedTriples(
            families=np.zeros((FAMILY_RING_SIZE, MAX_FACTS * MAX_FACTS * WORDS), dtype=np.uint64),
            facts=np.zeros((FAMILY_RING_SIZE, WORDS), dtype=np.uint64),
            order=np.arange(FAMILY_RING_SIZE, dtype=np.int64),
            last=np.zeros((FAMILY_RING_SIZE, WORDS), dtype=np.uint64),
        ),
    )
