"""NOGOODS: a dead position's pair table, remembered, proves later positions dead in microseconds.

When ``h2.h2_dead`` proves a position s dead it leaves its full pair table R_s in ``reach``
(the fixpoint ran to the end: no early exit happens when some home fact stays unreached).
``remember_dead`` copies it into a ring of ``h2.RING_SIZE`` such tables. A later
position t (of the same deal: the tables' facts and actions are the same) is dead too when
every pair of its facts lies in one remembered R_s, whatever its arrangement:

h^2's table is the least set of pairs that contains the position's own pairs and is closed
under the action rule, and that rule is monotone (a larger set makes more actions applicable
and pairs more facts with what they add). R_s is closed under the rule and, by the test,
holds every pair of t, so t's least closed set lies inside R_s. R_s lacks a pair of home facts
{home(c), home(d)}, so t's table lacks it too, and t is dead by the argument of ``h2``.

The check costs one pass over t's facts per remembered table (its rows ANDed with t's fact
set); it runs before the full test, which it spares where it succeeds.

Which tables are kept: ``ring_order`` lists the slots most recently useful first (a table moves
to the front when it is stored and each time it proves a position dead). Tables are tried in
that order and a new one takes the slot of the least recently useful. A table that proved
something dead tends to go on doing so in the same region of the search, so it stays, where a
first-in first-out ring dropped it once 16 newer tables were stored. Any set of dead tables is
sound; the order and the size only decide what the check finds and costs. Against 16 tables first-in
first-out (benchmarks/README.md, "The remembered dead tables, kept by use", where the size was
chosen): never more positions on the hard list and four more KPat deals at 40 M positions; KPat
3000028 lost in 10.0 M positions and 19.7 CPU s instead of 19.3 M and 35.8 s, 9000085 7.6 M and
13.7 s instead of 10.2 M and 18.9 s, PySolFC 137 lost in 27.8 M (unknown at 40 M before).
"""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from solver.engine.h2 import (
    H2_HEADER,
    H2_POSITION_MASK,
    H2_REACH,
    H2_RING,
    H2_RING_FACTS,
    H2_RING_ORDER,
    HEADER_FACTS,
    HEADER_NOGOOD_CALLS,
    HEADER_NOGOOD_DEAD,
    HEADER_RING_FILL,
    HEADER_WORDS,
    RING_SIZE,
    copy_words,
    has_bit,
    position_facts,
    set_bit,
)
from solver.engine.jit import kernel


@kernel
def remember_dead(tables):
    """Copy the pair table of the position just proved dead into the ring, in the slot of the
    least recently useful table once the ring is full, and put it first in the order."""
    header = tables[H2_HEADER]
    fact_count, words = header[HEADER_FACTS], header[HEADER_WORDS]
    order = tables[H2_RING_ORDER]
    at = min(header[HEADER_RING_FILL], RING_SIZE - 1)  # order[:fill] are the stored slots
    slot = order[at]
    to_front(order, at)
    reach, reachable = tables[H2_REACH], tables[H2_RING_FACTS][slot]
    ring = tables[H2_RING][slot]
    for fact in range(fact_count):
        copy_words(ring[fact], reach[fact], words)
    reachable[:] = 0
    for fact in range(fact_count):
        if has_bit(reach[fact], fact):
            set_bit(reachable, fact)
    header[HEADER_RING_FILL] = min(header[HEADER_RING_FILL] + 1, RING_SIZE)


@kernel
def covered(tables, slot, words):
    """Does remembered table ``slot`` hold every pair of the position's facts? First, cheaply:
    is each of them reachable there? (Indexed without slicing: a view per slot costs more than
    the check.)"""
    ring, reachable, mask = tables[H2_RING], tables[H2_RING_FACTS], tables[H2_POSITION_MASK]
    for w in range(words):
        if mask[w] & ~reachable[slot, w] != 0:
            return False
    for w in range(words):
        known = mask[w]
        while known:
            fact = w * 64 + trailing_zeros(known)
            known &= known - np.uint64(1)
            for v in range(words):
                if ring[slot, fact, v] & mask[v] != mask[v]:
                    return False
    return True


@kernel
def known_dead(state, params, tables):
    """Is every fact pair of the position at ``state`` in a remembered dead table (tried most
    recently useful first; the one that says so moves to the front)?"""
    header = tables[H2_HEADER]
    fill = header[HEADER_RING_FILL]
    if header[HEADER_FACTS] == 0 or fill == 0:
        return False
    if not position_facts(state, params, tables):
        return False
    header[HEADER_NOGOOD_CALLS] += 1
    order = tables[H2_RING_ORDER]
    for at in range(fill):
        if covered(tables, order[at], header[HEADER_WORDS]):
            header[HEADER_NOGOOD_DEAD] += 1
            to_front(order, at)
            return True
    return False


@kernel
def to_front(order, at):
    """Make ``order[at]`` the first slot tried, shifting the ones before it back by one."""
    slot = order[at]
    for i in range(at, 0, -1):
        order[i] = order[i - 1]
    order[0] = slot
