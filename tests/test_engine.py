"""The numba engine against the reference engine and a plain exhaustive search.

Every test is deterministic: Hypothesis runs derandomized without a database, random
playouts use seeded ``random.Random``s, and solver runs are bounded by nodes, not time.
"""

import random
from collections import Counter

import numpy as np
import pytest
from exhaustive import SOLVED, UNSOLVABLE, TooBig, exhaustive_search, shortest_win_length
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st
from strategies import (
    RULE_IDS,
    RULE_SETS,
    built_positions,
    cards_off_foundations,
    dead_positions,
    deal_numbers,
    dealt_board,
    dealt_positions,
    playout,
    random_move,
    seeds,
    small_positions,
)

from solver import reference
from solver.board import Board, canonical_foundations, check_board, parse_board
from solver.cards import SUITS, parse_card
from solver.engine import layout, moves, prune, search
from solver.notation import replay_tokens
from solver.numbering import deal_board
from solver.packing import copy_packed, decode, pack, raw_foundations, unpack
from solver.reference import TO_FOUNDATION, Move, legal_moves
from solver.result import UNKNOWN, Limits
from solver.rules import Rules
from solver.solve import Budget, Search, solve_position

SETTINGS = {
    "derandomize": True,
    "database": None,
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
}
# Shrinking re-runs the exhaustive search many times: skip it where that is expensive.
NO_SHRINK = (Phase.explicit, Phase.generate)

# Solver runs here are bounded by nodes only, so their outcome never depends on timing.
NODE_LIMITS = Limits(max_nodes=3_000_000, time_limit=None)
MOVES = np.zeros(moves.MAX_MOVES, dtype=np.int32)
SCORES = np.zeros(moves.MAX_MOVES, dtype=np.int32)

YUKON, RUSSIAN, MILLIGAN = Rules("yukon"), Rules("russian"), Rules("milligan")
REDUCTIONS = {
    "safe_foundation": moves.SAFE_FOUNDATION,
    "whole_column_to_empty": moves.WHOLE_COLUMN_TO_EMPTY,
    "first_empty_only": moves.FIRST_EMPTY_ONLY,
    "hopeless": moves.HOPELESS,
    "kings_keep_packets": moves.KINGS_KEEP_PACKETS,
}

rules_sets = pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)


# --- helpers ----------------------------------------------------------------------------


def engine_moves(packed, options: int = 0) -> list[int]:
    count = moves.generate_moves(packed.state, packed.params, options, MOVES, SCORES)
    assert count >= 0, "move list overflowed"
    return [int(move) for move in MOVES[:count]]


def engine_move_list(board: Board, rules: Rules, options: int = 0) -> list[Move]:
    return [decode(move) for move in engine_moves(pack(board, rules), options)]


def assert_generator_matches(board: Board, rules: Rules) -> None:
    engine = Counter(engine_move_list(board, rules))
    expected = Counter(legal_moves(board, rules))
    assert engine == expected, (
        f"{rules.label()} position:\n{board.to_text()}"
        f"engine only: {sorted((engine - expected).elements(), key=repr)}\n"
        f"reference only: {sorted((expected - engine).elements(), key=repr)}"
    )


def is_hopeless(board: Board, rules: Rules) -> bool:
    packed = pack(board, rules)
    return bool(prune.hopeless(packed.state, packed.params))


def keys(packed) -> tuple[int, int]:
    p = packed
    return tuple(int(key) for key in layout.position_keys(p.state, p.params, p.zobrist, p.column_keys))


def live_state(packed):
    """Everything in the state array that means something (the bytes past a column's
    length are leftovers and are never read)."""
    board = unpack(packed)
    stock_next = int(packed.state[packed.params[layout.STOCK_NEXT]])
    return board.columns, board.face_down_counts, raw_foundations(packed), board.stock, stock_next


def identity(board: Board):
    """What makes two positions the same: column order only matters while a stock is left
    (a deal puts its n-th card onto column n)."""
    if board.stock:
        return board
    return tuple(sorted(zip(board.columns, board.face_down_counts))), board.foundations


def permuted(board: Board, order) -> Board:
    return Board(
        tuple(board.columns[i] for i in order),
        tuple(board.face_down_counts[i] for i in order),
        board.foundations,
        board.stock,
    )


def checked_solve(board: Board, rules: Rules, options: int = moves.ALL_REDUCTIONS, limits=NODE_LIMITS):
    """solve_position(), and for a solved result our own replay of its tokens to a win."""
    result = solve_position(board, rules, limits, options)
    if result.status == SOLVED:
        steps = list(replay_tokens(board, result.solution.split(), rules))
        final = steps[-1][2] if steps else board
        assert reference.is_won(final), f"solution does not win:\n{board.to_text()}{result.solution}"
    return result


