"""The packed state and its Zobrist keys.

A position is one int8 array ``state``, read through ``params``, one int64 array (made by
``make_params``) of the rule set's sizes and of where each part of ``state`` lives:

    params[COLUMNS]                 columns (7; 8 in Milligan)
    params[CAPACITY]                slots a column has in ``state`` (the card count: any
                                    column can hold every card)
    params[FOUNDATION_COUNT]        foundation slots (4 a deck)
    params[STOCK_SIZE]              stock cards at the deal (0 but in Milligan)
    params[SAME_SUIT]               1 when a card builds on its own suit (russian), 0 when
                                    on the other colour
    params[FOUNDATION_RETURN]       1 when a foundation's top card may come back to a column
    params[CARD_COUNT]              cards in play (52 a deck)
    params[LENGTHS], params[FACE_DOWN], params[FOUNDATIONS], params[STOCK], params[STOCK_NEXT]
                                    where those parts of ``state`` start (below)
    params[ZOBRIST_FOUNDATIONS]     where the foundation terms start in each row of
                                    ``zobrist``: 14 heights a slot, after the card terms
    params[ZOBRIST_STOCK]           where the stock terms start: one per value of
                                    ``state[STOCK_NEXT]`` (0..stock size)
    params[ZOBRIST_COLUMNS]         where the column-number salts start: one per column
                                    (PARAM_COUNT slots in all)

The state:

    state[col * capacity + i]   card i of column col (bottom first), cards are 0..51
    state[LENGTHS + col]        cards in column col
    state[FACE_DOWN + col]      face-down cards at the bottom of column col
    state[FOUNDATIONS + slot]   height of foundation slot (suit = slot % 4); the slots of a
                                suit are kept in falling order of height
    state[STOCK + i]            stock card i in dealing order
    state[STOCK_NEXT]           index of the next stock card to deal

``column_keys`` (uint64, 2 x columns) holds two independent Zobrist hashes of each column:
the XOR of ``zobrist[k, (i * 52 + card) * 2 + face_up]`` over its cards. The position key
adds a mixed column hash per column (addition commutes, so the key ignores column order:
with no stock left, columns are interchangeable) to the foundation and stock terms. Two 64-bit keys make a
128-bit identity; a collision would need two different positions to agree on both.
Column-order-free keys are a reduction too: positions that differ only in column order are
searched once. While stock is left (Milligan) the order matters, since a deal puts its cards
on columns 1, 2, ... in turn: then the key keeps it (``position_keys``).

The search (``search``) keeps the rest of its state in two more places, so that it can stop
and go on:

The stack, a tuple of arrays, int32 but where said (made by
``make_stack``): the move lists of the positions on the path lie one after another in one
buffer, so a deep path costs only the moves its positions have (a depth-first search of a large
space makes paths of tens of thousands of moves, with foundation return especially):

    stack[STACK_MOVES][start + i]   move i of the position at ``depth``, where
    stack[STACK_STARTS][depth]      is where that position's list starts (``start``)
    stack[STACK_COUNTS][depth]      how many moves of that list are to be searched
    stack[STACK_NEXT][depth]        the list's next move to search
    stack[STACK_APPLIED][depth]     the move made at ``depth`` as ``apply_move`` returned it
                                    (TURNED set if it turned a card): the path from the root
    stack[STACK_SCORES][i]          scratch for ordering one move list
    stack[STACK_ENTERED][depth]     (int64) positions the search had reached when it entered the
                                    position at ``depth``: how much it has searched below it since
    stack[STACK_TESTED][depth]      (int8) 1 once the position at ``depth`` had the full pairwise
                                    test
    stack[STACK_LANDING][card]      (int64) scratch for ``moves.landing_columns``
    stack[STACK_FACTS][depth, w]    (uint64) the pairwise tests' facts of the position at ``depth``,
    stack[STACK_FACTS_READ][depth]  (int8) once read (``dead_ends.path_facts``: UNREAD, READ, UNENCODED)

The control block, one int64 array (made by ``search.make_control``):

    control[CONTROL_DEPTH]          depth of the current position (the path's length)
    control[CONTROL_NODES]          positions reached so far
    control[CONTROL_STATUS]         the search's status (``search.RUNNING``, ``SOLVED``, ...)
    control[CONTROL_LIMIT]          IDA*: the largest depth + lower bound searched
    control[CONTROL_TRUNCATED]      1 once part of the space went unsearched (no proof then)
    control[CONTROL_NEXT_LIMIT]     IDA*: the smallest bound that went over the limit
    control[CONTROL_MODE]           ``search.DFS`` or ``search.IDA``
    control[CONTROL_OPTIONS]        the reductions (and guesses) on, bits of ``moves``
    control[CONTROL_GROW_AT]        table entries at which the search pauses for a bigger table
    control[CONTROL_BRANCH_LIMIT]   > 0: only that many best-ordered moves per position
    control[CONTROL_DEAL_SCORE]     the stock deal's score in the move order (``moves``' "The
                                    stock deal's place"): ordering only
    control[CONTROL_PAIRS_SPACING]  with H2_SEARCH: the positions searched below a position
                                    before its later children get the pairwise tests
                                    (``dead_ends.pacing.pairs_due``)
    control[CONTROL_COSTLY_AFTER]   with H2_SEARCH: the positions searched below a position on the
                                    path before it gets the full pairwise test itself
                                    (``dead_ends.entry.test_costly``; 0: never)
    control[CONTROL_COSTLY_FROM]    the shallowest depth of the path that may still be untested
    control[CONTROL_COSTLY_TESTS], control[CONTROL_COSTLY_DEAD]   those tests, and of them dead
    control[CONTROL_COSTLY_WAIT]    positions searched before the next of those tests may run
    control[CONTROL_TESTS_ON_TRIAL] the trial of the paced full tests of the search (``dead_ends.pacing``;
                                    0: not paced)
    control[CONTROL_CHECKS_PER_TABLE] the checks of the remembered dead tables each dead table
                                    stored allows (``dead_ends.pacing``; 0: not paced)
    control[CONTROL_SPLITS_ON_TRIAL] the trial of the paced case split on twins in the search
                                    (``dead_ends.pacing.splits_pay``; 0: not paced)
    control[CONTROL_SPLIT_CALLS], control[CONTROL_SPLIT_DEAD]   the search's tests with the case
                                    split, and the positions of them only the split proved dead
    control[CONTROL_SPLIT_SKIPS]    the tests after the split's allowance ran out (one in
                                    ``control[CONTROL_SPLIT_SAMPLE]`` of them still takes the split)
    control[CONTROL_COSTLY_CREDIT]  the tests of costly positions a test that found a dead one earns
    control[CONTROL_CHECKS_PER_DEAD] the checks of the remembered dead tables each position they
                                    proved dead allows (``dead_ends.pacing.checks_pay``)
    control[CONTROL_SPLITS_PER_DEAD] the tests with the case split each position only the split
                                    proved dead allows (``dead_ends.pacing.splits_pay``)
    control[CONTROL_SPLIT_SAMPLE]   once those are spent, one test in this many still takes the split

The tuning slots (``TUNING_SLOTS``: the spacing, the costly tests' threshold and credit, the
pacing's trials and allowances) are written once by ``search.make_control`` from a
``KernelTuning`` (the solve's ``solver.search.config.SearchConfig.kernel_tuning``): the kernels
read their tuning there, never from a module global.
"""

