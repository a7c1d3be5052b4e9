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
changes. By induction on the time each event of a winning line happens, every one of them
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

What the test, the twins and the case split buy: benchmarks/README.md, "Figures the engine's
and the player's docstrings cite".
"""

import numpy as np

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

NOWHERE, IN_STOCK = -1, -2


@kernel
def add_place(place_of, card, place):
    """Note ``place`` as where the next copy of ``card`` lies (``place_of[card]`` lists them)."""
    copy = 0
    while place_of[card, copy] != NOWHERE:
        copy += 1
    place_of[card, copy] = place


@kernel
def related_card(params, card, suit, rank_step):
    """The card of ``suit`` one rank above ``card`` (``rank_step`` 1) if ``card`` builds on
    it, or one rank below (-1) if it builds on ``card``; else -1."""
    rank = rank_of(card) + rank_step
    if rank < 1 or rank > 13:
        return -1
    other = suit * 13 + rank - 1
    lower, upper = (card, other) if rank_step == 1 else (other, card)
    return other if builds_on(lower, upper, params[SAME_SUIT]) else -1


@kernel
def parents_exposable(params, card, place_of, exposed, ever_home, wanted):
    """Can at least ``wanted`` of the cards that ``card`` builds on be exposed at some time
    (or, with foundation return, come back)?"""
    found = 0
    for suit in range(4):
        parent = related_card(params, card, suit, 1)
        if parent < 0:
            continue
        exposable = params[FOUNDATION_RETURN] and ever_home[parent]
        for copy in range(place_of.shape[1]):
            place = place_of[parent, copy]
            exposable |= place == IN_STOCK or (place != NOWHERE and exposed[place])
        found += exposable
        if found >= wanted:
            return True
    return False


@kernel
def twins_apply(params):
    """The twin rules hold with one deck and alternating colours (see "Twins" above)."""
    return not params[SAME_SUIT] and params[CARD_COUNT] == 52


@kernel
def twin_lies_on(state, params, place):
    """Does the card at ``place`` lie directly beneath its twin, the card of its rank and
    colour in the other suit (not for Kings)?"""
    if not twins_apply(params):
        return False
    column, index = place // params[CAPACITY], place % params[CAPACITY]
    if index + 1 >= state[params[LENGTHS] + column]:
        return False
    card = state[place]
    return rank_of(card) < 13 and state[place + 1] == twin_of(card)


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
    place_of = np.full((52, 1), NOWHERE, dtype=np.int64)
    for column in range(params[COLUMNS]):
        for index in range(state[params[LENGTHS] + column]):
            add_place(place_of, state[column * capacity + index], column * capacity + index)
    for card in range(26):  # spades and hearts; their twins are clubs and diamonds
        here, there = place_of[card, 0], place_of[twin_of(card), 0]
        if rank_of(card) == 13 or here == NOWHERE or there == NOWHERE:
            continue
        if hopeless(state, params, NOWHERE, here) and hopeless(state, params, NOWHERE, there):
            return True
    return False


@kernel
def push_places(place_of, card, done, pending, count):
    """Queue the column places of ``card`` whose event ``done`` is not derived yet."""
    for copy in range(place_of.shape[1]):
        place = place_of[card, copy]
        if place >= 0 and not done[place]:
            pending[count] = place
            count += 1
    return count


@kernel
def push_children(params, place_of, card, leaves, pending, count):
    """Queue the places of the cards that build on ``card`` and have not left yet."""
    for suit in range(4):
        child = related_card(params, card, suit, -1)
        if child >= 0:
            count = push_places(place_of, child, leaves, pending, count)
    return count


@kernel
def hopeless(state, params, watched=NOWHERE, later_twin=NOWHERE):
    """Is some card certain never to reach a foundation?

    ``watched``: the place of a packet's leader that was just moved onto a card, from a
    position that was not hopeless; once it is derived to leave, the answer is no (see
    ``may_turn_hopeless``). ``later_twin``: the place of a card assumed to leave only after
    its twin, which lies at ``earlier_twin`` (see ``twins_hopeless``).

    The derivation runs as a work list: a place is looked at again only when an event it
    depends on was just derived."""
    capacity = params[CAPACITY]
    columns = params[COLUMNS]
    place_of = np.full((52, params[CARD_COUNT] // 52), NOWHERE, dtype=np.int64)
    exposed = np.zeros(columns * capacity, dtype=np.bool_)
    leaves = np.zeros(columns * capacity, dtype=np.bool_)
    home = np.zeros(columns * capacity, dtype=np.bool_)
    ever_home = np.zeros(52, dtype=np.bool_)
    # Pushes in all, with d decks: each of the <= 52 d places once at the start, 2 d per
    # exposed event (children), 1 per leaves event (or the <= 4 d Kings, once), 1 per home
    # event (a twin beneath), 3 d per card first home (successors; with return, children),
    # 1 for ``later_twin``: <= 52 d (3 + 2 d) + 161 d, which is under 16 * 52 d for d <= 2.
    pending = np.empty(16 * params[CARD_COUNT], dtype=np.int64)
    count = 0
    for slot in range(params[FOUNDATION_COUNT]):
        for rank in range(1, state[params[FOUNDATIONS] + slot] + 1):
            ever_home[(slot % 4) * 13 + rank - 1] = True
    for i in range(state[params[STOCK_NEXT]], params[STOCK_SIZE]):
        card = state[params[STOCK] + i]
        ever_home[card] = True
        add_place(place_of, card, IN_STOCK)
    column_empties = False
    homes_needed = 0
    for column in range(columns):
        length = state[params[LENGTHS] + column]
        if length == 0:
            column_empties = True
        else:
            exposed[column * capacity + length - 1] = True
        for index in range(length):
            place = column * capacity + index
            add_place(place_of, state[place], place)
            pending[count] = place
            count += 1
            homes_needed += 1
    earlier_twin = place_of[twin_of(state[later_twin]), 0] if later_twin != NOWHERE else NOWHERE
    while count > 0:
        count -= 1
        place = pending[count]
        column, index = place // capacity, place % capacity
        card = state[place]
        if not exposed[place] and leaves[place + 1]:
            exposed[place] = True
            count = push_children(params, place_of, card, leaves, pending, count)
        if not home[place] and exposed[place] and (rank_of(card) == 1 or ever_home[card - 1]):
            home[place] = True
            homes_needed -= 1
            if homes_needed == 0:
                return False
            if index > 0:  # a twin beneath may have waited for this card to go home
                pending[count] = place - 1
                count += 1
            if place == earlier_twin:  # so may the card assumed to leave after it
                pending[count] = later_twin
                count += 1
            if not ever_home[card]:
                ever_home[card] = True
                if rank_of(card) < 13:
                    count = push_places(place_of, card + 1, home, pending, count)
                if params[FOUNDATION_RETURN]:
                    count = push_children(params, place_of, card, leaves, pending, count)
        if leaves[place] or (index < state[params[FACE_DOWN] + column] and not exposed[place]):
            continue
        if home[place] or (rank_of(card) == 13 and column_empties):
            moves_off = True
        elif place == later_twin or (
            index < state[params[FACE_DOWN] + column] and twin_lies_on(state, params, place)
        ):
            # both parents, or the twin gone home (see "Twins" above)
            twin = earlier_twin if place == later_twin else place + 1
            moves_off = (twin >= 0 and home[twin]) or parents_exposable(
                params, card, place_of, exposed, ever_home, 2
            )
        else:
            moves_off = parents_exposable(params, card, place_of, exposed, ever_home, 1)
        if moves_off:
            leaves[place] = True
            if place == watched:
                return False
            if index > 0:
                pending[count] = place - 1
                count += 1
            elif not column_empties:
                column_empties = True
                for suit in range(4):
                    count = push_places(place_of, suit * 13 + 12, leaves, pending, count)
    for column in range(columns):
        for index in range(state[params[LENGTHS] + column]):
            if not home[column * capacity + index]:
                return True
    return False


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
