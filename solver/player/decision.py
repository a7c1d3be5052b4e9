"""A policy's decision: the move, how sure it is, and a reason a person can read."""

from dataclasses import dataclass

from solver.explain import move_sentence
from solver.player.view import View
from solver.reference import Move


@dataclass(frozen=True)
class Decision:
    """``move`` is None when no legal move remains. ``confidence`` is the fraction of
    sampled worlds won after the move (None for a policy that does not estimate it)."""

    move: Move | None
    confidence: float | None
    reason: str


def reason_for(view: View, move: Move) -> str:
    """What the move does, in words, from what the view shows (a card it turns is unknown)."""
    return move_sentence(view.face_up, view.face_down_counts, view.stock_size, move)
