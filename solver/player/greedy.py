"""The greedy policy: the engine's greedy kernels (``engine.greedy_play``) behind Python's
Board, View and Move.

Its decision reads only a View, as the engine's masked state (``engine.player_moves``); its
games run wholly in numba (``greedy_play.play``) on the packed position, and a game's line
is read back move by move on the reference engine, which checks every move.
"""

from dataclasses import dataclass

import numpy as np

from solver.engine import greedy_play, player_moves
from solver.engine.layout import MOVE_LIST_SIZE
from solver.errors import YukonError
from solver.game import reference
from solver.game.board import Board
from solver.game.reference import Move
from solver.game.rules import Rules
from solver.player.decision import NO_LEGAL_MOVE, ONLY_REPEATS_WORTH_PLAYING, Decision, reason_for
from solver.player.history import NO_HISTORY, History
from solver.player.view import View, world_of
from solver.search.packing import decode, pack

GAME_MOVES = 1000  # the default cap on a game's length


def view_state(view: View) -> tuple[np.ndarray, np.ndarray]:
    """The view as the engine's masked state and its params: a world the view is
    consistent with, packed, with every hidden card then replaced by HIDDEN."""
    packed = pack(world_of(view), view.rules)
    masked = np.empty_like(packed.state)
    player_moves.mask_into(packed.state, packed.params, masked)
    return masked, packed.params


def ranked_moves(view: View) -> list[tuple[int, Move]]:
    """Every move the greedy player considers, with its score, best first (equal scores
    in generation order)."""
    masked, params = view_state(view)
    moves = np.empty(MOVE_LIST_SIZE, dtype=np.int64)
    scores = np.empty(MOVE_LIST_SIZE, dtype=np.int64)
    count = greedy_play.score_all(masked, params, greedy_play.NO_MOVE, moves, scores)
    ranked = [(int(scores[at]), decode(int(moves[at]))) for at in range(count)]
    return sorted(ranked, key=lambda pair: -pair[0])


def choose(view: View, seed: int, random_share: int = 0) -> Move | None:
    """The greedy move for a view (None when no move is worth playing or none is legal);
    ``random_share`` per mille of decisions a random move worth playing instead."""
    masked, params = view_state(view)
    moves = np.empty(MOVE_LIST_SIZE, dtype=np.int64)
    scores = np.empty(MOVE_LIST_SIZE, dtype=np.int64)
    rng = np.array([seed], dtype=np.uint64)
    move = greedy_play.choose(masked, params, greedy_play.NO_MOVE, rng, moves, scores, random_share)
    return None if move == greedy_play.NO_MOVE else decode(int(move))


@dataclass(frozen=True)
class Greedy:
    """The fast rule-based player (scores in ``engine.greedy_play``); ``max_moves`` caps a
    game; ``random_moves`` (per mille, 0 to 1000) of its decisions are a random move worth
    playing instead: a weaker player, for the ladder's lowest rung."""

    max_moves: int = GAME_MOVES
    random_moves: int = 0
    name: str = "greedy"

    def __post_init__(self):
        check_positive(self.name, max_moves=self.max_moves)
        share = self.random_moves
        if isinstance(share, bool) or not isinstance(share, int) or not 0 <= share <= 1000:
            raise YukonError(f"greedy setting random_moves must be a whole number 0-1000, not {share!r}")

    def settings(self, rules: Rules | None = None) -> dict:
        """The settings (the same for every rule set)."""
        return {"max_moves": self.max_moves} | (
            {"random_moves": self.random_moves} if self.random_moves else {}
        )

    def decide(self, view: View, seed: int, history: History = NO_HISTORY) -> Decision:
        """The greedy move; when ``history`` says it undoes the last move or returns to a
        position seen, the best-scored move worth playing that does not."""
        move = choose(view, seed, self.random_moves)
        if move is not None and not history.fresh(view, [move]):
            worth = [move for score, move in ranked_moves(view) if score >= 0]
            move = next(iter(history.fresh(view, worth)), None)
            if move is None:
                return Decision(None, None, ONLY_REPEATS_WORTH_PLAYING)
        if move is None:
            return Decision(None, None, no_move_reason(view))
        return Decision(move, None, reason_for(view, move))

    def play(self, board: Board, rules: Rules, seed: int) -> tuple[bool, list[Move]]:
        """A whole game from ``board``: (won, its moves, each checked by the reference
        engine as it is replayed)."""
        packed = pack(board, rules)
        line = np.empty(self.max_moves, dtype=np.int64)
        won, played = greedy_play.play(
            packed.state,
            packed.params,
            packed.zobrist,
            packed.column_keys,
            np.uint64(seed),
            self.max_moves,
            line,
            self.random_moves,
        )
        moves = [decode(int(move)) for move in line[:played]]
        board = reference.replay(board, moves, rules)
        if bool(won) != reference.is_won(board):
            raise RuntimeError("the greedy kernel and the reference engine disagree on a win")
        return bool(won), moves

    def wins(self, board: Board, rules: Rules, seeds: list[int]) -> list[bool]:
        """Whether each seeded game from ``board`` is won (kernel only, for ratings)."""
        packed = pack(board, rules)
        won = greedy_play.play_runs(
            packed.state,
            packed.params,
            packed.zobrist,
            packed.column_keys,
            np.array(seeds, dtype=np.uint64),
            self.max_moves,
            self.random_moves,
        )
        return [bool(flag) for flag in won]


def check_positive(policy: str, **settings) -> None:
    """YukonError unless every setting is a positive integer."""
    for name, value in settings.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise YukonError(f"{policy} setting {name} must be a positive integer, not {value!r}")


def no_move_reason(view: View) -> str:
    if not reference.legal_moves(world_of(view), view.rules):
        return NO_LEGAL_MOVE
    return "no move is worth playing (every legal move undoes progress)"
