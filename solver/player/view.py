"""What a person sees of a position, and the worlds consistent with it.

A ``View`` holds the face-up cards of every column (bottom first), how many cards lie face
down under them, the foundations and the stock's size, and nothing else: it has no field
that could hold a face-down card or the stock's order, so a policy given a View cannot
read a hidden card. The unseen cards follow from it (the decks minus what is visible).
``sample_world`` deals the unseen cards at random into the hidden places: a Board the view
is consistent with, which is what the sampling player solves.
"""

import random
from collections import Counter
from dataclasses import dataclass

from solver.game.board import Board
from solver.game.cards import full_deck, make_card
from solver.game.rules import Rules


@dataclass(frozen=True)
class View:
    """A position as a person sees it under ``rules``."""

    rules: Rules
    face_up: tuple[tuple[int, ...], ...]
    face_down_counts: tuple[int, ...]
    foundations: tuple[int, ...]
    stock_size: int

    @property
    def hidden_count(self) -> int:
        """Cards whose identity the player does not know: face down or in the stock."""
        return sum(self.face_down_counts) + self.stock_size

    def unseen(self) -> tuple[int, ...]:
        """The cards not yet seen (a multiset with two decks), in card order."""
        seen = Counter(card for cards in self.face_up for card in cards)
        for slot, height in enumerate(self.foundations):
            seen.update(make_card(rank, slot % 4) for rank in range(1, height + 1))
        return tuple(sorted((Counter(full_deck(self.rules.decks)) - seen).elements()))


def view_of(board: Board, rules: Rules) -> View:
    """The view a person has of ``board``."""
    return View(
        rules=rules,
        face_up=tuple(cards[down:] for cards, down in zip(board.columns, board.face_down_counts)),
        face_down_counts=board.face_down_counts,
        foundations=board.foundations,
        stock_size=len(board.stock),
    )


def sample_world(view: View, rng: random.Random) -> Board:
    """A Board with the view's visible cards where they are and the unseen cards dealt at
    random, uniformly, into the face-down places (column by column) and then the stock."""
    hidden = list(view.unseen())
    rng.shuffle(hidden)
    columns, at = [], 0
    for up, down in zip(view.face_up, view.face_down_counts):
        columns.append(tuple(hidden[at : at + down]) + up)
        at += down
    return Board(tuple(columns), view.face_down_counts, view.foundations, tuple(hidden[at:]))


def world_of(view: View) -> Board:
    """A Board with the view's visible cards and arbitrary hidden ones: enough to ask which
    moves are legal and what they show, since both depend on visible cards only."""
    return sample_world(view, random.Random(0))
