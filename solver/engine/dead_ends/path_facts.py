"""The facts of the positions on the search path (``h2``'s encoding), kept move by move.

The remembered dead tables and families (``nogoods``, ``triple_nogoods``) are asked about nearly
every new position of a hard deal's search, and each check first needs the position's facts:
read from the whole position (``h2.position_facts``: every card of every column, 10% of the
solve of KPat 500023 and 1000051), while a move changes at most seven of them. So the search
keeps the facts of each position of its path in ``stack[STACK_FACTS][depth]`` (with
``stack[STACK_FACTS_READ][depth]``: UNREAD, READ, or UNENCODED when a fact is not in the tables),
filled the first time a test asks (``read_facts``): from the facts of the position before it
and the move between them when those were read (``facts_after_move``), from the whole position
otherwise (the root, or a parent no test asked about).

Why the two agree: the facts of a position are, per foundation slot, the home (and with return
nothome) facts of its height, and per column on(c, d) for each card c on d (d a card, or the
column's base at its bottom), up(c) for each face-up card and clear(t) for its top t (the base
when empty). A tableau move of a packet led by c from column s to column t changes only c's
place: on(c, b) for on(c, b') where b is the place c left (now the top of s) and b' the one it
landed on (the top of t before), clear(b') for clear(b), and up(b) when the move turned b; the
packet's other cards keep their places and faces. A move of c to a foundation takes away on(c,
b), up(c) and clear(c), gives clear(b) (and up(b) when it turned b), and changes the slot's
height (its home facts, and with return its nothome facts); a move back from a foundation the
reverse. Stock deals (Milligan) never come here: the tables exist only for one deck and no stock
(``h2.encodable``), and without them ``entry.facts_read`` reads no facts. The tests compare the
two on random play of every one-deck rule set, and along the path of a paused search.
"""

from solver.engine.bits import clear_bit, copy_words
from solver.engine.dead_ends.arrays import BASE, FACT_CLEAR, FACT_UP, HEADER_WORDS, NO_FACT
from solver.engine.dead_ends.h2 import add_position_fact, position_facts
from solver.engine.jit import kernel
from solver.engine.layout import CAPACITY, FOUNDATIONS, LENGTHS, STACK_APPLIED, STACK_FACTS, STACK_FACTS_READ
from solver.engine.move_kinds import FROM_FOUNDATION, TABLEAU, TO_FOUNDATION
from solver.engine.moves import TURNED, move_card, move_kind, move_size, move_source, move_target

UNREAD, READ, UNENCODED = 0, 1, 2  # ``stack[STACK_FACTS_READ][depth]``


@kernel
def read_facts(state, params, stack, depth, tables):
    """Put the facts of the position at ``depth`` of the path (at ``state``) in ``tables.position``,
    reading them first if no test has (see the module docstring); False if one of them is not in
    the tables."""
    masks, status = stack[STACK_FACTS], stack[STACK_FACTS_READ]
    words = tables.header[HEADER_WORDS]
    mask = tables.position
    if status[depth] == UNREAD:
        if depth > 0 and status[depth - 1] == READ:
            move = stack[STACK_APPLIED][depth - 1]
            encoded = facts_after_move(state, params, tables, masks[depth - 1], masks[depth], move)
        else:
            encoded = position_facts(state, params, tables)
            copy_words(masks[depth], mask, words)
        status[depth] = READ if encoded else UNENCODED
    copy_words(mask, masks[depth], words)
    return status[depth] == READ


@kernel
def facts_after_move(state, params, tables, before, after, move):
    """Set ``after`` to the facts of the position at ``state``, just reached by ``move`` (a tableau
    move or one to or from a foundation, as ``apply_move`` returned it) from the position whose
    facts are ``before``; False if one of them is not in the tables."""
    copy_words(after, before, tables.header[HEADER_WORDS])
    facts = tables.encoding.facts
    kind, card = move_kind(move), move_card(move)
    if kind == FROM_FOUNDATION:
        landed = top_place(state, params, move_target(move), 1)
        remove_fact(after, facts[FACT_CLEAR, landed])
        encoded = add_position_fact(after, facts[card, landed]) & add_position_fact(
            after, facts[FACT_UP, card]
        )
        return (
            encoded
            & add_position_fact(after, facts[FACT_CLEAR, card])
            & change_height(state, params, tables, after, move)
        )
    left = top_place(state, params, move_source(move), 0)
    remove_fact(after, facts[card, left])
    encoded = add_position_fact(after, facts[FACT_CLEAR, left])
    if move & TURNED:
        encoded &= add_position_fact(after, facts[FACT_UP, left])
    if kind == TABLEAU:
        landed = landed_place(state, params, move)
        remove_fact(after, facts[FACT_CLEAR, landed])
        return encoded & add_position_fact(after, facts[card, landed])
    remove_fact(after, facts[FACT_UP, card])
    remove_fact(after, facts[FACT_CLEAR, card])
    return encoded & change_height(state, params, tables, after, move)


@kernel
def top_place(state, params, column, below):
    """The place ``below`` cards under the top of ``column``: a card, or the column's base."""
    index = state[params[LENGTHS] + column] - 1 - below
    return BASE + column if index < 0 else state[column * params[CAPACITY] + index]


@kernel
def landed_place(state, params, move):
    """Where a tableau move's packet landed: the card (or base) under its leader now."""
    return top_place(state, params, move_target(move), move_size(move))


@kernel
def change_height(state, params, tables, after, move):
    """The home (and nothome) facts of the foundation slot a move to or from it changed: those
    of its height before the move out, those of its height now in. Always encoded."""
    words = tables.header[HEADER_WORDS]
    slot = move_target(move) if move_kind(move) == TO_FOUNDATION else move_source(move)
    height = state[params[FOUNDATIONS] + slot]
    before = height - 1 if move_kind(move) == TO_FOUNDATION else height + 1
    masks = tables.encoding.height_masks[slot % 4]
    for w in range(words):
        after[w] = (after[w] & ~masks[before, w]) | masks[height, w]
    return True


@kernel
def remove_fact(mask, fact):
    """Clear ``fact`` (a fact of the position before the move, so always encoded)."""
    if fact != NO_FACT:
        clear_bit(mask, fact)