from typing import NamedTuple

import numpy as np

from solver.engine.jit import kernel

# params indices
COLUMNS, CAPACITY, FOUNDATION_COUNT, STOCK_SIZE, SAME_SUIT, FOUNDATION_RETURN, CARD_COUNT = range(7)
LENGTHS, FACE_DOWN, FOUNDATIONS, STOCK, STOCK_NEXT = range(7, 12)
ZOBRIST_FOUNDATIONS, ZOBRIST_STOCK, ZOBRIST_COLUMNS, PARAM_COUNT = 12, 13, 14, 15

ZOBRIST_SEED = 0x59554B4F4E  # fixed: keys must be the same in every process

# the search stack
STACK_MOVES, STACK_COUNTS, STACK_NEXT, STACK_APPLIED, STACK_SCORES, STACK_STARTS, STACK_ENTERED = range(7)
STACK_TESTED, STACK_LANDING, STACK_FACTS, STACK_FACTS_READ, STACK_SIZE = 7, 8, 9, 10, 11
MOVE_LIST_SIZE = 512  # the longest move list a position may have; a longer one truncates

# the control block
CONTROL_DEPTH, CONTROL_NODES, CONTROL_STATUS, CONTROL_LIMIT, CONTROL_TRUNCATED = range(5)
CONTROL_NEXT_LIMIT, CONTROL_MODE, CONTROL_OPTIONS, CONTROL_GROW_AT, CONTROL_BRANCH_LIMIT = range(5, 10)
CONTROL_DEAL_SCORE, CONTROL_PAIRS_SPACING, CONTROL_COSTLY_AFTER, CONTROL_COSTLY_FROM = 10, 11, 12, 13
CONTROL_COSTLY_TESTS, CONTROL_COSTLY_DEAD, CONTROL_COSTLY_WAIT, CONTROL_TESTS_ON_TRIAL = 14, 15, 16, 17
CONTROL_CHECKS_PER_TABLE, CONTROL_SPLITS_ON_TRIAL, CONTROL_SPLIT_CALLS, CONTROL_SPLIT_DEAD = 18, 19, 20, 21
CONTROL_SPLIT_SKIPS, CONTROL_COSTLY_CREDIT, CONTROL_CHECKS_PER_DEAD, CONTROL_SPLITS_PER_DEAD = 22, 23, 24, 25
CONTROL_SPLIT_SAMPLE, CONTROL_SIZE = 26, 27


