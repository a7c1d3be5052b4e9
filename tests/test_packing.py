"""solver/search/packing.py: a Board packed into the engine's arrays and read back, and engine moves
read as reference Moves."""

from engine_helpers import walk
from strategies import RULE_SETS

from solver.engine import moves
from solver.engine.move_kinds import FROM_FOUNDATION, STOCK_DEAL, TABLEAU, TO_FOUNDATION
from solver.game.cards import parse_card
from solver.game.reference import Move
from solver.search.packing import decode, pack, unpack


def test_pack_unpack_round_trip():
    for rules in RULE_SETS:
        for board in walk(rules, 7, 7, 60):
            assert unpack(pack(board, rules)) == board


def test_decode_keeps_the_kind_of_every_move():
    """The engine and the reference Move share one set of kinds (``engine.move_kinds``)."""
    made = {
        TABLEAU: Move(TABLEAU, 1, 2, parse_card("7H"), 3),
        TO_FOUNDATION: Move(TO_FOUNDATION, 4, 5, parse_card("AS")),
        FROM_FOUNDATION: Move(FROM_FOUNDATION, 6, 0, parse_card("QD")),
        STOCK_DEAL: Move(STOCK_DEAL, -1, -1, -1, 8),
    }
    assert sorted(made) == [0, 1, 2, 3]  # they fit the move int's two kind bits
    for kind, move in made.items():
        source, target, card = (0, 0, 0) if kind == STOCK_DEAL else (move.source, move.target, move.card)
        assert decode(moves.encode(kind, source, target, move.size, card)) == move
