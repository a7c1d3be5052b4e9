"""engine/moves.py's reductions keep verdicts (and the KEEP_BUILDS guess only drops wins
it is known to drop); each one fires where it should."""

import random
from collections import Counter

import pytest
from engine_helpers import (
    MILLIGAN,
    NO_SHRINK,
    REDUCTIONS,
    SETTINGS,
    STOCK_ORDER_POSITION,
    YUKON,
    checked_solve,
    engine_move_list,
    filled_board,
    keys,
    rules_sets,
    verdict_positions,
)
from exhaustive import SOLVED, UNSOLVABLE, exhaustive_search
from hypothesis import event, given, settings
from pinned import pinned_deal
from strategies import playout

from solver.engine import moves
from solver.game import reference
from solver.game.board import parse_board
from solver.game.cards import parse_card
from solver.game.notation import replay_tokens
from solver.game.numbering import deal_board
from solver.game.reference import TO_FOUNDATION, Move, legal_moves
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.result import UNKNOWN
from solver.search.packing import pack
from solver.search.solve import solve_position

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


def test_reductions_keep_verdicts_near_winning_lines():
    """Real positions, where an unsound reduction shows: a point on the winning line of a
    random PySolFC deal, then a few random moves (which may lose the game). Verdicts with
    every reduction and with none must agree. (With the parent-keeping guess of KEEP_BUILDS
    taken as a reduction, this finds a position it calls lost that is won.)

    The budgets only cut short the searches whose deal or position is then left out: with
    budgets of 2,000,000 and 1,500,000 positions (measured at 39cf49e), every deal won took at
    most 119,973 and every position decided at most 149,341, so these are the same 261
    comparisons (253 won, 8 lost)."""
    rng = random.Random(1)
    limits = Limits(max_nodes=300_000, time_limit=None)
    seen = Counter()
    for index in range(300):
        rules = Rules("yukon", foundation_return=index % 3 == 2)
        board = deal_board("yukon", rng.randint(1, 31999), "pysol")
        won = solve_position(board, rules, limits)
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


def test_kpat_yukon_47_is_solved():
    """Won only by moving 7D off 8S, a card it builds on, onto 8C, so that 6S (below 8S) can
    later carry 8S onto the 7D. KEEP_BUILDS drops that move: tried as a reduction it
    called this deal lost; as the guess it is, it can only leave the deal unknown."""
    pinned = pinned_deal("yukon", "kpat", 47)
    board = pinned.board()
    assert checked_solve(board, YUKON).status == pinned.verdict == SOLVED
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