def filled_board(rules: Rules, heights: dict, tops: list[str]) -> Board:
    """Foundations at ``heights`` (suit letter -> heights of its slots); column i holds the
    face-up cards ``tops[i]`` (bottom first); every other card off the foundations lies face
    down beneath the last of them; the other columns are empty."""
    foundations = [0] * rules.foundation_count
    for suit, suit_heights in heights.items():
        for copy, height in enumerate(suit_heights):
            foundations[SUITS.index(suit) + 4 * copy] = height
    columns = [tuple(parse_card(word) for word in top.split()) for top in tops]
    left = Counter(cards_off_foundations(foundations))
    left.subtract(card for column in columns for card in column)
    assert all(count >= 0 for count in left.values()), "a card is listed twice"
    hidden = tuple(sorted(left.elements()))
    columns[-1] = hidden + columns[-1]
    face_down = [0] * len(columns)
    face_down[-1] = len(hidden)
    empty = rules.column_count - len(columns)
    board = Board(tuple(columns) + ((),) * empty, tuple(face_down) + (0,) * empty, tuple(foundations))
    check_board(board, rules)
    return board


def walk(rules: Rules, number: int, seed: int, positions: int):
    """``positions`` boards from random playouts of numbered deals (a new deal whenever a
    game gets stuck or won)."""
    rng = random.Random(seed)
    count = 0
    while True:
        bias = rng.choice((0.2, 0.5, 0.9))
        for board in playout(dealt_board(rules, number), rules, rng, positions, bias):
            yield board
            count += 1
            if count == positions:
                return
        number = rng.randint(1, 10**12)


# --- 1. move generation ---------------------------------------------------------------------

PLAYOUT_EXAMPLES, PLAYOUT_LENGTH = 50, 200  # 10,000 positions per rule set


@rules_sets
@settings(max_examples=PLAYOUT_EXAMPLES, **SETTINGS)
@given(number=deal_numbers, seed=seeds)
def test_generator_matches_reference_on_playouts(rules, number, seed):
    checked = 0
    for board in walk(rules, number, seed, PLAYOUT_LENGTH):
        assert_generator_matches(board, rules)
        checked += 1
    assert checked == PLAYOUT_LENGTH


@rules_sets
@settings(max_examples=100, **SETTINGS)
@given(data=st.data())
def test_generator_matches_reference_on_small_positions(rules, data):
    """Empty columns, nearly full foundations, equal twin foundations, short stocks."""
    start = data.draw(small_positions(rules, 1, 20))
    rng = random.Random(data.draw(seeds))
    for board in playout(start, rules, rng, 20):
        assert_generator_matches(board, rules)


def test_generator_foundation_slot_conventions():
    """Two decks: a card goes home to the lowest slot of height r-1; a card comes back from
    the slot reference.returnable_slots names (the later of two equal slots)."""
    rules = Rules("milligan", foundation_return=True)
    heights = {"S": (4, 4), "H": (3, 3), "D": (13, 13), "C": (13, 13)}
    board = filled_board(rules, heights, ["5H", "4H", "KS 9S"])
    assert_generator_matches(board, rules)
    found = engine_move_list(board, rules)
    assert Move(TO_FOUNDATION, 1, 1, parse_card("4H")) in found
    assert Move(reference.FROM_FOUNDATION, 4, 0, parse_card("4S")) in found
    assert Move(reference.FROM_FOUNDATION, 0, 0, parse_card("4S")) not in found
    unequal = filled_board(rules, {"S": (4, 4), "H": (5, 3), "D": (13, 13), "C": (13, 13)}, ["5H", "4H"])
    assert_generator_matches(unequal, rules)
    assert Move(TO_FOUNDATION, 1, 5, parse_card("4H")) in engine_move_list(unequal, rules)


# --- 2. apply and undo ---------------------------------------------------------------------


@rules_sets
@settings(max_examples=40, **SETTINGS)
@given(data=st.data())
def test_apply_and_undo_agree_with_reference(rules, data):
    board = data.draw(st.one_of(dealt_positions(rules, max_moves=40), small_positions(rules, 1, 20)))
    rng = random.Random(data.draw(seeds))
    packed = pack(board, rules)
    start_state, start_keys = live_state(packed), packed.column_keys.copy()
    applied = []
    for _ in range(100):
        move = random_move(board, rules, rng, rng.choice((0.2, 0.6)))
        if move is None:
            break
        generated = engine_moves(packed)  # on a state the engine itself has been moving
        assert Counter(decode(m) for m in generated) == Counter(legal_moves(board, rules)), board.to_text()
        candidates = [m for m in generated if decode(m) == move]
        assert len(candidates) == 1, (move, board.to_text())
        engine_move = candidates[0]
        before_state, before_keys = live_state(packed), packed.column_keys.copy()
        p = packed
        done = moves.apply_move(p.state, p.params, p.zobrist, p.column_keys, engine_move)
        after = reference.apply_move(board, move, rules)
        assert unpack(packed) == after, (move, board.to_text())
        heights = raw_foundations(packed)
        assert heights == canonical_foundations(heights), "twin foundations out of falling order"
        turned = after.face_down_counts != board.face_down_counts
        assert bool(done & moves.TURNED) == turned
        assert (done & ~moves.TURNED) == engine_move
        # The incremental column keys are those computed afresh from the state. (Not
        # from pack(after): a shorter stock means other params, so another Zobrist table.)
        fresh = np.zeros_like(packed.column_keys)
        layout.init_column_keys(p.state, p.params, p.zobrist, fresh)
        assert np.array_equal(packed.column_keys, fresh)
        # Undo restores the position and its keys exactly; then make the move again.
        moves.undo_move(p.state, p.params, p.zobrist, p.column_keys, done)
        assert live_state(packed) == before_state
        assert np.array_equal(packed.column_keys, before_keys)
        assert unpack(packed) == board
        assert moves.apply_move(p.state, p.params, p.zobrist, p.column_keys, engine_move) == done
        applied.append(done)
        board = after
    for done in reversed(applied):
        moves.undo_move(packed.state, packed.params, packed.zobrist, packed.column_keys, done)
    assert live_state(packed) == start_state
    assert np.array_equal(packed.column_keys, start_keys)


