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
both leave a card never home, the position is lost (``twins_hopeless``). Nothing in this
depends on the position being a root: the search runs it at the root (with HOPELESS) and,
with TWIN_SPLIT, after the moves it tests HOPELESS after.

The case split is cheap because most pairs need no test of their own. Take a position the
plain test does not flag, and x one of a pair of twins. The derivation with the condition put
on x (call it D_x) derives what the plain one (D) derives until the round in which D derives
that x leaves: nothing before it used that event. If in that round x meets the condition too
(it goes home, its twin is home, or both its parents are exposable), D_x derives the same
event, and from then on the two derivations have the same rules: both reach D's fixpoint,
which leaves no card off the foundations. So only a pair whose twins both left D by one
parent alone (``weak`` below) can be flagged, and for those, D_x starts from D's events at the
start of that round (``derive`` notes them round by round) and need only run until x leaves
(``watched`` = x): once it does, D_x is D's fixpoint again.

Cards in the stock are treated as free: they may be exposed, leave and go home whenever
needed. Starting from the events true now, derive events by these conditions until nothing
changes (the derivation is a least fixpoint: the order in which events are derived does not
change which ones are). By induction on the time each event of a winning line happens, every
one of them is derived; a win sends every card home, so a card whose home is not derived proves the
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
Only "exposed" goes through a table, ``below``, from each card that leaves to the card it
uncovers. Rounds repeat until one derives nothing new.

