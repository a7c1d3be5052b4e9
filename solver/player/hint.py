"""One suggested move for a position, from what a person can see of it and the moves
already played (a hint never undoes the last move nor returns to a position seen)."""

from dataclasses import dataclass
from typing import Any

from solver.errors import ArgumentError, YukonError
from solver.game import reference
from solver.game.board import UNKNOWN, Board, check_board
from solver.game.notation import move_token
from solver.game.reference import IllegalMove
from solver.game.rules import Rules
from solver.player.decision import Confidence
from solver.player.history import NO_HISTORY, History, led_to, played_from
from solver.player.policies import DEFAULT_HINT_POLICY, make_policy
from solver.player.view import View, view_of, world_of

# What a hint found, and the exit status ``yukon hint`` ends with for it.
MOVE, LOST, STUCK, GONE, WON = "move", "lost", "stuck", "gone", "won"
EXIT_STATUSES = {MOVE: 0, LOST: 1, STUCK: 3, GONE: 4, WON: 5}


@dataclass(frozen=True)
class Hint:
    """``status``: MOVE (``move`` is a token in the project notation), WON (the position is
    won), LOST (no legal move remains), GONE (legal moves remain but the game cannot be won:
    every sampled deal of the unseen cards is proved lost from here, or, with nothing
    hidden, the position itself) or STUCK (legal moves remain but the policy plays none:
    each undoes the last move or returns to a position seen, or, for greedy, none is worth
    playing). ``confidence``: the sampled worlds won after the move (None for greedy)."""

    status: str
    move: str | None
    confidence: Confidence | None
    reason: str

    @property
    def exit_status(self) -> int:
        return EXIT_STATUSES[self.status]

    def text(self) -> str:
        sure = "" if self.confidence is None else f" ({self.confidence.text()})"
        if self.move is None:
            return f"{self.reason}{sure}"
        return f"{self.move}{sure}: {self.reason}"

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: ``confidence`` stays the fraction it was in release 0.1.0;
        ``sampled`` holds the k of n behind it and its interval."""
        sampled = None if self.confidence is None else self.confidence.as_dict()
        fraction = None if sampled is None else sampled["fraction"]
        return {
            "status": self.status,
            "move": self.move,
            "confidence": fraction,
            "sampled": sampled,
            "reason": self.reason,
        }


def hint(
    board: Board,
    rules: Rules,
    policy: str = DEFAULT_HINT_POLICY,
    seed: int = 0,
    history: History = NO_HISTORY,
    progress=None,
    **settings,
) -> Hint:
    """The policy's move for ``board`` (which may leave hidden cards UNKNOWN), given the
    game so far, checked legal on the reference engine; ``progress(done, total)`` follows
    the worlds a policy that samples deals."""
    check_board(board, rules, unknown_cards=True)
    return hint_for_view(view_of(board, rules), policy, seed, history, progress, **settings)


def hint_for_view(
    view: View, policy: str, seed: int, history: History = NO_HISTORY, progress=None, **settings
) -> Hint:
    """The policy's move for what the player sees, given the game so far."""
    player = make_policy(policy, **settings)
    world = world_of(view)
    if reference.is_won(world):
        return Hint(WON, None, None, "the position is won: every card is on its foundation")
    if not reference.legal_moves(world, view.rules):
        return Hint(LOST, None, None, "no legal move remains: the game is lost")
    following = {"progress": progress} if progress is not None and hasattr(player, "samples") else {}
    decision = player.decide(view, seed, history, **following)
    if decision.move is None:
        return Hint(GONE if decision.gone else STUCK, None, decision.confidence, decision.reason)
    reference.check_move(world, decision.move, view.rules)
    return Hint(MOVE, move_token(world, decision.move), decision.confidence, decision.reason)


def game_so_far(board: Board, rules: Rules, after: str = "", history: str = "") -> tuple[Board, History]:
    """The position to hint and the game that led to it: ``history`` (the moves that led to
    ``board``, taken back on what the player sees), then ``after`` (moves played from
    ``board``). A move that names something not there is a YukonError naming its place."""
    earlier = led_to(view_of(board, rules), history.split()) if history.strip() else NO_HISTORY
    try:
        final, played = played_from(board, after.split(), rules)
    except (IllegalMove, YukonError) as error:
        raise ArgumentError("after", f": {error}") from None
    if any(UNKNOWN in cards[down:] for cards, down in zip(final.columns, final.face_down_counts)):
        raise ArgumentError(
            "after",
            ": a move shows a card the board leaves unknown (<?> or Stock: ?): give the "
            "position after it as the board and the moves before it as the history",
        )
    return final, History(earlier.seen | played.seen, played.last or earlier.last)
