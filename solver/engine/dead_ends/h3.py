"""TRIPLES: the critical-path dead-end test over sets of three facts (h^3), on ``h2``'s encoding,
run on the root of a deal that proved hard and, with PATH_TRIPLES, on positions of the path.

The pairwise test (``h2``) keeps, for every pair of facts, whether some plan may make both true
together. This test keeps the same for every set of at most three facts, so it sees orders of
events that pairs cannot (one card must leave before a second turns, while a third waits on
both), and it flags every position the pairwise test flags and more. A call costs 40-60 ms on
a Yukon root (hundreds of times a pairwise test), so it runs where a large search is at stake: on
the root once the solve has searched ``SearchConfig.root_triples_after`` positions without a
verdict (on the roots of the hard tail it proves lost at once deals that took tens of millions
of positions: docs/hard-tail.md, "Triples at the root"), and, with PATH_TRIPLES, on positions
of the path with large subtrees, rationed (``solver.search.dead_ends.test_path_over_triples``),
whose dead families are remembered (``triple_nogoods``): alone, those tests cost more than they
saved (docs/hard-tail.md, "Triples on the path"); with the families remembered they pay
("Remembered families of triples"). Where it runs decides what it costs, not whether a verdict
is right.

Why a flagged position is lost. The facts, actions and the covering of legal moves by actions
are ``h2``'s (its step (1)). h^3 (Haslum and Geffner, AIPS 2000, h^m for m = 3) computes a family
of fact sets of at most three facts that contains every such set true together in some state a
plan reaches: start from the sets of the position's facts; an action whose preconditions' sets
(every set of at most three of them) are all in the family makes reachable each set X of at
most three facts that meets its added facts, misses its deleted facts, and whose other facts
Y = X - add form, with the preconditions, only sets already in the family (every subset of at
most three facts of Y + pre). By induction on the plan's length, every set of at most three
facts of every reached state is in the family: the state just reached holds X; the state before
it held Y and the preconditions, all true together, so their small subsets were in the family.
A win puts every card home: in the won state every two home facts are true together, so a
position whose family lacks some {home(c), home(d)} (c = d included) is lost. Russian and
foundation return use ``h2``'s encoding and its argument for them; Milligan is not encoded (the
test answers "alive").

The computation: ``triples[p, q]`` (p <= q) is a bitset over r, bit r set when the set
{p, q, r} is in the family. A set is written in the row of each two of its facts, the lower
first (``ordered``), and, for a set of one or two facts, in every way of writing it with a fact
repeated (``put``), so ``triples[p, p]`` is p's row of pairs; the rows with p > q are never used.
(They were, each set written in both orders of each pair: twice the writes, and a Yukon family
holds millions of sets, most of them added bit by bit. One row per pair makes a call 1.8 times
cheaper: 56-60 ms instead of 101-109 on the roots of KPat 3000105, 1000051 and 9000156; the
families are the same, docs/hard-tail.md, "The cheapest test first, and one row per pair of
facts".) The
fixpoint sweeps over all actions until nothing is added or every pair of home facts is in the
family. For an applicable action a (every ``triples[x, y]`` of preconditions x, y holds every
precondition) it adds, with A = add(a): (1) every set within A; (2) every set of one or two
facts of A with a fact q outside A and del(a) such that ``triples[x, y]`` holds q for all
preconditions x, y (which covers {q, x} and {q} too); (3) every {p, q, r} with p in A and q, r
such facts, r paired with q and with q and every precondition. The table is ``h2``'s
``triples.family`` (16 MiB, of which a call touches facts x facts / 2 rows). Case (2) runs for every
partner q at once, one pair of A's facts at a time (``add_with_partners``: the row of the pair
tells which q are new), not partner by partner: a call 1.4 times cheaper (KPat 500023's root
59.7 ms instead of 85.6, 1000051's 41.3 instead of 55.8; the same family: the order in which
sound additions are made does not change the fixpoint).

The verdict is kept in ``h2``'s header with the root's two position keys (``HEADER_ROOT_...``),
and a search started from a position with those keys gives it no moves (``entry.root_dead``):
the proof of a root flagged dead is a search of it, exhausted at once.
"""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from solver.engine.bits import has_bit, set_bit
from solver.engine.dead_ends.arrays import (
    ADD,
    ADD_COUNT,
    EVERY_HOME,
    HEADER_ACTIONS,
    HEADER_FACTS,
    HEADER_ROOT_DEAD,
    HEADER_ROOT_FIRST,
    HEADER_ROOT_SECOND,
    HEADER_WORDS,
    MASK_ADD,
    MASK_DELETE,
    MASK_PRE,
    PRE,
    PRE_COUNT,
)
from solver.engine.dead_ends.h2 import position_facts
from solver.engine.jit import kernel
from solver.engine.layout import position_keys


