"""Cards as small integers, and their text form.

A card is ``suit * 13 + (rank - 1)``: rank 1 (Ace) to 13 (King), suits in the order
spades, hearts, diamonds, clubs. Two decks hold every card twice; copies are equal ints.
"""

import re

from solver.errors import YukonError

RANKS = "A23456789TJQK"
SUITS = "SHDC"
ACE = 1
KING = 13
CARDS_PER_DECK = 52
# The suit symbols the commands print on a terminal (``solver.cli.terminal``), by suit letter,
# and what input may hold for a suit letter besides: those symbols, their white forms.
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_OF_SYMBOL = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()} | dict(zip("♤♡♢♧", SUITS))
# What a terminal's output copied or saved may hold around cards: colour codes (``--color
# always`` into a file) and the emoji variation selectors some terminals add to a symbol.
TERMINAL_NOISE = re.compile(r"\x1b\[[0-9;]*m|[\ufe0e\ufe0f]")
SYMBOL = re.compile("[" + "".join(SUIT_OF_SYMBOL) + "]")


def make_card(rank: int, suit: int) -> int:
    return suit * 13 + (rank - 1)


def card_rank(card: int) -> int:
    return card % 13 + 1


def card_suit(card: int) -> int:
    return card // 13


def is_red(card: int) -> bool:
    """Hearts and diamonds are red; spades and clubs are black."""
    return card_suit(card) in (1, 2)


def card_text(card: int) -> str:
    return RANKS[card_rank(card) - 1] + SUITS[card_suit(card)]


def parse_rank(text: str, where: str) -> int:
    """Rank text (``A``, ``2``..``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``) to 1..13."""
    token = text.upper()
    if token == "10":
        token = "T"
    if len(token) != 1 or token not in RANKS:
        raise YukonError(f"unknown rank {text!r} {where}")
    return RANKS.index(token) + 1


def parse_suit(text: str, where: str) -> int:
    """Suit text (``S``, ``h``, or a symbol such as ``♠``) to 0..3."""
    token = SUIT_OF_SYMBOL.get(text, text).upper()
    if len(token) != 1 or token not in SUITS:
        raise YukonError(f"unknown suit {text!r} {where}")
    return SUITS.index(token)


def parse_card(text: str, where: str = "") -> int:
    """Card text such as ``TS``, ``10S``, ``ah`` to a card int."""
    if len(text) not in (2, 3):
        raise YukonError(f"unknown card {text!r} {where}".rstrip())
    try:
        return make_card(parse_rank(text[:-1], where), parse_suit(text[-1], where))
    except YukonError:
        raise YukonError(f"unknown card {text!r} {where}".rstrip()) from None


def full_deck(decks: int) -> list[int]:
    """Every card of ``decks`` decks, in card-int order."""
    return [card for _ in range(decks) for card in range(CARDS_PER_DECK)]


def plain_text(text: str) -> str:
    """``text`` as the commands print it on a terminal read back: suit symbols made letters
    (``2>F:A♣`` is ``2>F:AC``), colour codes and variation selectors dropped."""
    return SYMBOL.sub(lambda match: SUIT_OF_SYMBOL[match.group()], TERMINAL_NOISE.sub("", text))
