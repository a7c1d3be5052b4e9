"""Moves over the packed state (see ``layout``): their encoding and their generation.

A move is an int32: ``kind | source << 2 | target << 6 | size << 10 | card << 18 |
turned << 25``. Kinds (``move_kinds``, shared with the reference engine): TABLEAU (packet
of ``size`` cards led by ``card`` from column ``source`` to column ``target``),
TO_FOUNDATION (exposed card of ``source`` to slot ``target``), FROM_FOUNDATION (top of slot
``source`` onto column ``target``), STOCK_DEAL (``size`` cards dealt onto columns
1..size). ``turned`` is set by ``apply.apply_move`` when the move left a face-down card
exposed and turned it, so ``apply.undo_move`` can turn it back.

The generator's reductions, each sound (no win is lost) and switchable through ``options``
so tests can compare verdicts with and without them:

SAFE_FOUNDATION (auto-move): with foundation return off and the stock empty, an exposed
    card C of rank r that a foundation takes is the only move generated when (1) every card
    that could ever build on C (rank r-1, of the other colour; in russian of C's suit) is
    already on a foundation, and (2) with two decks, every copy of C still out has a
    foundation of its suit at r-1 waiting (both, when both copies are out).
    Why no win is lost: nothing can land on C any more (its possible landers are on
    foundations and never come back; with the stock empty no deal covers it), so C stays
    exposed until it moves. Take any winning line from here, move C to its foundation first
    and drop C's own moves from the line: every other move stays legal (a packet that
    carried C carries one card fewer; no move of the line targeted C; a column that only
    held C is empty sooner, and no move needed it occupied since nothing could land on C).
    On the foundations C only arrives earlier: with one deck nothing else could go on its
    foundation before C; with two decks, by (2), when the line sends the other copy of C
    up before C, a foundation at r-1 is still waiting for it, and the foundation heights
    after both copies are up are the same as in the line. The new line still wins, and is
    no longer, so shortest lines are kept too. Without (2) a copy can need the foundation C
    took, to uncover what the other foundation of its suit needs (a test pins such a
    position). In russian the landers of C are its own suit's rank r-1, which is on a
    foundation whenever C is playable, so with one deck every playable exposed card goes up.
    Deliberately not used: KPat's rule that always plays 2s, and Raymond's rule. In Yukon a
    buried Ace of the other colour, with cards on top of it, may need that 2 as its landing
    card: KPat reports its deal 172 lost for this reason, and it is won (a test pins it, and
    a position where playing the 2 home loses).
WHOLE_COLUMN_TO_EMPTY: a packet that is a whole column (leader at the bottom) never moves
    to an empty column: the result is the same position with two columns swapped, which
    the column-order-free key already treats as the same position.
FIRST_EMPTY_ONLY: of several empty columns, only the first is offered as a target: the
    positions reached through the others differ only in column order.
    Both hold only while no stock is left: a stock deal puts its cards on columns 1, 2, ...
    in turn, so with stock left the order of the columns matters (and the key keeps it).
HOPELESS (applied by the search, see ``dead_ends.prune``): a position in which some card can never
    reach a foundation gets no moves. At the root the test includes the case split on which
    of two twins leaves first (``dead_ends.prune.twins_hopeless``).
TWIN_SPLIT (applied by the search, see ``dead_ends.prune``): after the moves HOPELESS is tested after,
    the test with its case split on twins (one deck, alternating colours), which flags every
    position HOPELESS flags and more; paced (``dead_ends.pacing.split_now``): where the split seldom
    flags more, HOPELESS alone runs in most of those tests.
H2 (applied by the search, see ``dead_ends.h2``): a root whose pairwise (h^2) reachability leaves some
    card's home unreachable gets no moves; H2_SEARCH: nor does a position inside the search
    where the test runs (``dead_ends.pacing.pairs_due``: below positions whose subtrees proved costly);
    NOGOODS (see ``dead_ends.nogoods``): nor does any position whose
    fact pairs all lie in the pair table of a position the test proved dead; WIDE_NOGOODS
    (``dead_ends.nogoods.widen``): the table is first closed again from a wider start, the dead
    position's facts plus every fact of each card its dead end does not depend on. The test
    runs only once the solve found the deal not easy (``solver.search.solve``).
TRIPLES (see ``dead_ends.h3``): a root whose reachability over sets of three facts (h^3) leaves two home
    facts never true together gets no moves; tested once a deal, after the solve has searched
    ``SearchConfig.root_triples_after`` positions without a verdict.
PATH_TRIPLES (see ``dead_ends.h3`` and ``dead_ends.triple_nogoods``; one deck): once the root was tested over
    triples, positions of the path with large subtrees are tested too, rationed
    (``solver.search.dead_ends.test_path_over_triples``), and a dead one is left; the family of
    each dead one is remembered, and nor does any position get moves whose sets of facts all lie
    in a remembered family.
KINGS_KEEP_PACKETS (one deck): call a King *free* when it is the lowest face-up card of its
    column. A packet lying on a free King K is not moved onto the other King K' of K's
    colour when K' is free and bare, unless K could go to its foundation next.
    Why no win is lost: a King moves only into an empty column, where it is free again,
    and nothing ever carries it (no face-up card lies beneath it), so a free King stays
    free. Call two positions *related* when they differ only in that the packets on the
    free Kings K and K' are exchanged. Every move of one has a counterpart in the other
    that keeps them related or makes them equal: a move inside or out of either packet,
    a landing on either packet's top (on a bare King a Queen lands on its bare twin
    instead), a King leading its packet into an empty column; only K (or K') going to its
    foundation needs the packet on it carried over to the bare twin first, and that move
    is allowed since the King is then ready for its foundation. So from a position where
    a shortest win starts with a skipped move (whose result is related to the position),
    the related position's shortest win -- taken, by induction on the distance to the
    win, to start with an allowed move, whose counterpart here is allowed too -- gives a
    win from here that is no longer and starts with an allowed move: the search still finds
    a win, and IDA* a shortest one. The freedom of both Kings is what makes this sound: for
    cards other than Kings the same exchange is not safe, as a packet can later carry the
    parent it left onto the moved packet (KPat deal 47, see KEEP_BUILDS). Off with two
    decks (a Queen then has four Kings to lie on). What it saves: docs/performance.md, "Figures
    the engine's and the player's docstrings cite".

Each reduction is tested by comparing verdicts with it on and off.

The stock deal's place in the move order (``generate_moves``' ``deal_score``, the search's
``control[CONTROL_DEAL_SCORE]``) is set by the caller: the search for a first win tries a
few places in turn (``solver.search.solve``), since Milligan deals that one order holds up for
seconds another wins in milliseconds. Order never changes a verdict, only how soon it comes.

KEEP_BUILDS is not a reduction but a guess, for the branch-limited searches that look for a
first win (``SearchConfig.probes``; a search with it on marks itself truncated, so it never
proves a position lost): a card lying face up on a card it
builds on is not moved off it unless that card could go to its foundation next. Most wins
survive it and its search space is far smaller, but some need such a move: in KPat's deal
47, 7D leaves 8S for 8C so that 6S can later carry 8S onto the 7D (a test pins it).
"""

