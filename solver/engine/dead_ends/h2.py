"""H2: the pairwise (h^2) dead-end test over a planning encoding of a one-deck position.

The position is described by *facts*, and every legal move by an *action* (preconditions that
must hold, facts it adds, facts it deletes):

  on(c, d)    card c lies directly on d: a card, or the base of a column (c is its bottom card);
  clear(d)    nothing lies on d (d is exposed, or an empty column's base);
  up(c)       c is face up in a column;
  home(c)     c is on its foundation;
  nothome(c)  c is not on its foundation (foundation return only).

  move(x, y, z)   pre {on(x,y), up(x), clear(z)}; add {on(x,z), clear(y), up(y)}; del {on(x,y),
                  clear(z)}: the packet led by x leaves y for z, a card x builds on (a parent) or,
                  for a King, an empty column's base; the cards on top of x keep their ``on``
                  facts, so one action is every packet that x leads;
  tohome(x, y)    pre {on(x,y), clear(x), up(x), home(x-1), nothome(x)}; add {home(x), clear(y),
                  up(y)}; del {on(x,y), clear(x), nothome(x)}: exposed x goes to its foundation
                  (no home(x-1) for an Ace);
  fromhome(x, z)  (foundation return) pre {home(x), clear(z), nothome(x+1)}; add {on(x,z),
                  clear(x), up(x), nothome(x)}; del {home(x), clear(z)}: the top card x of its
                  foundation comes back onto a parent or, for a King, an empty column's base
                  (no nothome(x+1) for a King); up(y) is added only when y is a card.

The facts of a position: on(c, d) for every card in a column, up(c) for the face-up ones,
clear(d) for every column's exposed card and every empty column's base, home(c) for the cards
on the foundations and nothome(c) for the others. The tables are built once, from the root:
a card can only ever lie on the card beneath it at the root, on a parent, or (a King) on a
base, so those ``on`` facts are all that any later position needs (a position with another
is never judged: the test then answers "alive").

Why a flagged position is lost. (1) Every legal move from a position s to s' is an action
whose preconditions are facts of s, and the facts of s' are among (facts of s - del) + add
(checked case by case above: a packet move turns the card it uncovers, which the engine does
as part of the move; a card going home stays "up", which only adds a fact). Applying an
action to a superset of a position's facts yields a superset of the next position's facts,
so every line of play from s is, fact for fact, covered by a plan of this encoding. (2) h^2
(Haslum and Geffner, AIPS 2000) computes a set of fact pairs that contains every pair true
together in some state a plan reaches: start from the pairs of s; an action whose
preconditions are pairwise in the set makes each pair of its added facts reachable, and
each added fact p with every fact q that it does not delete and that is paired in the set
with every one of its preconditions. By induction on the plan's length every pair of every
reached state is in the set. (3) A win puts every card home: in the won state every two home
facts are true together. So a position whose set lacks a pair {home(c), home(d)} (c = d
included: a card that can never go home) is lost. The pairs with c != d are what h^2's goal test
asks beyond the single facts: two cards that can each go home, but never both (on KPat 9000085
the search then needs 2.5 M positions instead of 7.6 M; docs/hard-tail.md, "Goal pairs").
Russian uses the same encoding with a card's one same-suit parent; Milligan (two decks, a
stock) is not encoded: the test never runs there.

The computation: pair rows are bitsets of uint64 words (``reach[p]`` has bit q when {p, q}
is reachable; kept symmetric), and the fixpoint runs in sweeps over the actions, each looked at
again only when the row of one of its preconditions grew since it was last looked at. It stops
as soon as every pair of home facts is reachable (the position is alive). A full table of a dead
position is what ``nogoods`` remembers.

The arrays (the encoding, the pair table, the header's counters) are laid out in ``arrays``.
"""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from solver.engine.bits import copy_words, set_bit
from solver.engine.cards import builds_on, rank_of
from solver.engine.dead_ends.arrays import (
    ADD,
    ADD_COUNT,
    BASE,
    EVERY_HOME,
    FACT_CLEAR,
    FACT_HOME,
    FACT_NOTHOME,
    FACT_UP,
    HEADER_ACTIONS,
    HEADER_CALLS,
    HEADER_DEAD,
    HEADER_FACTS,
    HEADER_TICK,
    HEADER_WORDS,
    MASK_ADD,
    MASK_DELETE,
    MASK_PRE,
    MAX_ACTIONS,
    MAX_ADD,
    MAX_COLUMNS,
    MAX_FACTS,
    MAX_PRE,
    NO_FACT,
    PRE,
    PRE_COUNT,
)
from solver.engine.jit import allocating_kernel, kernel
from solver.engine.layout import (
    CAPACITY,
    CARD_COUNT,
    COLUMNS,
    FACE_DOWN,
    FOUNDATION_COUNT,
    FOUNDATION_RETURN,
    FOUNDATIONS,
    LENGTHS,
    SAME_SUIT,
    STOCK_SIZE,
)