class KernelTuning(NamedTuple):
    """The tuning the search kernels read from the control block, each field into the slot of its
    name (``TUNING_SLOTS``); what each holds: the slots' list above."""

    pairs_spacing: int
    costly_after: int
    costly_credit: int
    tests_on_trial: int
    checks_per_table: int
    checks_per_dead: int
    splits_on_trial: int
    splits_per_dead: int
    split_sample: int


TUNING_SLOTS = KernelTuning(
    CONTROL_PAIRS_SPACING,
    CONTROL_COSTLY_AFTER,
    CONTROL_COSTLY_CREDIT,
    CONTROL_TESTS_ON_TRIAL,
    CONTROL_CHECKS_PER_TABLE,
    CONTROL_CHECKS_PER_DEAD,
    CONTROL_SPLITS_ON_TRIAL,
    CONTROL_SPLITS_PER_DEAD,
    CONTROL_SPLIT_SAMPLE,
)


def make_params(column_count, foundation_count, stock_size, same_suit, foundation_return, card_count):
    params = np.zeros(PARAM_COUNT, dtype=np.int64)
    capacity = card_count
    params[COLUMNS] = column_count
    params[CAPACITY] = capacity
    params[FOUNDATION_COUNT] = foundation_count
    params[STOCK_SIZE] = stock_size
    params[SAME_SUIT] = same_suit
    params[FOUNDATION_RETURN] = foundation_return
    params[CARD_COUNT] = card_count
    params[LENGTHS] = column_count * capacity
    params[FACE_DOWN] = params[LENGTHS] + column_count
    params[FOUNDATIONS] = params[FACE_DOWN] + column_count
    params[STOCK] = params[FOUNDATIONS] + foundation_count
    params[STOCK_NEXT] = params[STOCK] + stock_size
    params[ZOBRIST_FOUNDATIONS] = capacity * 52 * 2
    params[ZOBRIST_STOCK] = params[ZOBRIST_FOUNDATIONS] + foundation_count * 14
    params[ZOBRIST_COLUMNS] = params[ZOBRIST_STOCK] + stock_size + 1
    return params


def state_size(params) -> int:
    return int(params[STOCK_NEXT]) + 1


def make_stack(max_depth: int, buffered_moves: int, fact_words: int) -> tuple[np.ndarray, ...]:
    """A search stack for paths of up to ``max_depth`` moves whose positions have at most
    ``buffered_moves`` moves in all, with room for ``fact_words`` words of facts a position (see
    the module docstring)."""
    stack = [None] * STACK_SIZE
    stack[STACK_MOVES] = np.zeros(buffered_moves, dtype=np.int32)
    stack[STACK_STARTS] = np.zeros(max_depth, dtype=np.int32)
    stack[STACK_COUNTS] = np.zeros(max_depth, dtype=np.int32)
    stack[STACK_NEXT] = np.zeros(max_depth, dtype=np.int32)
    stack[STACK_APPLIED] = np.zeros(max_depth, dtype=np.int32)
    stack[STACK_SCORES] = np.zeros(MOVE_LIST_SIZE, dtype=np.int32)
    stack[STACK_ENTERED] = np.zeros(max_depth, dtype=np.int64)
    stack[STACK_TESTED] = np.zeros(max_depth, dtype=np.int8)
    stack[STACK_LANDING] = np.zeros(52, dtype=np.int64)
    stack[STACK_FACTS] = np.zeros((max_depth, fact_words), dtype=np.uint64)
    stack[STACK_FACTS_READ] = np.zeros(max_depth, dtype=np.int8)
    return tuple(stack)


