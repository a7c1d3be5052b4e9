"""Deal numbers: the opening Board of deal N, numbered as another program numbers it.

Two numberings are supported:

* ``pysol``: deal N is PySolFC's game number N. Yukon (PySolFC game 19) and Russian
  Solitaire (game 20) deal the same layout; Milligan Yukon is PySolFC's Lexington Harp
  (game 68). PySolFC shuffles with the Microsoft FreeCell generator for 1 <= N < 32000 and
  with Python's Mersenne Twister for 32000 <= N <= 10**20.
* ``ms``: deal N is PySolFC's game ``msN`` (1 <= N <= 2**33 - 1): the Microsoft generator
  for every N (PySolFC's ``LCRandom31``, which FreeCell Pro extended past 2**31: from 2**31
  each value has its bit 15 set, from 2**32 the seed is N - 2**32 and values are 16 bits
  plus one), dealt as the ``pysol`` games are. Below 32000 it is the ``pysol`` deal N.
* ``kpat``: deal N is KDE Patience's Yukon deal N (1 <= N <= 2**31 - 1). KPat has no
  Milligan Yukon, so that pairing is refused.

Both programs shuffle a list and then deal from its end, so every deal here is built the
same way: make the program's ordered deck, shuffle it, reverse it into dealing order, and
hand the cards out along the program's deal plan.
"""

import random

from solver.errors import YukonError
from solver.game.board import Board
from solver.game.cards import make_card
from solver.game.rules import Rules

MAX_DEAL = {"pysol": 10**20, "ms": 2**33 - 1, "kpat": 2**31 - 1}
NUMBERINGS = tuple(MAX_DEAL)

# PySolFC shuffles game numbers below this with the Microsoft generator, the rest with MT.
PYSOL_FIRST_MT_DEAL = 32000

# Our suit ids (S=0, H=1, D=2, C=3) for each program's suit index.
PYSOL_SUITS = (3, 0, 1, 2)  # PySolFC: clubs, spades, hearts, diamonds
KPAT_SUITS = (3, 2, 1, 0)  # KPat: clubs, diamonds, hearts, spades

# A deal plan lists the rounds of a deal; each round gives, in order, the (0-based)
# columns that receive one card. Every plan deals column k's k face-down cards before its
# face-up ones, so column k opens with k cards face down.
PYSOL_YUKON_PLAN = (
    *(tuple(range(first, 7)) for first in range(1, 7)),  # face down
    *(tuple(range(1, 7)) for _ in range(4)),  # face up
    tuple(range(7)),
)
# KPat deals row by row, left to right, skipping columns that are already full.
YUKON_COLUMN_SIZES = (1, 6, 7, 8, 9, 10, 11)
KPAT_YUKON_PLAN = tuple(
    tuple(column for column, size in enumerate(YUKON_COLUMN_SIZES) if row < size)
    for row in range(max(YUKON_COLUMN_SIZES))
)
# Lexington Harp: face-down rounds onto columns 2..8, 3..8, ..., 8 only, then a face-up row.
PYSOL_MILLIGAN_PLAN = (
    *(tuple(range(first, 8)) for first in range(1, 8)),
    tuple(range(8)),
)


def deal_board(variant: str, number: int, numbering: str = "pysol") -> Board:
    """The opening position of deal ``number`` of ``variant`` under ``numbering``."""
    rules = Rules(variant)
    check_deal_number(variant, number, numbering)
    if numbering == "kpat":
        order = kpat_dealing_order(number)
        plan = KPAT_YUKON_PLAN
    else:
        order = pysol_dealing_order(number, rules.decks, microsoft=numbering == "ms")
        plan = PYSOL_MILLIGAN_PLAN if variant == "milligan" else PYSOL_YUKON_PLAN
    return board_from_plan(order, plan, rules)


def check_deal_number(variant: str, number: int, numbering: str) -> None:
    if numbering not in MAX_DEAL:
        raise YukonError(f"unknown numbering {numbering!r} (choose one of {', '.join(NUMBERINGS)})")
    if numbering == "kpat" and variant == "milligan":
        raise YukonError("kpat numbering has no milligan deals (KPat has no Milligan Yukon)")
    if isinstance(number, bool) or not isinstance(number, int):
        raise YukonError(f"deal number {number!r} is not an integer")
    if not 1 <= number <= MAX_DEAL[numbering]:
        raise YukonError(
            f"deal number {number} is out of range for {numbering} numbering (1..{MAX_DEAL[numbering]})"
        )


