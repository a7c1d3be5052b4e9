"""HOPELESS: recognising positions that can never be won, so the search stops there.

The test over-estimates what can ever happen from a position and calls the position lost
when even the over-estimate leaves a card off the foundations. For every card c in the
columns it asks about three events, each meaning "at some time from now on":

  exposed(c)  c is the exposed (top) card of its column;
  leaves(c)   c parts from the card it now lies on (a bottom card: leaves its column);
  home(c)     c goes to a foundation (a card already there is home).

The first time each event happens in a line of play, these conditions hold, using only
events that happened before it or in the same move (in the order listed):

  exposed(c)  c is exposed now, or leaves(d) for the card d now lying on c: nothing can be
              put on c before c is exposed, so d lies on c until d leaves.
  home(c)     exposed(c), and c is an Ace or some copy of the card below c in its suit is
              home.
  leaves(c)   c is face up, so a face-down c needs exposed(c) (a card turns only when it
              is exposed), and c goes home, or c leads a packet onto a parent (a card c
              builds on) exposed on another column, which needs exposed(parent) -- or, with
              foundation return, the parent home, to come back -- or c is a King and a
              column is empty: one is empty now, or leaves(b) for a card b now at the
              bottom of a column (a column empties only when its bottom card leaves, and a
              column's bottom card changes only after it was empty).

Twins (one deck, alternating colours): the two cards of a rank and colour, say JS and JC,
build on the same two parents, QH and QD, and nothing else is ever put on those.
When x (JC) is face down and its twin y (JS) lies directly on it, y leaves first (x is
exposed only then, and nothing but y's own move can part y from x). From then on, until it
goes home, y lies directly on a parent, which it landed on while that parent was exposed.
So when x leaves by landing, on a parent exposed at that moment, y covers the other parent
or is home: leaves(x) by landing needs exposed(parent) for both parents (with return: or
home, as above) -- or home(y). In KPat's deal 26, JC lies face down beneath JS and QH lies
beneath JC, so neither Jack can go home and JC can never leave: the deal is lost before
any move. No move brings the rule in
(nothing is ever put on a face-down card), so the argument below for testing only after
some moves stands.

Which twin leaves first is forced only there; in general, split the cases. In any line one
of the two leaves first (or neither ever leaves), and then the other one meets the same
condition. So when the test with the condition put on x and the test with it put on y
both leave a card never home, the position is lost (``twins_hopeless``). It costs up to 52
tests, so the search runs it on the root only.

Cards in the stock are treated as free: they may be exposed, leave and go home whenever
needed. Starting from the events true now, derive events by these conditions until nothing
changes (the derivation is a least fixpoint: the order in which events are derived does not
change which ones are). By induction on the time each event of a winning line happens, every one of them
is derived; a win sends every card home, so a card whose home is not derived proves the
position lost.

Unlike a test that looks only at the cards beneath which everything is face down, this one
also follows face-up cards: a face-up card whose parents and foundation predecessor can
never be exposed keeps the card beneath it covered as surely as a face-down card would.

The search tests the root, and after a move only where the move may have done harm
(``may_turn_hopeless``): a position reached from one that is not hopeless, by a move that
leaves every one of its derivations standing, is not hopeless either. Compared with the
position before, what a move takes away is small, and where the derivation survives:

  tableau move of a packet led by x onto P: P is no longer exposed now; it is again once x
      leaves, and x can leave if another card it builds on is exposed now (x is face up).
      Then every earlier derivation stands: the card x left is exposed now, and a column x
      emptied is empty now. So when the test does run, it can stop as soon as it derives
      that x leaves (``watched``): that cannot have used P, which is exposed only after.
  King packet into an empty column: no column is empty now, unless another one is.
  card c to a foundation (no return): c is no longer there to land on, which matters to no
      one if every card that builds on c is home already. (With return c can come back.)
  card c back from a foundation onto a column: c is exposed and the card below it in its
      suit is home, so c can go home again; then c leaves and what it covered is exposed.
  stock deal: covers every column; always tested.
(A skipped test can only cost pruning: it never calls a position lost.) A test checks on
random playouts that no move ``may_turn_hopeless`` lets pass makes a position hopeless.

How it is computed: each event is a bitset over the places of the cards on the table, one
uint64 word per deck (bit ``card`` of word ``copy``; the copies of a card are numbered in the
order the columns are read). A round derives every event whose conditions hold, all at once,
with a few word operations: the cards a foundation could take, the cards with an exposable
parent (the suits' 13-bit rank fields shifted by one rank), the cards that are free to leave.
Only "exposed" goes through a table, ``links[BELOW]``, from each card that leaves to the card it
uncovers. Rounds repeat until one derives nothing new.

What the test, the twins and the case split buy: benchmarks/README.md, "Figures the engine's
and the player's docstrings cite".
"""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from solver.engine.cards import builds_on, rank_of, suit_of
from solver.engine.jit import kernel
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
    STOCK,
    STOCK_NEXT,
    STOCK_SIZE,
)
from solver.engine.move_kinds import FROM_FOUNDATION, TABLEAU, TO_FOUNDATION
from solver.engine.moves import landers_all_home, move_card, move_kind, move_size, move_target

