"""A game to play through the API, in the spirit of python-chess's ``Board``: a position and
the moves made from it, with ``legal_moves()``, ``push()``, ``pop()``, ``is_won()`` and
``is_lost()``, every move checked and made on the reference engine (``solver.game.reference``,
the truth the solver is replayed on).

A ``Move`` is a move as the project's notation writes it (``3>7:TS``, ``3>F:AH``,
``F>2:QC``, ``S``; docs/formats.md, "Move notation"): ``Move.parse(text)`` reads one, ``str(move)``
writes it back. A move names columns and a card, not a position; ``Game.push`` finds what
it names on the game's board.

A game may start from a position with unknown cards (``<?>``, ``Stock: ?``: what a player
sees, or a ``View``). Which moves are legal never depends on a hidden card; a move that turns
one up is pushed with the card it shows (``reveal=``), since the game cannot know it.
"""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from solver.errors import ArgumentError, YukonError, clipped
from solver.game.board import UNKNOWN, Board, check_board
from solver.game.cards import card_text, parse_card
from solver.game.notation import TOKEN, LineMove, line_move, move_token, parse_token
from solver.game.numbering import deal_board
from solver.game.ranges import named_deal
from solver.game.reference import IllegalMove, apply_move, check_move, is_won, legal_moves
from solver.game.rules import Rules, rules_named
from solver.player.view import View, view_of

# ``Move.kind``: the kinds of move, as ``LineMove.kind`` names them.
TABLEAU, TO_FOUNDATION, FROM_FOUNDATION, STOCK = "tableau", "to_foundation", "from_foundation", "stock"


@dataclass(frozen=True)
class Move:
    """A move as the notation writes it. ``kind`` is ``"tableau"``, ``"to_foundation"``,
    ``"from_foundation"`` or ``"stock"``; ``source`` and ``target`` are columns counted from 1
    (None on the foundation or stock side); ``card`` the card moved, or the one leading the
    packet, as text (``"TS"``; None for a stock deal); ``size`` the packet's size when the
    token names it (``3>7:TS/5``, needed only where two face-up copies of a card lie in one
    column), else None. Two moves are equal when their tokens are."""

    kind: str
    source: int | None
    target: int | None
    card: str | None
    size: int | None = None

    @classmethod
    def parse(cls, text: str) -> "Move":
        """The move a token names (``"3>7:TS"``, ``"3>F:AH"``, ``"F>2:QC"``, ``"S"``, any
        case; ``10`` for T); YukonError when it is not a token."""
        if not isinstance(text, str):
            raise ArgumentError("move", f" must be a token like 3>7:TS or S, not {type(text).__name__}")
        token = text.strip()
        match = TOKEN.match(token)
        if not match:
            raise YukonError(
                f"unreadable move {clipped(repr(text))} (expected like 3>7:TS, 3>F:AH, F>2:QC or S)"
            )
        if token.upper() == "S":
            return cls(STOCK, None, None, None)
        source, target, return_target, card, size = match.groups()
        named = card_text(parse_card(card, f"in move {token!r}"))
        packet = None if size is None else int(size)
        if return_target:
            return cls(FROM_FOUNDATION, None, int(return_target), named)
        if target.upper() == "F":
            return cls(TO_FOUNDATION, int(source), None, named)
        return cls(TABLEAU, int(source), int(target), named, packet)

    def __str__(self) -> str:
        if self.kind == STOCK:
            return "S"
        if self.kind == TO_FOUNDATION:
            return f"{self.source}>F:{self.card}"
        if self.kind == FROM_FOUNDATION:
            return f"F>{self.target}:{self.card}"
        return f"{self.source}>{self.target}:{self.card}" + ("" if self.size is None else f"/{self.size}")

    def to_json(self) -> dict[str, Any]:
        """``{"token", "kind", "source", "target", "card", "size"}``."""
        fields = {"kind": self.kind, "source": self.source, "target": self.target, "card": self.card}
        return {"token": str(self), **fields, "size": self.size}


