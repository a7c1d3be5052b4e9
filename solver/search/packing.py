"""Between the reference world and the engine: a Board packed into the engine's arrays
(``pack``), those arrays read back as a Board (``unpack``), and an engine move int read as
a reference ``Move`` (``decode``). The array layouts are defined in ``engine.layout``."""

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver.engine import layout, moves
from solver.engine.move_kinds import STOCK_DEAL
from solver.game.board import Board
from solver.game.reference import Move
from solver.game.rules import Rules


@dataclass
class Packed:
    """A position as the engine holds it."""

    state: np.ndarray
    params: np.ndarray
    zobrist: np.ndarray
    column_keys: np.ndarray


@lru_cache(maxsize=8)
def zobrist_for(params_bytes: bytes) -> np.ndarray:
    return layout.make_zobrist(np.frombuffer(params_bytes, dtype=np.int64))


def pack(board: Board, rules: Rules) -> Packed:
    params = layout.make_params(
        rules.column_count,
        rules.foundation_count,
        len(board.stock),
        int(rules.same_suit_building),
        int(rules.foundation_return),
        rules.card_count,
    )
    state = np.zeros(layout.state_size(params), dtype=np.int8)
    capacity = int(params[layout.CAPACITY])
    for column, cards in enumerate(board.columns):
        state[column * capacity : column * capacity + len(cards)] = cards
        state[params[layout.LENGTHS] + column] = len(cards)
        state[params[layout.FACE_DOWN] + column] = board.face_down_counts[column]
    foundations = params[layout.FOUNDATIONS]
    state[foundations : foundations + len(board.foundations)] = board.foundations
    stock = params[layout.STOCK]
    state[stock : stock + len(board.stock)] = board.stock
    zobrist = zobrist_for(params.tobytes())
    column_keys = np.zeros((2, rules.column_count), dtype=np.uint64)
    layout.init_column_keys(state, params, zobrist, column_keys)
    return Packed(state, params, zobrist, column_keys)


def decode(move: int) -> Move:
    """An engine move as a reference-engine Move (the kinds are the same ints)."""
    kind, size = moves.move_kind(move), moves.move_size(move)
    if kind == STOCK_DEAL:
        return Move(STOCK_DEAL, -1, -1, -1, size)
    return Move(kind, moves.move_source(move), moves.move_target(move), moves.move_card(move), size)


def copy_packed(packed: Packed) -> Packed:
    return Packed(packed.state.copy(), packed.params, packed.zobrist, packed.column_keys.copy())


def unpack(packed: Packed) -> Board:
    """The Board an engine position holds: the inverse of ``pack``."""
    state, params = packed.state, packed.params
    capacity = int(params[layout.CAPACITY])
    columns, face_down_counts = [], []
    for column in range(int(params[layout.COLUMNS])):
        length = int(state[params[layout.LENGTHS] + column])
        columns.append(tuple(int(card) for card in state[column * capacity : column * capacity + length]))
        face_down_counts.append(int(state[params[layout.FACE_DOWN] + column]))
    stock_at = int(params[layout.STOCK])
    stock = state[
        stock_at + int(state[params[layout.STOCK_NEXT]]) : stock_at + int(params[layout.STOCK_SIZE])
    ]
    return Board(
        tuple(columns),
        tuple(face_down_counts),
        raw_foundations(packed),
        tuple(int(card) for card in stock),
    )


def raw_foundations(packed: Packed) -> tuple[int, ...]:
    """Foundation heights in the engine's slot order (not canonicalised)."""
    at = int(packed.params[layout.FOUNDATIONS])
    return tuple(
        int(height) for height in packed.state[at : at + int(packed.params[layout.FOUNDATION_COUNT])]
    )