@kernel
def encodable(params):
    """One deck and no stock: the positions the encoding describes."""
    return params[CARD_COUNT] == 52 and params[STOCK_SIZE] == 0 and params[COLUMNS] <= MAX_COLUMNS


@kernel
def number_fact(facts, row, column, count):
    """Give fact ``facts[row, column]`` the next number unless it has one; return the count."""
    if facts[row, column] == NO_FACT:
        facts[row, column] = count
        count += 1
    return count


@kernel
def number_facts(state, params, facts):
    """Number every fact of the deal at ``state``; return how many there are."""
    facts[:, :] = NO_FACT
    count = 0
    for row in (FACT_HOME, FACT_UP):
        for card in range(52):
            count = number_fact(facts, row, card, count)
    for below in range(BASE + params[COLUMNS]):
        count = number_fact(facts, FACT_CLEAR, below, count)
    if params[FOUNDATION_RETURN]:
        for card in range(52):
            count = number_fact(facts, FACT_NOTHOME, card, count)
    capacity = params[CAPACITY]
    for column in range(params[COLUMNS]):
        below = BASE + column
        for index in range(state[params[LENGTHS] + column]):
            card = state[column * capacity + index]
            count = number_fact(facts, card, below, count)
            below = card
    for card in range(52):
        for target in range(BASE + params[COLUMNS]):
            if is_target(params, card, target):
                count = number_fact(facts, card, target, count)
    return count


@kernel
def is_target(params, card, target):
    """May ``card`` be put on ``target``: a card it builds on, or (a King) a column's base?"""
    if target >= BASE:
        return rank_of(card) == 13
    return builds_on(card, target, params[SAME_SUIT])


@kernel
def add_action(tables, count, pre, pre_count, add, add_count, delete, delete_count):
    """Append an action with the given fact lists (NO_FACT entries are left out); return the
    action count, or -1 when the tables are full."""
    if count < 0 or count >= MAX_ACTIONS:
        return -1
    actions, masks = tables.encoding.actions, tables.encoding.masks
    masks[count, :, :] = 0
    listed = actions[count]
    listed[PRE_COUNT] = note_facts(listed[PRE : PRE + MAX_PRE], masks[count, MASK_PRE], pre, pre_count)
    listed[ADD_COUNT] = note_facts(listed[ADD : ADD + MAX_ADD], masks[count, MASK_ADD], add, add_count)
    note_facts(listed[:0], masks[count, MASK_DELETE], delete, delete_count)  # deletes: the mask only
    return count + 1


@kernel
def note_facts(listed, mask, facts, count):
    """Copy the first ``count`` of ``facts``, less NO_FACT entries, into ``listed`` (as many as
    it holds) and into the bitset ``mask``; return how many there were."""
    kept = 0
    for i in range(count):
        if facts[i] != NO_FACT:
            if kept < listed.shape[0]:
                listed[kept] = facts[i]
            set_bit(mask, facts[i])
            kept += 1
    return kept


@kernel
def up_fact(facts, below):
    """up(below) when ``below`` is a card; NO_FACT for a base (an empty column turns nothing)."""
    return facts[FACT_UP, below] if below < BASE else NO_FACT


