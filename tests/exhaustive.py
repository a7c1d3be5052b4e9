"""A plain exhaustive search over reference Boards: the verdict the engine must agree with.

Nothing clever: depth-first over ``reference.legal_moves`` and ``reference.apply_move``
with a set of visited positions (foundation moves are tried first, which only changes how
soon a win is found, never the verdict). The one identification made is the obvious one: with the
stock empty no rule refers to a column's number, so positions that differ only in column
order are visited once (``symmetric=False`` turns even that off). With a stock the column
order decides where dealt cards land, so such positions are kept apart.
"""

from solver.game.board import Board
from solver.game.reference import TO_FOUNDATION, Move, apply_move, is_won, legal_moves
from solver.game.rules import Rules

SOLVED, UNSOLVABLE = "solved", "unsolvable"


class TooBig(Exception):
    """The position has more than ``max_states`` reachable positions."""


def visit_key(board: Board, symmetric: bool = True):
    if symmetric and not board.stock:
        return tuple(sorted(zip(board.columns, board.face_down_counts))), board.foundations
    return board


def ordered_moves(board: Board, rules: Rules) -> list[Move]:
    moves = legal_moves(board, rules)
    return [move for move in moves if move.kind == TO_FOUNDATION] + [
        move for move in moves if move.kind != TO_FOUNDATION
    ]


def exhaustive_search(
    board: Board, rules: Rules, max_states: int = 200_000, symmetric: bool = True
) -> tuple[str, list[Move] | None, int]:
    """(verdict, a winning line or None, positions visited). Raises TooBig past
    ``max_states`` positions."""
    if is_won(board):
        return SOLVED, [], 1
    seen = {visit_key(board, symmetric)}
    # Each frame: the board and the iterator over its moves; ``line`` holds the moves made.
    stack = [(board, iter(ordered_moves(board, rules)))]
    line: list[Move] = []
    while stack:
        current, moves = stack[-1]
        move = next(moves, None)
        if move is None:
            stack.pop()
            if line:
                line.pop()
            continue
        after = apply_move(current, move, rules)
        key = visit_key(after, symmetric)
        if key in seen:
            continue
        seen.add(key)
        if len(seen) > max_states:
            raise TooBig(f"more than {max_states} positions")
        line.append(move)
        if is_won(after):
            return SOLVED, line, len(seen)
        stack.append((after, iter(ordered_moves(after, rules))))
    return UNSOLVABLE, None, len(seen)


def exhaustive_verdict(board: Board, rules: Rules, max_states: int = 200_000, symmetric: bool = True) -> str:
    return exhaustive_search(board, rules, max_states, symmetric)[0]


def shortest_win_length(board: Board, rules: Rules, max_states: int = 20_000) -> int | None:
    """The fewest moves to a win (breadth-first), None if there is none; TooBig past
    ``max_states`` positions."""
    from collections import deque

    seen = {visit_key(board)}
    frontier = deque([(board, 0)])
    while frontier:
        position, distance = frontier.popleft()
        if is_won(position):
            return distance
        for move in legal_moves(position, rules):
            after = apply_move(position, move, rules)
            key = visit_key(after)
            if key not in seen:
                if len(seen) >= max_states:
                    raise TooBig
                seen.add(key)
                frontier.append((after, distance + 1))
    return None