NOWHERE = -1

ONE, NONE = np.uint64(1), np.uint64(0)
RANKS = np.uint64(0x1FFF)  # one suit's field of a card bitset: bit rank - 1
ACES = np.uint64(1 | 1 << 13 | 1 << 26 | 1 << 39)
KINGS = ACES << np.uint64(12)
BLACK_SUITS, RED_SUITS = 0b1001, 0b0110  # spades and clubs; hearts and diamonds

# rows of ``hopeless``'s ``sets`` (bitsets of places: bit ``card`` of word ``copy``)
EXPOSED, LEAVES, HOME, FACE_UP, ON_TABLE, TWIN_RULE, SET_ROWS = range(7)
# rows of its ``links``, indexed by place ``copy * 52 + card``: the place of the card beneath
# (-1 at a column's bottom), of the card on top (-1 for an exposed card), and of the twin a
# card waits for under the twin rule
BELOW, ABOVE, PARTNER, LINK_ROWS = range(4)


@kernel
def card_bit(card):
    """Bit ``card`` of a card bitset."""
    return ONE << np.uint64(card)


@kernel
def suit_ranks(cards, suit):
    """The 13-bit field of ``suit`` in a card bitset (bit rank - 1)."""
    return (cards >> np.uint64(13 * suit)) & RANKS


@kernel
def on_suits(ranks, suits):
    """A 13-bit rank field put on every suit of the 4-bit set ``suits``."""
    cards = NONE
    for suit in range(4):
        if (suits >> suit) & 1:
            cards |= ranks << np.uint64(13 * suit)
    return cards


@kernel
def with_parents(same_suit, exposable):
    """The cards with at least one parent (a card they build on) in the card bitset
    ``exposable``, and those with both: a parent is one rank up, so the parents' rank fields
    shifted down one rank."""
    spades, hearts = suit_ranks(exposable, 0), suit_ranks(exposable, 1)
    diamonds, clubs = suit_ranks(exposable, 2), suit_ranks(exposable, 3)
    if same_suit:
        one = NONE
        for suit in range(4):
            one |= (suit_ranks(exposable, suit) >> ONE) << np.uint64(13 * suit)
        return one, NONE
    one = on_suits((hearts | diamonds) >> ONE, BLACK_SUITS) | on_suits((spades | clubs) >> ONE, RED_SUITS)
    both = on_suits((hearts & diamonds) >> ONE, BLACK_SUITS) | on_suits((spades & clubs) >> ONE, RED_SUITS)
    return one, both


@kernel
def twins_apply(params):
    """The twin rules hold with one deck and alternating colours (see "Twins" above)."""
    return not params[SAME_SUIT] and params[CARD_COUNT] == 52


@kernel
def twin_of(card):
    """The card of the same rank and colour in the other suit (S-C, H-D)."""
    return (3 - suit_of(card)) * 13 + rank_of(card) - 1