@kernel
def list_card_actions(params, tables, card, count, pre, add, delete):
    """Append the actions of ``card``: its moves and foundation moves from each place it can
    lie, and (with return) its moves back from the foundation. Returns the action count."""
    facts = tables.encoding.facts
    successor = facts[FACT_HOME, card - 1] if rank_of(card) > 1 else NO_FACT
    for below in range(BASE + params[COLUMNS]):
        on_below = facts[card, below]
        if on_below == NO_FACT:
            continue
        for target in range(BASE + params[COLUMNS]):
            if target == below or not is_target(params, card, target):
                continue
            pre[0], pre[1], pre[2] = on_below, facts[FACT_UP, card], facts[FACT_CLEAR, target]
            add[0], add[1], add[2] = facts[card, target], facts[FACT_CLEAR, below], up_fact(facts, below)
            delete[0], delete[1] = on_below, facts[FACT_CLEAR, target]
            count = add_action(tables, count, pre, 3, add, 3, delete, 2)
        pre[0], pre[1], pre[2] = on_below, facts[FACT_CLEAR, card], facts[FACT_UP, card]
        pre[3], pre[4] = successor, facts[FACT_NOTHOME, card]
        add[0], add[1], add[2] = facts[FACT_HOME, card], facts[FACT_CLEAR, below], up_fact(facts, below)
        delete[0], delete[1], delete[2] = on_below, facts[FACT_CLEAR, card], facts[FACT_NOTHOME, card]
        count = add_action(tables, count, pre, 5, add, 3, delete, 3)
    if not params[FOUNDATION_RETURN]:
        return count
    above = facts[FACT_NOTHOME, card + 1] if rank_of(card) < 13 else NO_FACT
    for target in range(BASE + params[COLUMNS]):
        if not is_target(params, card, target):
            continue
        pre[0], pre[1], pre[2] = facts[FACT_HOME, card], facts[FACT_CLEAR, target], above
        add[0], add[1] = facts[card, target], facts[FACT_CLEAR, card]
        add[2], add[3] = facts[FACT_UP, card], facts[FACT_NOTHOME, card]
        delete[0], delete[1] = facts[FACT_HOME, card], facts[FACT_CLEAR, target]
        count = add_action(tables, count, pre, 3, add, 4, delete, 2)
    return count


@allocating_kernel
def build_tables(state, params, tables):
    """Build the facts and actions of the deal at ``state`` (its root) into ``tables`` and
    reset the counters and the ring; where the encoding does not apply (or its tables would
    overflow) ``header[HEADER_FACTS]`` is 0 and every test answers "alive"."""
    header = tables.header
    header[:] = 0
    if not encodable(params):
        return
    fact_count = number_facts(state, params, tables.encoding.facts)
    pre = np.empty(MAX_PRE, dtype=np.int32)
    add = np.empty(MAX_ADD, dtype=np.int32)
    delete = np.empty(3, dtype=np.int32)
    action_count = 0
    for card in range(52):
        action_count = list_card_actions(params, tables, card, action_count, pre, add, delete)
    if fact_count > MAX_FACTS or action_count < 0:
        return
    header[HEADER_FACTS] = fact_count
    header[HEADER_WORDS] = (fact_count + 63) // 64
    header[HEADER_ACTIONS] = action_count
    fill_height_masks(params, tables)


@kernel
def fill_height_masks(params, tables):
    """The foundation facts of each suit at each height (``height_masks``)."""
    facts, height_masks = tables.encoding.facts, tables.encoding.height_masks
    height_masks[:, :, :] = 0
    for suit in range(4):
        for height in range(14):
            for rank in range(1, 14):
                card = suit * 13 + rank - 1
                if rank <= height:
                    set_bit(height_masks[suit, height], facts[FACT_HOME, card])
                elif params[FOUNDATION_RETURN]:
                    set_bit(height_masks[suit, height], facts[FACT_NOTHOME, card])


@kernel
def add_position_fact(mask, fact):
    """Set ``fact`` in the position's mask; False (nothing set) if it is not encoded."""
    if fact == NO_FACT:
        return False
    set_bit(mask, fact)
    return True


@kernel
def position_facts(state, params, tables):
    """Set ``tables.position`` to the facts of the position at ``state``; False if one of them is
    not in the tables (never for a position reached from the root they were built from)."""
    facts, mask = tables.encoding.facts, tables.position
    height_masks = tables.encoding.height_masks
    words = tables.header[HEADER_WORDS]
    for w in range(words):
        mask[w] = 0
    for slot in range(params[FOUNDATION_COUNT]):
        heights = height_masks[slot % 4, state[params[FOUNDATIONS] + slot]]
        for w in range(words):
            mask[w] |= heights[w]
    capacity = params[CAPACITY]
    encoded = True
    for column in range(params[COLUMNS]):
        face_down = state[params[FACE_DOWN] + column]
        below = BASE + column
        for index in range(state[params[LENGTHS] + column]):
            card = state[column * capacity + index]
            encoded &= add_position_fact(mask, facts[card, below])
            if index >= face_down:
                encoded &= add_position_fact(mask, facts[FACT_UP, card])
            below = card
        encoded &= add_position_fact(mask, facts[FACT_CLEAR, below])
    return encoded


