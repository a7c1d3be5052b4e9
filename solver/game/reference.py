"""The reference rules engine: plain Python, written to be checked against the rules line
by line (see ``rules.py``). It is the truth: the numba engine is tested against it and every
solution is replayed on it before it is reported or stored. Simple, not fast.
"""

from dataclasses import dataclass, replace

from solver.engine.move_kinds import FROM_FOUNDATION, STOCK_DEAL, TABLEAU, TO_FOUNDATION
from solver.errors import YukonError
from solver.game.board import Board, foundation_top
from solver.game.cards import KING, card_rank, card_suit, card_text, is_red
from solver.game.rules import Rules


@dataclass(frozen=True)
class Move:
    """One move. ``kind`` is one of ``engine.move_kinds`` (TABLEAU, ...). ``source``/``target``
    are 0-based column numbers, or a foundation slot on the foundation side. ``card`` is the
    leading (or only) card moved; ``size`` the number of cards moved (a stock deal: the number
    dealt)."""

    kind: int
    source: int
    target: int
    card: int
    size: int = 1


class IllegalMove(YukonError):
    """The move breaks a rule; the message names the rule (bad input, as every YukonError)."""


# --- the rules --------------------------------------------------------------------------


def builds_on(card: int, below: int, rules: Rules) -> bool:
    """May ``card`` lead a packet onto a column whose exposed card is ``below``?"""
    if card_rank(card) + 1 != card_rank(below):
        return False
    if rules.same_suit_building:
        return card_suit(card) == card_suit(below)
    return is_red(card) != is_red(below)


def column_accepts(board: Board, column: int, card: int, rules: Rules) -> bool:
    """An empty column takes only a King; otherwise the card must build on the exposed card."""
    exposed = board.exposed_card(column)
    if exposed is None:
        return card_rank(card) == KING
    return builds_on(card, exposed, rules)


def foundation_slot_for(board: Board, card: int) -> int | None:
    """The first foundation of the card's suit whose top is one rank lower, if any."""
    for slot, height in enumerate(board.foundations):
        if slot % 4 == card_suit(card) and height + 1 == card_rank(card):
            return slot
    return None


def returnable_slots(board: Board) -> list[int]:
    """Non-empty foundation slots, one per distinct top card: of two equal slots the later
    one, so the slots of a suit stay in falling order of height."""
    return [
        slot
        for slot, height in enumerate(board.foundations)
        if height and board.foundations[slot + 4 :: 4].count(height) == 0
    ]


def legal_moves(board: Board, rules: Rules) -> list[Move]:
    moves = []
    for source, cards in enumerate(board.columns):
        for index in range(board.face_down_counts[source], len(cards)):
            leader = cards[index]
            for target in range(len(board.columns)):
                if target != source and column_accepts(board, target, leader, rules):
                    moves.append(Move(TABLEAU, source, target, leader, len(cards) - index))
        if cards:
            slot = foundation_slot_for(board, cards[-1])
            if slot is not None:
                moves.append(Move(TO_FOUNDATION, source, slot, cards[-1]))
    if rules.foundation_return:
        for slot in returnable_slots(board):
            top = foundation_top(board.foundations, slot)
            for target in range(len(board.columns)):
                if column_accepts(board, target, top, rules):
                    moves.append(Move(FROM_FOUNDATION, slot, target, top))
    if board.stock:
        moves.append(Move(STOCK_DEAL, -1, -1, -1, min(len(board.stock), len(board.columns))))
    return moves


def is_won(board: Board) -> bool:
    return all(height == KING for height in board.foundations)


