"""The greedy policy: the kernels of ``kernels.py`` behind Python's Board, View and Move.

Its decision reads only a View (the masked arrays made from it); its games run wholly in
numba (``kernels.play``), and a game's line is read back move by move on the reference
engine, which checks every move.
"""

import random
from dataclasses import dataclass

import numpy as np

from solver import reference
from solver.board import Board
from solver.cards import card_rank, card_suit
from solver.errors import YukonError
from solver.player import kernels
from solver.player.decision import Decision, reason_for
from solver.player.view import View, sample_world
from solver.reference import STOCK_DEAL, TABLEAU, TO_FOUNDATION, Move
from solver.rules import Rules

MAX_MOVES = 1000


@dataclass(frozen=True)
class Arrays:
    """A position as the kernels hold it (see ``kernels``)."""

    cols: np.ndarray
    lens: np.ndarray
    down: np.ndarray
    found: np.ndarray
    stock: np.ndarray
    misc: np.ndarray


def arrays_of(columns, face_down_counts, foundations, stock, rules: Rules) -> Arrays:
    cols = np.full((rules.column_count, rules.card_count), kernels.HIDDEN, dtype=np.int8)
    for column, cards in enumerate(columns):
        cols[column, : len(cards)] = cards
    return Arrays(
        cols,
        np.array([len(cards) for cards in columns], dtype=np.int64),
        np.array(face_down_counts, dtype=np.int64),
        np.array(foundations, dtype=np.int64),
        np.array(stock, dtype=np.int8),
        np.array([0, int(rules.same_suit_building)], dtype=np.int64),
    )


def true_arrays(board: Board, rules: Rules) -> Arrays:
    return arrays_of(board.columns, board.face_down_counts, board.foundations, board.stock, rules)


def masked_arrays(view: View) -> Arrays:
    """The view as arrays: every face-down place and the stock hold HIDDEN."""
    hidden = kernels.HIDDEN
    columns = [(hidden,) * down + up for up, down in zip(view.face_up, view.face_down_counts)]
    return arrays_of(
        columns, view.face_down_counts, view.foundations, (hidden,) * view.stock_size, view.rules
    )


def as_move(move: int, foundations: tuple[int, ...]) -> Move:
    """A kernel move as a reference Move; a foundation move goes to the reference
    engine's slot for it (the first of its suit one rank below)."""
    kind, card = kernels.move_kind(move), kernels.move_card(move)
    source, target, size = kernels.move_source(move), kernels.move_target(move), kernels.move_size(move)
    if kind == kernels.TABLEAU:
        return Move(TABLEAU, source, target, card, size)
    if kind == kernels.TO_FOUNDATION:
        slot = next(
            slot
            for slot, height in enumerate(foundations)
            if slot % 4 == card_suit(card) and height + 1 == card_rank(card)
        )
        return Move(TO_FOUNDATION, source, slot, card)
    return Move(STOCK_DEAL, -1, -1, -1, size)


def ranked_moves(view: View) -> list[tuple[int, Move]]:
    """Every move the greedy player considers, with its score, best first (equal scores
    in generation order)."""
    a = masked_arrays(view)
    moves = np.empty(kernels.MAX_MOVES, dtype=np.int64)
    scores = np.empty(kernels.MAX_MOVES, dtype=np.int64)
    count = kernels.score_all(
        a.cols, a.lens, a.down, a.found, view.stock_size, a.misc[1], kernels.NO_MOVE, moves, scores
    )
    ranked = [(int(scores[at]), as_move(int(moves[at]), view.foundations)) for at in range(count)]
    return sorted(ranked, key=lambda pair: -pair[0])


def choose(view: View, seed: int) -> Move | None:
    """The greedy move for a view (None when no move is worth playing or none is legal)."""
    a = masked_arrays(view)
    moves = np.empty(kernels.MAX_MOVES, dtype=np.int64)
    scores = np.empty(kernels.MAX_MOVES, dtype=np.int64)
    rng = np.array([seed], dtype=np.uint64)
    move = kernels.choose(
        a.cols, a.lens, a.down, a.found, view.stock_size, a.misc[1], kernels.NO_MOVE, rng, moves, scores
    )
    return None if move == kernels.NO_MOVE else as_move(int(move), view.foundations)


@dataclass(frozen=True)
class Greedy:
    """The fast rule-based player (scores in ``kernels``); ``max_moves`` caps a game."""

    max_moves: int = MAX_MOVES
    name: str = "greedy"

    def __post_init__(self):
        check_positive(self.name, max_moves=self.max_moves)

    def settings(self) -> dict:
        return {"max_moves": self.max_moves}

    def decide(self, view: View, seed: int) -> Decision:
        move = choose(view, seed)
        if move is None:
            return Decision(None, None, no_move_reason(view))
        return Decision(move, None, reason_for(view, move))

    def play(self, board: Board, rules: Rules, seed: int) -> tuple[bool, list[Move]]:
        """A whole game from ``board``: (won, its moves, each checked by the reference
        engine as it is replayed)."""
        a = true_arrays(board, rules)
        line = np.empty(self.max_moves, dtype=np.int64)
        won, played = kernels.play(
            a.cols, a.lens, a.down, a.found, a.stock, a.misc, np.uint64(seed), self.max_moves, line
        )
        moves = []
        for move in line[:played]:
            moves.append(as_move(int(move), board.foundations))
            board = reference.apply_move(board, moves[-1], rules)
        if bool(won) != reference.is_won(board):
            raise RuntimeError("the greedy kernel and the reference engine disagree on a win")
        return bool(won), moves

    def wins(self, board: Board, rules: Rules, seeds: list[int]) -> list[bool]:
        """Whether each seeded game from ``board`` is won (kernel only, for ratings)."""
        a = true_arrays(board, rules)
        won = kernels.play_runs(
            a.cols, a.lens, a.down, a.found, a.stock, a.misc, np.array(seeds, dtype=np.uint64), self.max_moves
        )
        return [bool(flag) for flag in won]


def check_positive(policy: str, **settings) -> None:
    """YukonError unless every setting is a positive integer."""
    for name, value in settings.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise YukonError(f"{policy} setting {name} must be a positive integer, not {value!r}")


def no_move_reason(view: View) -> str:
    if not reference.legal_moves(board_shape(view), view.rules):
        return "no legal move remains"
    return "no move is worth playing (every legal move undoes progress)"


def board_shape(view: View) -> Board:
    """A Board with the view's visible cards and arbitrary hidden ones: enough to ask which
    moves are legal, since legality depends on visible cards only."""
    return sample_world(view, random.Random(0))
