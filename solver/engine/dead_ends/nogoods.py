"""NOGOODS: a dead position's pair table, remembered, proves later positions dead in microseconds.

When ``h2.h2_dead`` proves a position s dead it leaves its full pair table R_s in ``reach``
(the fixpoint ran to the end: no early exit happens when some home fact stays unreached).
``remember_dead`` copies it into a ring of ``arrays.RING_SIZE`` such tables. A later
position t (of the same deal: the tables' facts and actions are the same) is dead too when
every pair of its facts lies in one remembered R_s, whatever its arrangement:

h^2's table is the least set of pairs that contains the position's own pairs and is closed
under the action rule, and that rule is monotone (a larger set makes more actions applicable
and pairs more facts with what they add). R_s is closed under the rule and, by the test,
holds every pair of t, so t's least closed set lies inside R_s. R_s lacks a pair of home facts
{home(c), home(d)}, so t's table lacks it too, and t is dead by the argument of ``h2``.

The argument asks only two things of a remembered table: that it be closed under the rule and
that it lack a pair of home facts. It does not ask that it be the table of s. WIDE_NOGOODS
(``widen``) uses this: before a dead table is stored, it is closed again from a wider start,
s's facts plus every fact that mentions one card (on(card, _), on(_, card), clear(card),
up(card), home(card), nothome(card); for a column's base, on(_, base) and clear(base)), for
each card and base in turn; a wider start is kept whenever its table still lacks a pair of
home facts, and given up (the table put back) otherwise; a card whose facts fail together has
them tried again in four groups (what lies on it, where it lies, face up, on its foundation).
Each kept table is the least closed set of its start (``close`` from a table that already lies
inside it), so it is a sound nogood, and it holds every pair of the narrower one, so it covers
every position the narrower one covers and more: positions that differ from s in where the
cards that s's dead end does not depend on lie, whether they are face up, or whether they went
home. The widening costs one fixpoint per card and base (five for a card that fails), and runs
only when the full test proved a position dead. On KPat 3000028 the search then needs 0.8 M
positions instead of 7.4 M (docs/hard-tail.md, "Widened dead tables").

The check. A pair table holds each pair in both rows (``h2.add_pairs``; a start is every pair of
a set of facts), so every pair of t's facts is in R_s when the row of each fact of t holds all of
t's facts. Each slot also keeps the facts of the last position u it was found to hold
(``remembered_pairs.last``, emptied when a table is stored): the pairs within u's facts are in R_s, so
every pair of t's facts not among them has a fact d of t that u lacks, and only the rows of
those facts d are read (a move changes a few facts, and a table goes on proving positions dead
near the last). A check first compares t's facts with the table's reachable facts (a few words,
which refuses most tables); it runs before the full test, which it spares where it succeeds.

Which tables are kept: ``remembered_pairs.order`` lists the slots most recently useful first (a table moves
to the front when it is stored and each time it proves a position dead). Tables are tried in
that order and a new one takes the slot of the least recently useful. A table that proved
something dead tends to go on doing so in the same region of the search, so it stays, where a
first-in first-out ring dropped it once 16 newer tables were stored. Any set of dead tables is
sound; the order and the size only decide what the check finds and costs. Against 16 tables first-in
first-out (docs/hard-tail.md, "The remembered dead tables, kept by use", where the size was
chosen): never more positions on the hard list and four more KPat deals at 40 M positions; KPat
3000028 lost in 10.0 M positions and 19.7 CPU s instead of 19.3 M and 35.8 s, 9000085 7.6 M and
13.7 s instead of 10.2 M and 18.9 s, PySolFC 137 lost in 27.8 M (unknown at 40 M before).
"""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from solver.engine.bits import copy_words, has_bit, set_bit
from solver.engine.dead_ends.arrays import (
    BASE,
    FACT_CLEAR,
    FACT_HOME,
    FACT_NOTHOME,
    FACT_UP,
    HEADER_ACTIONS,
    HEADER_FACTS,
    HEADER_NOGOOD_CALLS,
    HEADER_NOGOOD_DEAD,
    HEADER_RING_FILL,
    HEADER_TICK,
    HEADER_WIDEN_KEPT,
    HEADER_WIDEN_TRIES,
    HEADER_WORDS,
    MAX_COLUMNS,
    NO_FACT,
)
from solver.engine.dead_ends.h2 import close, every_home_pair
from solver.engine.jit import kernel


@kernel
def remember_dead(tables, wide):
    """Copy the pair table of the position just proved dead (``wide``: widened first, see
    ``widen``) into the ring, in the slot of the least recently useful table once the ring is
    full, and put it first in the order."""
    if wide:
        widen(tables)
    header = tables.header
    fact_count, words = header[HEADER_FACTS], header[HEADER_WORDS]
    slot = claim_slot(tables.remembered_pairs.order, header, HEADER_RING_FILL)
    reach, reachable = tables.pairs.reach, tables.remembered_pairs.facts[slot]
    ring = tables.remembered_pairs.tables[slot]
    copy_table(ring, reach, fact_count, words)
    reachable[:] = 0
    tables.remembered_pairs.last[slot][:] = 0  # no position known to be held yet
    for fact in range(fact_count):
        if has_bit(reach[fact], fact):
            set_bit(reachable, fact)


@kernel
def claim_slot(order, header, fill_slot):
    """The slot of a ring (its slots in ``order``, the most recently useful first; the first
    ``header[fill_slot]`` of them stored) that a new table takes: the next free one while the
    ring fills, then the least recently useful. It is put first, and counted stored."""
    size = order.shape[0]
    at = min(header[fill_slot], size - 1)
    slot = order[at]
    to_front(order, at)
    header[fill_slot] = min(header[fill_slot] + 1, size)
    return slot