from solver.engine.cards import builds_on, rank_of, red, suit_of
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
    MOVE_LIST_SIZE,
    SAME_SUIT,
    stock_left,
)
from solver.engine.move_kinds import FROM_FOUNDATION, STOCK_DEAL, TABLEAU, TO_FOUNDATION

TURNED = 1 << 25

# options bits: which reductions are on
SAFE_FOUNDATION, WHOLE_COLUMN_TO_EMPTY, FIRST_EMPTY_ONLY, HOPELESS, KINGS_KEEP_PACKETS = 1, 2, 4, 8, 32
H2, H2_SEARCH, NOGOODS, WIDE_NOGOODS = 64, 128, 1 << 15, 1 << 17
TWIN_SPLIT = 1 << 16
TRIPLES, PATH_TRIPLES = 1 << 18, 1 << 19
EVERY_TRIPLE_TEST = TRIPLES | PATH_TRIPLES
# On by default: the pairwise test at the root, inside the search below costly subtrees, and
# its remembered dead tables (docs/performance.md, "`bench_h2.py`: the pairwise (h^2)
# dead-end test").
EVERY_PAIR_TEST = H2 | H2_SEARCH | NOGOODS | WIDE_NOGOODS
ALL_REDUCTIONS = (
    SAFE_FOUNDATION
    | WHOLE_COLUMN_TO_EMPTY
    | FIRST_EMPTY_ONLY
    | HOPELESS
    | KINGS_KEEP_PACKETS
    | TWIN_SPLIT
    | EVERY_PAIR_TEST
    | EVERY_TRIPLE_TEST
)
KEEP_BUILDS = 16  # a guess for the first-win searches, not a reduction


@kernel
def encode(kind, source, target, size, card):
    """The move int of a move (see the module docstring); ``turned`` is left clear."""
    return kind | (source << 2) | (target << 6) | (size << 10) | (card << 18)


@kernel
def move_kind(move):
    """The move's kind (``move_kinds``)."""
    return move & 3


