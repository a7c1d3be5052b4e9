"""Input as players have it: deal numbers as PySolFC writes them, PySolFC's ``ms`` deals
(checked against pysol-cards), the ``lexington-harp`` name, and boards that leave hidden
cards unknown."""

import json

import pytest
from click.testing import CliRunner
from pysol_cards.cards import CardRenderer, createCards
from pysol_cards.deal_game import Game
from pysol_cards.random import LCRandom31
from pysol_cards.random_base import RandomBase

from solver.cli import main
from solver.errors import YukonError
from solver.game.board import UNKNOWN, parse_board, read_board
from solver.game.cards import make_card
from solver.game.numbering import MAX_DEAL, PYSOL_MILLIGAN_PLAN, PYSOL_SUITS, board_from_plan, deal_board
from solver.game.ranges import deal_number, parse_range, split_numbering
from solver.game.rules import Rules

YUKON, MILLIGAN = Rules("yukon"), Rules("milligan")
# Both ends of each of LCRandom31's three regimes (15 bits, bit 15 set, 16 bits plus one).
MS_NUMBERS = (
    1,
    2,
    617,
    31999,
    32000,
    40000,
    123456,
    2**31 - 1,
    2**31,
    2**31 + 5,
    2**32 - 1,
    2**32,
    2**32 + 7,
)
MS_NUMBERS += (MAX_DEAL["ms"],)


def run(*args, stdin=None):
    return CliRunner().invoke(main, [str(arg) for arg in args], input=stdin, prog_name="yukon")


def assert_one_error_line(result, starts: str) -> None:
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"error: {starts}") and result.stderr.count("\n") == 1


# ---- deal numbers ------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["12345", "#12345", " #12345 ", "12,345", "12 345", "#12_345", "# 12,345"])
def test_a_deal_number_reads_as_pysolfc_reads_it(text):
    assert deal_number(text) == 12345


@pytest.mark.parametrize("text", ["", "#", "12a", "1-5", "1.5", "-3", "ms", "١٢", "0x10"])
def test_a_bad_deal_number_is_refused(text):
    with pytest.raises(YukonError, match="is not a whole number"):
        deal_number(text)


@pytest.mark.parametrize("text", ["#12", "12", " # 1 2 "])
def test_the_deal_command_takes_every_form(text):
    assert run("deal", text).stdout == deal_board("yukon", 12).to_text()


@pytest.mark.parametrize("text", ["12a", "1-5", "1.5", "#", "ms12x", "ms0"])
def test_the_deal_command_refuses_a_bad_form_in_one_line(text):
    assert_one_error_line(run("deal", text), "deal number")


def test_range_parts_may_carry_a_hash_and_separators_inside_a_number():
    assert list(parse_range("#1-#3, #1_0")) == [1, 2, 3, 10]
    assert list(parse_range("12,345")) == [12, 345]  # a comma separates deals in a range


@pytest.mark.parametrize(
    ("text", "numbering", "expected"),
    [
        ("ms12", "pysol", ("12", "ms")),
        ("MS40000", "pysol", ("40000", "ms")),
        ("ms1-ms5,ms9", "pysol", ("1-5,9", "ms")),
        ("ms1-5", "pysol", ("1-5", "ms")),
        ("12", "kpat", ("12", "kpat")),
        ("#12", "pysol", ("#12", "pysol")),
    ],
)
def test_an_ms_prefix_chooses_the_ms_numbering(text, numbering, expected):
    assert split_numbering(text, numbering) == expected


def test_an_ms_deal_has_no_kpat_number():
    assert_one_error_line(run("deal", "ms12", "--numbering", "kpat"), "'ms12' is a PySolFC Microsoft deal")


# ---- ms deals against pysol-cards ------------------------------------------------------------


@pytest.mark.parametrize("number", MS_NUMBERS)
def test_ms_yukon_deals_match_pysol_cards(number):
    layout = Game("yukon", number, RandomBase.DEALS_MS).calc_layout_string(CardRenderer(True))
    assert deal_board("yukon", number, "ms") == parse_board(layout, YUKON)
    assert deal_board("russian", number, "ms") == deal_board("yukon", number, "ms")