What the test, the twins and the case split buy: docs/performance.md, "Figures the engine's
and the player's docstrings cite".
"""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from solver.engine.cards import builds_on, rank_of, suit_of
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
    STOCK,
    STOCK_NEXT,
    STOCK_SIZE,
)
from solver.engine.move_kinds import FROM_FOUNDATION, TABLEAU, TO_FOUNDATION
from solver.engine.moves import landers_all_home, move_card, move_kind, move_size, move_target

NOWHERE = -1
ALIVE, LOST_PLAIN, LOST_BY_SPLIT = 0, 1, 2  # ``twins_verdict``'s answers
MAX_ROUNDS, ROUND_FIELDS = 64, 4  # ``derive``'s record of its rounds, for ``twins_hopeless``

ONE, NONE = np.uint64(1), np.uint64(0)
SUIT_FIELD = np.uint64(0x1FFF)  # one suit's field of a card bitset: bit rank - 1
SPADES_AND_HEARTS = SUIT_FIELD | (SUIT_FIELD << np.uint64(13))
ACES = np.uint64(1 | 1 << 13 | 1 << 26 | 1 << 39)
KINGS = ACES << np.uint64(12)
BLACK_SUITS, RED_SUITS = 0b1001, 0b0110  # spades and clubs; hearts and diamonds

# rows of ``hopeless``'s ``sets`` (bitsets of places: bit ``card`` of word ``copy``)
EXPOSED, LEAVES, HOME, FACE_UP, ON_TABLE, TWIN_RULE, SET_ROWS = range(7)


@kernel
def card_bit(card):
    """Bit ``card`` of a card bitset."""
    return ONE << np.uint64(card)


@kernel
def suit_ranks(cards, suit):
    """The 13-bit field of ``suit`` in a card bitset (bit rank - 1)."""
    return (cards >> np.uint64(13 * suit)) & SUIT_FIELD


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
    return twins_verdict(state, params) != ALIVE


@allocating_kernel
def twins_verdict(state, params):
    """``twins_hopeless``'s answer, and how it was found: ALIVE, LOST_PLAIN (the derivation
    without a split, HOPELESS's, finds a card never home) or LOST_BY_SPLIT (only the split
    does). Only the pairs whose twins both leave the plain derivation by one parent alone are
    tested, each derivation with a twin assumed second resumed from the round of the plain one
    in which that twin left (the two are the same until then). The table is read once for all
    of them."""
    if not twins_apply(params):
        return ALIVE
    start, below, _, empty = read_table(state, params, NOWHERE, NOWHERE)
    outside = outside_cards(state, params)
    sets = np.empty_like(start)
    rounds = np.empty((MAX_ROUNDS, ROUND_FIELDS), dtype=np.uint64)
    left_in = np.empty(52, dtype=np.int8)
    restart(sets, start)
    lost, weak = derive(params, sets, below, -1, empty, outside, rounds, left_in)
    if lost:
        return LOST_PLAIN
    pairs = weak & twin_cards(weak) & SPADES_AND_HEARTS
    while pairs:
        card = np.int64(trailing_zeros(pairs))  # int64 like every card: the twin kernels compile once
        pairs &= pairs - ONE
        if later_twin_lost(params, sets, start, below, outside, rounds, left_in, card) and later_twin_lost(
            params, sets, start, below, outside, rounds, left_in, twin_of(card)
        ):
            return LOST_BY_SPLIT
    return ALIVE


@kernel
def later_twin_lost(params, sets, start, below, outside, rounds, left_in, card):
    """Is the position lost when ``card`` (one deck) leaves only after its twin? The derivation
    resumes from the plain one's events at the start of the round in which ``card`` left there,
    and stops once it leaves (``watched``: then it reaches the plain one's fixpoint)."""
    restart(sets, start)
    round_ = left_in[card] if left_in[card] < MAX_ROUNDS else 0
    sets[EXPOSED, 0], sets[LEAVES, 0], sets[HOME, 0] = rounds[round_, 0], rounds[round_, 1], rounds[round_, 2]
    empty = rounds[round_, 3] != 0
    sets[TWIN_RULE, 0] |= card_bit(card)
    return derive(params, sets, below, card, empty, outside, rounds[:0], left_in[:0])[0]


@kernel
def restart(sets, start):
    """Copy the events true now (``start``) into ``sets`` for a new derivation."""
    for row in range(SET_ROWS):
        for copy in range(2):
            sets[row, copy] = start[row, copy]


@kernel
def twin_cards(cards):
    """The twins of a card bitset's cards: spades and clubs, hearts and diamonds exchanged."""
    spades, clubs = cards & SUIT_FIELD, (cards >> np.uint64(39)) & SUIT_FIELD
    hearts, diamonds = (cards >> np.uint64(13)) & SUIT_FIELD, (cards >> np.uint64(26)) & SUIT_FIELD
    return clubs | (diamonds << np.uint64(13)) | (hearts << np.uint64(26)) | (spades << np.uint64(39))


@allocating_kernel
def read_table(state, params, watched, later_twin):
    """The events true now: ``sets`` with the places on the table, face up and exposed now, and
    the cards the twin rule holds for (see ``twin_rule_holds``), and ``below[copy * 52 + card]``,
    the place of the card beneath (-1 at a column's bottom). Returns (sets, below, the place of
    ``watched`` as ``copy * 52 + card`` or -1, is a column empty now)."""
    sets = np.zeros((SET_ROWS, 2), dtype=np.uint64)
    below = np.empty(104, dtype=np.int8)
    capacity = params[CAPACITY]
    twins = twins_apply(params)
    watched_at, empty = -1, False
    seen = NONE
    for column in range(params[COLUMNS]):
        length = state[params[LENGTHS] + column]
        face_down = state[params[FACE_DOWN] + column]
        empty |= length == 0
        under = -1
        for index in range(length):
            card = state[column * capacity + index]
            copy = 1 if seen & card_bit(card) else 0
            seen |= card_bit(card)
            at = copy * 52 + card
            below[at] = under
            if twins and index > 0 and index - 1 < face_down and twin_rule_holds(under, card):
                sets[TWIN_RULE, 0] |= card_bit(under)
            sets[ON_TABLE, copy] |= card_bit(card)
            if index >= face_down:
                sets[FACE_UP, copy] |= card_bit(card)
            if index == length - 1:
                sets[EXPOSED, copy] |= card_bit(card)
            if column * capacity + index == watched:
                watched_at = at
            if twins and column * capacity + index == later_twin:
                sets[TWIN_RULE, 0] |= card_bit(card)
            under = at
    return sets, below, watched_at, empty


@kernel
def twin_rule_holds(face_down_card, card_on_it):
    """The twin rule's case (one deck): a face-down card, not a King, with its twin directly
    on it waits for that twin (the card assumed to leave after its twin waits for it too)."""
    return rank_of(face_down_card) < 13 and card_on_it == twin_of(face_down_card)


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


@allocating_kernel
def hopeless(state, params, watched=NOWHERE, later_twin=NOWHERE):
    """Is some card certain never to reach a foundation?

    ``watched``: the place of a packet's leader that was just moved onto a card, from a
    position that was not hopeless; once it is derived to leave, the answer is no (see
    ``may_turn_hopeless``). ``later_twin``: the place of a card assumed to leave only after
    its twin (see ``twins_hopeless``)."""
    sets, below, watched_at, empty = read_table(state, params, watched, later_twin)
    outside = outside_cards(state, params)
    # no record of the rounds: empty views of arrays already made, so this hot path allocates nothing more
    return derive(params, sets, below, watched_at, empty, outside, sets[:0], below[:0])[0]


@kernel
def derive(params, sets, below, watched_at, empty, outside, rounds, left_in):
    """The derivation in rounds over bitsets (see "How it is computed" above) from the events
    in ``sets`` (``read_table``), ``outside`` the cards on the foundations and in the stock
    (``outside_cards``). Returns (is some card never home; the cards that leave by one parent
    alone: not home, no twin home, not both parents exposable, not a King). Where ``rounds`` has
    rows (one deck), row r gets the events of copy 0 at the start of round r (ROUND_FIELDS: the
    exposed, left and home bitsets, and whether a column is empty), and ``left_in[card]`` the
    round in which each card left."""
    decks = params[CARD_COUNT] // 52
    on_foundations, in_stock = outside
    same_suit, returns = params[SAME_SUIT] != 0, params[FOUNDATION_RETURN] != 0
    weak = NONE
    round_ = 0
    while True:
        if round_ < rounds.shape[0]:
            note_events(rounds[round_], sets, empty)
        ever_home = sets[HOME, 0] | sets[HOME, 1] | on_foundations | in_stock
        successors = ACES | ((ever_home << ONE) & ~ACES)  # an Ace, or the card below is home
        grew, all_home = False, True
        for copy in range(decks):
            new = sets[EXPOSED, copy] & successors & ~sets[HOME, copy]
            grew |= new != 0
            sets[HOME, copy] |= new
            all_home &= sets[ON_TABLE, copy] & ~sets[HOME, copy] == 0
        if all_home:
            return False, weak
        exposable = sets[EXPOSED, 0] | sets[EXPOSED, 1] | in_stock
        if returns:  # a parent home comes back to be landed on
            exposable |= sets[HOME, 0] | sets[HOME, 1] | on_foundations
        one_parent, both_parents = with_parents(same_suit, exposable)
        waited_for = both_parents | twin_cards(sets[HOME, 0])  # a twin-rule card's twin gone home
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
            weak |= new & ~(sets[HOME, copy] | both_parents | twin_cards(sets[HOME, copy]) | KINGS)
            if left_in.shape[0] > 0 and copy == 0:
                note_round(left_in, new, round_)
            if watched_at >= 0 and watched_at // 52 == copy and new & card_bit(watched_at % 52):
                return False, weak
            while new:
                under = below[copy * 52 + trailing_zeros(new)]
                new &= new - ONE
                if under < 0:
                    empty = True  # a column's bottom card leaves
                else:
                    sets[EXPOSED, under // 52] |= card_bit(under % 52)
        if not grew:
            return True, weak
        round_ += 1


@kernel
def note_events(row, sets, empty):
    """A row of ``derive``'s ``rounds``: the events of copy 0 so far, and is a column empty."""
    row[0], row[1], row[2], row[3] = sets[EXPOSED, 0], sets[LEAVES, 0], sets[HOME, 0], empty


@kernel
def note_round(left_in, cards, round_):
    """``left_in[card] = round_`` for the cards of a card bitset."""
    while cards:
        left_in[trailing_zeros(cards)] = min(round_, MAX_ROUNDS)
        cards &= cards - ONE


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
