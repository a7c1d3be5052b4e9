"""Moves in words: one sentence per move, naming the packet, what it lands on (a card, an
empty column, its foundation) and what it turns up or frees.

The hint says it from what a person sees, where the card a move turns up is not known yet
("turns a card in column 3"); an explained line says it from the whole board and names that
card ("turns up 9D in column 3"). Both are ``move_sentence``.
"""

from solver.errors import counted
from solver.game.board import Board
from solver.game.cards import card_text
from solver.game.notation import replay_tokens
from solver.game.reference import STOCK_DEAL, TABLEAU, TO_FOUNDATION, Move
from solver.game.rules import Rules


def move_sentence(
    face_up: tuple[tuple[int, ...], ...],
    face_down_counts: tuple[int, ...],
    stock_size: int,
    move: Move,
    turned: int | None = None,
) -> str:
    """What ``move`` does, in words, from the face-up cards of every column (bottom first),
    the face-down counts and the stock's size; ``turned`` is the card the move turns up
    when the teller may know it (None: "a card")."""
    if move.kind == STOCK_DEAL:
        return stock_sentence(stock_size, len(face_up))
    card = card_text(move.card)
    turns = move.kind in (TABLEAU, TO_FOUNDATION) and turns_a_card(face_up, face_down_counts, move)
    what_turns = "a card" if turned is None else f"up {card_text(turned)}"
    if move.kind == TO_FOUNDATION:
        return f"puts {card} on its foundation" + freed_clause(face_up, move, what_turns if turns else "")
    if move.kind != TABLEAU:
        return f"brings {card} back from its foundation to column {move.target + 1}"
    target_cards = face_up[move.target]
    onto = f"onto {card_text(target_cards[-1])}" if target_cards else f"into empty column {move.target + 1}"
    what = f"moves {card} ({cards_on_it(move.size - 1)}) " if move.size > 1 else f"moves {card} "
    if turns:
        return f"turns {what_turns} in column {move.source + 1}: " + what + onto
    if move.size == len(face_up[move.source]):
        return f"empties column {move.source + 1}: " + what + onto
    return what + onto + freed_clause(face_up, move, "")


def stock_sentence(stock_size: int, column_count: int) -> str:
    """A stock deal from a stock of ``stock_size`` cards (one card onto each column while
    they last): how many it deals and how many stay."""
    dealt = min(stock_size, column_count)
    if dealt == stock_size:
        return (
            "deals the last card of the stock" if dealt == 1 else f"deals the last {dealt} cards of the stock"
        )
    return f"deals {counted(dealt, 'card')} from the stock ({stock_size - dealt} left)"


def cards_on_it(count: int) -> str:
    """ "with the card on it", "with the 3 cards on it"."""
    return "with the card on it" if count == 1 else f"with the {count} cards on it"


def freed_clause(face_up, move: Move, what_turns: str) -> str:
    """ ", turning up 9D in column 3" (``what_turns``: what is turned, when a card is),
    ", exposing 9D in column 3" or ", emptying column 3": what taking the move's cards off
    its column leaves there."""
    size = move.size if move.kind == TABLEAU else 1
    left = face_up[move.source][:-size]
    if what_turns:
        return f", turning {what_turns} in column {move.source + 1}"
    if not left:
        return f", emptying column {move.source + 1}"
    return f", exposing {card_text(left[-1])} in column {move.source + 1}"


def turns_a_card(face_up, face_down_counts, move: Move) -> bool:
    """Does taking the move's cards off its source column turn a face-down card?"""
    size = move.size if move.kind == TABLEAU else 1
    return size == len(face_up[move.source]) and face_down_counts[move.source] > 0


def board_sentence(board: Board, move: Move) -> str:
    """``move_sentence`` told from the whole ``board``: the card a move turns up is named."""
    face_up = tuple(cards[down:] for cards, down in zip(board.columns, board.face_down_counts))
    turned = None
    if move.kind in (TABLEAU, TO_FOUNDATION) and turns_a_card(face_up, board.face_down_counts, move):
        turned = board.columns[move.source][board.face_down_counts[move.source] - 1]
    return move_sentence(face_up, board.face_down_counts, len(board.stock), move, turned)


def line_sentences(board: Board, tokens: list[str], rules: Rules) -> list[str]:
    """One sentence per move of the line ``tokens`` from ``board``, replaying it on the
    reference engine as it goes (an illegal move raises as in ``notation.replay_tokens``)."""
    sentences, before = [], board
    for _token, move, after in replay_tokens(board, tokens, rules):
        sentences.append(board_sentence(before, move))
        before = after
    return sentences