def test_pack_unpack_round_trip():
    for rules in RULE_SETS:
        for board in walk(rules, 7, 7, 60):
            assert unpack(pack(board, rules)) == board


# --- 3. the position key -------------------------------------------------------------------


@rules_sets
@settings(max_examples=80, **SETTINGS)
@given(data=st.data())
def test_key_ignores_column_order(rules, data):
    board = data.draw(st.one_of(small_positions(rules, stock=False), dealt_positions(rules, max_moves=250)))
    if board.stock:  # column order matters while a stock is left; see the test below
        return
    order = data.draw(st.permutations(range(rules.column_count)))
    assert keys(pack(permuted(board, order), rules)) == keys(pack(board, rules))


@rules_sets
def test_keys_tell_positions_apart(rules):
    """Over a sample of positions, one key pair (and each key alone) belongs to one position."""
    owners: dict = {}
    firsts: dict = {}
    rng = random.Random(11)
    for game in range(25):
        for board in walk(rules, rng.randint(1, 10**6), game, 120):
            first, second = keys(pack(board, rules))
            assert owners.setdefault((first, second), identity(board)) == identity(board), board.to_text()
            assert firsts.setdefault(first, identity(board)) == identity(board), board.to_text()
    assert len(owners) > 1000


def test_key_keeps_column_order_while_stock_remains():
    """With a stock left, a deal puts its n-th card onto column n, so positions that differ in
    column order are different positions (see test_stock_column_order_decides_the_verdict)."""
    board = parse_board(STOCK_ORDER_POSITION, MILLIGAN)
    moved = permuted(board, (0, 1, 2, 7, 4, 5, 6, 3))
    assert keys(pack(moved, MILLIGAN)) != keys(pack(board, MILLIGAN))


# --- 4. verdicts against the exhaustive search ---------------------------------------------

# The exhaustive search is plain Python: positions past this many states are skipped.
MAX_STATES = {"yukon": 1500, "russian": 1500, "milligan": 600}


def verdict_positions(rules: Rules):
    """Small positions (some built mostly in sequence), plus positions unsolvable by
    construction, sized for the exhaustive search: two decks with eight columns (and a
    stock) make far more positions per card.
    With foundation return a complete suit's King comes back into any empty column and
    brings its suit along, so there the positions are smaller, without empty columns, and
    the dead ones keep every King buried."""
    two_decks = rules.variant == "milligan"
    lowest_rank = 11 if two_decks else 9
    if rules.foundation_return:
        return st.one_of(
            small_positions(rules, 8, 10 if two_decks else 12, empty_columns=False),
            built_positions(rules, 8, 10 if two_decks else 11),
            dead_positions(rules, max_cards=12, bury_kings=True, lowest_rank=lowest_rank),
        )
    return st.one_of(
        small_positions(rules, 8, 12 if two_decks else 20),
        built_positions(rules, 8, 12 if two_decks else 20),
        dead_positions(rules, max_cards=12 if two_decks else 16, lowest_rank=lowest_rank),
    )


@rules_sets
def test_verdicts_match_exhaustive_search(rules):
    seen = Counter()

    @settings(max_examples=70, phases=NO_SHRINK, **SETTINGS)
    @given(verdict_positions(rules))
    def check(board):
        try:
            expected, line, _states = exhaustive_search(board, rules, MAX_STATES[rules.variant])
        except TooBig:
            event("too big for the exhaustive search")
            return
        seen[expected] += 1
        for options in (moves.ALL_REDUCTIONS, 0):
            result = checked_solve(board, rules, options)
            assert result.status == expected, (
                f"{rules.label()} options={options}: solver {result.status}, exhaustive {expected}\n"
                + board.to_text()
            )
        # HOPELESS (see prune.py) never calls a position on a winning line lost.
        for move in line or ():
            assert not is_hopeless(board, rules), f"{rules.label()} winnable but hopeless:\n{board.to_text()}"
            board = reference.apply_move(board, move, rules)

    check()
    assert seen[SOLVED] > 0 and seen[UNSOLVABLE] > 0, seen


# --- 5. the reductions -----------------------------------------------------------------------

REDUCTION_LIMITS = Limits(max_nodes=100_000, time_limit=None)


@rules_sets
def test_each_reduction_keeps_verdicts(rules):
    """Each reduction alone, and all of them together, against none."""
    seen = Counter()

    @settings(max_examples=80, phases=NO_SHRINK, **SETTINGS)
    @given(verdict_positions(rules))
    def check(board):
        without = checked_solve(board, rules, 0, REDUCTION_LIMITS)
        if without.status == UNKNOWN:
            event("node limit")
            return
        seen[without.status] += 1
        for name, options in (*REDUCTIONS.items(), ("all", moves.ALL_REDUCTIONS)):
            with_it = checked_solve(board, rules, options, REDUCTION_LIMITS)
            if with_it.status == UNKNOWN:
                event("node limit")
                continue
            assert with_it.status == without.status, (
                f"{rules.label()}: {with_it.status} with {name}, {without.status} without\n" + board.to_text()
            )

    check()
    assert seen[SOLVED] > 0 and seen[UNSOLVABLE] > 0, seen