@kernel
def copy_table(target, source, fact_count, words):
    """Copy the first ``fact_count`` rows of pair table ``source`` into ``target``."""
    for fact in range(fact_count):
        copy_words(target[fact], source[fact], words)


@kernel
def covered(tables, slot, words):
    """Does remembered table ``slot`` hold every pair of the position's facts? First, cheaply:
    is each of them reachable there? Then the rows of the facts that the last position it held
    (``remembered_pairs.last``) lacked: see "The check" above. When it holds them all, the position becomes
    the last one. (Indexed without slicing: a view per slot costs more than the check.)"""
    ring, reachable, mask = tables.remembered_pairs.tables, tables.remembered_pairs.facts, tables.position
    last = tables.remembered_pairs.last
    for w in range(words):
        if mask[w] & ~reachable[slot, w] != 0:
            return False
    for w in range(words):
        new = mask[w] & ~last[slot, w]
        while new:
            fact = w * 64 + trailing_zeros(new)
            new &= new - np.uint64(1)
            for v in range(words):
                if ring[slot, fact, v] & mask[v] != mask[v]:
                    return False
    for w in range(words):
        last[slot, w] = mask[w]
    return True


@kernel
def held_by_ring(tables):
    """Is every pair of the facts in ``tables.position`` in a remembered dead table (tried most
    recently useful first; the one that says so moves to the front)?"""
    header = tables.header
    header[HEADER_NOGOOD_CALLS] += 1
    order = tables.remembered_pairs.order
    for at in range(header[HEADER_RING_FILL]):
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


ENTITIES = BASE + MAX_COLUMNS  # what ``widen`` frees in turn: the 52 cards, then the bases
# a card's facts, in the groups ``widen`` tries one by one when all of them at once fail
LIES_ON_IT, WHERE_IT_LIES, FACE_UP, ON_FOUNDATION = range(4)
GROUPS = 4
EVERY_GROUP = -1


@kernel
def widen(tables):
    """Widen the dead table in ``reach`` (closed from the position's facts, which
    ``tables.position`` holds): for each card and column base in turn, close it from the start so
    far plus every fact that mentions it, and keep that start while the table stays dead; when
    it does not, try a card's groups of facts (``mention_facts``) one by one the same way. The
    start the table is closed from is left in ``wide_start``."""
    header = tables.header
    words = header[HEADER_WORDS]
    start = tables.remembered_pairs.wide_start
    wider = tables.remembered_pairs.wider
    copy_words(start, tables.position, words)
    for entity in range(ENTITIES):
        if widened(tables, entity, EVERY_GROUP, start, wider, words) or entity >= BASE:
            continue
        for group in range(GROUPS):
            widened(tables, entity, group, start, wider, words)


@kernel
def widened(tables, entity, group, start, wider, words):
    """Widen ``start`` by ``entity``'s facts of ``group`` if the table closed from it stays
    dead; return whether it did (False too when they add nothing)."""
    copy_words(wider, start, words)
    mention_facts(tables, entity, group, wider)
    if not differs(wider, start, words) or not still_dead(tables, wider, words):
        return False
    copy_words(start, wider, words)
    return True


@kernel
def mention_facts(tables, entity, group, facts_set):
    """Add to ``facts_set`` the facts of ``group`` (EVERY_GROUP: all of them) that mention
    ``entity``, a card or BASE + column: LIES_ON_IT on(_, entity) and clear(entity) (a base has
    only these), WHERE_IT_LIES on(entity, _), FACE_UP up(entity), ON_FOUNDATION home(entity) and
    nothome(entity)."""
    facts = tables.encoding.facts
    every = group == EVERY_GROUP
    if every or group == LIES_ON_IT:
        for card in range(52):
            mention(facts_set, facts[card, entity])
        mention(facts_set, facts[FACT_CLEAR, entity])
    if entity >= BASE:
        return
    if every or group == WHERE_IT_LIES:
        for below in range(ENTITIES):
            mention(facts_set, facts[entity, below])
    if every or group == FACE_UP:
        mention(facts_set, facts[FACT_UP, entity])
    if every or group == ON_FOUNDATION:
        mention(facts_set, facts[FACT_HOME, entity])
        mention(facts_set, facts[FACT_NOTHOME, entity])


@kernel
def mention(facts_set, fact):
    """Set ``fact`` unless it is NO_FACT."""
    if fact != NO_FACT:
        set_bit(facts_set, fact)


@kernel
def differs(first, second, words):
    """Do two bitsets differ in their first ``words`` words?"""
    for w in range(words):
        if first[w] != second[w]:
            return True
    return False


@kernel
def still_dead(tables, start, words):
    """Add every pair of ``start`` to the closed dead table in ``reach`` and close it again (the
    least closed set of ``start``, as ``reach`` lies inside it); keep it if it still lacks a pair
    of home facts, else put the table back. Returns whether it was kept."""
    header = tables.header
    fact_count = header[HEADER_FACTS]
    reach, before, grew_at = tables.pairs.reach, tables.remembered_pairs.before, tables.pairs.grew_at
    copy_table(before, reach, fact_count, words)
    tick = header[HEADER_TICK] + 1  # later than every action's last look
    for w in range(words):
        known = start[w]
        while known:
            fact = w * 64 + trailing_zeros(known)
            known &= known - np.uint64(1)
            for v in range(words):
                if start[v] & ~reach[fact, v]:
                    reach[fact, v] |= start[v]
                    grew_at[fact] = tick
    header[HEADER_TICK] = close(tables, words, header[HEADER_ACTIONS], tick)
    header[HEADER_WIDEN_TRIES] += 1
    if every_home_pair(reach):
        copy_table(reach, before, fact_count, words)
        return False
    header[HEADER_WIDEN_KEPT] += 1
    return True
