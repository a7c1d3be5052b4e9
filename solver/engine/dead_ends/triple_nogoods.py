"""PATH_TRIPLES' remembered families: a family of triples that proved a position dead proves
later positions dead with a look-up.

``h3`` tests positions of the path that hold large subtrees
(``solver.search.dead_ends.test_path_over_triples``). When it proves a position s dead, its family
Phi_s is closed: the fixpoint ran until no action added a set (it stops early only once every
pair of home facts is in the family, which a dead position never reaches). ``remember_family``
copies Phi_s into a ring of ``arrays.FAMILY_RING_SIZE`` slots. A later position t of the same deal
(the same facts and actions: the ring is emptied with the header when the tables are built for
a new root) is dead too when every set of at most three of its facts lies in one remembered
Phi_s:

h^3's family of t is the least family that contains the sets of t's facts and is closed under
the action rule of ``h3``, and that rule is monotone (a larger family makes more actions
applicable, and pairs their added facts with more sets). Phi_s is closed under the rule and
holds every set of t's facts, so t's least closed family lies inside Phi_s. Phi_s lacks a pair
of home facts {home(c), home(d)}, so t's family lacks it too, and t is lost by the argument of
``h3``. This is ``nogoods``' argument one level up; like it, it asks only that the remembered
family be closed and lack a pair of home facts.

Why it pays where the test over triples alone did not: a call cost 0.1-0.3 s (now about 60 ms on
a Yukon root), so on the path it had to be rationed to a handful of tests per million positions,
and each dead verdict cut one subtree. The family of a dead position also covers positions that
differ from it in where the cards its dead end does not need lie, as the widened pair tables do
(``nogoods``): on PySolFC 2403 the four families the path tests stored proved 86,665 later
positions dead, and the deal is lost in 1.6 M positions, where without them it stayed unknown
after 60 s (docs/hard-tail.md, "Remembered families of triples").

The check. The family holds each set in the row of each two of its facts (``h3.put``, the lower
fact first: ``h3.ordered``), so a set {d, x, y} is in it exactly when the row of {d, x} holds y,
and every set of at most three of t's facts is in it when, for every fact d of t, each row {d,
x} (x a fact of t) holds all of t's facts. Each slot also keeps the facts of the last position u
it was found to hold (``remembered_triples.last``, emptied when a family is stored): the sets within
u's facts are in the family, so every set of t's facts not among them has a fact d of t that u
lacks, and only the rows of those facts d are read. A check first compares t's facts with the
family's single facts (``remembered_triples.facts``: a few words, which refuses most families), then
reads those rows, some hundreds where a full pass reads tens of thousands (the positions a
family proves dead in a row differ by a move or two: on KPat 5000010 the solve takes 25.8 s
instead of 32.4, the same positions). The ring keeps the most recently useful families, as
``nogoods`` does (a family that proved something dead tends to go on doing so in the same region
of the search); 8 slots, as 32 decided nothing more (PySolFC 1296 and 9885 stayed unknown at 60
s, their families proving 611,177 and 231,448 positions dead instead of 602,642 and 147,764),
and storing a family copies the rows ``h3`` uses, half of the facts x facts rows (about 2.7 MiB
of 5.3 for a Yukon deal of 337 facts).

Array layouts: ``arrays``' ``RememberedTriples`` and the header's ``HEADER_FAMILY_...`` slots.
"""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from solver.engine.bits import has_bit, set_bit
from solver.engine.dead_ends.arrays import (
    HEADER_FACTS,
    HEADER_FAMILY_CHECKS,
    HEADER_FAMILY_DEAD,
    HEADER_FAMILY_FILL,
    HEADER_WORDS,
)
from solver.engine.dead_ends.h3 import ordered
from solver.engine.dead_ends.nogoods import claim_slot, to_front
from solver.engine.jit import kernel


@kernel
def remember_family(tables):
    """Copy the closed family of the position ``h3`` just proved dead (``triples.family``) into the ring,
    in the slot of the least recently useful family once the ring is full, and put it first."""
    header = tables.header
    fact_count, words = header[HEADER_FACTS], header[HEADER_WORDS]
    slot = claim_slot(tables.remembered_triples.order, header, HEADER_FAMILY_FILL)
    triples, ring = tables.triples.family, tables.remembered_triples.families[slot]
    facts = tables.remembered_triples.facts[slot]
    facts[:] = 0
    tables.remembered_triples.last[slot][:] = 0  # no position known to be held yet
    for p in range(fact_count):
        for q in range(p, fact_count):  # the rows ``h3`` uses (see its "The computation")
            row = (p * fact_count + q) * words
            for w in range(words):
                ring[row + w] = triples[p, q, w]
        if has_bit(triples[p, p], p):
            set_bit(facts, p)


@kernel
def holds_every_set(ring, facts, last, slot, mask, fact_count, words):
    """Does the family in ``ring[slot]`` (its single facts ``facts[slot]``) hold every set of at
    most three of the facts in ``mask``? Its single facts first (a few words, which refuse most
    families); then, for each fact d of ``mask`` that the last position it held
    (``last[slot]``) lacked, the rows {d, x}, x a fact of ``mask``: the sets within the last
    position's facts are known to be held (see "The check" above). When it holds them all,
    ``mask`` becomes the last position. (Indexed without slicing, as ``nogoods.covered`` is: a
    view per slot costs more than most checks.)"""
    for w in range(words):
        if mask[w] & ~facts[slot, w] != 0:
            return False
    for w in range(words):
        new = mask[w] & ~last[slot, w]
        while new:
            d = w * 64 + trailing_zeros(new)
            new &= new - np.uint64(1)
            if not rows_hold(ring, slot, d, mask, fact_count, words):
                return False
    for w in range(words):
        last[slot, w] = mask[w]
    return True


@kernel
def rows_hold(ring, slot, d, mask, fact_count, words):
    """Do the rows {d, x} of the family, x every fact of ``mask`` (d among them), hold all of
    ``mask``?"""
    for w in range(words):
        known = mask[w]
        while known:
            x = w * 64 + trailing_zeros(known)
            known &= known - np.uint64(1)
            low, high = ordered(d, x)
            if not row_holds(ring, slot, (low * fact_count + high) * words, mask, words):
                return False
    return True


@kernel
def row_holds(ring, slot, row, mask, words):
    """Does the family's row starting at ``ring[slot, row]`` hold every fact of ``mask``?"""
    for w in range(words):
        if ring[slot, row + w] & mask[w] != mask[w]:
            return False
    return True


@kernel
def held_by_family(tables):
    """Does a remembered dead family hold every set of the facts in ``tables.position`` (tried
    most recently useful first; the one that does moves to the front)?"""
    header = tables.header
    header[HEADER_FAMILY_CHECKS] += 1
    order, mask = tables.remembered_triples.order, tables.position
    ring, facts, last = (
        tables.remembered_triples.families,
        tables.remembered_triples.facts,
        tables.remembered_triples.last,
    )
    for at in range(header[HEADER_FAMILY_FILL]):
        slot = order[at]
        if holds_every_set(ring, facts, last, slot, mask, header[HEADER_FACTS], header[HEADER_WORDS]):
            header[HEADER_FAMILY_DEAD] += 1
            to_front(order, at)
            return True
    return False