@rules_sets
@settings(max_examples=60, **SETTINGS)
@given(data=st.data())
def test_hopeless_fires_on_dead_positions(rules, data):
    """A card pinned above every copy of its foundation predecessor and of its parents."""
    board = data.draw(dead_positions(rules, max_cards=20, bury_kings=rules.foundation_return))
    assert is_hopeless(board, rules), board.to_text()
    assert checked_solve(board, rules, moves.HOPELESS).nodes == 0


@rules_sets
def test_moves_not_flagged_never_make_a_position_hopeless(rules):
    """``may_turn_hopeless`` lets the search skip the test after a move; its False must
    mean the position after the move is not hopeless (from one that was not). Watching the
    moved leader, which lets the test stop early, must not change its answer."""
    seen = Counter()

    @settings(max_examples=PLAYOUT_EXAMPLES, **SETTINGS)
    @given(number=deal_numbers, seed=seeds)
    def check(number, seed):
        for board in walk(rules, number, seed, PLAYOUT_LENGTH):
            packed = pack(board, rules)
            state, params, keys = packed.state, packed.params, (packed.zobrist, packed.column_keys)
            if prune.hopeless(state, params):
                continue
            for move in engine_moves(packed):
                applied = moves.apply_move(state, params, *keys, move)
                flagged = bool(prune.may_turn_hopeless(state, params, applied))
                turned = bool(prune.hopeless(state, params))
                assert flagged or not turned, f"{rules.label()} {decode(move)} from\n{board.to_text()}"
                watched = prune.watched_place(state, params, applied)
                assert prune.hopeless(state, params, watched) == turned, f"{rules.label()} {decode(move)}"
                seen[flagged, turned] += 1
                moves.undo_move(state, params, *keys, applied)

    check()
    # (random Milligan playouts keep so much stock that no move there turns one hopeless)
    assert seen[False, False] > 0 and (seen[True, True] > 0 or rules.decks == 2), seen


# QS, the lowest face-up card of column 6, needs KH exposed (KD lies beneath it), but QC lies
# face up on KH and can go only onto KD or, after JC, home: JC lies beneath QS too.
FACE_UP_BLOCKER = """\
KS QH
KC QD JS TD 9S 8H
TH 9C 8D
-
-
<KD> <JC> <7D> QS JD TS 9D
KH QC JH TC 9H 8S
Foundations: S-7 H-7 D-6 C-8
"""


def test_hopeless_follows_face_up_cards():
    """The blocker QC is face up on a face-up King, so only following face-up cards (not
    just those with nothing but face-down cards beneath) shows the position lost."""
    board = parse_board(FACE_UP_BLOCKER, YUKON)
    assert is_hopeless(board, YUKON)
    assert checked_solve(board, YUKON, moves.ALL_REDUCTIONS & ~moves.HOPELESS).status == UNSOLVABLE


# JC lies face down beneath its twin JS. JS must leave first, onto QD (QH is beneath JC,
# and spades cannot pass 9 before TS is free); then JC needs QD too, or QH beneath itself.
TWIN_BLOCKED = """\
<TS> <TC> <QH> <JC> JS
KD QS
KH QC
KS QD
KC
-
-
Foundations: S-9 H-J D-J C-9
"""
# The same, but QH is free: JS takes QD, JC takes QH.
TWIN_FREE = """\
<TS> <TC> <JC> JS
KD QS
KH QC
KS QD
KC QH
-
-
Foundations: S-9 H-J D-J C-9
"""

# QH is beneath JC again, but JS can go home once QD moves off JD and TS (JS may ride on QD
# first): then JC takes QD. (The twin's column comes last, so the test meets JS's landing on
# QD before it learns that JS can go home.)
TWIN_GOES_HOME = """\
<TS> <JD> QD
KD QS
KH QC
KS
KC
-
<TC> <QH> <JC> JS
Foundations: S-9 H-J D-T C-9
"""


@pytest.mark.parametrize(
    "text, lost",
    [(TWIN_BLOCKED, True), (TWIN_FREE, False), (TWIN_GOES_HOME, False)],
    ids=["blocked", "free", "goes-home"],
)
def test_a_face_down_card_beneath_its_twin_needs_both_parents(text, lost):
    """Only the twin rule shows TWIN_BLOCKED lost (every card there has a parent that can be
    exposed at some time); the exhaustive reference search confirms both verdicts."""
    board = parse_board(text, YUKON)
    assert is_hopeless(board, YUKON) == lost
    assert exhaustive_search(board, YUKON)[0] == (UNSOLVABLE if lost else SOLVED)


