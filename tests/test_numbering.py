"""Deal numbers reproduce PySolFC's and KPat's deals exactly."""

from itertools import chain

import pytest
from pysol_cards.cards import CardRenderer, createCards
from pysol_cards.deal_game import Game
from pysol_cards.random import MTRandom
from pysol_cards.random_base import RandomBase

from solver.errors import YukonError
from solver.game.board import check_board, parse_board
from solver.game.numbering import MAX_DEAL, deal_board
from solver.game.rules import Rules

YUKON = Rules("yukon")
MILLIGAN = Rules("milligan")
PYSOL_MAX = MAX_DEAL["pysol"]
KPAT_MAX = MAX_DEAL["kpat"]

# Both of PySolFC's generators: Microsoft below 32000, Mersenne Twister from 32000 on.
PYSOL_NUMBERS = tuple(chain(range(1, 3001), range(32001, 33001), range(PYSOL_MAX - 5, PYSOL_MAX + 1)))


def pysol_cards_board(game: Game):
    text = game.calc_layout_string(CardRenderer(True))
    return parse_board(text, YUKON)


class MersenneTwisterGame(Game):
    """pysol-cards' Yukon deal, always shuffled with ``MTRandom`` (the generator PySolFC
    imports as its own for game numbers from 32000 on)."""

    def deal(self):
        cards = MTRandom(self.game_num).shuffle(createCards(1))
        cards.reverse()
        self.new_cards(cards)


def test_pysol_yukon_matches_pysol_cards():
    for number in PYSOL_NUMBERS:
        expected = pysol_cards_board(Game("yukon", number, RandomBase.DEALS_PYSOLFC))
        assert deal_board("yukon", number) == expected, number


def test_pysol_russian_deals_as_yukon():
    for number in chain(range(1, 200), range(32000, 32200)):
        assert deal_board("russian", number) == deal_board("yukon", number), number


def test_pysol_32000_is_a_mersenne_twister_deal():
    """pysol-cards shuffles 32000 as a Microsoft deal; PySolFC (construct_random: the
    Microsoft generator only for 0 <= N < 32000) does not."""
    ours = deal_board("yukon", 32000)
    microsoft = pysol_cards_board(Game("yukon", 32000, RandomBase.DEALS_PYSOLFC))
    mersenne = pysol_cards_board(MersenneTwisterGame("yukon", 32000, RandomBase.DEALS_PYSOLFC))
    assert ours != microsoft
    assert ours == mersenne


# Expected Lexington Harp deals, obtained by running PySolFC's own code (commit 7a3d146 of
# shlomif/PySolFC): pysolrandom.construct_random, Game.createCards, Game.shuffle and
# LexingtonHarp.startGame (MilliganHarp's: seven face-down rounds onto columns k+1..8, then
# one face-up row), with only the talon stubbed to move its last card onto each row in turn.
# Deal 1 takes the Microsoft path (104 cards, not regrouped), deal 32000 the Mersenne one.
MILLIGAN_DEALS = {
    1: (
        "9H\n"
        "<3D> 8S\n"
        "<5H> <KC> 7D\n"
        "<JC> <8D> <6H> 9S\n"
        "<KH> <JD> <TC> <QC> 8H\n"
        "<5S> <AS> <8D> <4H> <TD> JH\n"
        "<5H> <8C> <4C> <KD> <8S> <7C> 4D\n"
        "<KC> <6C> <JS> <2H> <AC> <2H> <AD> 2D\n"
        "Stock: 6H TH 8C 2S 3S 9C 7D 4S 8H TH AH JC 4H 7H QS QC 7C 3S QH 9S 2S QH 3C AS 4S"
        " KS 6D TD 9C 9D JS 4D 5C 6C AD JH 6S 3C JD TC AH QS 2C 9H 3H 7S 5C 9D KS 5D TS QD"
        " 7S 6D TS KD QD 7H 3D 2C KH 5D 3H 2D 4C 5S 6S AC\n"
    ),
    32000: (
        "TC\n"
        "<KH> 2H\n"
        "<9H> <JS> 7H\n"
        "<TD> <JS> <AC> QC\n"
        "<6D> <6C> <7S> <QD> 4D\n"
        "<3D> <3C> <TH> <4C> <KD> AH\n"
        "<9C> <KD> <7S> <7C> <7C> <4C> AS\n"
        "<TH> <4H> <9D> <JD> <KC> <5C> <TS> 8D\n"
        "Stock: KC AS 7D JH 5H JD 4S 8C 3S 5S 2C AC 5C 5S 3H QS 9S 3D AD AD AH 9H 6C 8S 6H"
        " KS TC KH 9D 2C 6H QD TS 5H 4S 3C 8D 3H 2D 9C QC JH 7D 8C 9S QH 2S KS 6D 2S 2H 8S"
        " JC QS 6S 2D 7H 3S TD 8H JC 5D 6S QH 4D 4H 8H 5D\n"
    ),
}


@pytest.mark.parametrize("number", sorted(MILLIGAN_DEALS))
def test_pysol_milligan_matches_pysolfc(number):
    assert deal_board("milligan", number) == parse_board(MILLIGAN_DEALS[number], MILLIGAN)


def test_pysol_milligan_structure():
    for number in chain(range(1, 300), range(32000, 32300), [PYSOL_MAX]):
        board = deal_board("milligan", number)
        check_board(board, MILLIGAN)  # each of the 52 faces exactly twice
        assert [len(column) for column in board.columns] == list(range(1, 9))
        assert board.face_down_counts == tuple(range(8))
        assert len(board.stock) == 68
        assert board.foundations == (0,) * 8


KPAT_DEAL_1 = """\
JD
<2D> 5H QC QD 5C 7S
<9H> <KD> KH JS TS 3S 2C
<JC> <KC> <3H> AS QH TD JH 8D
<5D> <9S> <2S> <AH> 4H 4S 7D QS 8C
<7H> <5S> <KS> <3C> <AC> TH 6D 6C TC 9C
<7C> <AD> <9D> <4C> <4D> <8H> 8S 3D 6S 2H 6H
"""


@pytest.mark.parametrize("variant", ["yukon", "russian"])
def test_kpat_deal_1(variant):
    assert deal_board(variant, 1, "kpat") == parse_board(KPAT_DEAL_1, YUKON)


def test_kpat_structure():
    for number in chain(range(1, 1000), range(KPAT_MAX - 100, KPAT_MAX + 1)):
        board = deal_board("yukon", number, "kpat")
        check_board(board, YUKON)
        assert [len(column) for column in board.columns] == [1, 6, 7, 8, 9, 10, 11]
        assert board.face_down_counts == tuple(range(7))
        assert board.stock == ()


def test_kpat_and_pysol_numberings_differ():
    assert deal_board("yukon", 1, "kpat") != deal_board("yukon", 1, "pysol")


@pytest.mark.parametrize(
    ("variant", "number", "numbering"),
    [
        ("yukon", 0, "pysol"),
        ("yukon", -1, "pysol"),
        ("milligan", PYSOL_MAX + 1, "pysol"),
        ("yukon", 0, "kpat"),
        ("russian", KPAT_MAX + 1, "kpat"),
        ("milligan", 1, "kpat"),
        ("yukon", 1, "microsoft"),
        ("klondike", 1, "pysol"),
        ("yukon", "7", "pysol"),
    ],
)
def test_bad_requests_raise_yukon_error(variant, number, numbering):
    with pytest.raises(YukonError) as error:
        deal_board(variant, number, numbering)
    assert "\n" not in str(error.value)
