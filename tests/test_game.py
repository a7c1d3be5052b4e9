"""The game API (``solver.Game``, ``solver.Move``): legal moves as the reference engine has
them, push and pop that round-trip, won and lost, the player's view, and boards with
unknown cards played with the cards they turn up."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import RULE_SETS, deal_numbers

import solver
from solver import Game, Move
from solver.game.cards import card_text
from solver.game.notation import move_token
from solver.game.numbering import deal_board
from solver.game.reference import apply_move, legal_moves

RUSSIAN_LOST = 1  # proved unsolvable before any move (tests/test_api.py)


# --- moves -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "source", "target", "card", "size"),
    [
        ("3>7:TS", "tableau", 3, 7, "TS", None),
        ("3>7:10s/5", "tableau", 3, 7, "TS", 5),
        ("3>F:AH", "to_foundation", 3, None, "AH", None),
        ("F>2:QC", "from_foundation", None, 2, "QC", None),
        ("s", "stock", None, None, None, None),
    ],
)
def test_a_move_reads_and_writes_the_notation(text, kind, source, target, card, size):
    move = Move.parse(text)
    assert (move.kind, move.source, move.target, move.card, move.size) == (kind, source, target, card, size)
    assert Move.parse(str(move)) == move
    assert str(move) == text.upper().replace("10", "T")
    assert move.to_json()["token"] == str(move)


@pytest.mark.parametrize("text", ["", "3>7", "3-7:TS", "3>7:ZZ", "F>F:AH", "S S"])
def test_a_move_that_is_no_token_is_refused(text):
    with pytest.raises(solver.YukonError, match="unreadable move|unknown card"):
        Move.parse(text)
    with pytest.raises(solver.ArgumentError, match="^move must be a token"):
        Move.parse(7)  # type: ignore[arg-type]


# --- playing ---------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULE_SETS), number=deal_numbers, seed=st.integers(0, 2**32 - 1))
def test_legal_moves_are_the_engines_and_push_pop_round_trip(rules, number, seed):
    game = Game.deal(number, rules)
    rng = random.Random(seed)
    boards = [game.board]
    for _ in range(rng.randint(1, 40)):
        engine = {move_token(game.board, move) for move in legal_moves(game.board, rules)}
        offered = game.legal_moves()
        assert sorted(map(str, offered)) == sorted(engine) and len(offered) == len(engine)
        assert game.is_lost() == (not offered and not game.is_won())
        if not offered:
            break
        move = rng.choice(offered)
        done = game.push(move)
        assert done.token == str(move) and game.peek() == move
        before = boards[-1]
        engine_move = next(m for m in legal_moves(before, rules) if move_token(before, m) == str(move))
        assert game.board == apply_move(before, engine_move, rules)
        boards.append(game.board)
    played = game.move_stack
    assert solver.replay(game.opening, game.line(), rules).final == game.board
    while boards[1:]:
        boards.pop()
        assert game.pop() == played[len(boards) - 1]
        assert game.board == boards[-1]
    assert game.move_stack == () and game.board == game.opening


def test_an_illegal_move_is_refused_and_leaves_the_game_as_it_was():
    game = Game.deal(12)
    game.push("2>F:AC")
    with pytest.raises(solver.IllegalMove, match="^illegal move 2>F:AC: ") as caught:
        game.push("2>F:AC")
    assert isinstance(caught.value, solver.YukonError)
    assert game.line() == "2>F:AC" and not game.is_legal("2>F:AC") and game.is_legal("2>1:4H")
    game.pop()
    with pytest.raises(solver.YukonError, match="no move to take back"):
        game.pop()


def test_a_won_game_and_a_lost_one():
    outcome = solver.solve_deal(33, "russian")
    game = Game.deal(33, "russian")
    for token in outcome.solution.split():
        assert not game.is_over()
        game.push(token)
    assert game.is_won() and not game.is_lost() and game.legal_moves() == []
    lost = Game(solver.read_board(LOST_BOARD), "yukon")
    assert lost.is_lost() and lost.is_over() and not lost.is_won()


# Every column taken, a King or a Jack exposed, no Queen or Ten face up: nothing moves.
LOST_BOARD = """<TS> <QH> KS
<TH> <QS> KH
<TD> <QC> KD
<TC> <QD> KC
JS
JH
<JD> JC
Foundations: S-9 H-9 D-9 C-9
"""


def test_a_game_from_a_deal_takes_names_text_and_numbering():
    assert Game.deal("#12").board == solver.deal(12)
    assert Game.deal("ms40000", "russian").board == deal_board("russian", 40000, "ms")
    assert Game.deal(5, solver.Rules("milligan")).rules == solver.Rules("milligan")
    assert Game.deal(5, "lexington-harp").board == solver.deal(5, "milligan")
    assert Game.deal(7, numbering="kpat").board == deal_board("yukon", 7, "kpat")


# --- what the player sees --------------------------------------------------------------------


def test_the_view_holds_no_hidden_card_and_a_game_from_it_has_the_same_moves():
    game = Game.deal(12)
    view = game.view()
    assert view.hidden_count == 21 and isinstance(view, solver.View)
    seen = Game(view)
    assert seen.board.unknown_count == 21 and seen.rules == game.rules
    assert seen.legal_moves() == game.legal_moves()
    assert solver.read_board(seen.board.to_text(), unknown_cards=True) == seen.board
    assert solver.read_board(seen.board.to_json(), "yukon", unknown_cards=True) == seen.board
    with pytest.raises(solver.YukonError, match="hidden cards unknown"):
        solver.read_board(seen.board.to_text())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULE_SETS), number=deal_numbers, seed=st.integers(0, 2**32 - 1))
def test_a_game_with_unknown_cards_plays_as_the_deal_when_told_the_cards_turned(rules, number, seed):
    """Played from the view alone, revealing each card as the true deal turns it, the game
    goes through the same views as the game that knows every card."""
    known = Game.deal(number, rules)
    seen = Game(known.view())
    rng = random.Random(seed)
    for _ in range(rng.randint(1, 30)):
        if not known.legal_moves():
            break
        move = rng.choice(known.legal_moves())
        assert seen.is_legal(move)
        before = known.board
        done = known.push(move)
        shown = turned_cards(before, known.board)
        if shown:
            with pytest.raises(solver.ArgumentError, match="^reveal: the move turns up"):
                seen.push(move)
        assert seen.push(move, reveal=shown or None) == done
        assert seen.view() == known.view()


def turned_cards(before, after) -> list[str]:
    """The cards a move from ``before`` to ``after`` (every card known) shows that were hidden:
    the cards dealt from the stock, or a face-down card turned up."""
    if len(after.stock) < len(before.stock):
        return [card_text(card) for card in before.stock[: len(before.stock) - len(after.stock)]]
    return [
        card_text(after.columns[column][down])
        for column, down in enumerate(after.face_down_counts)
        if down < before.face_down_counts[column]
    ]


def test_a_revealed_card_must_be_one_not_yet_seen():
    known = Game.deal(12)
    seen = Game(known.view())
    with pytest.raises(solver.ArgumentError, match="turns up no unknown card; 1 given"):
        seen.push("2>F:AC", reveal="KS")
    rng = random.Random(0)
    while True:  # play on until a move turns a card
        move = rng.choice(known.legal_moves())
        before = known.board
        known.push(move)
        shown = turned_cards(before, known.board)
        if shown:
            break
        seen.push(move)
    exposed = card_text(seen.board.columns[0][-1])  # face up: seen already
    with pytest.raises(solver.ArgumentError, match="not all among the cards not seen"):
        seen.push(move, reveal=exposed)
    with pytest.raises(solver.ArgumentError, match="1 unknown card"):
        seen.push(move, reveal=[*shown, *shown])
    assert seen.board.unknown_count == 21 and seen.push(move, reveal=shown).turned_up == shown[0]