# Neither Jack must leave first here, but either order loses: the first takes QD, and QH
# is exposed only after 9D goes home, after 8D, which lies beneath JC, while 9D lies beneath
# JS (TS and TC, where 9D could land, lie beneath QH; TC also keeps JC from going home).
TWINS_EITHER_ORDER = """\
<TS> <TC> <QH> <9D> JS
<8D> JC
KS QD
KD QS JD
KH QC
KC
TD
Foundations: S-9 H-J D-7 C-9
"""


def test_twins_either_order_loses():
    """Only the case split on which twin leaves first shows this position lost: the plain
    test does not, the split does, and the exhaustive reference search agrees."""
    board = parse_board(TWINS_EITHER_ORDER, YUKON)
    packed = pack(board, YUKON)
    assert not is_hopeless(board, YUKON)
    assert prune.twins_hopeless(packed.state, packed.params)
    assert exhaustive_search(board, YUKON)[0] == UNSOLVABLE
    assert checked_solve(board, YUKON, limits=Limits(max_nodes=1, time_limit=None)).status == UNSOLVABLE


# Won: JS goes home at once, and JC takes QD. With JC assumed to leave second it needs JS
# home, which the test learns only after it first looked at JC (it looks at the columns
# last to first).
TWINS_LATE_HOME = """\
KS QD
<TC> <QH> <9D> JS
<8D> JC
KD QS JD
KH QC
KC
TD
Foundations: S-T H-J D-7 C-9
"""


def test_a_twin_assumed_second_may_wait_for_the_other_to_go_home():
    board = parse_board(TWINS_LATE_HOME, YUKON)
    packed = pack(board, YUKON)
    jack_of_clubs = 2 * int(packed.params[layout.CAPACITY]) + 1
    assert int(packed.state[jack_of_clubs]) == parse_card("JC")
    assert not prune.hopeless(packed.state, packed.params, prune.NOWHERE, jack_of_clubs)
    assert exhaustive_search(board, YUKON)[0] == SOLVED


def test_twins_split_keeps_won_positions():
    """The split never calls a position on a winning line lost (real deals, lines found
    without HOPELESS)."""
    checked = 0
    for number in range(1, 41):
        board = deal_board("yukon", number, "pysol")
        won = checked_solve(
            board, YUKON, moves.ALL_REDUCTIONS & ~moves.HOPELESS, Limits(max_nodes=300_000, time_limit=None)
        )
        if won.status != SOLVED:
            continue
        for _token, _move, after in replay_tokens(board, won.solution.split(), YUKON):
            packed = pack(board, YUKON)
            assert not prune.twins_hopeless(packed.state, packed.params), board.to_text()
            board = after
            checked += 1
    assert checked > 2_000, checked


def test_kpat_yukon_26_is_lost_at_the_root():
    """JC lies face down beneath JS, and QH beneath JC: the twin rule proves KPat's deal 26
    lost before any move (the search without it needed 147 M positions, measured once)."""
    board = deal_board("yukon", 26, "kpat")
    assert checked_solve(board, YUKON, limits=Limits(max_nodes=1, time_limit=None)).status == UNSOLVABLE


def test_no_position_on_a_winning_line_is_hopeless():
    """Real deals of every rule set, solved without HOPELESS: the test must not call any
    position of the line lost (off-suite, the same check passed on 285,000 positions)."""
    checked = 0
    for rules in RULE_SETS:
        for number in range(1, 9 if rules.variant == "milligan" else 31):
            board = deal_board(rules.variant, number, "pysol")
            limits = Limits(max_nodes=300_000, time_limit=None)
            won = checked_solve(board, rules, moves.ALL_REDUCTIONS & ~moves.HOPELESS, limits)
            if won.status != SOLVED:
                continue
            for _token, _move, after in replay_tokens(board, won.solution.split(), rules):
                assert not is_hopeless(board, rules), f"{rules.label()} deal {number}:\n{board.to_text()}"
                board = after
                checked += 1
    assert checked > 5_000, checked


def test_reductions_keep_verdicts_near_winning_lines():
    """Real positions, where an unsound reduction shows: a point on the winning line of a
    random PySolFC deal, then a few random moves (which may lose the game). Verdicts with
    every reduction and with none must agree. (With the parent-keeping guess of KEEP_BUILDS
    taken as a reduction, this finds a position it calls lost that is won.)"""
    rng = random.Random(1)
    limits = Limits(max_nodes=1_500_000, time_limit=None)
    seen = Counter()
    for index in range(300):
        rules = Rules("yukon", foundation_return=index % 3 == 2)
        board = deal_board("yukon", rng.randint(1, 31999), "pysol")
        won = solve_position(board, rules, Limits(max_nodes=2_000_000, time_limit=None))
        if won.status != SOLVED:
            continue
        line = list(replay_tokens(board, won.solution.split(), rules))
        position = line[rng.randint(0, len(line) - 1)][2]
        *_, position = playout(position, rules, rng, rng.choice((0, 1, 2, 3, 5, 8)), 0.3)
        reduced = checked_solve(position, rules, moves.ALL_REDUCTIONS, limits)
        plain = checked_solve(position, rules, 0, limits)
        if UNKNOWN in (reduced.status, plain.status):
            continue
        assert reduced.status == plain.status, f"{rules.label()}:\n{position.to_text()}"
        seen[reduced.status] += 1
    assert seen[SOLVED] > 100 and seen[UNSOLVABLE] > 0, seen


