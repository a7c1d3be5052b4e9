"""One suggested move for a position, from what a person can see of it."""

from dataclasses import dataclass

from solver import reference
from solver.board import Board, check_board
from solver.errors import YukonError
from solver.notation import final_position, move_token
from solver.player.policies import make_policy
from solver.player.view import view_of
from solver.rules import Rules


@dataclass(frozen=True)
class Hint:
    """``move`` is a token in the project notation (None: the policy plays none, e.g. the
    greedy player when no legal move is worth playing);
    ``confidence`` the fraction of sampled worlds won after it (None for greedy)."""

    move: str | None
    confidence: float | None
    reason: str

    def text(self) -> str:
        if self.move is None:
            return self.reason
        sure = "" if self.confidence is None else f" ({self.confidence:.0%} of sampled deals won after it)"
        return f"{self.move}{sure}: {self.reason}"


def hint(board: Board, rules: Rules, policy: str = "sampling", seed: int = 0, **settings) -> Hint:
    """The policy's move for ``board``, checked legal on the reference engine."""
    check_board(board, rules)
    if reference.is_won(board):
        raise YukonError("the position is already won: there is no move to hint")
    if not reference.legal_moves(board, rules):
        raise YukonError("no legal move remains in this position: there is no move to hint")
    decision = make_policy(policy, **settings).decide(view_of(board, rules), seed)
    if decision.move is None:
        return Hint(None, decision.confidence, decision.reason)
    reference.check_move(board, decision.move, rules)
    return Hint(move_token(board, decision.move), decision.confidence, decision.reason)


def position_after(board: Board, rules: Rules, after: str) -> Board:
    """The position after the moves ``after`` (``--after "3>7:TS 5>F:AH"``) from ``board``;
    an illegal move is a YukonError naming the move and its place in the line."""
    try:
        return final_position(board, after.split(), rules)
    except (reference.IllegalMove, YukonError) as error:
        raise YukonError(f"--after: {error}") from None
