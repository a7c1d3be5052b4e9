"""A policy's decision: the move, how sure it is, and a reason a person can read."""

from dataclasses import dataclass

from solver.cards import card_text
from solver.player.view import View
from solver.reference import STOCK_DEAL, TABLEAU, TO_FOUNDATION, Move


@dataclass(frozen=True)
class Decision:
    """``move`` is None when no legal move remains. ``confidence`` is the fraction of
    sampled worlds won after the move (None for a policy that does not estimate it)."""

    move: Move | None
    confidence: float | None
    reason: str


def reason_for(view: View, move: Move) -> str:
    """What the move does, in words, from what the view shows."""
    if move.kind == STOCK_DEAL:
        return f"deals the stock ({view.stock_size} cards left)"
    card = card_text(move.card)
    if move.kind == TO_FOUNDATION:
        return f"puts {card} on its foundation" + turn_clause(view, move.source, 1)
    if move.kind != TABLEAU:
        return f"brings {card} back from its foundation to column {move.target + 1}"
    target_cards = view.face_up[move.target]
    onto = f"onto {card_text(target_cards[-1])}" if target_cards else f"into empty column {move.target + 1}"
    what = f"moves {card} (with the {move.size - 1} cards on it) " if move.size > 1 else f"moves {card} "
    left = view.face_up[move.source][: -move.size]
    if turn_clause(view, move.source, move.size):
        return f"turns a card in column {move.source + 1}: " + what + onto
    if not left:
        return f"empties column {move.source + 1}: " + what + onto
    return what + onto + f", exposing {card_text(left[-1])} in column {move.source + 1}"


def turn_clause(view: View, column: int, size: int) -> str:
    """ ", turning a card in column N" when taking ``size`` cards off ``column`` turns one."""
    if size == len(view.face_up[column]) and view.face_down_counts[column]:
        return f", turning a card in column {column + 1}"
    return ""