def check_move(board: Board, move: Move, rules: Rules) -> None:
    """Raise IllegalMove naming the broken rule, or return if the move is legal."""
    if move.kind == TABLEAU:
        cards = board.columns[move.source]
        index = len(cards) - move.size
        if move.source == move.target:
            raise IllegalMove("source and target are the same column")
        if not 0 <= index < len(cards) or cards[index] != move.card:
            raise IllegalMove(f"{card_text(move.card)} does not lead a packet of {move.size} there")
        if index < board.face_down_counts[move.source]:
            raise IllegalMove(f"{card_text(move.card)} is face down")
        explain_target(board, move.target, move.card, rules)
    elif move.kind == TO_FOUNDATION:
        if board.exposed_card(move.source) != move.card:
            raise IllegalMove(
                f"only a column's exposed card goes to a foundation, not {card_text(move.card)}"
            )
        if foundation_slot_for(board, move.card) is None:
            raise IllegalMove(f"no foundation takes {card_text(move.card)} yet")
    elif move.kind == FROM_FOUNDATION:
        if not rules.foundation_return:
            raise IllegalMove("foundation return is off in these rules")
        if move.source not in returnable_slots(board) or (
            foundation_top(board.foundations, move.source) != move.card
        ):
            raise IllegalMove(f"{card_text(move.card)} is not on top of a foundation")
        explain_target(board, move.target, move.card, rules)
    elif move.kind == STOCK_DEAL:
        if not board.stock:
            raise IllegalMove("the stock is empty")
    else:
        raise IllegalMove(f"unknown move kind {move.kind!r}")


def explain_target(board: Board, target: int, card: int, rules: Rules) -> None:
    if column_accepts(board, target, card, rules):
        return
    exposed = board.exposed_card(target)
    if exposed is None:
        raise IllegalMove(f"only a King-led packet enters an empty column, not {card_text(card)}")
    need = "same suit" if rules.same_suit_building else "opposite colour"
    raise IllegalMove(f"{card_text(card)} does not build on {card_text(exposed)} (one rank lower, {need})")


# --- applying moves ---------------------------------------------------------------------


def apply_move(board: Board, move: Move, rules: Rules) -> Board:
    """The position after a legal move, with any newly exposed face-down card turned up."""
    check_move(board, move, rules)
    columns = list(board.columns)
    face_down_counts = list(board.face_down_counts)
    foundations = list(board.foundations)
    stock = board.stock
    if move.kind == TABLEAU:
        packet = columns[move.source][-move.size :]
        columns[move.source] = columns[move.source][: -move.size]
        columns[move.target] = columns[move.target] + packet
    elif move.kind == TO_FOUNDATION:
        columns[move.source] = columns[move.source][:-1]
        foundations[move.target] += 1
    elif move.kind == FROM_FOUNDATION:
        foundations[move.source] -= 1
        columns[move.target] = columns[move.target] + (move.card,)
    else:
        dealt, stock = stock[: move.size], stock[move.size :]
        for column, card in enumerate(dealt):
            columns[column] = columns[column] + (card,)
    for column, cards in enumerate(columns):
        face_down_counts[column] = min(face_down_counts[column], max(len(cards) - 1, 0))
    return Board(tuple(columns), tuple(face_down_counts), tuple(foundations), stock)


def undo_move(after: Board, move: Move, before_face_down_counts: tuple[int, ...]) -> Board:
    """The position before ``move``, given the position after it and the face-down counts
    before it (a turned card is the one fact the position after cannot tell)."""
    columns = list(after.columns)
    foundations = list(after.foundations)
    stock = after.stock
    if move.kind == TABLEAU:
        packet = columns[move.target][-move.size :]
        columns[move.target] = columns[move.target][: -move.size]
        columns[move.source] = columns[move.source] + packet
    elif move.kind == TO_FOUNDATION:
        foundations[move.target] -= 1
        columns[move.source] = columns[move.source] + (move.card,)
    elif move.kind == FROM_FOUNDATION:
        columns[move.target] = columns[move.target][:-1]
        foundations[move.source] += 1
    else:
        dealt = tuple(columns[column][-1] for column in range(move.size))
        for column in range(move.size):
            columns[column] = columns[column][:-1]
        stock = dealt + stock
    return replace(
        after,
        columns=tuple(columns),
        face_down_counts=before_face_down_counts,
        foundations=tuple(foundations),
        stock=stock,
    )


def replay(board: Board, moves: list[Move], rules: Rules) -> Board:
    """Apply every move in turn (IllegalMove names the first one that breaks a rule)."""
    for number, move in enumerate(moves, start=1):
        try:
            board = apply_move(board, move, rules)
        except IllegalMove as error:
            raise IllegalMove(f"move {number}: {error}") from None
    return board