@kernel
def ordered(x, y):
    """The row of the pair {x, y}: its lower fact first."""
    x, y = np.int64(x), np.int64(y)
    return (x, y) if x <= y else (y, x)


@kernel
def put(triples, a, b, c):
    """Put the set {a, b, c} (a fact may repeat) in the family, in the row of each two of its
    facts; was it new?"""
    a, b, c = np.int64(a), np.int64(b), np.int64(c)
    if has_bit(triples[ordered(a, b)], c):
        return False
    if a != b and b != c and a != c:
        set_bit(triples[ordered(a, b)], c)
        set_bit(triples[ordered(a, c)], b)
        set_bit(triples[ordered(b, c)], a)
        return True
    for x in (a, b, c):
        for y in (a, b, c):
            if x <= y:
                for z in (a, b, c):
                    set_bit(triples[x, y], z)
    return True


@kernel
def every_home_pair(triples):
    """Is every pair of home facts (home(c) is fact c: word 0) in the family?"""
    for card in range(52):
        if triples[card, card, 0] & EVERY_HOME != EVERY_HOME:
            return False
    return True


@kernel
def fill_position(triples, mask, fact_count, words):
    """Start the family from every set of the position's facts."""
    for p in range(fact_count):
        held = has_bit(mask, p)
        for q in range(p, fact_count):
            keep = held and has_bit(mask, q)
            for w in range(words):
                triples[p, q, w] = mask[w] if keep else np.uint64(0)  # (a plain 0 makes it float)


@kernel
def outside_partners(triples, actions, masks, action, words, partners):
    """Set ``partners`` to the facts q outside the action's added and deleted facts with every
    {q, x, y} (x, y preconditions) in the family; return whether the action is applicable."""
    pre_count = actions[action, PRE_COUNT]
    for i in range(pre_count):
        for j in range(i, pre_count):
            row = triples[ordered(actions[action, PRE + i], actions[action, PRE + j])]
            for w in range(words):
                if row[w] & masks[action, MASK_PRE, w] != masks[action, MASK_PRE, w]:
                    return False
    for w in range(words):
        partners[w] = ~(masks[action, MASK_ADD, w] | masks[action, MASK_DELETE, w])
    for i in range(pre_count):
        for j in range(i, pre_count):
            row = triples[ordered(actions[action, PRE + i], actions[action, PRE + j])]
            for w in range(words):
                partners[w] &= row[w]
    return True


@kernel
def add_with_partner(triples, actions, action, q, partners, second, words):
    """Case (3) of the module docstring for one partner q; return whether a set was new."""
    pre_count, add_count = actions[action, PRE_COUNT], actions[action, ADD_COUNT]
    q = np.int64(q)
    grew = False
    for w in range(words):
        second[w] = partners[w] & triples[q, q, w]
    for i in range(pre_count):
        row = triples[ordered(q, actions[action, PRE + i])]
        for w in range(words):
            second[w] &= row[w]
    for i in range(add_count):
        p = np.int64(actions[action, ADD + i])
        pair = triples[ordered(p, q)]
        for w in range(words):
            new = second[w] & ~pair[w]
            if not new:
                continue
            grew = True
            pair[w] |= new  # r is neither p (added) nor q ({p, q, q} is in: ``apply_action``
            # runs ``add_with_partners`` before the partners' loop)
            while new:
                r = np.int64(w * 64 + trailing_zeros(new))
                new &= new - np.uint64(1)
                set_bit(triples[ordered(p, r)], q)
                set_bit(triples[ordered(q, r)], p)
    return grew