# A yukon position that needs its 2H as a landing card: the packet [AS 4H] must go onto
# it to uncover 5S, where the 4H then goes, freeing AS. Played home at once (as KPat
# plays 2s), the 2H leaves AS under 4H for good: 4H needs 3H (under 5S) or a black 5.
TWO_AS_LANDING_CARD = """\
<3H> <5S> AS 4H
2H
KH QH JH TH 9H 8H 7H 5H 6H
4S 3S 2S
KS QS JS TS 9S 8S 7S 6S
-
-
Foundations: S-0 H-A D-K C-K
"""


def test_safe_foundation_does_not_force_a_needed_two():
    board = parse_board(TWO_AS_LANDING_CARD, YUKON)
    two_home = Move(TO_FOUNDATION, 1, 1, parse_card("2H"))
    generated = engine_move_list(board, YUKON, moves.SAFE_FOUNDATION)
    assert two_home in generated and len(generated) > 1
    assert checked_solve(board, YUKON).status == SOLVED
    assert checked_solve(board, YUKON, 0).status == SOLVED
    after = reference.apply_move(board, two_home, YUKON)
    assert checked_solve(after, YUKON).status == UNSOLVABLE
    assert exhaustive_search(after, YUKON, 50_000)[0] == UNSOLVABLE


def test_safe_foundation_fires():
    # An Ace always goes up; so does 5D once both black 4s are home: nothing can land on it.
    ace = parse_board(ACE_EXPOSED, YUKON)
    assert engine_move_list(ace, YUKON, moves.SAFE_FOUNDATION) == [
        Move(TO_FOUNDATION, 1, 1, parse_card("AH"))
    ]
    assert len(engine_move_list(ace, YUKON, 0)) == 5
    five = parse_board(FIVE_EXPOSED, YUKON)
    assert engine_move_list(five, YUKON, moves.SAFE_FOUNDATION) == [
        Move(TO_FOUNDATION, 0, 2, parse_card("5D"))
    ]
    assert len(engine_move_list(five, YUKON, 0)) == 3
    for board in (ace, five):
        assert checked_solve(board, YUKON).status == SOLVED
        assert checked_solve(board, YUKON, 0).status == SOLVED
    # Not with foundation return (a lander could come back), nor while a stock is left.
    with_return = Rules("yukon", foundation_return=True)
    assert len(engine_move_list(five, with_return, moves.SAFE_FOUNDATION)) > 3
    stocked = parse_board("AS\nKS\n-\n-\n-\n-\n-\n-\n" + ALL_BUT_SPADES + "Stock: " + SPADES_2_TO_Q, MILLIGAN)
    assert len(engine_move_list(stocked, MILLIGAN, moves.SAFE_FOUNDATION)) == len(
        legal_moves(stocked, MILLIGAN)
    )


# A position where every move of a King is into an empty column, by each kind.
KINGS = """\
KS QH
<QS> KH
-
-
-
-
-
Foundations: S-J H-J D-K C-K
"""


def test_whole_column_to_empty_fires():
    board = parse_board(KINGS, YUKON)
    whole = [Move(reference.TABLEAU, 0, target, parse_card("KS"), 2) for target in range(2, 7)]
    reference_moves = legal_moves(board, YUKON)
    assert all(move in reference_moves for move in whole)
    assert all(move in engine_move_list(board, YUKON, 0) for move in whole)
    reduced = engine_move_list(board, YUKON, moves.WHOLE_COLUMN_TO_EMPTY)
    assert not any(move in reduced for move in whole)
    assert len(reduced) == len(reference_moves) - len(whole)
    # What it drops only swaps two columns: the key says it is the same position.
    for move in whole:
        assert keys(pack(reference.apply_move(board, move, YUKON), YUKON)) == keys(pack(board, YUKON))


def test_first_empty_only_fires():
    board = parse_board(KINGS, YUKON)
    king = [Move(reference.TABLEAU, 1, target, parse_card("KH")) for target in range(2, 7)]
    assert all(move in engine_move_list(board, YUKON, 0) for move in king)
    reduced = engine_move_list(board, YUKON, moves.FIRST_EMPTY_ONLY)
    assert [move for move in reduced if move.card == parse_card("KH")] == king[:1]
    assert [move for move in reduced if move.card == parse_card("KS")] == [
        Move(reference.TABLEAU, 0, 2, parse_card("KS"), 2)
    ]
    # The positions it drops differ from the one it keeps only in column order.
    after = {keys(pack(reference.apply_move(board, move, YUKON), YUKON)) for move in king}
    assert len(after) == 1
    both = engine_move_list(board, YUKON, moves.FIRST_EMPTY_ONLY | moves.WHOLE_COLUMN_TO_EMPTY)
    assert sorted(both, key=repr) == sorted([king[0], Move(TO_FOUNDATION, 0, 1, parse_card("QH"))], key=repr)


ACE_EXPOSED = """\
<QH> <JH> <TH> <9H> <8H> <7H> <6H> <4H> <3H> 2H
AH
<5H> KH
-
-
-
-
Foundations: S-K H-0 D-K C-K
"""

