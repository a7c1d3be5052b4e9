"""The game so far as a player remembers it: every position seen (as views, what a person
saw) and the last move played. A hint given the history never undoes the last move nor
leads back to a position already seen.

Only positions with as many hidden cards as now can come back: no move turns a card face
down again or puts one back into the stock. So a move that shows a hidden card never
revisits, and every other move's view follows from the view alone (``view_after``).

A history comes from moves played from a known start (``played_from``: a numbered deal, or
a board) or from moves that led to the position in front of the player (``led_to``, for a
board given with ``--history``): those are taken back one by one on the view, as far as the
first that may have turned a card (the tokens do not say which card a move turned up; the
positions before such a move are left out, which can only miss a repeat, never invent one).
"""

from dataclasses import dataclass

from solver.errors import ArgumentError, YukonError, clipped
from solver.game import reference
from solver.game.board import Board
from solver.game.cards import card_rank, card_suit, card_text, parse_card
from solver.game.notation import TOKEN, parse_token, replay_tokens
from solver.game.reference import TABLEAU, IllegalMove, Move
from solver.game.rules import Rules
from solver.player.view import View, view_of, world_of


@dataclass(frozen=True)
class History:
    """``seen``: the views of the positions seen so far; ``last``: the last move played."""

    seen: frozenset[View] = frozenset()
    last: Move | None = None

    def after(self, view: View, move: Move) -> "History":
        """The history once ``move`` has been played from ``view``."""
        return History(self.seen | {view}, move)

    def fresh(self, view: View, moves: list[Move]) -> list[Move]:
        """``moves`` (legal in ``view``) but those that undo the last move or lead to a
        position seen."""
        if not self.seen and self.last is None:
            return list(moves)
        world = world_of(view)
        return [
            move
            for move in moves
            if not undoes(move, self.last) and view_after(world, view, move) not in self.seen
        ]


NO_HISTORY = History()


def undoes(move: Move, last: Move | None) -> bool:
    """Does ``move`` take the packet ``last`` moved straight back?"""
    return (
        last is not None
        and move.kind == last.kind == TABLEAU
        and move.card == last.card
        and (move.source, move.target) == (last.target, last.source)
    )


def view_after(world: Board, view: View, move: Move) -> View | None:
    """The view after ``move`` from ``world`` (any world of ``view``); None when the move
    shows a hidden card (the view after it then depends on that card, and it cannot be a
    position seen before)."""
    after = view_of(reference.apply_move(world, move, view.rules), view.rules)
    return None if after.hidden_count < view.hidden_count else after


def played_from(board: Board, tokens: list[str], rules: Rules) -> tuple[Board, History]:
    """The position after ``tokens`` from ``board``, and the history of that game (a card
    left unknown that a move shows is the caller's to refuse). IllegalMove and YukonError
    name the move and its place."""
    history = History()
    for _token, move, after in replay_tokens(board, tokens, rules):
        history = history.after(view_of(board, rules), move)
        board = after
    return board, history


def led_to(view: View, tokens: list[str]) -> History:
    """The history of the moves ``tokens`` that ended in ``view``, taken back from the last
    as far as the first that may have turned a card or dealt the stock. A move that cannot
    have led to the position is an ArgumentError of ``history`` naming it and its place."""
    seen, last = set(), None
    for number in range(len(tokens), 0, -1):
        token = tokens[number - 1]
        where = f"move {number} {clipped(token)}"
        try:
            before = world_before(world_of(view), token, where)
        except YukonError as error:
            raise ArgumentError("history", f": {error}") from None
        if before is None:
            break
        try:
            move = parse_token(token, before)
            if view_of(reference.apply_move(before, move, view.rules), view.rules) != view:
                raise IllegalMove("it does not lead to the position given")
        except (IllegalMove, YukonError) as error:
            raise ArgumentError("history", f": {where}: {error}") from None
        view = view_of(before, view.rules)
        seen.add(view)
        last = last or move
    return History(frozenset(seen), last)


def world_before(world: Board, token: str, where: str) -> Board | None:
    """``world`` with the move ``token`` taken back (its legality is checked by the caller);
    None when the move may have turned a card (its source column holds one face-up card
    now) or dealt the stock."""
    match = TOKEN.match(token)
    if not match:
        raise YukonError(f"{where}: unreadable move (expected like 3>7:TS, 3>F:AH, F>2:QC or S)")
    if token.upper() == "S":
        return None
    source_text, target_text, return_target, card_word, _size = match.groups()
    card = parse_card(card_word, f"in {where}")
    columns, heights = [list(cards) for cards in world.columns], list(world.foundations)
    if return_target:
        column = column_index(return_target, columns, where)
        take_top(columns[column], (card,), where)
        heights[foundation_slot(heights, card, card_rank(card) - 1, where)] += 1
    else:
        source = column_index(source_text, columns, where)
        if len(columns[source]) - world.face_down_counts[source] == 1:
            return None
        if target_text.upper() == "F":
            heights[foundation_slot(heights, card, card_rank(card), where)] -= 1
            columns[source].append(card)
        else:
            target = column_index(target_text, columns, where)
            leads = [index for index, found in enumerate(columns[target]) if found == card]
            if not leads or leads[-1] < world.face_down_counts[target]:
                raise YukonError(f"{where}: {card_text(card)} does not lie face up in column {target + 1}")
            columns[source] += take_top(columns[target], columns[target][leads[-1] :], where)
    return Board(tuple(map(tuple, columns)), world.face_down_counts, tuple(heights), world.stock)


def column_index(text: str, columns: list, where: str) -> int:
    if not 1 <= int(text) <= len(columns):
        raise YukonError(f"{where}: there is no column {text}")
    return int(text) - 1


def take_top(cards: list[int], top, where: str) -> list[int]:
    """Take the cards ``top`` off the end of ``cards`` (YukonError unless they lie there)."""
    top = list(top)
    if cards[len(cards) - len(top) :] != top:
        raise YukonError(f"{where}: {card_text(top[0])} is not on top of its column")
    del cards[len(cards) - len(top) :]
    return top


def foundation_slot(heights: list[int], card: int, height: int, where: str) -> int:
    """A foundation slot of the card's suit at ``height``."""
    for slot in range(card_suit(card), len(heights), 4):
        if heights[slot] == height:
            return slot
    raise YukonError(f"{where}: no foundation fits {card_text(card)}")
