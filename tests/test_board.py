"""The Board's text and JSON forms: round trips along playouts, and every parse error."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import PLAYOUT_SETTINGS, drawn_playout

from solver.errors import YukonError
from solver.game.board import Board, board_from_json, check_board, parse_board, read_board
from solver.game.cards import card_text, full_deck, make_card, parse_card
from solver.game.numbering import deal_board
from solver.game.reference import STOCK_DEAL, Move, apply_move
from solver.game.rules import VARIANTS, Rules

YUKON = Rules("yukon")
RUSSIAN = Rules("russian")
MILLIGAN = Rules("milligan")
RULE_SETS = tuple(Rules(variant, back) for variant in VARIANTS for back in (False, True))

DEAL_12 = deal_board("yukon", 12).to_text()


def with_line(text: str, number: int, line: str) -> str:
    """``text`` with its line ``number`` (1-based) replaced."""
    lines = text.splitlines()
    lines[number - 1] = line
    return "\n".join(lines) + "\n"


def spread(rules: Rules, heights: dict[str, list[int]], columns: int | None = None) -> str:
    """A full board's text: the given foundation heights, every other card face up in the
    columns, round robin (unordered, which the text form allows)."""
    on_foundations = [
        make_card(rank, "SHDC".index(suit))
        for suit, hs in heights.items()
        for h in hs
        for rank in range(1, h + 1)
    ]
    rest = list(full_deck(rules.decks))
    for card in on_foundations:
        rest.remove(card)
    count = rules.column_count if columns is None else columns
    piles = [rest[i::count] for i in range(count)]
    lines = [" ".join(card_text(card) for card in pile) or "-" for pile in piles]
    entries = [f"{suit}-{'0A23456789TJQK'[h]}" for suit, hs in heights.items() for h in hs]
    if entries:
        lines.append("Foundations: " + " ".join(entries))
    return "\n".join(lines) + "\n"


# --- round trips ---------------------------------------------------------------------------


def assert_round_trips(board: Board, rules: Rules) -> None:
    text = board.to_text()
    again = parse_board(text, rules)
    assert again == board
    assert again.to_text() == text
    data = board.to_json()
    assert board_from_json(data, rules) == board
    assert board_from_json(json.loads(json.dumps(data)), rules) == board
    assert read_board(json.dumps(data), rules) == board
    assert read_board(text, rules) == board


OPENINGS = [(variant, "pysol") for variant in VARIANTS] + [("yukon", "kpat"), ("russian", "kpat")]


@pytest.mark.parametrize(("variant", "numbering"), OPENINGS)
def test_openings_round_trip(variant, numbering):
    for number in (1, 12, 31999, 32000, 10**9):
        assert_round_trips(deal_board(variant, number, numbering), Rules(variant))


@PLAYOUT_SETTINGS
@given(rules=st.sampled_from(RULE_SETS), number=st.integers(1, 10**20), data=st.data())
def test_positions_along_playouts_round_trip(rules, number, data):
    for board in drawn_playout(deal_board(rules.variant, number), rules, data):
        assert_round_trips(board, rules)


def test_won_and_stockless_positions_round_trip():
    won = parse_board("-\n" * 7 + "Foundations: S-K H-K D-K C-K\n", YUKON)
    assert won.foundations == (13,) * 4
    assert_round_trips(won, YUKON)
    board = deal_board("milligan", 5)
    while board.stock:
        board = apply_move(board, Move(STOCK_DEAL, -1, -1, -1, min(8, len(board.stock))), MILLIGAN)
    assert "Stock:" not in board.to_text()
    assert_round_trips(board, MILLIGAN)


def test_text_form_layout():
    text = DEAL_12
    lines = text.splitlines()
    assert len(lines) == 8
    assert lines[1].startswith("<") and ">" in lines[1]
    assert lines[-1] == "Foundations: S-0 H-0 D-0 C-0"
    assert text.endswith("\n")
    milligan = deal_board("milligan", 3).to_text().splitlines()
    assert milligan[-2] == "Foundations: S-0 H-0 D-0 C-0 S-0 H-0 D-0 C-0"
    assert milligan[-1].startswith("Stock: ") and len(milligan[-1].split()) == 69


def test_json_form_layout():
    data = deal_board("yukon", 12).to_json()
    assert list(data) == ["format", "format_version", "columns", "foundations", "stock"]
    assert len(data["columns"]) == 7
    assert data["columns"][1]["face_down"] == ["7D"]
    assert data["columns"][0] == {"face_down": [], "face_up": ["5S"]}
    assert data["foundations"] == {"S": [0], "H": [0], "D": [0], "C": [0]}
    assert data["stock"] == []


# --- what parses ---------------------------------------------------------------------------


def test_ten_may_be_written_10():
    ten = DEAL_12.replace("TS", "10S").replace("TC", "10c")
    assert "10S" in ten
    assert parse_board(ten, YUKON) == parse_board(DEAL_12, YUKON)
    assert parse_card("10S") == parse_card("TS") == parse_card("ts")


def test_lower_case_comments_and_blank_lines_are_accepted():
    text = "# deal 12\n\n" + DEAL_12.lower().replace("foundations", "Foundations") + "\n# end\n"
    assert parse_board(text, YUKON) == parse_board(DEAL_12, YUKON)


def test_foundations_line_gives_the_heights():
    text = spread(YUKON, {"S": [5], "H": [13], "D": [0], "C": [1]})
    assert text.splitlines()[-1] == "Foundations: S-5 H-K D-0 C-A"
    board = parse_board(text, YUKON)
    assert board.foundations == (5, 13, 0, 1)
    assert parse_board(text.replace("Foundations:", "Founds:"), YUKON) == board
    # Order of the entries does not matter; a missing suit is empty.
    reordered = with_line(text, 8, "Foundations: C-A H-K S-5")
    assert parse_board(reordered, YUKON).foundations == (5, 13, 0, 1)
    ten = parse_board(spread(YUKON, {"D": [10]}).replace("D-T", "D-10"), YUKON)
    assert ten.foundations == (0, 0, 10, 0)


def test_milligan_foundations_two_per_suit_kept_higher_first():
    text = spread(MILLIGAN, {"S": [2, 5], "H": [13, 13]})
    assert "Foundations: S-2 S-5 H-K H-K" in text
    board = parse_board(text, MILLIGAN)
    assert board.foundations == (5, 13, 0, 0, 2, 13, 0, 0)
    assert board.to_text().splitlines()[-1] == "Foundations: S-5 H-K D-0 C-0 S-2 H-K D-0 C-0"
    assert board.to_json()["foundations"] == {"S": [5, 2], "H": [13, 13], "D": [0, 0], "C": [0, 0]}


def test_equal_positions_are_equal_boards_whatever_the_slot_order():
    a = Board(((),) * 8, (0,) * 8, (5, 0, 0, 0, 2, 0, 0, 0))
    b = Board(((),) * 8, (0,) * 8, (2, 0, 0, 0, 5, 0, 0, 0))
    assert a == b
    assert hash(a) == hash(b)


def test_stock_line_is_in_dealing_order():
    board = deal_board("milligan", 7)
    text = board.to_text()
    stock_words = text.splitlines()[-1].split()[1:]
    parsed = parse_board(text, MILLIGAN)
    assert [card_text(card) for card in parsed.stock] == stock_words
    # The first card listed is dealt first, onto column 1; the eighth onto column 8.
    after = apply_move(parsed, Move(STOCK_DEAL, -1, -1, -1, 8), MILLIGAN)
    assert [card_text(cards[-1]) for cards in after.columns] == stock_words[:8]
    assert [card_text(card) for card in after.stock] == stock_words[8:]
    # Reversing the stock line changes the position.
    reversed_text = with_line(text, 10, "Stock: " + " ".join(reversed(stock_words)))
    assert parse_board(reversed_text, MILLIGAN).stock == parsed.stock[::-1]
    assert parse_board(with_line(text, 10, "Talon: " + " ".join(stock_words)), MILLIGAN) == parsed


def test_empty_columns_are_a_dash():
    text = spread(YUKON, {}, columns=6) + "-\n"
    board = parse_board(text, YUKON)
    assert board.columns[6] == ()
    assert board.to_text().splitlines()[6] == "-"


# --- parse errors --------------------------------------------------------------------------


def parse_error(text: str, rules: Rules = YUKON) -> str:
    with pytest.raises(YukonError) as caught:
        parse_board(text, rules)
    message = str(caught.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("word", ["ZZ", "1S", "11S", "KX", "K", "10SS", "-5S"])
def test_unknown_card_is_named_with_its_line(word):
    message = parse_error(with_line(DEAL_12, 3, f"<5H> <6D> 8H 5D {word} 9D TC"))
    assert f"unknown card {word!r} on line 3" in message


@pytest.mark.parametrize(
    "line",
    ["this is not a column", "5S,7D", "<5H <6D> 8H", "5S 7D -", "[5S]"],
)
def test_malformed_line(line):
    message = parse_error(with_line(DEAL_12, 2, line))
    assert "on line 2" in message


def test_duplicated_and_missing_cards_are_named():
    text = with_line(DEAL_12, 1, "4S")  # 5S replaced by a second 4S
    message = parse_error(text)
    assert "duplicated 4S" in message
    assert "missing 5S" in message


def test_missing_card_alone_is_named():
    message = parse_error(with_line(DEAL_12, 1, "-"))
    assert "missing 5S" in message
    assert "duplicated" not in message


def test_foundation_and_column_holding_the_same_card_is_a_duplicate():
    text = spread(YUKON, {}) + "Foundations: S-2\n"
    message = parse_error(text)
    assert "duplicated AS 2S" in message


@pytest.mark.parametrize(("keep", "rules"), [(6, YUKON), (7, MILLIGAN)])
def test_wrong_column_count(keep, rules):
    text = spread(rules, {}, columns=keep)
    message = parse_error(text, rules)
    assert f"board has {keep} columns; {rules.variant} has {rules.column_count}" in message


def test_eight_columns_in_yukon():
    message = parse_error(DEAL_12 + "-\n")
    assert "board has 8 columns; yukon has 7" in message


def test_face_down_card_on_a_face_up_one():
    message = parse_error(with_line(DEAL_12, 2, "2D <7D> 5C JD 4H AC"))
    assert "face-down card <7D> lies on a face-up card on line 2" in message


def test_exposed_card_face_down():
    message = parse_error(with_line(DEAL_12, 1, "<5S>"))
    assert "column 1: its exposed card 5S is face down" in message


@pytest.mark.parametrize("rules", [YUKON, RUSSIAN], ids=lambda r: r.variant)
def test_stock_in_a_one_deck_variant(rules):
    text = with_line(DEAL_12, 1, "-") + "Stock: 5S\n"  # every card still there once
    message = parse_error(text, rules)
    assert f"{rules.variant} has no stock, but the board lists one" in message


@pytest.mark.parametrize(
    ("foundations", "expected"),
    [
        ("S5", "foundation entry 'S5' is not SUIT-RANK on line 8"),
        ("X-5", "unknown suit 'X' on line 8"),
        ("S-13", "unknown rank '13' on line 8"),
        ("S-A S-2", "2 foundations of suit S on line 8; yukon has 1"),
    ],
)
def test_bad_foundation_entries(foundations, expected):
    message = parse_error(DEAL_12.replace("Foundations: S-0 H-0 D-0 C-0", f"Foundations: {foundations}"))
    assert expected in message


def test_three_foundations_of_a_suit_in_milligan():
    text = deal_board("milligan", 3).to_text().replace("S-0 H-0 D-0 C-0 S-0", "S-0 S-0 S-0 H-0 D-0 C-0")
    assert "3 foundations of suit S" in parse_error(text, MILLIGAN)


def test_a_yukon_board_is_not_a_milligan_board():
    message = parse_error(DEAL_12, MILLIGAN)
    assert "board has 7 columns; milligan has 8" in message


def test_check_board_counts_foundations():
    board = deal_board("yukon", 12)
    wrong = Board(board.columns, board.face_down_counts, (0,) * 8)
    with pytest.raises(YukonError, match="board has 8 foundations; yukon has 4"):
        check_board(wrong, YUKON)


# --- JSON errors ---------------------------------------------------------------------------


def json_error(data, rules: Rules = YUKON) -> str:
    with pytest.raises(YukonError) as caught:
        board_from_json(data, rules)
    return str(caught.value)


def test_json_errors():
    good = deal_board("yukon", 12).to_json()
    assert "malformed" in json_error({"foundations": {}})
    assert "malformed" in json_error([1, 2])
    assert "malformed" in json_error({"columns": ["5S"]})
    assert "malformed" in json_error(good | {"foundations": {"S": 5}})
    assert "foundation height 14 of suit S is not 0..13" in json_error(good | {"foundations": {"S": [14]}})
    assert "foundation height '3' of suit S" in json_error(good | {"foundations": {"S": ["3"]}})
    assert "2 foundations of suit S" in json_error(good | {"foundations": {"S": [0, 0]}})
    assert "unknown suit 'X'" in json_error(good | {"foundations": {"X": [0]}})
    columns = [dict(column) for column in good["columns"]]
    columns[0] = {"face_down": ["5S"], "face_up": []}
    assert "column 1: its exposed card 5S is face down" in json_error(good | {"columns": columns})
    columns[0] = {"face_down": [], "face_up": ["ZZ"]}
    assert "unknown card 'ZZ' in column 1" in json_error(good | {"columns": columns})
    assert "has no stock" in json_error(good | {"stock": ["5S"]})
    with pytest.raises(YukonError, match="board JSON is malformed"):
        read_board("{not json", YUKON)