@kernel
def twins_hopeless(state, params):
    """The twin rule with a case split on which twin leaves first (see "Twins" above): is
    some pair of twins on the table such that either order leaves a card never home?"""
    if not twins_apply(params):
        return False
    capacity = params[CAPACITY]
    place_of = np.full(52, NOWHERE, dtype=np.int64)
    for column in range(params[COLUMNS]):
        for index in range(state[params[LENGTHS] + column]):
            place_of[state[column * capacity + index]] = column * capacity + index
    for card in range(26):  # spades and hearts; their twins are clubs and diamonds
        here, there = place_of[card], place_of[twin_of(card)]
        if rank_of(card) == 13 or here == NOWHERE or there == NOWHERE:
            continue
        if hopeless(state, params, NOWHERE, here) and hopeless(state, params, NOWHERE, there):
            return True
    return False


@kernel
def read_table(state, params, sets, links, watched, later_twin):
    """Fill ``sets`` with the places on the table, face up and exposed now, and ``links`` with
    who lies on whom; return (the places of ``watched`` and ``later_twin`` as
    ``copy * 52 + card``, or -1; is a column empty now)."""
    capacity = params[CAPACITY]
    watched_at, later_at, empty = -1, -1, False
    seen = NONE
    for column in range(params[COLUMNS]):
        length = state[params[LENGTHS] + column]
        face_down = state[params[FACE_DOWN] + column]
        empty |= length == 0
        below = -1
        for index in range(length):
            card = state[column * capacity + index]
            copy = 1 if seen & card_bit(card) else 0
            seen |= card_bit(card)
            at = copy * 52 + card
            links[BELOW, at] = below
            if below >= 0:
                links[ABOVE, below] = at
            sets[ON_TABLE, copy] |= card_bit(card)
            if index >= face_down:
                sets[FACE_UP, copy] |= card_bit(card)
            if index == length - 1:
                sets[EXPOSED, copy] |= card_bit(card)
            if column * capacity + index == watched:
                watched_at = at
            if column * capacity + index == later_twin:
                later_at = at
            below = at
    return watched_at, later_at, empty


@kernel
def mark_twin_rules(sets, links, later_at):
    """The cards the twin rule holds for (one deck): face-down cards whose twin lies directly
    on them, and the card assumed to leave after its twin; each waits for that twin."""
    face_down = sets[ON_TABLE, 0] & ~sets[FACE_UP, 0]
    while face_down:
        card = trailing_zeros(face_down)
        face_down &= face_down - ONE
        if rank_of(card) < 13 and links[ABOVE, card] == twin_of(card):
            sets[TWIN_RULE, 0] |= card_bit(card)
            links[PARTNER, card] = links[ABOVE, card]
    if later_at >= 0:
        sets[TWIN_RULE, 0] |= card_bit(later_at)
        twin = twin_of(later_at)
        links[PARTNER, later_at] = twin if sets[ON_TABLE, 0] & card_bit(twin) else -1


@kernel
def outside_cards(state, params):
    """Card bitsets of the cards on the foundations (of any copy) and in the stock."""
    home = NONE
    for slot in range(params[FOUNDATION_COUNT]):
        height = np.uint64(state[params[FOUNDATIONS] + slot])
        home |= ((ONE << height) - ONE) << np.uint64(13 * (slot % 4))
    stock = NONE
    for i in range(state[params[STOCK_NEXT]], params[STOCK_SIZE]):
        stock |= card_bit(state[params[STOCK] + i])
    return home, stock


@kernel
def twins_gone_home(sets, links):
    """The twin-rule cards whose twin is derived to go home."""
    gone = NONE
    waiting = sets[TWIN_RULE, 0]
    while waiting:
        card = trailing_zeros(waiting)
        waiting &= waiting - ONE
        partner = links[PARTNER, card]
        if partner >= 0 and sets[HOME, 0] & card_bit(partner):
            gone |= card_bit(card)
    return gone


