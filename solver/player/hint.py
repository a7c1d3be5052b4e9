"""One suggested move for a position, from what a person can see of it."""

from dataclasses import dataclass

from solver import reference
from solver.board import Board, check_board
from solver.errors import YukonError
from solver.notation import final_position, move_token
from solver.numbering import deal_board
from solver.player.policies import make_policy
from solver.player.view import view_of
from solver.rules import Rules


@dataclass(frozen=True)
class Hint:
    """``move`` is a token in the project notation (None: no legal move remains);
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
    decision = make_policy(policy, **settings).decide(view_of(board, rules), seed)
    if decision.move is None:
        return Hint(None, decision.confidence, decision.reason)
    reference.check_move(board, decision.move, rules)
    return Hint(move_token(board, decision.move), decision.confidence, decision.reason)


def position_after(deal: int, rules: Rules, after: str, numbering: str = "pysol") -> Board:
    """The position of deal ``deal`` after the moves ``after`` (``--after "3>7:TS 5>F:AH"``);
    an illegal move is a YukonError naming the move and its place in the line."""
    board = deal_board(rules.variant, deal, numbering)
    try:
        return final_position(board, after.split(), rules)
    except (reference.IllegalMove, YukonError) as error:
        raise YukonError(f"--after: {error}") from None
