"""Card kernels: a card is ``suit * 13 + (rank - 1)``, suits in the order spades, hearts,
diamonds, clubs (the same ints as ``solver.game.cards``, which the numba core does not import).
"""

from solver.engine.jit import kernel


@kernel
def rank_of(card):
    """The card's rank, 1 (Ace) to 13 (King)."""
    return card % 13 + 1


@kernel
def suit_of(card):
    """The card's suit, 0 to 3 (spades, hearts, diamonds, clubs)."""
    return card // 13


@kernel
def red(card):
    """Hearts and diamonds are red; spades and clubs are black."""
    suit = card // 13
    return suit == 1 or suit == 2


@kernel
def builds_on(card, below, same_suit):
    """May ``card`` lead a packet onto exposed card ``below``?"""
    if rank_of(card) + 1 != rank_of(below):
        return False
    if same_suit:
        return suit_of(card) == suit_of(below)
    return red(card) != red(below)