@kernel
def move_source(move):
    """The column (or, for FROM_FOUNDATION, the foundation slot) the move takes from."""
    return (move >> 2) & 15


@kernel
def move_target(move):
    """The column (or, for TO_FOUNDATION, the foundation slot) the move puts onto."""
    return (move >> 6) & 15


@kernel
def move_size(move):
    """The cards the move carries (for STOCK_DEAL: the cards it deals)."""
    return (move >> 10) & 127


@kernel
def move_card(move):
    """The card the move leads with (0 for STOCK_DEAL)."""
    return (move >> 18) & 127


@kernel
def foundation_slot_for(state, params, card):
    """Lowest slot of the card's suit whose height is one below its rank, or -1."""
    base = params[FOUNDATIONS]
    for slot in range(suit_of(card), params[FOUNDATION_COUNT], 4):
        if state[base + slot] + 1 == rank_of(card):
            return slot
    return -1


@kernel
def returnable(state, params, slot):
    """A non-empty slot whose later twin (same suit) is not of equal height."""
    base = params[FOUNDATIONS]
    height = state[base + slot]
    if height == 0:
        return False
    for twin in range(slot + 4, params[FOUNDATION_COUNT], 4):
        if state[base + twin] == height:
            return False
    return True


@kernel
def landers_all_home(state, params, card):
    """Are all cards that could build on ``card`` on foundations?"""
    needed = rank_of(card) - 1
    if needed == 0:
        return True
    base = params[FOUNDATIONS]
    for slot in range(params[FOUNDATION_COUNT]):
        suit = slot % 4
        lands = suit == suit_of(card) if params[SAME_SUIT] else (suit == 1 or suit == 2) != red(card)
        if lands and state[base + slot] < needed:
            return False
    return True


@kernel
def safe_foundation_move(state, params):
    """The SAFE_FOUNDATION auto-move, or -1 (see the module docstring for why it is sound)."""
    if params[FOUNDATION_RETURN] or stock_left(state, params) > 0:
        return -1
    capacity = params[CAPACITY]
    for column in range(params[COLUMNS]):
        length = state[params[LENGTHS] + column]
        if length == 0:
            continue
        card = state[column * capacity + length - 1]
        slot = foundation_slot_for(state, params, card)
        if slot >= 0 and landers_all_home(state, params, card) and no_rival_copy(state, params, card):
            return encode(TO_FOUNDATION, column, slot, 1, card)
    return -1


@kernel
def no_rival_copy(state, params, card):
    """With two decks: is there a foundation one below ``card`` for every copy of it still
    out? (Always so with one deck.) Otherwise the copies compete for one foundation, and
    which copy goes up first can matter."""
    base = params[FOUNDATIONS]
    rank = rank_of(card)
    out, ready = 0, 0
    for slot in range(suit_of(card), params[FOUNDATION_COUNT], 4):
        if state[base + slot] < rank:
            out += 1
        if state[base + slot] == rank - 1:
            ready += 1
    return out <= ready