@kernel
def hopeless(state, params, watched=NOWHERE, later_twin=NOWHERE):
    """Is some card certain never to reach a foundation?

    ``watched``: the place of a packet's leader that was just moved onto a card, from a
    position that was not hopeless; once it is derived to leave, the answer is no (see
    ``may_turn_hopeless``). ``later_twin``: the place of a card assumed to leave only after
    its twin (see ``twins_hopeless``).

    Rounds of the derivation over bitsets (see "How it is computed" above)."""
    decks = params[CARD_COUNT] // 52
    sets = np.zeros((SET_ROWS, 2), dtype=np.uint64)
    links = np.full((LINK_ROWS, 104), -1, dtype=np.int16)
    watched_at, later_at, empty = read_table(state, params, sets, links, watched, later_twin)
    if twins_apply(params):
        mark_twin_rules(sets, links, later_at)
    on_foundations, in_stock = outside_cards(state, params)
    same_suit, returns = params[SAME_SUIT] != 0, params[FOUNDATION_RETURN] != 0
    while True:
        ever_home = sets[HOME, 0] | sets[HOME, 1] | on_foundations | in_stock
        successors = ACES | ((ever_home << ONE) & ~ACES)  # an Ace, or the card below is home
        grew, all_home = False, True
        for copy in range(decks):
            new = sets[EXPOSED, copy] & successors & ~sets[HOME, copy]
            grew |= new != 0
            sets[HOME, copy] |= new
            all_home &= sets[ON_TABLE, copy] & ~sets[HOME, copy] == 0
        if all_home:
            return False
        exposable = sets[EXPOSED, 0] | sets[EXPOSED, 1] | in_stock
        if returns:  # a parent home comes back to be landed on
            exposable |= sets[HOME, 0] | sets[HOME, 1] | on_foundations
        one_parent, both_parents = with_parents(same_suit, exposable)
        waited_for = both_parents | twins_gone_home(sets, links)
        for copy in range(decks):
            twin_rule = sets[TWIN_RULE, copy]
            free = sets[HOME, copy] | (one_parent & ~twin_rule) | (waited_for & twin_rule)
            if empty:
                free |= KINGS
            may_leave = (sets[FACE_UP, copy] | sets[EXPOSED, copy]) & sets[ON_TABLE, copy]
            new = may_leave & free & ~sets[LEAVES, copy]
            if new == 0:
                continue
            grew = True
            sets[LEAVES, copy] |= new
            if watched_at >= 0 and watched_at // 52 == copy and new & card_bit(watched_at % 52):
                return False
            while new:
                below = links[BELOW, copy * 52 + trailing_zeros(new)]
                new &= new - ONE
                if below < 0:
                    empty = True  # a column's bottom card leaves
                else:
                    sets[EXPOSED, below // 52] |= card_bit(below % 52)
        if not grew:
            return True


@kernel
def watched_place(state, params, move):
    """The place of the leader of a packet just moved onto a card, else NOWHERE."""
    if move_kind(move) != TABLEAU:
        return NOWHERE
    target = move_target(move)
    below = state[params[LENGTHS] + target] - move_size(move)
    return target * params[CAPACITY] + below if below > 0 else NOWHERE


@kernel
def may_turn_hopeless(state, params, move):
    """Can ``move``, just made from a position that is not hopeless, have made the position
    hopeless? False is a proof that it did not (see the module docstring)."""
    kind = move_kind(move)
    if kind == FROM_FOUNDATION:
        return False
    if kind == TO_FOUNDATION:
        return not params[FOUNDATION_RETURN] and not landers_all_home(state, params, move_card(move))
    if kind != TABLEAU:
        return True
    capacity = params[CAPACITY]
    target = move_target(move)
    landed_on_card = state[params[LENGTHS] + target] > move_size(move)
    leader = move_card(move)
    for column in range(params[COLUMNS]):
        length = state[params[LENGTHS] + column]
        if column == target:
            continue
        if length == 0:
            if not landed_on_card:
                return False
        elif landed_on_card and builds_on(leader, state[column * capacity + length - 1], params[SAME_SUIT]):
            return False
    return True
