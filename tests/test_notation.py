"""Move tokens: every legal move's token reads back as the same move; the fixed formats;
``/SIZE`` where two face-up copies of a card share a column; errors."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import PLAYOUT_SETTINGS, drawn_playout

from solver.errors import YukonError
from solver.game.board import Board, parse_board
from solver.game.cards import card_text, full_deck, parse_card
from solver.game.notation import (
    final_position,
    move_token,
    parse_token,
    replay_tokens,
    replayed_line,
    solution_text,
)
from solver.game.numbering import deal_board
from solver.game.reference import (
    FROM_FOUNDATION,
    STOCK_DEAL,
    TABLEAU,
    TO_FOUNDATION,
    IllegalMove,
    Move,
    apply_move,
    check_move,
    legal_moves,
)
from solver.game.rules import VARIANTS, Rules

YUKON = Rules("yukon")
MILLIGAN = Rules("milligan")
RULE_SETS = tuple(Rules(variant, back) for variant in VARIANTS for back in (False, True))
TOKEN_SHAPES = {
    TABLEAU: r"^[1-8]>[1-8]:[A2-9TJQK][SHDC](/\d+)?$",
    TO_FOUNDATION: r"^[1-8]>F:[A2-9TJQK][SHDC]$",
    FROM_FOUNDATION: r"^F>[1-8]:[A2-9TJQK][SHDC]$",
    STOCK_DEAL: r"^S$",
}


def c(text: str) -> int:
    return parse_card(text)


def assert_tokens_round_trip(board: Board, rules: Rules) -> None:
    for move in legal_moves(board, rules):
        token = move_token(board, move)
        assert re.match(TOKEN_SHAPES[move.kind], token), token
        assert parse_token(token, board) == move, token
        assert parse_token(token.lower(), board) == move, token


def milligan_board(columns: list[str], foundations: str = "") -> Board:
    """A full milligan board: the given columns, every other card in the stock."""
    rules = MILLIGAN
    text = "\n".join(columns) + "\n" + (f"Foundations: {foundations}\n" if foundations else "")
    partial = parse_board_loose(columns)
    rest = list(full_deck(rules.decks))
    for cards in partial:
        for card in cards:
            rest.remove(card)
    for word in foundations.split():
        suit, _, rank = word.partition("-")
        for r in range("0A23456789TJQK".index(rank)):
            rest.remove(c("A23456789TJQK"[r] + suit))
    text += "Stock: " + " ".join(card_text(card) for card in rest) + "\n"
    return parse_board(text, rules)


def parse_board_loose(columns: list[str]) -> list[list[int]]:
    return [[c(word.strip("<>")) for word in line.split()] for line in columns if line != "-"]


# --- round trips along playouts --------------------------------------------------------------


@PLAYOUT_SETTINGS
@given(rules=st.sampled_from(RULE_SETS), number=st.integers(1, 10**20), data=st.data())
def test_every_legal_move_token_reads_back_along_playouts(rules, number, data):
    for board in drawn_playout(deal_board(rules.variant, number), rules, data):
        assert_tokens_round_trip(board, rules)


def test_returns_read_back_in_milligan_with_equal_and_unequal_foundations():
    rules = Rules("milligan", foundation_return=True)
    board = milligan_board(
        ["-", "KC", "KD", "5C", "8C", "-", "QC", "4C"],
        foundations="S-K S-9 H-Q H-J D-3 D-3 C-2",
    )
    returns = [m for m in legal_moves(board, rules) if m.kind == FROM_FOUNDATION]
    # Two equal diamond foundations offer one 3D; unequal hearts offer QH and JH.
    assert sorted(move_token(board, m) for m in returns) == ["F>1:KS", "F>2:QH", "F>6:KS", "F>7:JH", "F>8:3D"]
    assert_tokens_round_trip(board, rules)
    after = apply_move(board, parse_token("F>8:3D", board), rules)
    assert after.foundations[2::4] == (3, 2)
    after = apply_move(after, parse_token("F>7:JH", after), rules)
    assert after.foundations[1::4] == (12, 10)


# --- /SIZE ---------------------------------------------------------------------------------


def twin_board() -> Board:
    # Column 1 holds two face-up 7H (packets of 4 and of 2); 8S and 8C can take either.
    return milligan_board(["<9C> 7H 6S 7H 5C", "8S", "8C", "<7D> 9S 7D 3S", "4H", "-", "QD", "JH"])


def test_two_face_up_copies_in_one_column_need_the_size():
    board = twin_board()
    tokens = sorted(move_token(board, m) for m in legal_moves(board, MILLIGAN) if m.card == c("7H"))
    assert tokens == ["1>2:7H/2", "1>2:7H/4", "1>3:7H/2", "1>3:7H/4"]
    assert_tokens_round_trip(board, MILLIGAN)
    assert parse_token("1>2:7H/4", board) == Move(TABLEAU, 0, 1, c("7H"), 4)
    assert parse_token("1>2:7H/2", board) == Move(TABLEAU, 0, 1, c("7H"), 2)
    after = apply_move(board, parse_token("1>2:7H/2", board), MILLIGAN)
    assert after.columns[0] == (c("9C"), c("7H"), c("6S"))
    assert after.columns[1] == (c("8S"), c("7H"), c("5C"))


def test_a_face_down_copy_does_not_count():
    board = twin_board()
    # Column 4 is <7D> 9S 7D 3S: only one 7D there is face up, so no size is needed.
    tokens = sorted(move_token(board, m) for m in legal_moves(board, MILLIGAN) if m.card == c("7D"))
    assert tokens == ["4>2:7D", "4>3:7D"]
    assert parse_token("4>2:7D", board) == Move(TABLEAU, 3, 1, c("7D"), 2)


def test_ambiguous_or_wrong_size_is_refused():
    board = twin_board()
    with pytest.raises(IllegalMove, match=r"two face-up 7H in column 1: add /SIZE"):
        parse_token("1>2:7H", board)
    with pytest.raises(IllegalMove, match="no face-up 7H leads a packet of 3 in column 1"):
        parse_token("1>2:7H/3", board)
    # A size that is right is accepted even where it is not needed.
    assert parse_token("4>2:7D/2", board) == Move(TABLEAU, 3, 1, c("7D"), 2)
    with pytest.raises(IllegalMove, match="no face-up 7D leads a packet of 4 in column 4"):
        parse_token("4>2:7D/4", board)


# --- formats -------------------------------------------------------------------------------


def test_fixed_formats():
    board = deal_board("yukon", 12)
    assert move_token(board, Move(TABLEAU, 1, 0, c("4H"), 2)) == "2>1:4H"
    assert move_token(board, Move(TO_FOUNDATION, 5, 1, c("AH"))) == "6>F:AH"
    assert move_token(board, Move(FROM_FOUNDATION, 1, 2, c("QC"))) == "F>3:QC"
    assert move_token(board, Move(STOCK_DEAL, -1, -1, -1, 8)) == "S"


def test_tokens_are_case_insensitive_and_accept_10():
    board = deal_board("yukon", 12)
    move = Move(TABLEAU, 6, 0, c("4S"), 1)
    assert parse_token("7>1:4S", board) == move
    assert parse_token("7>1:4s", board) == move
    assert parse_token("7>2:10S/2", board) == Move(TABLEAU, 6, 1, c("TS"), 2)
    assert parse_token("5>f:ah", board) == Move(TO_FOUNDATION, 4, 1, c("AH"))
    assert parse_token("s", board).kind == STOCK_DEAL


@pytest.mark.parametrize(
    "token", ["3-7:TS", "3>7", "3>7:", "F>F:AH", "3>7:TS/", "SS", "", "3>7:TS extra", "x>1:AH"]
)
def test_unreadable_tokens(token):
    with pytest.raises(YukonError, match="unreadable move"):
        parse_token(token, deal_board("yukon", 12))


def test_tokens_naming_what_is_not_there():
    board = deal_board("yukon", 12)
    with pytest.raises(IllegalMove, match="there is no column 8"):
        parse_token("8>1:AH", board)
    with pytest.raises(IllegalMove, match="there is no column 0"):
        parse_token("0>1:AH", board)
    with pytest.raises(IllegalMove, match="there is no column 9"):
        parse_token("F>9:AH", board)
    with pytest.raises(IllegalMove, match="7D is not face up in column 2"):
        parse_token("2>1:7D", board)
    with pytest.raises(IllegalMove, match="AH is not on top of a foundation"):
        parse_token("F>1:AH", board)
    with pytest.raises(YukonError, match="unknown card 'ZZ'"):
        parse_token("1>2:ZZ", board)


def test_parsed_foundation_and_stock_moves_are_checked_by_the_rules():
    board = deal_board("yukon", 12)
    # 4S is exposed but no foundation takes it; AC is not exposed.
    with pytest.raises(IllegalMove, match="no foundation takes 4S yet"):
        check_move(board, parse_token("7>F:4S", board), YUKON)
    with pytest.raises(IllegalMove, match="only a column's exposed card goes to a foundation, not AH"):
        check_move(board, parse_token("5>F:AH", board), YUKON)
    with pytest.raises(IllegalMove, match="the stock is empty"):
        check_move(board, parse_token("S", board), YUKON)


# --- lines ---------------------------------------------------------------------------------


def test_solution_text_and_replay_tokens_agree():
    rules = YUKON
    board = deal_board("yukon", 12)
    line = []
    position = board
    for _ in range(25):
        moves = legal_moves(position, rules)
        move = moves[len(line) * 7 % len(moves)]
        line.append(move)
        position = apply_move(position, move, rules)
    text = solution_text(board, line, rules)
    tokens = text.split()
    assert len(tokens) == len(line)
    replayed = list(replay_tokens(board, tokens, rules))
    assert [move for _token, move, _after in replayed] == line
    assert replayed[-1][2] == position
    assert final_position(board, tokens, rules) == position
    assert final_position(board, [], rules) == board


def test_a_line_replayed_as_it_is_written_ends_where_its_tokens_do():
    """``replayed_line`` writes a line and replays its tokens in one pass: the same text and
    final position as writing it and replaying the text; an illegal move of the line is named
    by its number and token."""
    board = deal_board("yukon", 12)
    line, position = [], board
    for _ in range(30):
        moves = legal_moves(position, YUKON)
        line.append(moves[len(line) * 5 % len(moves)])
        position = apply_move(position, line[-1], YUKON)
    text, final = replayed_line(board, line, YUKON)
    assert text == solution_text(board, line, YUKON)
    assert final == final_position(board, text.split(), YUKON) == position
    wrong = line[:3] + [Move(TABLEAU, 3, 0, parse_card("8C"), 1)]
    with pytest.raises(IllegalMove, match=r"^move 4 4>1:8C"):
        replayed_line(board, wrong, YUKON)


def test_replay_tokens_names_move_number_token_and_rule():
    board = deal_board("yukon", 12)
    with pytest.raises(IllegalMove, match=r"^move 2 4>1:8C: 8C does not build on AC \(one rank lower"):
        list(replay_tokens(board, ["2>1:4H", "4>1:8C"], YUKON))
    with pytest.raises(IllegalMove, match=r"^move 1 9>1:4H: there is no column 9"):
        list(replay_tokens(board, ["9>1:4H"], YUKON))


def test_unreadable_token_in_a_line_names_its_move_number():
    board = deal_board("yukon", 12)
    with pytest.raises((IllegalMove, YukonError), match=r"move 2\b"):
        list(replay_tokens(board, ["2>1:4H", "foo"], YUKON))
