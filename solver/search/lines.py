"""A found line made ready to report: shortened (``engine.shortcut``) and replayed as a win on the
reference engine."""

import numpy as np

from solver.engine import shortcut
from solver.game import reference
from solver.game.board import Board
from solver.game.notation import replayed_line
from solver.game.reference import Move
from solver.game.rules import Rules
from solver.search.packing import decode, pack


def shorten(board: Board, rules: Rules, path: np.ndarray) -> list[Move]:
    """The engine's line with shortcuts taken (see ``engine.shortcut``), as Moves."""
    root = pack(board, rules)
    shortened = np.empty_like(path)
    keys = np.empty((len(path) + 1, 2), dtype=np.uint64)
    shortcut.line_keys(root.state, root.params, root.zobrist, root.column_keys, path, keys)
    order = np.argsort(keys[:, 0])
    kept = shortcut.shortcut_line(
        root.state, root.params, root.zobrist, root.column_keys, path, keys, order, shortened
    )
    return [decode(int(move)) for move in shortened[:kept]]


class ReplayMismatch(RuntimeError):
    """The engine produced a line the reference engine does not accept as a win: a bug."""


def verified_solution(board: Board, line: list[Move], rules: Rules) -> str:
    """The line's tokens, after replaying the tokens themselves on the reference engine
    (``notation.replayed_line``: each token read back to the move it names, and made)."""
    try:
        text, final = replayed_line(board, line, rules)
    except reference.IllegalMove as error:
        raise ReplayMismatch(f"engine line rejected by the reference engine: {error}") from None
    if not reference.is_won(final):
        raise ReplayMismatch("engine line does not end in a win on the reference engine")
    return text