@pytest.mark.parametrize("number", MS_NUMBERS)
def test_ms_milligan_deals_are_pysol_cards_shuffle_of_two_decks(number):
    """pysol-cards has no Lexington Harp; its LCRandom31 shuffles PySolFC's 104 cards (not
    regrouped: PySolFC regroups only 52), dealt along the plan pinned in test_numbering."""
    shuffled = LCRandom31(number).shuffle(createCards(2))
    order = [make_card(card.rank, PYSOL_SUITS[card.suit]) for card in reversed(shuffled)]
    assert deal_board("milligan", number, "ms") == board_from_plan(order, PYSOL_MILLIGAN_PLAN, MILLIGAN)


@pytest.mark.parametrize("variant", ["yukon", "milligan"])
def test_ms_deals_below_32000_are_the_pysol_deals(variant):
    for number in (1, 2, 100, 31999):
        assert deal_board(variant, number, "ms") == deal_board(variant, number, "pysol")
    assert deal_board(variant, 32000, "ms") != deal_board(variant, 32000, "pysol")


def test_ms_deals_solve_into_a_store_under_the_ms_numbering(tmp_path):
    store = tmp_path / "ms.db"
    result = run("solve", "ms40000-40001", "--time-limit", 5, "--out", store)
    assert result.exit_code == 0, result.output
    exported = run("export", store, "--format", "jsonl")
    records = [json.loads(line) for line in exported.stdout.splitlines()]
    assert [(record["numbering"], record["deal"]) for record in records] == [("ms", 40000), ("ms", 40001)]
    assert records[0]["board"] == deal_board("yukon", 40000, "ms").to_text()


# ---- the variant's other name ----------------------------------------------------------------


def test_lexington_harp_is_milligan():
    assert (
        run("deal", 7, "--variant", "lexington-harp").stdout == run("deal", 7, "--variant", "milligan").stdout
    )
    assert run("deal", 7, "--variant", "lexington-harp").stdout == deal_board("milligan", 7).to_text()


# ---- boards with unknown cards -------------------------------------------------------------


def unknown_text(board_text: str, columns=(1, 2, 3), unknown_stock=False) -> str:
    """``board_text`` with the face-down cards of ``columns`` (0-based) written ``<?>``."""
    lines = board_text.splitlines()
    for column in columns:
        lines[column] = " ".join("<?>" if word.startswith("<") else word for word in lines[column].split())
    if unknown_stock:
        lines = [("Stock: ?" if line.startswith("Stock:") else line) for line in lines]
    return "\n".join(lines) + "\n"


def test_a_board_may_leave_face_down_cards_and_the_stock_unknown():
    yukon = read_board(unknown_text(deal_board("yukon", 3).to_text()), YUKON, unknown_cards=True)
    assert yukon.unknown_count == 1 + 2 + 3
    assert yukon.face_down_counts == deal_board("yukon", 3).face_down_counts
    milligan = read_board(
        unknown_text(deal_board("milligan", 3).to_text(), unknown_stock=True), MILLIGAN, True
    )
    assert milligan.stock == (UNKNOWN,) * 68 and milligan.unknown_count == 68 + 6
    for board, rules in ((yukon, YUKON), (milligan, MILLIGAN)):
        assert read_board(board.to_text(), rules, True) == board
        assert read_board(json.dumps(board.to_json()), rules, True) == board


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda text: text.replace(" 5H", " <?> 5H", 1), "unknown cards for the"),
        (lambda text: text.replace("JD\n", "?\n", 1), "unknown card '?'"),
        (lambda text: text.replace("<?> 5H", "5H", 1), "unknown cards for the"),
    ],
)
def test_unknown_cards_must_fill_exactly_the_cards_not_shown(change, message):
    text = unknown_text(deal_board("yukon", 1, "kpat").to_text())
    with pytest.raises(YukonError, match=message):
        read_board(change(text), YUKON, unknown_cards=True)


def test_solve_and_replay_refuse_a_board_with_unknown_cards_in_one_line():
    text = unknown_text(deal_board("yukon", 3).to_text())
    for command in (["solve", "--board", "-"], ["replay", "--board", "-", "1>F:AS"]):
        assert_one_error_line(run(*command, stdin=text), "the board leaves 6 hidden cards unknown")