@kernel
def generate_moves(state, params, options, deal_score, moves, scores, landing):
    """Fill ``moves`` with the legal moves (less those the reductions drop), best first, the
    stock deal scored ``deal_score`` against the others; return how many. Returns -1 if they
    did not fit in ``moves``. ``scores`` (MOVE_LIST_SIZE) and ``landing`` (52, int64) are
    scratch."""
    if options & SAFE_FOUNDATION:
        forced = safe_foundation_move(state, params)
        if forced >= 0:
            moves[0] = forced
            return 1
    capacity = params[CAPACITY]
    column_count = params[COLUMNS]
    lengths = params[LENGTHS]
    face_downs = params[FACE_DOWN]
    same_suit = params[SAME_SUIT]
    if stock_left(state, params) > 0:
        options &= ~(WHOLE_COLUMN_TO_EMPTY | FIRST_EMPTY_ONLY)
    if params[CARD_COUNT] != 52:
        options &= ~KINGS_KEEP_PACKETS
    first_empty = -1
    empty_columns = 0
    for column in range(column_count):
        if state[lengths + column] == 0:
            empty_columns |= 1 << column
            if first_empty < 0:
                first_empty = column
    landing_columns(state, params, options, first_empty, landing)
    count = 0
    for source in range(column_count):
        length = state[lengths + source]
        face_down = state[face_downs + source]
        for index in range(face_down, length):
            card = state[source * capacity + index]
            targets = landing[card] & ~(1 << source)
            if targets == 0:
                continue
            if index == 0 and (options & WHOLE_COLUMN_TO_EMPTY):
                targets &= ~empty_columns
            if (options & KINGS_KEEP_PACKETS) and index == face_down + 1:
                targets &= ~kings_to_skip(state, params, source, index)
            if (options & KEEP_BUILDS) and index > face_down:
                below = state[source * capacity + index - 1]
                if builds_on(card, below, same_suit) and foundation_slot_for(state, params, below) < 0:
                    continue
            for target in range(column_count):
                if not (targets >> target) & 1:
                    continue
                if count == MOVE_LIST_SIZE:
                    return -1
                moves[count] = encode(TABLEAU, source, target, length - index, card)
                scores[count] = tableau_score(
                    state, params, source, index, face_down, state[lengths + target]
                )
                count += 1
        if length > 0:
            card = state[source * capacity + length - 1]
            slot = foundation_slot_for(state, params, card)
            if slot >= 0:
                if count == MOVE_LIST_SIZE:
                    return -1
                moves[count] = encode(TO_FOUNDATION, source, slot, 1, card)
                scores[count] = 60 + (40 if length - 1 == face_down and face_down > 0 else 0)
                count += 1
    if params[FOUNDATION_RETURN]:
        for slot in range(params[FOUNDATION_COUNT]):
            if not returnable(state, params, slot):
                continue
            card = (slot % 4) * 13 + state[params[FOUNDATIONS] + slot] - 1
            for target in range(column_count):
                target_length = state[lengths + target]
                if target_length == 0:
                    if rank_of(card) != 13 or ((options & FIRST_EMPTY_ONLY) and target != first_empty):
                        continue
                elif not builds_on(card, state[target * capacity + target_length - 1], same_suit):
                    continue
                if count == MOVE_LIST_SIZE:
                    return -1
                moves[count] = encode(FROM_FOUNDATION, slot, target, 1, card)
                scores[count] = 0
                count += 1
    left = stock_left(state, params)
    if left > 0:
        if count == MOVE_LIST_SIZE:
            return -1
        moves[count] = encode(STOCK_DEAL, 0, 0, min(left, column_count), 0)
        scores[count] = deal_score
        count += 1
    sort_by_score(moves, scores, count)
    return count


@kernel
def kings_to_skip(state, params, source, index):
    """KINGS_KEEP_PACKETS: the columns a packet lying on a free King must not move to (see
    the module docstring): the other free King of its colour, unless the King it lies on
    could go to its foundation next."""
    capacity = params[CAPACITY]
    king = state[source * capacity + index - 1]
    if rank_of(king) != 13 or foundation_slot_for(state, params, king) >= 0:
        return 0
    skip = 0
    for target in range(params[COLUMNS]):
        length = state[params[LENGTHS] + target]
        if length == 0 or length - 1 != state[params[FACE_DOWN] + target] or target == source:
            continue
        other = state[target * capacity + length - 1]
        if rank_of(other) == 13 and red(other) == red(king):
            skip |= 1 << target
    return skip


@kernel
def landing_columns(state, params, options, first_empty, landing):
    """Fill ``landing[card]`` with the bit set of columns a packet led by the card may move
    to: columns whose exposed card it builds on, and for a King the empty columns (only the
    first of them under FIRST_EMPTY_ONLY)."""
    landing[:] = 0
    capacity = params[CAPACITY]
    for target in range(params[COLUMNS]):
        length = state[params[LENGTHS] + target]
        if length == 0:
            if target == first_empty or not (options & FIRST_EMPTY_ONLY):
                for suit in range(4):
                    landing[suit * 13 + 12] |= 1 << target
            continue
        exposed = state[target * capacity + length - 1]
        rank = rank_of(exposed) - 1
        if rank == 0:
            continue
        for suit in range(4):
            card = suit * 13 + rank - 1
            if builds_on(card, exposed, params[SAME_SUIT]):
                landing[card] |= 1 << target


@kernel
def tableau_score(state, params, source, index, face_down, target_length):
    """Move ordering only (any order is correct): turning a face-down card first, deeper
    columns before shallower; then emptying a column; then freeing a card that a
    foundation takes; King moves into empty columns only when they uncover something."""
    if index == face_down and face_down > 0:
        return 80 + face_down
    if target_length == 0:
        return 5
    if index == 0:
        return 50
    below = state[source * params[CAPACITY] + index - 1]
    if foundation_slot_for(state, params, below) >= 0:
        return 40
    return 10


@kernel
def sort_by_score(moves, scores, count):
    """Stable insertion sort, highest score first (move lists are short)."""
    for i in range(1, count):
        move = moves[i]
        score = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < score:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[j + 1] = move
        scores[j + 1] = score
