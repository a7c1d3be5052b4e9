"""Move tokens: the project's fixed notation, which other tools parse.

``3>7:TS`` packet led by TS from column 3 to column 7 (``3>7:TS/5`` names the packet size
where two face-up copies of TS lie in column 3); ``3>F:AH`` exposed AH to its foundation;
``F>2:QC`` QC back from its foundation to column 2; ``S`` a stock deal. Columns count from
1; face-up turns are implied. A solution is its tokens separated by spaces.
"""

import re
from dataclasses import asdict, dataclass
from typing import Any

from solver.errors import YukonError, clipped
from solver.game.board import Board, foundation_top
from solver.game.cards import card_text, parse_card, plain_text
from solver.game.reference import (
    FROM_FOUNDATION,
    STOCK_DEAL,
    TABLEAU,
    TO_FOUNDATION,
    IllegalMove,
    Move,
    apply_move,
    foundation_slot_for,
    returnable_slots,
)
from solver.game.rules import Rules

TOKEN = re.compile(
    r"^(?:([0-9]{1,4})>([0-9]{1,4}|F)|F>([0-9]{1,4})):([0-9A-Z]{2,3})(?:/([0-9]{1,4}))?$|^S$",
    re.IGNORECASE | re.ASCII,
)


def move_token(board: Board, move: Move) -> str:
    """The token of a move made from ``board``."""
    if move.kind == STOCK_DEAL:
        return "S"
    card = card_text(move.card)
    if move.kind == TO_FOUNDATION:
        return f"{move.source + 1}>F:{card}"
    if move.kind == FROM_FOUNDATION:
        return f"F>{move.target + 1}:{card}"
    token = f"{move.source + 1}>{move.target + 1}:{card}"
    if len(face_up_positions(board, move.source, move.card)) > 1:
        token += f"/{move.size}"
    return token


def face_up_positions(board: Board, column: int, card: int) -> list[int]:
    cards = board.columns[column]
    return [i for i in range(board.face_down_counts[column], len(cards)) if cards[i] == card]


def parse_token(token: str, board: Board) -> Move:
    """The move a token names in ``board``. Unreadable: YukonError; names something that is
    not there (a missing column, a card not face up): IllegalMove. Legality against the
    rules is left to ``reference.check_move``. A token as printed on a terminal (``2>F:A♣``)
    reads as its plain form."""
    token = plain_text(token)
    match = TOKEN.match(token)
    if not match:
        raise YukonError(
            f"unreadable move {clipped(repr(token))} (expected like 3>7:TS, 3>F:AH, F>2:QC or S)"
        )
    if token.upper() == "S":
        return Move(STOCK_DEAL, -1, -1, -1, min(len(board.stock), len(board.columns)))
    source_text, target_text, return_target, card_text_, size_text = match.groups()
    card = parse_card(card_text_, f"in move {token!r}")
    if return_target:
        target = column_number(return_target, board)
        slots = [s for s in returnable_slots(board) if foundation_top(board.foundations, s) == card]
        if not slots:
            raise IllegalMove(f"{card_text(card)} is not on top of a foundation")
        return Move(FROM_FOUNDATION, slots[0], target, card)
    source = column_number(source_text, board)
    if target_text.upper() == "F":
        slot = foundation_slot_for(board, card)
        return Move(TO_FOUNDATION, source, -1 if slot is None else slot, card)
    target = column_number(target_text, board)
    positions = face_up_positions(board, source, card)
    size_of = {len(board.columns[source]) - index: index for index in positions}
    if size_text:
        size = int(size_text)
        if size not in size_of:
            raise IllegalMove(f"no face-up {card_text(card)} leads a packet of {size} in column {source + 1}")
    elif len(positions) == 1:
        size = len(board.columns[source]) - positions[0]
    elif not positions:
        raise IllegalMove(f"{card_text(card)} is not face up in column {source + 1}")
    else:
        raise IllegalMove(f"two face-up {card_text(card)} in column {source + 1}: add /SIZE")
    return Move(TABLEAU, source, target, card, size)


def column_number(text: str, board: Board) -> int:
    number = int(text)
    if not 1 <= number <= len(board.columns):
        raise IllegalMove(f"there is no column {number}")
    return number - 1