@kernel
def applicable(tables, action, words):
    """Are the action's preconditions pairwise reachable (each row holds all of them)? Fills
    ``compatible`` with the facts paired with every precondition, less those it deletes, plus
    those it adds."""
    actions, masks, reach = tables.encoding.actions, tables.encoding.masks, tables.pairs.reach
    compatible = tables.pairs.compatible
    for w in range(words):
        compatible[w] = ~np.uint64(0)
    for i in range(actions[action, PRE_COUNT]):
        row = reach[actions[action, PRE + i]]
        for w in range(words):
            if row[w] & masks[action, MASK_PRE, w] != masks[action, MASK_PRE, w]:
                return False
            compatible[w] &= row[w]
    for w in range(words):
        compatible[w] = (compatible[w] & ~masks[action, MASK_DELETE, w]) | masks[action, MASK_ADD, w]
    return True


@kernel
def add_pairs(tables, fact, words, tick):
    """Pair ``fact`` with every ``compatible`` fact (in both rows), stamping the rows that grew
    with ``tick``; return whether a row grew."""
    reach, compatible, grew_at = tables.pairs.reach, tables.pairs.compatible, tables.pairs.grew_at
    grew = False
    fact_bit = np.uint64(1) << np.uint64(fact & 63)
    for w in range(words):
        missing = compatible[w] & ~reach[fact, w]
        if missing == 0:
            continue
        grew = True
        grew_at[fact] = tick
        reach[fact, w] |= missing
        while missing != 0:
            other = w * 64 + trailing_zeros(missing)
            missing &= missing - np.uint64(1)
            reach[other, fact >> 6] |= fact_bit
            grew_at[other] = tick
    return grew


@kernel
def stale(tables, action):
    """Has a precondition's row grown since ``action`` was last looked at?"""
    actions, grew_at = tables.encoding.actions, tables.pairs.grew_at
    checked_at = tables.pairs.checked_at[action]
    for i in range(actions[action, PRE_COUNT]):
        if grew_at[actions[action, PRE + i]] > checked_at:
            return True
    return False


@kernel
def every_home_pair(reach):
    """Is every pair of home facts reachable (home(c) is fact c: they all lie in word 0)?"""
    for card in range(52):
        if reach[card, 0] & EVERY_HOME != EVERY_HOME:
            return False
    return True


@kernel
def h2_dead(state, params, tables):
    """Is the position at ``state`` lost by the pairwise test (two home facts, or one, never
    reachable together)? False whenever the tables do not apply."""
    if tables.header[HEADER_FACTS] == 0:
        return False
    return position_facts(state, params, tables) and facts_dead(tables)


@kernel
def facts_dead(tables):
    """``h2_dead`` of the position whose facts are in ``tables.position``. The full pair table of a
    dead position is left in ``reach`` (see ``nogoods``).

    The fixpoint runs in sweeps over the actions; an action is looked at again only when the
    row of one of its preconditions grew since it was last looked at (applicable or not; its
    own additions only pair facts it adds, which it would add again)."""
    header = tables.header
    fact_count, words, action_count = header[HEADER_FACTS], header[HEADER_WORDS], header[HEADER_ACTIONS]
    header[HEADER_CALLS] += 1
    reach, mask = tables.pairs.reach, tables.position
    checked_at, grew_at = tables.pairs.checked_at, tables.pairs.grew_at
    reach[:fact_count, :words] = 0
    grew_at[:fact_count] = 0
    checked_at[:action_count] = -1
    for w in range(words):
        known = mask[w]
        while known:
            fact = w * 64 + trailing_zeros(known)
            known &= known - np.uint64(1)
            copy_words(reach[fact], mask, words)
    header[HEADER_TICK] = close(tables, words, action_count, 0)
    if every_home_pair(reach):
        return False
    header[HEADER_DEAD] += 1
    return True


@kernel
def close(tables, words, action_count, tick):
    """Run the fixpoint from the pairs in ``reach`` until nothing grows or every pair of home
    facts is reachable; return the last tick. Rows grown since an action was last looked at
    must carry a later tick (``grew_at``) than its ``checked_at``: only those actions are
    looked at again. Ends with a closed table unless every pair of homes was reached first,
    which is checked after every action that grew (the table only grows, so the position is
    then alive whatever the rest of the sweep would add)."""
    reach, checked_at = tables.pairs.reach, tables.pairs.checked_at
    changed = True
    while changed and not every_home_pair(reach):
        changed = False
        for action in range(action_count):
            if not stale(tables, action):
                continue
            checked_at[action] = tick
            if not applicable(tables, action, words):
                continue
            tick += 1
            checked_at[action] = tick
            grew = False
            for i in range(tables.encoding.actions[action, ADD_COUNT]):
                grew |= add_pairs(tables, tables.encoding.actions[action, ADD + i], words, tick)
            if grew and every_home_pair(reach):
                return tick
            changed |= grew
    return tick