@kernel
def apply_action(triples, actions, masks, action, fact_count, words, scratch):
    """Add what an applicable action makes reachable; return whether a set was new."""
    partners, second = scratch[0], scratch[1]
    if not outside_partners(triples, actions, masks, action, words, partners):
        return False
    add_count = actions[action, ADD_COUNT]
    grew = False
    for i in range(add_count):
        for j in range(i, add_count):
            for k in range(j, add_count):
                grew |= put(
                    triples, actions[action, ADD + i], actions[action, ADD + j], actions[action, ADD + k]
                )
    for i in range(add_count):
        for j in range(i, add_count):
            grew |= add_with_partners(
                triples, actions[action, ADD + i], actions[action, ADD + j], partners, fact_count, words
            )
    for w in range(words):
        bits = partners[w]
        while bits:
            q = w * 64 + trailing_zeros(bits)
            bits &= bits - np.uint64(1)
            if q >= fact_count:
                break
            grew |= add_with_partner(triples, actions, action, q, partners, second, words)
    return grew


@kernel
def add_with_partners(triples, a, b, partners, fact_count, words):
    """Case (2) of the module docstring for the added facts a, b (a = b for the pairs) and every
    partner at once: put each {a, b, q} not yet in the family (its row of {a, b} lacks q);
    return whether one was new."""
    row = triples[ordered(a, b)]
    grew = False
    for w in range(words):
        new = partners[w] & ~row[w]
        while new:
            q = w * 64 + trailing_zeros(new)
            new &= new - np.uint64(1)
            if q >= fact_count:
                break
            grew |= put(triples, a, b, q)
    return grew


@kernel
def h3_dead(state, params, tables):
    """Is the position at ``state`` lost by the test over triples (two home facts, or one, never
    in the family together)? False whenever ``h2``'s tables do not apply."""
    header = tables.header
    fact_count, words, action_count = header[HEADER_FACTS], header[HEADER_WORDS], header[HEADER_ACTIONS]
    if fact_count == 0 or not position_facts(state, params, tables):
        return False
    triples, actions, masks = tables.triples.family, tables.encoding.actions, tables.encoding.masks
    fill_position(triples, tables.position, fact_count, words)
    grew = True
    while grew and not every_home_pair(triples):
        grew = False
        for action in range(action_count):
            if apply_action(triples, actions, masks, action, fact_count, words, tables.triples.scratch):
                if every_home_pair(triples):  # the family only grows: alive, whatever the sweep adds
                    return False
                grew = True
    return not every_home_pair(triples)


@kernel
def test_root(state, params, zobrist, column_keys, tables):
    """Run ``h3_dead`` on the root at ``state``; when it is dead, record that with the root's keys
    for ``entry.root_dead``. Returns the verdict. (``solver.search.dead_ends.root_triples_dead`` calls
    it once a solve and marks that in ``HEADER_ROOT_TRIPLES``.)"""
    header = tables.header
    if not h3_dead(state, params, tables):
        return False
    first, second = position_keys(state, params, zobrist, column_keys)
    header[HEADER_ROOT_FIRST], header[HEADER_ROOT_SECOND] = np.int64(first), np.int64(second)
    header[HEADER_ROOT_DEAD] = 1
    return True


@kernel
def root_proved_dead(tables, first, second):
    """Is the position with keys ``first``, ``second`` the root ``test_root`` proved dead? (A
    search of it gets no moves: ``entry.root_dead``.)"""
    header = tables.header
    return (
        header[HEADER_ROOT_DEAD] != 0
        and header[HEADER_ROOT_FIRST] == np.int64(first)
        and header[HEADER_ROOT_SECOND] == np.int64(second)
    )