def replay_tokens(board: Board, tokens: list[str], rules: Rules):
    """Yield (token, move, board after) for each token; IllegalMove names the move number,
    the token and the broken rule."""
    for number, token in enumerate(tokens, start=1):
        try:
            move = parse_token(token, board)
            board = apply_move(board, move, rules)
        except IllegalMove as error:
            raise IllegalMove(f"move {number} {token}: {error}") from None
        except YukonError as error:
            raise YukonError(f"move {number}: {error}") from None
        yield token, move, board


def final_position(board: Board, tokens: list[str], rules: Rules) -> Board:
    """The position after replaying every token (IllegalMove as in ``replay_tokens``)."""
    final = board
    for _token, _move, after in replay_tokens(board, tokens, rules):
        final = after
    return final


def solution_text(board: Board, moves: list[Move], rules: Rules) -> str:
    """Tokens of a line of moves starting at ``board``."""
    return replayed_line(board, moves, rules)[0]


def replayed_line(board: Board, moves: list[Move], rules: Rules) -> tuple[str, Board]:
    """The tokens of a line of moves starting at ``board``, each token read back and the move
    it names (which must be the line's) made on the reference engine: (the tokens, the position
    they end in). One pass writes the line and replays the tokens themselves (IllegalMove as
    in ``replay_tokens``)."""
    tokens = []
    for number, move in enumerate(moves, start=1):
        token = move_token(board, move)
        try:
            named = parse_token(token, board)
            if not same_move(named, move):
                raise IllegalMove(f"the token names another move than {move}")
            board = apply_move(board, named, rules)
        except IllegalMove as error:
            raise IllegalMove(f"move {number} {token}: {error}") from None
        tokens.append(token)
    return " ".join(tokens), board


def same_move(named: Move, move: Move) -> bool:
    """Is ``named`` (read from a token) ``move``? A foundation move's token does not name the
    slot (with two decks either of a suit's slots one below the card takes it)."""
    if named.kind == TO_FOUNDATION == move.kind:
        return (named.source, named.card) == (move.source, move.card)
    return named == move


# How a structured move names its kind (``LineMove.kind``), by ``reference.Move.kind``.
KIND_NAMES = {
    TABLEAU: "tableau",
    TO_FOUNDATION: "to_foundation",
    FROM_FOUNDATION: "from_foundation",
    STOCK_DEAL: "stock",
}


@dataclass(frozen=True)
class LineMove:
    """One move of a line as data, for a program to animate or check.

    ``token`` is the move in the notation above; ``kind`` one of ``KIND_NAMES``' values;
    ``source`` and ``target`` are columns counted from 1 (None on the foundation or stock side);
    ``card`` the card moved, the one leading the packet (None for a stock deal); ``size`` the
    cards moved (a stock deal: the cards dealt); ``turned_up`` the face-down card the move
    left exposed and so turned face up (None when it turned none)."""

    token: str
    kind: str
    source: int | None
    target: int | None
    card: str | None
    size: int
    turned_up: str | None

    def to_json(self) -> dict[str, Any]:
        """Its fields, as a JSON object."""
        return asdict(self)


def line_move(token: str, move: Move, before: Board, after: Board) -> LineMove:
    """The structured form of ``move``, written ``token``, which led from ``before`` to ``after``."""
    on_columns = move.kind in (TABLEAU, TO_FOUNDATION)
    turned = None
    if on_columns and after.face_down_counts[move.source] < before.face_down_counts[move.source]:
        turned = card_text(after.columns[move.source][after.face_down_counts[move.source]])
    return LineMove(
        token=token,
        kind=KIND_NAMES[move.kind],
        source=move.source + 1 if on_columns else None,
        target=move.target + 1 if move.kind in (TABLEAU, FROM_FOUNDATION) else None,
        card=None if move.kind == STOCK_DEAL else card_text(move.card),
        size=move.size,
        turned_up=turned,
    )


def line_steps(board: Board, tokens: list[str], rules: Rules):
    """Yield (LineMove, board after) for each token (errors as in ``replay_tokens``)."""
    before = board
    for token, move, after in replay_tokens(board, tokens, rules):
        yield line_move(token, move, before, after), after
        before = after