FIVE_EXPOSED = """\
<KD> <QD> <JD> <TD> <9D> <8D> <7D> <6D> 5D
<KS> <QS> <JS> <TS> <9S> <8S> <7S> <6S> 5S
<KC> <QC> <JC> <TC> <9C> <8C> <7C> <6C> 5C
-
-
-
-
Foundations: S-4 H-K D-4 C-4
"""

ALL_BUT_SPADES = "Foundations: S-K H-K D-K C-K S-0 H-K D-K C-K\n"
SPADES_2_TO_Q = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS\n"


# --- bugs found while writing these tests: regression cases ---------------------------------

# Milligan: the exposed QH of column 1 is "safe" (both black Jacks are home), but the hearts
# slots are J and T. Auto-moving it onto the J slot leaves the other QH on top of the JH
# the T slot needs, with nowhere to go. The win moves column 2's QH home first.
TWIN_SAFE_POSITION = """\
QH
<JH> QH
KH KH
-
-
-
-
-
Foundations: S-K S-K H-J H-T D-K D-K C-K C-K
"""


def test_safe_foundation_with_twin_copies():
    board = parse_board(TWIN_SAFE_POSITION, MILLIGAN)
    assert exhaustive_search(board, MILLIGAN)[0] == SOLVED
    assert checked_solve(board, MILLIGAN, 0).status == SOLVED
    assert checked_solve(board, MILLIGAN, moves.SAFE_FOUNDATION).status == SOLVED
    assert checked_solve(board, MILLIGAN).status == SOLVED


# Milligan with a stock: the win moves KS to column 4 before the first deal, so that 5S
# lands on it, and later moves [KS 5S] to column 1 so that 4S lands on 5S rather than QS.
# Positions that differ only in column order are different positions while a stock is
# left; a key (or an empty-column reduction) that treats them as one loses this win.
STOCK_ORDER_POSITION = """\
-
-
-
-
-
-
-
KS
Foundations: S-K H-K D-K C-K S-0 H-K D-K C-K
Stock: AS 2S 3S 5S 6S 7S 8S 9S 4S TS JS QS
"""


@pytest.mark.parametrize("options", [0, moves.ALL_REDUCTIONS], ids=["no_reductions", "all_reductions"])
def test_stock_column_order_decides_the_verdict(options):
    board = parse_board(STOCK_ORDER_POSITION, MILLIGAN)
    assert exhaustive_search(board, MILLIGAN)[0] == SOLVED
    assert checked_solve(board, MILLIGAN, options).status == SOLVED


def test_empty_column_reductions_wait_for_the_stock():
    """While a stock is left the King may go to any empty column, and whole."""
    board = parse_board(STOCK_ORDER_POSITION, MILLIGAN)
    reduced = engine_move_list(board, MILLIGAN, moves.WHOLE_COLUMN_TO_EMPTY | moves.FIRST_EMPTY_ONLY)
    assert Counter(reduced) == Counter(legal_moves(board, MILLIGAN))
    assert len(reduced) == 8


# --- 6. a Russian deal that is lost by design ------------------------------------------------

# 5H is the lowest face-up card of column 7, with 4H (its foundation predecessor) and 6H
# (the only card it could move onto) face down beneath it: it can never move, so hearts
# never get past 3H. Everything else plays home in a nearly forced line.
RUSSIAN_DEAD_DEAL = """\
AH
<4D> 3D 2D AD 3H 2H
<JD> <TD> 9D 8D 7D 6D 5D
<6S> <5S> <4S> 3S 2S AS KD QD
<3C> <2C> <KS> <QS> JS TS 9S 8S 7S
<KC> <QC> <JC> <TC> <9C> 8C 7C 6C 5C 4C
<4H> <6H> <7H> <8H> <9H> <TH> 5H JH QH KH AC
"""


def test_russian_deal_lost_by_design():
    board = parse_board(RUSSIAN_DEAD_DEAL, RUSSIAN)
    assert board.face_down_counts == tuple(range(7))
    assert [len(column) for column in board.columns] == [1, 6, 7, 8, 9, 10, 11]
    result = checked_solve(board, RUSSIAN)
    assert result.status == UNSOLVABLE
    assert result.nodes < 100
    # Without HOPELESS the forced foundation play runs into the dead end almost at once.
    result = checked_solve(board, RUSSIAN, moves.ALL_REDUCTIONS & ~moves.HOPELESS)
    assert result.status == UNSOLVABLE
    assert result.nodes < 1000


# --- 7. a deal KPat's solver gets wrong -------------------------------------------------------


def test_a_solve_does_not_depend_on_the_solves_before_it():
    """Searches reuse their thread's stack arrays: what one leaves behind must not matter."""
    first = deal_board("yukon", 4, "kpat")

    def outcome(board):
        result = checked_solve(board, YUKON)
        return result.status, result.nodes, result.solution

    alone = outcome(first)
    for number in (20, 1, 47):
        outcome(deal_board("yukon", number, "kpat"))
    assert outcome(first) == alone


def test_kpat_yukon_47_is_solved():
    """Won only by moving 7D off 8S, a card it builds on, onto 8C, so that 6S (below 8S) can
    later carry 8S onto the 7D. KEEP_BUILDS drops that move: tried as a reduction it
    called this deal lost; as the guess it is, it can only leave the deal unknown."""
    board = deal_board("yukon", 47, "kpat")
    assert checked_solve(board, YUKON).status == SOLVED
    guessing = checked_solve(board, YUKON, moves.ALL_REDUCTIONS | moves.KEEP_BUILDS)
    assert guessing.status == UNKNOWN