def board_from_plan(order: list[int], plan, rules: Rules) -> Board:
    """Deal ``order`` (first card dealt first) along ``plan``; what is left is the stock."""
    columns: list[list[int]] = [[] for _ in range(rules.column_count)]
    cards = iter(order)
    for round_columns in plan:
        for column in round_columns:
            columns[column].append(next(cards))
    return Board(
        columns=tuple(tuple(cards_in_column) for cards_in_column in columns),
        face_down_counts=tuple(range(rules.column_count)),
        foundations=(0,) * rules.foundation_count,
        stock=tuple(cards),
    )


def pysol_dealing_order(number: int, decks: int, microsoft: bool = False) -> list[int]:
    """PySolFC's talon for game ``number`` (``microsoft``: game ``ms<number>``), top card
    (dealt first) first."""
    if microsoft or number < PYSOL_FIRST_MT_DEAL:
        # PySolFC regroups a single deck rank by rank before the Microsoft shuffle, which
        # is what makes its numbers match FreeCell's; two decks stay suit by suit.
        deck = ms_deck() if decks == 1 else pysol_deck(decks)
        shuffled = ms_shuffle(deck, number)
    else:
        shuffled = mt_shuffle(pysol_deck(decks), number)
    return shuffled[::-1]


def kpat_dealing_order(number: int) -> list[int]:
    """KPat's shuffled deck for deal ``number``, first card dealt first."""
    return ms_shuffle(ms_deck(), number)[::-1]


def pysol_deck(decks: int) -> list[int]:
    """PySolFC's card creation order: deck by deck, suit by suit (C, S, H, D), Ace up."""
    return [make_card(rank, suit) for _ in range(decks) for suit in PYSOL_SUITS for rank in range(1, 14)]


def ms_deck() -> list[int]:
    """One deck rank by rank, Aces first, suits C, D, H, S within a rank.

    This is Microsoft FreeCell's order, PySolFC's regrouped 52-card deck and KPat's
    creation order alike.
    """
    return [make_card(rank, suit) for rank in range(1, 14) for suit in KPAT_SUITS]


def ms_random_values(seed: int):
    """Microsoft's C runtime ``rand()``: endless 15-bit values from ``seed``, as PySolFC's
    ``LCRandom31`` extends it: bit 15 set from seed 2**31, and from 2**32 the seed less
    2**32 giving 16-bit values plus one."""
    state = seed if seed < 1 << 32 else seed - (1 << 32)
    while True:
        state = (state * 214013 + 2531011) & 0xFFFFFFFF
        if seed >= 1 << 32:
            yield ((state >> 16) & 0xFFFF) + 1
        else:
            yield (state >> 16) & 0x7FFF | (0x8000 if seed >= 1 << 31 else 0)


def ms_shuffle(cards: list[int], seed: int) -> list[int]:
    """The FreeCell shuffle, as PySolFC (numbers below 32000) and KPat both run it: from
    the last slot down, swap it with slot ``rand() % (slots left)``."""
    shuffled = list(cards)
    values = ms_random_values(seed)
    for last in range(len(shuffled) - 1, 0, -1):
        other = next(values) % (last + 1)
        shuffled[last], shuffled[other] = shuffled[other], shuffled[last]
    return shuffled


def mt_shuffle(cards: list[int], seed: int) -> list[int]:
    """PySolFC's Mersenne Twister shuffle: Python's ``random.Random(seed)`` drives the same
    last-slot-down swaps, each partner being ``int(random() * (last + 1))`` (this is not
    ``random.shuffle``, which picks partners differently)."""
    shuffled = list(cards)
    generator = random.Random(seed)
    for last in range(len(shuffled) - 1, 0, -1):
        other = int(generator.random() * (last + 1))
        shuffled[last], shuffled[other] = shuffled[other], shuffled[last]
    return shuffled