class Game:
    """A game: the position ``opening``, the moves pushed since (``move_stack``) and the
    position they lead to (``board``), under ``rules``.

    Made from a Board (``Game(board, "russian")``; the board may leave hidden cards unknown),
    from what a player sees (``Game(view)``: a ``View`` knows its rules), or from a deal
    (``Game.deal(12, "milligan", numbering="pysol")``). A position that does not fit the rules
    is a YukonError."""

    def __init__(self, position: Board | View, rules: Rules | str = "yukon") -> None:
        if isinstance(position, View):
            rules, position = position.rules, board_of_view(position)
        self.rules: Rules = rules_named(rules)
        if not isinstance(position, Board):
            raise ArgumentError("position", f" must be a Board or a View, not {type(position).__name__}")
        check_board(position, self.rules, unknown_cards=True)
        self.opening: Board = position
        self._played: list[tuple[Move, Board]] = []  # each move with the position before it
        self._board = position

    @classmethod
    def deal(cls, number: int | str, variant: Rules | str = "yukon", *, numbering: str = "pysol") -> "Game":
        """A game from the opening of deal ``number`` (``12``, ``"#12"``, ``"ms12345"``; see
        ``solver.deal``) of ``variant`` (a name or Rules)."""
        rules = rules_named(variant)
        return cls(deal_board(rules.variant, *named_deal(number, numbering)), rules)

    @property
    def board(self) -> Board:
        """The position now."""
        return self._board

    @property
    def move_stack(self) -> tuple[Move, ...]:
        """The moves pushed, first first."""
        return tuple(move for move, _ in self._played)

    def line(self) -> str:
        """The moves pushed as a line of tokens (what ``solver.replay`` reads)."""
        return " ".join(str(move) for move in self.move_stack)

    def legal_moves(self) -> list[Move]:
        """Every legal move of the position now, by the reference engine."""
        return [Move.parse(move_token(self._board, move)) for move in legal_moves(self._board, self.rules)]

    def is_legal(self, move: "Move | str") -> bool:
        """Is ``move`` (a Move or a token) legal now?"""
        try:
            check_move(self._board, parse_token(str(as_move(move)), self._board), self.rules)
        except IllegalMove:
            return False
        return True

    def push(self, move: "Move | str", reveal: str | Sequence[str] | None = None) -> LineMove:
        """Make ``move`` (a Move or a token) and return what it did (a LineMove: its token,
        the card turned up, ...). An illegal move is an IllegalMove naming the broken rule,
        and the game is left as it was. ``reveal``: the card a move turns up where the board
        leaves it unknown (a stock deal from an unknown stock: the cards dealt, left to right);
        required exactly then, and refused if it is not one of the cards not yet seen."""
        chosen = as_move(move)
        token = str(chosen)
        try:
            engine_move = parse_token(token, self._board)
            after = apply_move(self._board, engine_move, self.rules)
        except IllegalMove as error:
            raise IllegalMove(f"illegal move {token}: {error}") from None
        after = revealed(self._board, after, reveal, self.rules)
        done = line_move(move_token(self._board, engine_move), engine_move, self._board, after)
        self._played.append((Move.parse(done.token), self._board))
        self._board = after
        return done

    def pop(self) -> Move:
        """Take back the last move and return it (IndexError-free: a YukonError when no move
        was pushed)."""
        if not self._played:
            raise YukonError("no move to take back: the game is at its opening")
        move, self._board = self._played.pop()
        return move

    def peek(self) -> Move | None:
        """The last move pushed, or None."""
        return self._played[-1][0] if self._played else None

    def is_won(self) -> bool:
        """Is every card on the foundations?"""
        return is_won(self._board)

    def is_lost(self) -> bool:
        """No legal move is left and the game is not won: the rules make the loss plain.
        (A game may be lost long before; ``solver.solve_board`` can tell.)"""
        return not self.is_won() and not legal_moves(self._board, self.rules)

    def is_over(self) -> bool:
        """Won or lost."""
        return self.is_won() or self.is_lost()

    def view(self) -> View:
        """What the player sees now: face-up cards, face-down counts, foundations, stock size
        (never a hidden card)."""
        return view_of(self._board, self.rules)

    def __repr__(self) -> str:
        return f"Game({self.rules.label()}, {len(self._played)} moves pushed)"


def as_move(move: "Move | str") -> Move:
    """A Move given as a Move or as a token."""
    return move if isinstance(move, Move) else Move.parse(move)


def board_of_view(view: View) -> Board:
    """The Board of what a player sees: face-down cards and the stock unknown."""
    return Board(
        tuple((UNKNOWN,) * down + up for up, down in zip(view.face_up, view.face_down_counts)),
        view.face_down_counts,
        view.foundations,
        (UNKNOWN,) * view.stock_size,
    )


def revealed(before: Board, after: Board, reveal: str | Sequence[str] | None, rules: Rules) -> Board:
    """``after`` with the unknown cards the move turned up replaced by ``reveal``'s, which
    must be as many as those and cards not yet seen in ``before``."""
    places = [
        (column, cards.index(UNKNOWN, down))
        for column, (cards, down) in enumerate(zip(after.columns, after.face_down_counts))
        if UNKNOWN in cards[down:]
    ]
    given = [reveal] if isinstance(reveal, str) else list(reveal or [])
    if len(given) != len(places):
        shown = "no unknown card" if not places else f"{len(places)} unknown card(s)"
        raise ArgumentError("reveal", f": the move turns up {shown}; {len(given)} given")
    cards = [parse_card(text, "in reveal") if isinstance(text, str) else text for text in given]
    unseen = Counter(view_of(before, rules).unseen())
    if Counter(cards) - unseen:
        raise ArgumentError("reveal", f": {' '.join(map(card_text, cards))} not all among the cards not seen")
    columns = [list(cards_in_column) for cards_in_column in after.columns]
    for (column, index), card in zip(places, cards):
        columns[column][index] = card
    return Board(tuple(map(tuple, columns)), after.face_down_counts, after.foundations, after.stock)