def test_kings_keep_packets_fires():
    # QS (with JH) lies on KH, the lowest face-up card of its column; KD is bare and free.
    board = filled_board(YUKON, {"S": [11], "H": [10], "D": [12]}, ["KH QS JH", "KD", "KS QH"])
    swap = Move(reference.TABLEAU, 0, 1, parse_card("QS"), 2)
    assert swap in engine_move_list(board, YUKON, 0)
    reduced = engine_move_list(board, YUKON, moves.KINGS_KEEP_PACKETS)
    assert swap not in reduced and len(reduced) == len(legal_moves(board, YUKON)) - 1
    # Kept once KH could go to its foundation, and with two decks.
    ready = filled_board(YUKON, {"S": [11], "H": [12], "D": [12]}, ["KH QS", "KD", "KS"])
    assert Move(reference.TABLEAU, 0, 1, parse_card("QS")) in engine_move_list(
        ready, YUKON, moves.KINGS_KEEP_PACKETS
    )
    two_decks = filled_board(
        MILLIGAN, {"S": [11, 13], "H": [10, 13], "D": [12, 13]}, ["KH QS JH", "KD", "KS QH"]
    )
    assert len(engine_move_list(two_decks, MILLIGAN, moves.KINGS_KEEP_PACKETS)) == len(
        legal_moves(two_decks, MILLIGAN)
    )


def test_keep_builds_drops_moves_off_parents_until_the_parent_can_go_home():
    # 7S rests on 8D, a card it builds on; its one other landing card is 8H.
    waiting = filled_board(YUKON, {"S": [6], "H": [7], "D": [5]}, ["8H", "8D 7S 6D"])
    swap = Move(reference.TABLEAU, 1, 0, parse_card("7S"), 2)
    assert swap in engine_move_list(waiting, YUKON, 0)
    guessed = engine_move_list(waiting, YUKON, moves.KEEP_BUILDS)
    assert swap not in guessed and len(guessed) == len(legal_moves(waiting, YUKON)) - 1
    # Once 8D could go to its foundation, the move that uncovers it is kept.
    ready = filled_board(YUKON, {"S": [6], "H": [7], "D": [7]}, ["8H", "8D 7S"])
    uncover = Move(reference.TABLEAU, 1, 0, parse_card("7S"))
    assert uncover in engine_move_list(ready, YUKON, moves.KEEP_BUILDS)


def test_kpat_yukon_65_is_proved_lost_quickly():
    """Lost: the search without HOPELESS needs 72.6 M positions to prove it (measured once);
    following face-up blockers proves it in under a million."""
    board = deal_board("yukon", 65, "kpat")
    result = checked_solve(board, YUKON, limits=Limits(max_nodes=2_000_000, time_limit=None))
    assert result.status == UNSOLVABLE


def test_kpat_yukon_172_is_solved():
    """KPat's solver calls it lost because it plays 2s home automatically."""
    board = deal_board("yukon", 172, "kpat")
    result = checked_solve(board, YUKON, limits=Limits(max_nodes=20_000_000, time_limit=None))
    assert result.status == SOLVED


def test_the_table_grows_only_while_there_is_time_to_rehash():
    """Doubling a big table takes a while (0.17 s for 4 M slots), so near the time limit the
    table fills up instead, and the limit is kept. (Budgets are set here, nothing is timed.)"""
    packed = pack(deal_board("yukon", 1, "pysol"), YUKON)
    for limits, grows in ((Limits(time_limit=None), True), (Limits(time_limit=0.0), False)):
        searched = Search(copy_packed(packed), search.DFS, moves.ALL_REDUCTIONS, 0, 1 << 30)
        slots = searched.table[0].shape[0]
        searched.grow(Budget(limits))
        assert searched.table[0].shape[0] == (2 * slots if grows else slots)
        assert (searched.control[search.GROW_AT] == np.iinfo(np.int64).max) != grows


# --- --minimal: IDA* lines against breadth-first search ---------------------------------------


@pytest.mark.parametrize("rules", [r for r in RULE_SETS if r.variant != "milligan"], ids=lambda r: r.label())
def test_minimal_lines_are_shortest(rules):
    """A line reported proven minimal is exactly as long as the shortest win found by a
    breadth-first reference search; any solved line is at least that long."""
    proven = Counter()

    @settings(max_examples=25, phases=NO_SHRINK, **SETTINGS)
    @given(small_positions(rules, 6, 9))
    def check(board):
        try:
            shortest = shortest_win_length(board, rules, max_states=5_000)
        except TooBig:
            return
        result = checked_solve(
            board, rules, limits=Limits(max_nodes=2_000_000, time_limit=None, minimal=True)
        )
        if shortest is None:
            assert result.status == UNSOLVABLE
            return
        assert result.status == SOLVED
        assert result.solution_length >= shortest
        if result.proven_minimal:
            proven[True] += 1
            assert result.solution_length == shortest

    check()
    assert proven[True] > 0