def make_zobrist(params) -> np.ndarray:
    size = int(params[ZOBRIST_COLUMNS]) + int(params[COLUMNS])
    rng = np.random.default_rng(ZOBRIST_SEED)
    return rng.integers(1, 2**63, size=(2, size), dtype=np.int64).view(np.uint64)


@kernel
def card_key(zobrist, k, index, card, face_up):
    """Key ``k``'s Zobrist term for ``card`` at height ``index`` of a column, face up or down."""
    return zobrist[k, (index * 52 + card) * 2 + face_up]


@kernel
def mix(value):
    """splitmix64's finaliser: makes the sum over columns non-linear in the XOR hashes."""
    value = (value ^ (value >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    value = (value ^ (value >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return value ^ (value >> np.uint64(31))


@kernel
def column_key(state, params, zobrist, k, column):
    """Key ``k``'s hash of ``column`` computed afresh (moves update it incrementally)."""
    capacity = params[CAPACITY]
    face_down = state[params[FACE_DOWN] + column]
    key = np.uint64(0)
    for i in range(state[params[LENGTHS] + column]):
        key ^= card_key(zobrist, k, i, state[column * capacity + i], 1 if i >= face_down else 0)
    return key


@kernel
def init_column_keys(state, params, zobrist, column_keys):
    """Fill ``column_keys`` with both hashes of every column."""
    for k in range(2):
        for column in range(params[COLUMNS]):
            column_keys[k, column] = column_key(state, params, zobrist, k, column)


@kernel
def stock_left(state, params):
    """How many stock cards are still to be dealt."""
    return params[STOCK_SIZE] - state[params[STOCK_NEXT]] if params[STOCK_SIZE] > 0 else 0


@kernel
def cards_home(state, params):
    """How many cards are on the foundations."""
    total = 0
    for slot in range(params[FOUNDATION_COUNT]):
        total += state[params[FOUNDATIONS] + slot]
    return total


@kernel
def position_keys(state, params, zobrist, column_keys):
    """The position's two keys. While stock is left, column order matters (a deal puts its
    cards on columns 1, 2, ... in turn), so each column's hash is salted with its number;
    once the stock is empty the keys ignore column order."""
    return keys_of(state, params, zobrist, column_keys, stock_left(state, params) > 0)


@kernel
def ordered_keys(state, params, zobrist, column_keys):
    """The two keys of the position with its column order: equal only for identical
    positions."""
    return keys_of(state, params, zobrist, column_keys, True)


@kernel
def keys_of(state, params, zobrist, column_keys, ordered):
    """The two keys: column hashes salted with their column number when ``ordered``,
    plus the foundation and stock terms."""
    first = np.uint64(0)
    second = np.uint64(0)
    salt_at = params[ZOBRIST_COLUMNS]
    for column in range(params[COLUMNS]):
        first_hash = column_keys[0, column]
        second_hash = column_keys[1, column]
        if ordered:
            first_hash ^= zobrist[0, salt_at + column]
            second_hash ^= zobrist[1, salt_at + column]
        first += mix(first_hash)
        second += mix(second_hash)
    heights_at = params[FOUNDATIONS]
    for slot in range(params[FOUNDATION_COUNT]):
        entry = params[ZOBRIST_FOUNDATIONS] + slot * 14 + state[heights_at + slot]
        first += zobrist[0, entry]
        second += zobrist[1, entry]
    if params[STOCK_SIZE] > 0:
        entry = params[ZOBRIST_STOCK] + state[params[STOCK_NEXT]]
        first += zobrist[0, entry]
        second += zobrist[1, entry]
    return first, second
